"""A live table: seats, hands one after another, the turn clock, 托管, escapes, money.

Everything here runs on the server's event loop, one table at a time, so no locks are
needed. The table holds ``(state, version)``; a client's action must name the current
version, or it is stale. A seat only ever receives its own view (:func:`observe`), the events
it may see, and, at the end, the settlement.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.base import Bot, make_bot
from paiju.bots.driver import bot_rng
from paiju.games import Deal, Game, game, replay
from paiju.server.errors import HandConflict, ServerError
from paiju.server.money import HOUSE, escape_penalty, settle_hand, stake_for, table_fees
from paiju.server.rooms import Room
from paiju.server.store import Store

__all__ = ["Connection", "SeatInfo", "Table", "Timing"]

BOT_NAMES = ("春風", "夏雨", "秋月", "冬雪")

log = logging.getLogger("paiju.table")


class Connection:
    """One client's outgoing messages: the table puts, the socket's writer takes."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the client."""
        self.queue.put_nowait(message)

    async def next(self) -> dict[str, Any]:
        """The next message to write to the socket."""
        return await self.queue.get()


@dataclass
class Timing:
    """The clocks of a table (seconds)."""

    turn: float = 15.0
    bot_wait: float = 10.0
    disconnect: float = 180.0
    bot_delay: float = 0.3
    next_hand: float = 3.0


@dataclass
class SeatInfo:
    """Who sits in a seat."""

    name: str
    account_id: int | None = None
    bot: str | None = None
    connection: Connection | None = None
    ready: bool = False
    tuoguan: bool = False
    timeouts: int = 0
    disconnect_timer: asyncio.TimerHandle | None = None

    @property
    def human(self) -> bool:
        """True for a person (an account), False for a bot."""
        return self.account_id is not None

    def to_json(self) -> dict[str, Any]:
        """The seat as the others see it."""
        return {
            "name": self.name,
            "bot": not self.human,
            "ready": self.ready,
            "tuoguan": self.tuoguan,
            "connected": self.connection is not None or not self.human,
        }


@dataclass
class _Hand:
    hand_id: int
    seed: int
    stake: int
    state: Any
    balances_at_start: dict[int, int]
    bots: dict[int, Bot] = field(default_factory=dict)
    rngs: dict[int, random.Random] = field(default_factory=dict)


class Table:
    """One table of a room."""

    def __init__(
        self,
        table_id: int,
        room: Room,
        store: Store,
        timing: Timing,
        on_empty: Callable[[Table], None] | None = None,
        rng: random.Random | None = None,
        on_lost: Callable[[Table], None] | None = None,
    ) -> None:
        self.id = table_id
        self.room = room
        self.store = store
        self.timing = timing
        self.rules: Game[Any, Any, Any, Any] = game(room.game)
        self.ruleset = self.rules.default_ruleset()
        self.seats: list[SeatInfo | None] = [None, None, None, None]
        self.hand: _Hand | None = None
        self.hands_played = 0
        self.banker: int | None = None  # Ma Diao: the bank passes round the table
        self._timer: asyncio.TimerHandle | None = None
        self._fill_timer: asyncio.TimerHandle | None = None
        self._next_timer: asyncio.TimerHandle | None = None
        self._deadline: float | None = None
        self._window_start: int | None = None
        self._last: tuple[int, str] | None = None
        self.listener: Callable[[Table], None] | None = None
        self._rng = rng or random.Random()
        self.on_empty = on_empty
        self.on_lost = on_lost
        self.stopped = False
        self.alone = False  # a player's own table with bots: nobody else is seated there

    # --- the table's clocks ------------------------------------------------------------

    def _later(self, delay: float, fn: Callable[..., None], *args: Any) -> asyncio.TimerHandle:
        """Run ``fn(*args)`` after ``delay`` seconds, unless the table has stopped by then."""
        return asyncio.get_running_loop().call_later(delay, self._run_timer, fn, args)

    def _run_timer(self, fn: Callable[..., None], args: tuple[Any, ...]) -> None:
        if self.stopped:
            return
        try:
            fn(*args)
        except HandConflict:
            self.lose()
        except Exception:  # a timer must not take the table down silently
            log.exception("table %s: %s failed", self.id, getattr(fn, "__name__", fn))

    def _fenced(self, write: Callable[..., None], *args: Any) -> None:
        """A write to a live hand; if another process has written it on, let the table go
        and raise :class:`~paiju.server.errors.HandConflict`."""
        try:
            write(*args)
        except HandConflict:
            self.lose()
            raise

    def stop(self) -> None:
        """Stop every clock of this table; it no longer acts (another process owns it, or
        the server is shutting down)."""
        self.stopped = True
        for handle in (self._timer, self._fill_timer, self._next_timer):
            if handle is not None:
                handle.cancel()
        self._timer = self._fill_timer = self._next_timer = None
        for info in self.seats:
            if info is not None and info.disconnect_timer is not None:
                info.disconnect_timer.cancel()
                info.disconnect_timer = None

    def lose(self) -> None:
        """Another process plays this table now: stop, and let the owner of the table know."""
        if self.stopped:
            return
        log.warning("table %s is played elsewhere now; letting it go", self.id)
        self.stop()
        if self.on_lost is not None:
            self.on_lost(self)

    # --- seating ---------------------------------------------------------------------

    @property
    def live(self) -> bool:
        """True while a hand is being played."""
        return self.hand is not None

    @property
    def open_seats(self) -> int:
        """Seats other players may join now: empty seats of a table waiting for players."""
        if self.alone or self.live or not any(s is not None and s.human for s in self.seats):
            return 0
        return sum(s is None for s in self.seats)

    def free_seat(self) -> int | None:
        """The first empty seat, or None."""
        return next((i for i, s in enumerate(self.seats) if s is None), None)

    def seat_of(self, account_id: int) -> int | None:
        """The seat of an account at this table, or None."""
        return next(
            (i for i, s in enumerate(self.seats) if s is not None and s.account_id == account_id),
            None,
        )

    def sit(self, account_id: int, name: str, conn: Connection) -> int:
        """Seat a player in the first free seat."""
        i = self.free_seat()
        if i is None:
            raise ServerError("table_full", "the table is full", 409)
        self.seats[i] = SeatInfo(name=name, account_id=account_id, connection=conn)
        self._broadcast_table()
        self._arm_fill()
        return i

    def reconnect(self, seat: int, conn: Connection) -> None:
        """A seated player is back: send the whole view again."""
        info = self.seats[seat]
        assert info is not None
        info.connection = conn
        if info.disconnect_timer is not None:
            info.disconnect_timer.cancel()
            info.disconnect_timer = None
        self._broadcast_table()
        self._send_view(seat, [])

    def disconnect(self, seat: int) -> None:
        """The player's socket closed; in a live hand, escape after the grace period."""
        info = self.seats[seat]
        if info is None:
            return
        info.connection = None
        if not self.live:
            self._remove(seat)
            return
        info.disconnect_timer = self._later(
            self.timing.disconnect, self._escape, seat, "disconnected"
        )
        self._broadcast_table()

    def leave(self, seat: int) -> None:
        """The player leaves: an escape when a hand is live."""
        if self.live:
            self._escape(seat, "left")
        else:
            self._remove(seat)

    def ready(self, seat: int) -> None:
        """The player confirms; the hand starts when every seat is filled and confirmed."""
        info = self.seats[seat]
        assert info is not None
        info.ready = True
        self._broadcast_table()
        self._maybe_start()

    def set_tuoguan(self, seat: int, on: bool) -> None:
        """Switch auto-play (托管) for a seat."""
        info = self.seats[seat]
        assert info is not None
        info.tuoguan = on
        if not on:
            info.timeouts = 0
        self._broadcast_table()
        if self.live:
            self._schedule()

    def _remove(self, seat: int) -> None:
        info = self.seats[seat]
        if info is not None and info.disconnect_timer is not None:
            info.disconnect_timer.cancel()
        self.seats[seat] = None
        self._broadcast_table()
        if not any(s is not None and s.human for s in self.seats):
            self.seats = [None, None, None, None]
            if self._fill_timer is not None:
                self._fill_timer.cancel()
            if self.on_empty is not None:
                self.on_empty(self)
        else:
            self._arm_fill()

    def _arm_fill(self) -> None:
        if not self.room.bots or self.free_seat() is None:
            return
        if self._fill_timer is not None:
            self._fill_timer.cancel()
        wait = 0.0 if self.alone else self.timing.bot_wait  # alone: the bots sit at once
        self._fill_timer = self._later(wait, self._fill_bots)

    def _fill_bots(self) -> None:
        self._fill_timer = None
        bot = self.rules.default_bot
        for i, s in enumerate(self.seats):
            if s is None:
                self.seats[i] = SeatInfo(name=BOT_NAMES[i], bot=bot, ready=True)
        self._broadcast_table()
        self._maybe_start()

    # --- hands -------------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.live or any(s is None for s in self.seats):
            return
        if not all(s.ready for s in self.seats if s is not None):
            return
        self._start_hand()

    def _start_hand(self) -> None:
        humans = {
            i: s.account_id
            for i, s in enumerate(self.seats)
            if s is not None and s.account_id is not None
        }
        if not humans:
            return
        balances = self.store.balances(list(humans.values()))
        stake = stake_for(list(balances.values()))
        seed = self._rng.getrandbits(63)
        setup: dict[str, Any] = (
            {} if self.banker is None else {"banker": self.rules.seats[self.banker].value}
        )
        state = self.rules.new_hand(self.ruleset, seed, setup)
        setup = self.rules.setup_of(state)
        if "banker" in setup:
            self.banker = "ESWN".index(setup["banker"])
        seats_json = {self.rules.seats[i].value: self._seat_record(i) for i in range(4)}
        fees = table_fees({a: balances[a] for a in humans.values()}, stake)
        hand_id = self.store.start_hand(
            self.id, self.room.game, seed, self.ruleset.to_json(), setup, seats_json, stake, fees
        )
        self.hand = _Hand(hand_id, seed, stake, state, balances)
        self._prepare_bots()
        self._notify()
        for i, s in enumerate(self.seats):
            if s is not None and s.connection is not None:
                s.connection.send(
                    {
                        "type": "hand_start",
                        "hand": hand_id,
                        "stake": stake,
                        "fee": stake,
                        "seat": self.rules.seats[i].value,
                        "room": self.room.name,
                        "game": self.room.game,
                    }
                )
        self._after_change([])

    def _seat_record(self, i: int) -> dict[str, Any]:
        s = self.seats[i]
        assert s is not None
        return {"account": s.account_id, "name": s.name, "bot": s.bot}

    def _prepare_bots(self) -> None:
        assert self.hand is not None
        auto = self.rules.default_bot
        for i, s in enumerate(self.seats):
            name = s.bot if s is not None and s.bot else auto
            self.hand.bots[i] = make_bot(self.room.game, name)
            self.hand.rngs[i] = bot_rng(self.hand.seed, self.rules.seats[i])

    def restore(
        self,
        hand_id: int,
        seed: int,
        stake: int,
        setup: dict[str, Any],
        seats: dict[str, Any],
        actions: list[str],
    ) -> None:
        """Rebuild a live hand after a restart: seats from the record (people disconnected,
        each with the grace period to come back), state by replaying the actions."""
        for i, seat in enumerate(self.rules.seats):
            rec = seats[seat.value]
            self.seats[i] = SeatInfo(
                name=rec["name"], account_id=rec.get("account"), bot=rec.get("bot"), ready=True
            )
        if "banker" in setup:
            self.banker = "ESWN".index(setup["banker"])
        state = replay(self.rules, self.ruleset, seed, setup, actions)
        humans = [s.account_id for s in self.seats if s is not None and s.account_id]
        self.hand = _Hand(hand_id, seed, stake, state, self.store.balances(humans))
        self._prepare_bots()
        if state.phase.value == "over":
            # stopped between the last action and the settlement: settle now (the ledger
            # event is keyed by hand, so a settlement already written is not counted twice)
            self._settle([])
            return
        for i, s in enumerate(self.seats):
            if s is not None and s.human:
                s.disconnect_timer = self._later(
                    self.timing.disconnect, self._escape, i, "disconnected"
                )
        self._schedule()

    def act(self, seat: int, text: object, version: object) -> None:
        """A player's action ``{action, version}``.

        Raises :class:`~paiju.server.errors.ServerError` (``no_hand``, ``stale_version``,
        ``bad_action``, ``not_your_turn``, ``illegal_action``) and changes nothing then.
        """
        if self.hand is None:
            raise ServerError("no_hand", "no hand is being played at this table")
        state = self.hand.state
        if not isinstance(version, int) or not (
            version == state.version or self._same_window(version)
        ):
            raise ServerError(
                "stale_version", f"the table is at version {state.version}, not {version!r}"
            )
        if not isinstance(text, str):
            raise ServerError("bad_action", "action must be a string like 'S peng'")
        try:
            action = self.rules.parse_action(text)
        except ValueError as err:
            raise ServerError("bad_action", str(err)) from None
        if action.seat is not self.rules.seats[seat]:
            raise ServerError("not_your_turn", f"you sit in seat {self.rules.seats[seat].value}")
        info = self.seats[seat]
        assert info is not None
        self._apply(action, human=True)
        info.timeouts = 0

    def _same_window(self, version: int) -> bool:
        """A claim window is one decision for every seat in it: another seat's answer moves
        the version on, but an answer given on the window's first version still counts."""
        return self._window_start is not None and self._window_start <= version

    def _apply(self, action: Any, human: bool = False) -> None:
        assert self.hand is not None
        from paiju.errors import RulesError

        try:
            state, events = self.rules.apply(self.hand.state, action)
        except RulesError as err:
            raise ServerError(err.code, str(err)) from None
        # the log first: a step another process has written fences this one off
        self._fenced(self.store.log_action, self.hand.hand_id, state.version, str(action))
        before = self.hand.state
        self.hand.state = state
        self._last = (action.seat.number - 1, str(action))
        window = ("claim", "rob")
        if state.phase.value in window:
            same = (
                before.phase.value in window
                and before.claim_from == state.claim_from
                and before.claim_tile == state.claim_tile
            )
            if not same:
                self._window_start = state.version
        else:
            self._window_start = None
        self._after_change(events)

    def _after_change(self, events: list[Any]) -> None:
        assert self.hand is not None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        state = self.hand.state
        if state.phase.value == "over":
            self._settle(events)
            return
        self._schedule()
        for i in range(4):
            self._send_view(i, events)

    def _schedule(self) -> None:
        """Arm the clock for the seats that must decide; bots and 托管 play at once."""
        assert self.hand is not None
        state = self.hand.state
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        movers = [s.number - 1 for s in self.rules.acting(state)]
        if not movers:
            return
        auto = [i for i in movers if self._auto(i)]
        if auto:
            self._timer = self._later(self.timing.bot_delay, self._bot_move, auto[0])
            self._deadline = None
            return
        self._deadline = time.time() + self.timing.turn
        self._timer = self._later(self.timing.turn, self._expire, state.version)

    def _auto(self, seat: int) -> bool:
        s = self.seats[seat]
        return s is None or not s.human or s.tuoguan

    def _bot_move(self, seat: int) -> None:
        self._timer = None
        if self.hand is None:
            return
        state = self.hand.state
        seat_obj = self.rules.seats[seat]
        legal = self.rules.legal_actions(state, seat_obj)
        if not legal:
            self._schedule()
            return
        view = self.rules.observe(state, seat_obj)
        action = self.hand.bots[seat].act(view, legal, self.hand.rngs[seat])
        self._apply(action)

    def _expire(self, version: int) -> None:
        """The clock ran out: discard for the player (a timeout), or pass on claims."""
        self._timer = None
        if self.hand is None or self.hand.state.version != version:
            return
        state = self.hand.state
        movers = [s.number - 1 for s in self.rules.acting(state)]
        if not movers:
            return
        seat = movers[0]
        seat_obj = self.rules.seats[seat]
        if self.rules.is_prompt(state, seat_obj):  # a claim prompt: pass, not counted
            self._apply(self.rules.timeout_action(state, seat_obj))
            return
        info = self.seats[seat]
        assert info is not None
        info.timeouts += 1
        if info.timeouts >= 4:  # the 4th consecutive timeout is an escape
            self._escape(seat, "timeouts")
            return
        self._apply(self.rules.timeout_action(state, seat_obj))

    # --- money -------------------------------------------------------------------------

    def _account(self, seat: int) -> int | str:
        s = self.seats[seat]
        return HOUSE if s is None or s.account_id is None else s.account_id

    def _settle(self, events: list[Any]) -> None:
        assert self.hand is not None
        hand = self.hand
        state = hand.state
        result = self.rules.result_json(state)
        stake = hand.stake
        payments: list[tuple[int | str, int | str, int]] = [
            (self._account(t.payer), self._account(t.payee), round(t.units * stake))
            for t in self.rules.transfers(state)
        ]
        payments = [(a, b, x) for a, b, x in payments if a != b and x > 0]
        humans = [s.account_id for s in self.seats if s is not None and s.account_id]
        balances: dict[int | str, int] = {k: v for k, v in self.store.balances(humans).items()}
        balances[HOUSE] = 10**15  # the bank pays for its bots
        moves = settle_hand(balances, payments)
        self._fenced(self.store.finish_hand, hand.hand_id, result, moves)
        after = self.store.balances(humans)
        for i, s in enumerate(self.seats):
            if s is None or s.connection is None:
                continue
            self._send_view(i, events)
            change = (
                after.get(s.account_id, 0) - hand.balances_at_start.get(s.account_id, 0)
                if s.account_id
                else 0
            )
            s.connection.send(
                {
                    "type": "settlement",
                    "hand": hand.hand_id,
                    "stake": stake,
                    "result": result,
                    "moves": _moves_json(moves, self.seats),
                    "balance": after.get(s.account_id or -1),
                    "balance_change": change,
                }
            )
        self._end_hand(state)

    def _escape(self, seat: int, why: str) -> None:
        info = self.seats[seat]
        if info is None or info.account_id is None or self.hand is None:
            if info is not None and not self.live:
                self._remove(seat)
            return
        hand = self.hand
        balance = self.store.balances([info.account_id]).get(info.account_id, 0)
        others = [self._account(i) for i in range(4) if i != seat]
        moves = escape_penalty(
            info.account_id, others, balance, hand.stake, self.room.escape_multiple
        )
        reason = {"aborted": "escape", "escaper": self.rules.seats[seat].value, "why": why}
        self._fenced(self.store.abort_hand, hand.hand_id, reason, moves)
        penalty = sum(a for _, _, a in moves)
        for s in self.seats:
            if s is not None and s.connection is not None:
                s.connection.send(
                    {
                        "type": "escape",
                        "hand": hand.hand_id,
                        "seat": self.rules.seats[seat].value,
                        "why": why,
                        "stake": hand.stake,
                        "penalty": penalty,
                        "moves": _moves_json(moves, self.seats),
                    }
                )
        if info.connection is not None:
            info.connection.send({"type": "unseated", "why": "escape"})
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.hand = None
        self._remove(seat)
        self._schedule_next()

    def _end_hand(self, final: Any) -> None:
        self.hand = None
        self._notify()
        self.hands_played += 1
        deal = self.rules.next_deal(Deal(0, (0, 1, 2, 3), {}), final)
        self.seats = [self.seats[deal.player_in(i)] for i in range(4)]
        if "banker" in deal.setup:
            self.banker = "ESWN".index(deal.setup["banker"])
        humans = {
            i: s.account_id
            for i, s in enumerate(self.seats)
            if s is not None and s.account_id is not None
        }
        balances = self.store.balances(list(humans.values()))
        for i, acc in humans.items():
            if balances.get(acc, 0) < self.room.min_balance:  # unseated after the hand
                info = self.seats[i]
                if info is not None and info.connection is not None:
                    info.connection.send({"type": "unseated", "why": "too_few_points"})
                self._remove(i)
        self._schedule_next()

    def _schedule_next(self) -> None:
        if not any(s is not None and s.human for s in self.seats):
            return
        if self._next_timer is not None:
            self._next_timer.cancel()
        self._next_timer = self._later(self.timing.next_hand, self._next_hand)

    def _next_hand(self) -> None:
        self._next_timer = None
        if self.live:
            return
        if self.free_seat() is not None:
            self._arm_fill()
            return
        self._maybe_start()

    # --- messages ----------------------------------------------------------------------

    def _send_view(self, seat: int, events: list[Any]) -> None:
        info = self.seats[seat]
        if info is None or info.connection is None or self.hand is None:
            return
        seat_obj = self.rules.seats[seat]
        view = self.rules.observe(self.hand.state, seat_obj).to_json()
        deadline = None
        if self._deadline is not None and seat_obj in self.rules.acting(self.hand.state):
            deadline = max(0.0, self._deadline - time.time())
        info.connection.send(
            {
                "type": "view",
                "table": self.id,
                "hand": self.hand.hand_id,
                "version": self.hand.state.version,
                "view": view,
                "events": [e.to_json(seat_obj) for e in events],
                "seconds_left": deadline,
                "stake": self.hand.stake,
                "your_action": self._last[1] if self._last and self._last[0] == seat else None,
            }
        )

    def _broadcast_table(self) -> None:
        info = self.table_json()
        for s in self.seats:
            if s is not None and s.connection is not None:
                s.connection.send({"type": "table", **info})
        self._notify()

    def _notify(self) -> None:
        if self.listener is not None:
            self.listener(self)

    def table_json(self) -> dict[str, Any]:
        """The table as the lobby shows it."""
        return {
            "table": self.id,
            "room": self.room.name,
            "game": self.room.game,
            "live": self.live,
            "seats": {
                self.rules.seats[i].value: None if s is None else s.to_json()
                for i, s in enumerate(self.seats)
            },
        }


def _moves_json(moves: Any, seats: list[SeatInfo | None]) -> list[dict[str, Any]]:
    names = {s.account_id: s.name for s in seats if s is not None and s.account_id}
    return [
        {
            "from": names.get(a, "house") if a != HOUSE else "house",
            "to": names.get(b, "house") if b != HOUSE else "house",
            "amount": x,
        }
        for a, b, x in moves
    ]
