"""A table as a pure machine: inputs in, decisions out (:mod:`paiju.server.table_io`).

The machine holds the seats, the hand being played (through the :class:`~paiju.games.Game`
protocol, never a game's internals), the players' balances, and the clocks as tokens. It
never waits and never touches a socket, a database or the wall clock: ``handle(input, now)``
returns what to do, and :mod:`paiju.server.table_runner` does it. So every rule of the
online table (Mazhan §10) is tested here on its own, fast, with any sequence of inputs.

**Durable before shown.** Every change a player could see (a step, a seat, money) is a
write; the frames it causes are held until every write queued before them is durable. A
crash can therefore only undo steps nobody has seen. When a write fails, or has waited
:attr:`Timing.stall` unanswered, the table pauses (players are told), its clocks stop and
new requests wait; when the storage is back, the table resumes by itself with fresh clocks.

**A person is charged only for a turn they were shown**: a turn's clock starts when the
frame offering it has reached the player (:class:`~paiju.server.table_io.Delivered`), so a
frame held for its write, or for a socket the table cannot reach, runs no clock.

**The claim pause** (Mazhan §5 end): after every discard each seat that cannot claim sees
the same thing for :attr:`Timing.claim_pause` (:meth:`TableMachine._after_change`).

**Hands and confirmations** (§10 as clarified): every hand, the first and each after a
settlement, waits for all four to confirm (bots at once); a person who has not confirmed
within the ready clock (which runs while four sit at the table) is unseated for free;
leaving before a hand is live is free; the settlement stays with the player (resent on
reconnecting) until they confirm or leave.

**Money**: the table fee when a hand starts, the settlement when it ends, the escape
penalty; computed here from the balances the machine keeps (a seat's balance is read once,
when it sits down) and written with the hand in one transaction each.

>>> from paiju.server.rooms import ROOMS
>>> m = TableMachine(1, ROOMS["mazhan"], Timing(), random.Random(1), alone=True)
>>> out = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> [type(o).__name__ for o in out]  # the seat's write, the stall clock set for it, the news
['Store', 'SetTimer', 'Changed']
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

import orjson

from paiju.bots.base import Bot, make_bot
from paiju.bots.driver import bot_rng
from paiju.errors import RulesError
from paiju.games import Deal, Game, game, replay
from paiju.server import table_io as io
from paiju.server.money import HOUSE, escape_penalty, settle_hand, stake_for, table_fees
from paiju.server.rooms import Room, bot_display_name, bot_for

__all__ = ["BOT_NAMES", "Player", "TableMachine", "Timing"]

log = logging.getLogger("paiju.table")

BOT_NAMES = ("春風", "夏雨", "秋月", "冬雪")
_SEATS = ("E", "S", "W", "N")
_HOUSE_FUNDS = 10**15  # the house is the bank: it pays for its bots
_PAUSED = {"type": "paused", "why": "storage"}


@dataclass(frozen=True, slots=True)
class Timing:
    """The table's clocks, in seconds."""

    turn: float = 15.0
    ready: float = 20.0
    bot_wait: float = 10.0
    bot_delay: float = 1.0
    disconnect: float = 180.0
    #: after every discard, the pause each seat that cannot claim sees (Mazhan §5 end)
    claim_pause: float = 1.0
    #: a write not durable after this long pauses the table (storage that stalls is down)
    stall: float = 2.0


@dataclass(slots=True)
class Player:
    """Who sits in a seat: a person (``account``) or a bot (``bot``, its ``level``)."""

    name: str
    account: int | None = None
    level: str | None = None
    bot: str | None = None
    connected: bool = False
    reached: bool = True  # False: their socket's process cannot be reached (not their doing)
    confirmed: bool = False
    claiming: bool = False  # the seat is not durable yet
    tuoguan: bool = False
    timeouts: int = 0
    balance: int = 0
    # time away from the live hand: one allowance of PAIJU_DISCONNECT_SECONDS per hand, so
    # dropping out before each turn and back after it cannot stall the table for ever
    away: float = 0.0
    left_at: float | None = None

    @property
    def human(self) -> bool:
        """True for a person."""
        return self.account is not None


@dataclass(slots=True)
class _Turn:
    """A seat's turn to decide (a discard, a claim prompt): its clock starts when the frame
    offering it is shown to its player (:class:`~paiju.server.table_io.Delivered`), or at
    once for a bot, 托管 or a player away; ``counted``: its expiry counts a timeout (its
    clock started on a frame the player was shown)."""

    key: tuple[int, bool, bool]  # (the seat's version, a prompt, played for)
    token: int
    deadline: float | None = None
    counted: bool = False
    deciding: bool = False  # a bot's decision for it is on its way


@dataclass(slots=True)
class _Hand:
    no: int
    seed: int
    stake: int
    state: Any
    bots: list[Bot]
    rngs: list[random.Random]
    start_balances: dict[int, int]
    fee_moves: list[tuple[int | str, int | str, int]]
    id: int | None = None
    seq: int = 0
    last: tuple[int, str] | None = None
    turns: dict[int, _Turn] = field(default_factory=dict)
    dealt: list[Any] = field(default_factory=list)  # the deal's events, sent with the first view
    # each person's seat: every event of the hand so far as that seat may see it, a JSON
    # array's items (bytes: nothing for the collector to walk); a seat that (re)connects gets
    # them, so its move log is whole after a reload
    logs: dict[int, bytearray] = field(default_factory=dict)
    # the last hint given: at which (seat, version), and the action (asked again, it is not
    # worked out again)
    hint_at: tuple[int, int] | None = None
    hint_action: str = ""
    # the claim pause (Mazhan §5 end): after a discard, what the seats that cannot claim are
    # shown (the discard done, a window open to nobody) until the pause is over; the events
    # since, each person's seat's, held for them until then
    settling: Any = None
    pausing: bool = False
    held: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    leaving: list[int] = field(default_factory=list)  # escapes asked as the hand ended


class TableMachine:
    """One table of a room."""

    def __init__(
        self,
        table_id: int,
        room: Room,
        timing: Timing,
        rng: random.Random,
        *,
        alone: bool = False,
        level: str | None = None,
        code: str | None = None,
    ) -> None:
        self.id = table_id
        self.room = room
        #: a private table's code: friends join by it, nobody else is seated here, and bots
        #: sit only when a player here asks (:class:`~paiju.server.table_io.Fill`)
        self.code = code
        self.game: Game[Any, Any, Any, Any] = game(room.game)
        self._helper: Bot | None = None  # the bot of 托管 and hints (:meth:`_helper_bot`)
        self.ruleset = self.game.default_ruleset()
        self.timing = timing
        self.alone = alone
        self.level = level or room.level
        self.seats: list[Player | None] = [None, None, None, None]
        self.hand: _Hand | None = None
        self.phase = "idle"  # idle | starting | live
        self.hands_started = 0
        self.setup: dict[str, Any] = {}  # what the next hand needs (Ma Diao: the banker)
        self.lost = False
        self._rng = rng  # each hand's seed
        self._think = random.Random(rng.getrandbits(64))  # the bots' think times
        self._now = 0.0
        self._out: list[io.Output] = []
        self._idle: list[io.Output] = self._out  # ``_out`` between two inputs
        self._op = 0
        self._durable = 0
        self._pending: dict[int, io.Write] = {}
        self._issued: dict[int, float] = {}  # when each pending write was asked for (in order)
        self._held: list[tuple[int, io.Send]] = []
        self._paused = False
        self._deferred: list[io.Input] = []
        self._tokens: dict[str, int] = {}
        self._token = 0
        self._ready_deadline: dict[int, float] = {}
        self._shown: dict[int, bytes] = {}  # the JSON of the last view each seat was sent
        #: the seats' public blocks of the views, serialised once each (a block is the same
        #: object in every view of a state, and in later states while that seat's part of
        #: the table is unchanged): seat → the block, and seat → its JSON (two dicts kept
        #: for the table's life, not a pair made per change: see :meth:`_view_json`)
        self._blocks: dict[str, Any] = {}
        self._block_json: dict[str, orjson.Fragment] = {}
        #: each seat's bot, kept from hand to hand (a bot is remade only when the seat's bot
        #: changes): the garbage collector walks what is new, and these would be new every
        #: hand. The bots' chance is new each hand (:func:`bot_rng`): a decision of the last
        #: hand still running in a worker thread may draw from the old one.
        self._bots: list[Bot | None] = [None, None, None, None]
        self._bot_names: list[str | None] = [None, None, None, None]
        self._keep: dict[int, list[dict[str, Any]]] = {}  # resent on reconnect until ready
        #: at a table for friends: the bot each claiming person's seat was taken from
        self._displaced: dict[int, tuple[int, Player | None]] = {}

    # --- the machine's one entry ---------------------------------------------------------

    def handle(self, event: io.Input, now: float) -> list[io.Output]:
        """Everything the table does in answer to ``event`` at time ``now`` (seconds).

        >>> from paiju.server.rooms import ROOMS
        >>> m = TableMachine(1, ROOMS["mazhan"], Timing(), random.Random(1))
        >>> m.handle(io.Ready(99), 0.0)[0].frame["code"]
        'not_seated'
        """
        self._now = now
        if self.lost:
            return []
        out = self._out = []
        self._dispatch(event)
        self._release()
        self._out = self._idle  # the frames of this answer are not kept once it is taken
        return out

    def _dispatch(self, event: io.Input) -> None:
        waits = isinstance(
            event,
            io.Join | io.Ready | io.Act | io.Tuoguan | io.Leave | io.Fill | io.Hint | io.BotMove,
        )
        if waits and (self._paused or self.phase == "starting"):
            self._deferred.append(event)
            return
        if isinstance(event, io.Stored):
            self._stored(event)
        elif isinstance(event, io.Trouble):
            self._trouble(event)
        elif isinstance(event, io.Failed):
            self._failed(event)
        elif isinstance(event, io.TimerFired):
            self._timer(event)
        elif isinstance(event, io.Delivered):
            self._delivered(event)
        elif isinstance(event, io.BotMove):
            self._bot_move(event)
        elif isinstance(event, io.Join):
            self._join(event)
        elif isinstance(event, io.Connect):
            self._connect(event.account)
        elif isinstance(event, io.Disconnect):
            self._disconnect(event.account)
        elif isinstance(event, io.Unreached):
            self._unreached(event.account)
        else:
            seat = self.seat_of(event.account)
            if seat is None:
                self._error(event.account, "not_seated", "you do not sit at this table")
            elif isinstance(event, io.Ready):
                self._ready(seat)
            elif isinstance(event, io.Act):
                self._act(seat, event)
            elif isinstance(event, io.Tuoguan):
                self._tuoguan(seat, event.on)
            elif isinstance(event, io.Fill):
                self._fill_asked(event.account)
            elif isinstance(event, io.Hint):
                self._hint(seat, event.version)
            else:
                self._leave(seat, event.escape)

    # --- queries -------------------------------------------------------------------------

    def seat_of(self, account: int) -> int | None:
        """The seat (0–3) of an account at this table, or None."""
        for i, p in enumerate(self.seats):
            if p is not None and p.account == account:
                return i
        return None

    @property
    def accounts(self) -> list[int]:
        """The people seated here (their seats durable or not)."""
        return [p.account for p in self.seats if p is not None and p.account is not None]

    @property
    def live(self) -> bool:
        """True while a hand is being played (or starting)."""
        return self.phase != "idle"

    @property
    def open_seats(self) -> int:
        """Seats other people may be sent to now (a table waiting for players; never a
        private table's: only its code seats a player there)."""
        if self.alone or self.code is not None or self.live or not self.accounts:
            return 0
        return sum(p is None for p in self.seats)

    @property
    def friend_seats(self) -> int:
        """Seats a friend with this private table's code may take now: the empty ones and
        the bots' (a bot gives its seat up to a friend between hands); 0 while a hand is
        live, or when the table is not private."""
        if self.code is None or self.live or not self.accounts:
            return 0
        return sum(p is None or p.account is None for p in self.seats)

    @property
    def idle_and_empty(self) -> bool:
        """Nobody sits here and nothing is left to write."""
        return not self.accounts and not self._pending

    # --- storage answers -----------------------------------------------------------------

    def _write(self, write: io.Write) -> int:
        self._op += 1
        self._pending[self._op] = write
        self._issued[self._op] = self._now
        self._out.append(io.Store(self._op, write))
        if "stall" not in self._tokens and not self._paused:
            self._set("stall", self.timing.stall)
        return self._op

    def _stall_check(self) -> None:
        """The stall clock: a write not durable within :attr:`Timing.stall` pauses the table
        as a failed one does (storage that stalls is storage that is down); otherwise the
        clock is set again for the oldest write still waiting."""
        oldest = next(iter(self._issued.values()), None)
        if oldest is None or self._paused:
            return
        waited = self._now - oldest
        if waited >= self.timing.stall - 1e-9:
            log.warning("table %s: a write has waited %.1f s; pausing", self.id, waited)
            self._pause()
        else:
            self._set("stall", self.timing.stall - waited)

    def _stored(self, event: io.Stored) -> None:
        write = self._pending.pop(event.op, None)
        if write is None:
            return
        del self._issued[event.op]
        self._durable = max(self._durable, event.op)
        if isinstance(write, io.ClaimSeat):
            self._seat_durable(write.account, event.result)
        elif isinstance(write, io.StartHand):
            self._hand_durable(int(event.result))
        if self._paused and not self._pending:
            self._resume()
        self._maybe_empty()

    def _trouble(self, event: io.Trouble) -> None:
        if event.op in self._pending and not self._paused:
            log.warning("table %s: storage trouble (%s); pausing", self.id, event.error)
            self._pause()

    def _pause(self) -> None:
        """The storage is down (a write failed, or has waited too long): every clock stops
        and new requests wait until every write is durable (:meth:`_resume`)."""
        self._paused = True
        self._cancel("turn")
        self._cancel("bot")
        self._cancel("fill")
        self._cancel("stall")
        self._cancel("settle")
        for acc in self.accounts:
            self._cancel(f"ready:{acc}")
            self._cancel(f"away:{acc}")  # the time away stops counting too (:meth:`_resume`)
            p = self._player(acc)
            if p.left_at is not None and self.live:
                p.away += self._now - p.left_at
                p.left_at = None
            self._send(acc, _PAUSED, hold=False)

    def _failed(self, event: io.Failed) -> None:
        write = self._pending.pop(event.op, None)
        if write is None:
            return
        del self._issued[event.op]
        self._durable = max(self._durable, event.op)
        if event.code == "seat_taken" and isinstance(write, io.ClaimSeat):
            seat = self.seat_of(write.account)
            if seat is not None:
                self._vacate(write.account, seat)
                self._seat_clocks()  # a seat is empty again: the clocks stand, bots may come
                self._broadcast_table()
                self._arm_fill()
            self._error(write.account, "already_seated", "you sit at another table already")
            self._changed()
            self._maybe_empty()
            return
        log.warning("table %s: %s on %s; letting the table go", self.id, event.code, write)
        self.lost = True
        self._held.clear()
        self._out.append(io.Lost())

    def _resume(self) -> None:
        self._paused = False
        for acc in self.accounts:
            self._send(acc, {"type": "resumed"}, hold=False)
            p = self._player(acc)
            if not self.live and not p.confirmed and not p.claiming:
                self._arm_ready(acc)
            if not p.connected and not p.claiming:  # away: their clock goes on from here
                if self.live:
                    p.left_at = self._now
                    self._set(f"away:{acc}", max(0.0, self.timing.disconnect - p.away))
                else:
                    self._set(f"away:{acc}", self.timing.ready)
        hand = self.hand
        if hand is not None and hand.id is not None:
            # fresh clocks after a pause, each from the view that shows it again; a claim
            # pause the storage's outlasted is over
            hand.turns.clear()
            if hand.pausing:
                hand.pausing = False
                hand.last = None
            shown = self._release_held(hand)
            if self.game.is_over(hand.state):  # its end was waiting for the claim pause
                self._settle(shown)
            else:
                self._schedule()
                for i in range(4):
                    self._send_view(i, shown.get(i, []), force=True)
        self._arm_fill()
        deferred = self._deferred[:]
        self._deferred.clear()
        for event in deferred:
            self._dispatch(event)

    def _release(self) -> None:
        """Send the held frames whose writes are all durable."""
        if not self._held:
            return
        keep: list[tuple[int, io.Send]] = []
        for op, send in self._held:
            if op <= self._durable and not any(p <= op for p in self._pending):
                self._out.append(send)
            else:
                keep.append((op, send))
        self._held[:] = keep  # the same list: a new one would be new to the collector

    def _send(self, account: int, frame: dict[str, Any], hold: bool = True, ack: int = 0) -> None:
        after = self._op if hold else 0
        # behind the held frames too: sent now, it would overtake older ones still held
        if hold and (self._pending or self._held):
            self._held.append((after, io.Send(account, frame, after, ack)))
        else:
            self._out.append(io.Send(account, frame, after, ack))

    def _error(self, account: int, code: str, message: str) -> None:
        self._send(account, {"type": "error", "code": code, "message": message}, hold=False)

    # --- timers --------------------------------------------------------------------------

    def _set(self, key: str, delay: float) -> None:
        self._token += 1
        self._tokens[key] = self._token
        self._out.append(io.SetTimer(key, max(0.0, delay), self._token))

    def _cancel(self, key: str) -> None:
        if self._tokens.pop(key, None) is not None:
            self._out.append(io.CancelTimer(key))

    def _timer(self, event: io.TimerFired) -> None:
        if self._tokens.get(event.key) != event.token:
            return  # cancelled or replaced
        del self._tokens[event.key]
        if self._paused:
            return
        if event.key == "stall":
            self._stall_check()
        elif event.key == "turn":
            self._expire()
        elif event.key == "bot":
            self._decide()
        elif event.key == "settle":
            self._settled()
        elif event.key == "fill":
            self._fill_bots()
        elif event.key.startswith("ready:"):
            acc = int(event.key[6:])
            seat = self.seat_of(acc)
            p = None if seat is None else self.seats[seat]
            if p is not None and not p.confirmed and not self.live:
                self._unseat(acc, "not_ready")
        elif event.key.startswith("away:"):
            acc = int(event.key[5:])
            seat = self.seat_of(acc)
            if seat is not None:
                if self._ending():
                    pass  # the hand is over: between hands they have the ready clock
                elif self.live:
                    self._escape(seat, "disconnected")
                else:
                    self._unseat(acc, "not_ready")

    # --- seating -------------------------------------------------------------------------

    def _join(self, event: io.Join) -> None:
        if self.seat_of(event.account) is not None:
            self._connect(event.account)
            return
        if self.code is not None and self.live:
            self._error(
                event.account, "table_playing", "a hand is being played there: join when it ends"
            )
            return
        free = next((i for i, p in enumerate(self.seats) if p is None), None)
        if free is None and self.code is not None:
            # at a table for friends a bot keeps a seat only until a friend comes for it
            free = next(
                (i for i, p in enumerate(self.seats) if p is not None and p.account is None),
                None,
            )
            if free is not None:
                self._displaced[event.account] = (free, self.seats[free])
        if free is None:
            self._error(event.account, "table_full", "the table is full")
            return
        if event.balance < self.room.min_balance:
            self._error(
                event.account,
                "too_few_points",
                f"this room needs {self.room.min_balance} points; you have {event.balance}",
            )
            return
        self.seats[free] = Player(
            event.name, account=event.account, connected=True, claiming=True,
            balance=event.balance,
        )  # fmt: skip
        self._write(io.ClaimSeat(event.account, self.id))
        self._changed()

    def _seat_durable(self, account: int, balance: object) -> None:
        seat = self.seat_of(account)
        if seat is None:
            return
        p = self.seats[seat]
        assert p is not None
        p.claiming = False
        if isinstance(balance, int) and not isinstance(balance, bool):
            # the balance as the seat was taken: a hand elsewhere may have moved it since the
            # join read it (an escape there, its penalty written before its seat was freed)
            p.balance = balance
            if balance < self.room.min_balance:
                self._unseat(account, "too_few_points")
                return
        self._displaced.pop(account, None)
        self._send(account, self._seated(seat))
        self._arm_ready(account)
        self._seat_clocks()
        self._broadcast_table()
        self._arm_fill()

    def _connect(self, account: int) -> None:
        seat = self.seat_of(account)
        if seat is None:
            self._error(account, "not_seated", "you do not sit at this table")
            return
        p = self.seats[seat]
        assert p is not None
        p.connected = True
        p.reached = True
        self._cancel(f"away:{account}")
        if p.left_at is not None:
            if self.live:
                p.away += self._now - p.left_at
            p.left_at = None
        if p.claiming:
            return  # `seated` follows when the seat is durable
        self._send(account, self._seated(seat))
        if self._paused:
            self._send(account, _PAUSED, hold=False)
        self._broadcast_table()
        hand = self.hand
        if hand is not None and hand.id is not None:
            self._send(account, self._hand_start(seat))
            self._shown.pop(seat, None)
            self._send_view(seat, [], force=True, catch_up=True)
        elif not self.live:
            for frame in self._keep.get(account, []):
                self._send(account, frame)

    def _disconnect(self, account: int) -> None:
        seat = self.seat_of(account)
        if seat is None:
            return
        p = self.seats[seat]
        assert p is not None
        p.connected = False
        if self.live:
            p.left_at = self._now
            wait = max(0.0, self.timing.disconnect - p.away)
            hand = self.hand
            turn = None if hand is None else hand.turns.get(seat)
            if turn is not None and turn.deadline is None and not self._paused:
                # a turn not yet shown runs out while its player is away, as one shown does
                turn.deadline = self._now + self.timing.turn
                self._arm_turn()
        else:
            wait = self.timing.ready
        self._set(f"away:{account}", wait)
        self._broadcast_table()

    def _unreached(self, account: int) -> None:
        """Their socket cannot be reached: a turn of theirs not shown runs out, uncounted, as
        an absent player's does, but no disconnect clock runs (the house's fault is never an
        escape); they are reached again when they connect, here or anywhere."""
        seat = self.seat_of(account)
        p = None if seat is None else self.seats[seat]
        if p is None or not p.connected:
            return
        p.reached = False
        hand = self.hand
        turn = None if hand is None or seat is None else hand.turns.get(seat)
        if turn is not None and turn.deadline is None and not self._paused:
            turn.deadline = self._now + self.timing.turn
            self._arm_turn()

    def _ready(self, seat: int) -> None:
        p = self.seats[seat]
        assert p is not None and p.account is not None
        if self.live:
            self._error(p.account, "hand_live", "the hand is being played")
            return
        if p.claiming:
            return
        p.confirmed = True
        self._keep.pop(p.account, None)
        self._cancel(f"ready:{p.account}")
        self._ready_deadline.pop(p.account, None)
        self._broadcast_table()
        self._maybe_start()

    def _tuoguan(self, seat: int, on: bool) -> None:
        p = self.seats[seat]
        assert p is not None and p.account is not None
        if p.tuoguan != on:
            # durable like a step: a restart or a take-over plays the seat as it was left
            self._write(io.SetTuoguan(p.account, self.id, on))
        p.tuoguan = on
        if not on:
            p.timeouts = 0
        self._broadcast_table()
        if self.hand is not None and self.hand.id is not None:
            self._schedule()
            if not self.game.is_over(self._shown_state(seat)):
                self._send_view(seat, [], force=True)  # the count of timeouts it shows

    def _leave(self, seat: int, escape: bool) -> None:
        p = self.seats[seat]
        assert p is not None and p.account is not None
        if not self.live:
            self._unseat(p.account, "left")
        elif escape and self._ending():
            # the hand is over, its end not shown yet: the escape is a leave once it is
            assert self.hand is not None
            self.hand.leaving.append(p.account)
        elif escape:
            self._escape(seat, "left")
        else:
            # sent before the player knew the hand had begun (a second tap on Ready lands on
            # Leave as the hand starts): an escape is only ever what they confirmed
            penalty = sum(a for _, _, a in self._penalty(seat))
            self._error(
                p.account,
                "escape_unconfirmed",
                f"the hand has begun, so you are still at the table: leaving now is an "
                f"escape ({penalty} points); confirm it to leave (a leave with escape: true)",
            )

    def _vacate(self, account: int, seat: int) -> None:
        """The person at ``seat`` is gone, or never sat (a claim that failed): a bot that
        gave the seat up for them sits down again, else the seat is empty."""
        back = self._displaced.pop(account, (seat, None))
        self.seats[seat] = back[1] if back[0] == seat else None

    def _unseat(self, account: int, why: str) -> None:
        """Free a seat (no hand is live): the seat's release is written, the player told."""
        seat = self.seat_of(account)
        if seat is None:
            return
        self._vacate(account, seat)
        self._cancel(f"ready:{account}")
        self._cancel(f"away:{account}")
        self._ready_deadline.pop(account, None)
        self._keep.pop(account, None)
        self._write(io.ReleaseSeat(account, self.id))
        self._send(account, {"type": "unseated", "why": why})
        self._changed()  # the hub sends this account's next join elsewhere, not back here
        self._seat_clocks()
        self._broadcast_table()
        if self.accounts:
            self._arm_fill()
        else:
            self.seats[:] = (None, None, None, None)  # the bots leave with the last person
            self._cancel("fill")

    def _maybe_empty(self) -> None:
        if self.idle_and_empty and not self.live:
            self._out.append(io.Empty())

    def _arm_ready(self, account: int) -> None:
        if any(p is None for p in self.seats):
            # a table waits for its players: its ready clocks start once four sit there
            self._ready_deadline.pop(account, None)
            self._cancel(f"ready:{account}")
            return
        self._ready_deadline[account] = self._now + self.timing.ready
        self._set(f"ready:{account}", self.timing.ready)

    def _seat_clocks(self) -> None:
        """Between hands: the ready clocks of those who have not confirmed run while four
        sit at the table (people or bots) and stand while a seat is empty, so that nobody is
        unseated for not confirming while the table waits for players."""
        if self.live:
            return
        full = all(p is not None for p in self.seats)
        for p in self.seats:
            if p is None or p.account is None or p.confirmed or p.claiming:
                continue
            if not full:
                self._ready_deadline.pop(p.account, None)
                self._cancel(f"ready:{p.account}")
            elif p.account not in self._ready_deadline:
                self._arm_ready(p.account)

    def _arm_fill(self) -> None:
        if self._paused or not self.room.bots or self.live or not self.accounts:
            return
        if self.code is not None:
            return  # a private table waits for friends: bots sit when a player asks
        if all(p is not None for p in self.seats):
            return
        if any(p is not None and p.claiming for p in self.seats):
            return
        self._set("fill", 0.0 if self.alone else self.timing.bot_wait)

    def _fill_asked(self, account: int) -> None:
        if self.code is None:
            self._error(account, "not_private", "bots fill this table by themselves")
        elif self.live:
            self._error(account, "hand_live", "the hand is being played")
        elif not self.room.bots:
            self._error(account, "no_bots", "bots do not play in this room")
        elif any(p is not None and p.claiming for p in self.seats):
            self._error(account, "seat_pending", "a player is taking a seat; try again")
        else:
            self._fill_bots()

    def _fill_bots(self) -> None:
        if self.live or not self.accounts:
            return
        bot = bot_for(self.game.name, self.level)
        for i, p in enumerate(self.seats):
            if p is None:
                name = bot_display_name(BOT_NAMES[i], self.level)
                self.seats[i] = Player(name, level=self.level, bot=bot, confirmed=True)
        self._seat_clocks()
        self._broadcast_table()
        self._maybe_start()

    # --- hands ---------------------------------------------------------------------------

    def _maybe_start(self) -> None:
        if self.live or self._paused:
            return
        if any(p is None or p.claiming or not p.confirmed for p in self.seats):
            return
        people = [p for p in self.seats if p is not None and p.account is not None]
        if not people:
            return
        stake = stake_for([p.balance for p in people])
        seed = self._rng.getrandbits(63)
        state, dealt = self.game.deal(self.ruleset, seed, self.setup)
        balances = {p.account: p.balance for p in people if p.account is not None}
        fees = table_fees(balances, stake)
        for payer, _house, amount in fees:
            self._player(payer).balance -= amount
        bots = self._seat_bots()
        self.hands_started += 1
        self.hand = _Hand(
            no=self.hands_started,
            seed=seed,
            stake=stake,
            state=state,
            bots=bots,
            rngs=[bot_rng(seed, s) for s in self.game.seats],
            start_balances=balances,
            fee_moves=list(fees),
            dealt=dealt,
        )
        self.phase = "starting"
        for p in people:
            assert p.account is not None
            p.confirmed = False
            p.timeouts = 0
            p.away = 0.0
            p.left_at = None if p.connected else self._now
            self._cancel(f"ready:{p.account}")
            self._ready_deadline.pop(p.account, None)
            self._keep.pop(p.account, None)
            if not p.connected:  # away when the hand starts: the live hand's grace
                self._set(f"away:{p.account}", self.timing.disconnect)
        seats = {
            _SEATS[i]: {"account": p.account, "name": p.name, "bot": p.bot, "level": p.level}
            for i, p in enumerate(self.seats)
            if p is not None
        }
        self._write(
            io.StartHand(
                self.id, self.hands_started, self.game.name, seed, self.ruleset.to_json(),
                self.game.setup_of(state), seats, stake, fees,
            )
        )  # fmt: skip
        self._changed()

    def _seat_bots(self) -> list[Bot]:
        """The seats' bots for a new hand: the last hand's (the seats move round between
        hands; a bot goes with its name), a bot made only for a name the last hand had not."""
        names = self._bot_names
        free: dict[str, list[Bot]] = {}
        for name, bot in zip(names, self._bots, strict=True):
            if name is not None and bot is not None:
                free.setdefault(name, []).append(bot)
        for i, p in enumerate(self.seats):
            assert p is not None
            name = p.bot or self.game.default_bot
            pool = free.get(name)
            self._bots[i] = pool.pop() if pool else make_bot(self.game.name, name)
            names[i] = name
        return self._bots  # type: ignore[return-value]

    def _hand_durable(self, hand_id: int) -> None:
        hand = self.hand
        if hand is None:
            return
        hand.id = hand_id
        self.phase = "live"
        self._shown.clear()
        self._blocks.clear()
        self._block_json.clear()
        for i, p in enumerate(self.seats):
            if p is not None and p.account is not None:
                self._send(p.account, self._hand_start(i))
        self._broadcast_table()
        self._after_change(hand.dealt)
        hand.dealt = []
        deferred = self._deferred[:]
        self._deferred.clear()
        for event in deferred:
            self._dispatch(event)

    def _act(self, seat: int, event: io.Act) -> None:
        p = self.seats[seat]
        assert p is not None and p.account is not None
        if not self._at_version(p.account, seat, event.version):
            return
        seat_obj = self.game.seats[seat]
        try:
            action = self.game.parse_action(event.action)
        except RulesError as err:
            self._error(p.account, "bad_action", str(err)[:200])
            return
        if action.seat is not seat_obj:
            self._error(p.account, "not_your_turn", f"you sit in seat {seat_obj.value}")
            return
        if seat not in self._movers() or self._quiet(seat):
            # answered alike whether a window is open to others or the table settles
            self._error(p.account, "not_your_turn", f"{action}: it is not your turn now")
            return
        count, p.timeouts = p.timeouts, 0  # reset before the views go out: they show it
        if not self._apply(seat, action):
            p.timeouts = count

    def _at_version(self, account: int, seat: int, version: int) -> bool:
        """True when a hand is being played and ``version`` is the seat's view's; else the
        account is told (``no_hand``, ``stale_version``)."""
        hand = self.hand
        if hand is None or hand.id is None:
            self._error(account, "no_hand", "no hand is being played at this table")
            return False
        state = self._shown_state(seat)  # during the claim pause, the pause's
        if self.game.is_over(state):
            self._error(account, "no_hand", "no hand is being played at this table")
            return False
        want = self.game.seat_version(state, self.game.seats[seat])
        if version != want:
            self._error(account, "stale_version", f"the table is at version {want}, not {version}")
            return False
        return True

    def _helper_bot(self) -> Bot:
        """The bot that plays for a person: 托管 and hints. The normal level's (``strong``,
        ``heuristic``): a person's seat is played as the room's bots play by default, and
        never by a heavy bot, whose search would hold the table's loop."""
        if self._helper is None:  # made once: a bot keeps nothing between decisions
            self._helper = make_bot(self.game.name, bot_for(self.game.name, "normal"))
        return self._helper

    def _hint(self, seat: int, version: int) -> None:
        """What the normal level's bot (``strong``, ``heuristic``) would play at this seat's
        view of ``version``, for the player alone at a table of bots (a learner's help: at a
        table with another person it would be an advantage, so it is refused there). The bot
        reads the seat's own view, as it would playing the seat, and a stream of its own, so
        a hint changes nothing at the table; asked again at the same version, the answer is
        the one given."""
        p = self.seats[seat]
        assert p is not None and p.account is not None
        if any(
            q is not None and q.account is not None for i, q in enumerate(self.seats) if i != seat
        ):
            self._error(p.account, "hints_off", "hints are given only at a table of bots")
            return
        if not self._at_version(p.account, seat, version):
            return
        hand = self.hand
        assert hand is not None
        seat_obj = self.game.seats[seat]
        legal = self.game.legal_actions(hand.state, seat_obj)
        if seat not in self._movers() or not legal or self._quiet(seat):
            self._error(p.account, "not_your_turn", "there is nothing for you to decide now")
            return
        if hand.hint_at != (seat, version):
            view = self.game.observe(hand.state, seat_obj)
            rng = random.Random(hand.seed * 7919 + version * 4 + seat)
            try:
                hand.hint_action = str(self._helper_bot().act(view, legal, rng))
            except Exception:  # a bot's defect must not stop the table
                log.exception("table %s: the hint's bot failed", self.id)
                self._error(p.account, "hint_failed", "no hint could be worked out")
                return
            hand.hint_at = (seat, version)
        self._send(p.account, {"type": "hint", "version": version, "action": hand.hint_action})

    def _apply(self, seat: int, action: Any) -> bool:
        hand = self.hand
        assert hand is not None and hand.id is not None
        try:
            state, events = self.game.apply(hand.state, action)
        except RulesError as err:
            p = self.seats[seat]
            if p is not None and p.account is not None:
                self._error(p.account, err.code, str(err)[:300])
            return False
        pause = self.game.settling(hand.state, action)
        hand.seq += 1
        hand.state = state
        hand.last = (seat, str(action))
        self._write(io.Step(hand.id, hand.seq, str(action)))
        self._after_change(events, pause)
        return True

    def _after_change(self, events: list[Any], pause: tuple[Any, list[Any]] | None = None) -> None:
        """Show a change: each person's seat its view and the events as it may see them.

        **The claim pause** (Mazhan §5 end): after a discard every seat that cannot claim is
        shown the same thing for :attr:`Timing.claim_pause`, whether or not another seat
        can claim: the discard done and a window open to nobody (``pause``, from
        :meth:`Game.settling`; a real window looks the same to a seat without options).
        Until the pause is over, a seat is shown the window's prompt while it is answering
        one, and otherwise only the pause: what follows (its own answer, the window's
        outcome, the next draw, the hand's end) is held for it, and nobody's turn starts;
        bots answer within the pause, so a pass leaves no trace."""
        hand = self.hand
        assert hand is not None
        shown: dict[int, list[dict[str, Any]]] = {}
        if pause is not None:
            hand.settling = pause[0]
            hand.pausing = True  # the pause is shown even when it lasts no time at all
            if self.timing.claim_pause > 0:
                self._set("settle", self.timing.claim_pause)
            n = len(pause[1])
            shown = self._log(hand, events[:n])  # the action itself: everyone sees it now
            events = events[n:]
        if hand.pausing:
            for i, seen in self._seen(events).items():
                if self._quiet(i):
                    hand.held.setdefault(i, []).extend(seen)
                else:
                    self._add_log(hand, i, seen)
                    shown.setdefault(i, []).extend(seen)
            self._schedule()
            for i in range(4):  # a seat not answering the window: the pause's view
                self._send_view(i, shown.get(i, []))
            if self.timing.claim_pause <= 0:
                self._settled()
            return
        for i, seen in self._log(hand, events).items():
            shown.setdefault(i, []).extend(seen)
        self._schedule()
        if self.game.is_over(hand.state):
            self._settle(shown)
            return
        for i in range(4):
            self._send_view(i, shown.get(i, []))

    def _settled(self) -> None:
        """The claim pause is over: every seat is shown what was held for it, and the next
        turn starts (a window a person is still answering goes on as it would have)."""
        hand = self.hand
        if hand is None or hand.id is None or not hand.pausing:
            return
        hand.pausing = False
        hand.last = None  # what is shown now follows the pause, not anyone's own action
        shown = self._release_held(hand)
        if self.game.is_over(hand.state):
            self._settle(shown)
            for account in hand.leaving:  # an escape asked as the hand ended: a leave now
                self._unseat(account, "left")
            return
        self._schedule()
        for i in range(4):
            self._send_view(i, shown.get(i, []))

    def _ending(self) -> bool:
        """True while a hand that is over waits for the claim pause to show its end."""
        hand = self.hand
        return hand is not None and hand.id is not None and self.game.is_over(hand.state)

    def _shown_state(self, seat: int) -> Any:
        """The state the seat is shown: during the claim pause, unless it is answering the
        window, the pause's."""
        hand = self.hand
        assert hand is not None
        return hand.settling if self._quiet(seat) else hand.state

    def _quiet(self, seat: int) -> bool:
        """True while the claim pause shows this seat only the pause (it is not answering a
        window)."""
        hand = self.hand
        if hand is None or not hand.pausing:
            return False
        state = hand.state
        return not (seat in self._movers() and self.game.is_prompt(state, self.game.seats[seat]))

    def _holding(self) -> bool:
        """True while the claim pause holds the table: no window is being answered, and
        nobody's turn may start until the pause is over."""
        hand = self.hand
        return hand is not None and hand.pausing and not self._window_open()

    def _window_open(self) -> bool:
        """True while seats are answering a claim window."""
        hand = self.hand
        assert hand is not None
        state, seats = hand.state, self.game.seats
        return any(self.game.is_prompt(state, seats[s]) for s in self._movers())

    def _seen(self, events: list[Any]) -> dict[int, list[dict[str, Any]]]:
        """Each person's seat's ``events`` as that seat may see them."""
        return {
            i: _events_json(events, self.game.seats[i])
            for i, p in enumerate(self.seats)
            if p is not None and p.account is not None
        }

    def _release_held(self, hand: _Hand) -> dict[int, list[dict[str, Any]]]:
        """The events held by the claim pause, now added to each seat's log of the hand."""
        held, hand.held = hand.held, {}
        for i, seen in held.items():
            self._add_log(hand, i, seen)
        return held

    def _log(self, hand: _Hand, events: list[Any]) -> dict[int, list[dict[str, Any]]]:
        """Each person's seat's ``events`` as that seat may see them, added to its log of the
        hand; returned, so the views sent next carry them without working them out again."""
        shown = self._seen(events)
        for i, seen in shown.items():
            self._add_log(hand, i, seen)
        return shown

    @staticmethod
    def _add_log(hand: _Hand, seat: int, seen: list[dict[str, Any]]) -> None:
        if seen:
            log = hand.logs.setdefault(seat, bytearray())
            if log:
                log += b","
            log += orjson.dumps(seen)[1:-1]

    def _movers(self) -> list[int]:
        assert self.hand is not None
        return [s.number - 1 for s in self.game.acting(self.hand.state)]

    def _auto(self, seat: int) -> bool:
        p = self.seats[seat]
        return p is None or p.account is None or p.tuoguan

    def _schedule(self) -> None:
        """The turns of the seats that must decide, and their clocks: bots and 托管 after a
        think time, people on the turn clock, which starts when the frame offering the turn
        is shown to them (:meth:`_delivered`), or at once for a player away (their turn is
        played, not counted). A turn goes on while the seat's version, its being a prompt
        and its being played for stay the same (a claim window keeps each seat's clock until
        it closes; a change elsewhere at the table does not restart it)."""
        hand = self.hand
        assert hand is not None
        self._cancel("turn")
        self._cancel("bot")
        if self._paused or self.game.is_over(hand.state):
            hand.turns = {}
            return
        if self._holding():
            hand.turns = {}  # nobody's turn, no clock, while the claim pause holds
            return
        movers = self._movers()
        state, seats = hand.state, self.game.seats
        turns: dict[int, _Turn] = {}
        for s in movers:
            key = (
                self.game.seat_version(state, seats[s]),
                self.game.is_prompt(state, seats[s]),
                self._auto(s),
            )
            turn = hand.turns.get(s)
            if turn is None or turn.key != key:
                self._token += 1
                turn = _Turn(key, self._token)
            p = self.seats[s]
            if turn.deadline is None and (key[2] or p is None or not p.connected or not p.reached):
                turn.deadline = self._now + self.timing.turn
            turns[s] = turn
        hand.turns = turns
        if any(t.key[2] and not t.deciding for t in turns.values()):
            delay = self.timing.bot_delay * (0.5 + self._think.random())
            if hand.pausing:  # a window's answers come within the pause: no pass shows
                delay = min(delay, self.timing.claim_pause * (0.1 + 0.2 * self._think.random()))
            self._set("bot", delay)
        self._arm_turn()

    def _arm_turn(self) -> None:
        """The turn clock: set for the first person's turn to run out."""
        hand = self.hand
        assert hand is not None
        self._cancel("turn")
        due = [t.deadline for t in hand.turns.values() if not t.key[2] and t.deadline is not None]
        if due and not self._paused:
            self._set("turn", min(due) - self._now)

    def _delivered(self, event: io.Delivered) -> None:
        """The frame offering a turn reached its player: the turn's clock starts now."""
        hand = self.hand
        seat = self.seat_of(event.account)
        if hand is None or seat is None or self._paused:
            return
        turn = hand.turns.get(seat)
        if turn is None or turn.token != event.ack or turn.deadline is not None:
            return
        turn.deadline = self._now + self.timing.turn
        turn.counted = True
        self._arm_turn()

    def _decide(self) -> None:
        """The bots (and 托管) of the seats that must decide now decide, together: a
        window's answers all come within the claim pause."""
        hand = self.hand
        if hand is None or hand.id is None or self._holding():
            return
        for seat, turn in hand.turns.items():
            if not turn.key[2] or turn.deciding:
                continue
            turn.deciding = True
            seat_obj = self.game.seats[seat]
            legal = self.game.legal_actions(hand.state, seat_obj)
            p = self.seats[seat]
            bot = hand.bots[seat]
            if p is not None and p.account is not None:  # 托管: the normal level's bot
                bot = self._helper_bot()
            view = self.game.observe(hand.state, seat_obj)
            self._out.append(io.Decide(seat, turn.token, bot, view, legal, hand.rngs[seat]))

    def _bot_move(self, event: io.BotMove) -> None:
        """A bot's decision, played if its turn is still the one it decided."""
        hand = self.hand
        if hand is None or hand.id is None:
            return
        turn = hand.turns.get(event.seat)
        if turn is None or turn.token != event.token or not turn.key[2] or self._holding():
            return  # the turn has moved on (托管 switched off, another's claim, the pause)
        self._apply(event.seat, event.action)

    def _expire(self) -> None:
        """The turn clock ran out: pass a claim prompt (not counted), else play the clock's
        action and count a timeout; the 4th in a row is an escape. A seat whose player is
        away is played the same way but not counted: the disconnect clock (180 s) is theirs,
        so coming back within it resumes the hand as §10 promises (docs/rules-decisions.md)."""
        while True:
            hand = self.hand
            if hand is None or hand.id is None or self.game.is_over(hand.state):
                return
            late = [
                (s, t)
                for s, t in hand.turns.items()
                if not t.key[2] and t.deadline is not None and t.deadline <= self._now + 1e-6
            ]
            if not late:
                break
            seat, turn = late[0]
            seat_obj = self.game.seats[seat]
            if not self.game.is_prompt(hand.state, seat_obj):
                p = self.seats[seat]
                assert p is not None
                # only a turn the player was shown, and missed while here, is theirs to pay
                p.timeouts += 1 if p.connected and p.reached and turn.counted else 0
                if p.timeouts >= 4:
                    self._escape(seat, "timeouts")
                    return
            self._apply(seat, self.game.timeout_action(hand.state, seat_obj))
        if "turn" not in self._tokens and "bot" not in self._tokens:
            self._schedule()

    def _account_key(self, seat: int) -> int | str:
        p = self.seats[seat]
        return HOUSE if p is None or p.account is None else p.account

    def _player(self, account: int | str) -> Player:
        seat = self.seat_of(int(account))
        assert seat is not None
        p = self.seats[seat]
        assert p is not None
        return p

    def _apply_moves(self, moves: list[tuple[int | str, int | str, int]]) -> None:
        for payer, payee, amount in moves:
            for key, delta in ((payer, -amount), (payee, amount)):
                if key != HOUSE and self.seat_of(int(key)) is not None:
                    self._player(key).balance += delta

    def _settle(self, shown: dict[int, list[dict[str, Any]]]) -> None:
        hand = self.hand
        assert hand is not None and hand.id is not None
        state = hand.state
        payments = [
            (self._account_key(t.payer), self._account_key(t.payee), round(t.units * hand.stake))
            for t in self.game.transfers(state)
        ]
        payments = [(a, b, x) for a, b, x in payments if a != b and x > 0]
        balances: dict[int | str, int] = {HOUSE: _HOUSE_FUNDS}
        for p in self.seats:
            if p is not None and p.account is not None:
                balances[p.account] = p.balance
        moves = settle_hand(balances, payments)
        self._apply_moves(moves)
        result = self.game.result_json(state)
        self._write(io.CloseHand(hand.id, result, moves))
        self._cancel("turn")
        self._cancel("bot")
        names = self._names()
        for i, p in enumerate(self.seats):
            if p is None or p.account is None:
                continue
            view = self._view_frame(i, shown.get(i, []))
            change = p.balance - hand.start_balances.get(p.account, p.balance)
            settlement = {
                "type": "settlement",
                "hand": hand.id,
                "stake": hand.stake,
                "fee": hand.stake,
                "result": result,
                "moves": _moves_json(hand.fee_moves, "fee", names)
                + _moves_json(moves, "hand", names),
                "balance": p.balance,
                "balance_change": change,
                "ready_seconds": self.timing.ready,
            }
            self._send(p.account, view)
            self._send(p.account, settlement)
            # a page that comes back before the next hand gets the hand's whole log with it
            self._keep[p.account] = [self._view_frame(i, [], catch_up=True), settlement]
        self._end_hand(state)

    def _end_hand(self, final: Any) -> None:
        """Between hands: pass the deal or the bank, unseat the broke, start the ready
        clocks."""
        self.hand = None
        self.phase = "idle"
        self._shown.clear()
        self._blocks.clear()
        self._block_json.clear()
        deal = self.game.next_deal(Deal(0, (0, 1, 2, 3), self.setup), final)
        self.seats[:] = [self.seats[deal.player_in(i)] for i in range(4)]
        self.setup = dict(deal.setup)
        for p in list(self.seats):
            if p is None or p.account is None:
                continue
            if p.balance < self.room.min_balance:
                self._unseat(p.account, "too_few_points")
            else:
                self._arm_ready(p.account)
                if not p.connected:
                    self._set(f"away:{p.account}", self.timing.ready)
        self._broadcast_table()
        self._changed()

    def _penalty(self, seat: int) -> list[tuple[int | str, int | str, int]]:
        """What the seat's escape from the live hand would move (rules §10)."""
        hand = self.hand
        p = self.seats[seat]
        assert hand is not None and p is not None and p.account is not None
        others = [self._account_key(i) for i in range(4) if i != seat]
        return escape_penalty(p.account, others, p.balance, hand.stake, self.room.escape_multiple)

    def _escape(self, seat: int, why: str) -> None:
        hand = self.hand
        p = self.seats[seat]
        assert hand is not None and hand.id is not None and p is not None
        assert p.account is not None
        moves = self._penalty(seat)
        self._apply_moves(moves)
        reason = {"aborted": "escape", "escaper": _SEATS[seat], "why": why}
        self._write(io.AbortHand(hand.id, reason, moves, p.account))
        names = self._names()
        frame = {
            "type": "escape",
            "hand": hand.id,
            "seat": _SEATS[seat],
            "name": p.name,
            "why": why,
            "stake": hand.stake,
            "penalty": sum(a for _, _, a in moves),
            "moves": _moves_json(moves, "escape", names),
        }
        for q in self.seats:
            if q is not None and q.account is not None:
                self._send(q.account, {**frame, "balance": q.balance})
        self._cancel("turn")
        self._cancel("bot")
        self._cancel("settle")
        self.hand = None
        self.phase = "idle"
        self._shown.clear()
        self._blocks.clear()
        self._block_json.clear()
        escaper = p.account
        self._unseat(escaper, "escape")
        for q in self.seats:
            if q is not None and q.account is not None:
                q.confirmed = False
                self._arm_ready(q.account)
                if not q.connected:
                    self._set(f"away:{q.account}", self.timing.ready)
        self._broadcast_table()
        self._changed()

    # --- frames --------------------------------------------------------------------------

    def _names(self) -> dict[int | str, str]:
        names: dict[int | str, str] = {HOUSE: "house"}
        for p in self.seats:
            if p is not None and p.account is not None:
                names[p.account] = p.name
        return names

    def _seated(self, seat: int) -> dict[str, Any]:
        return {
            "type": "seated",
            "table": self.id,
            "room": self.room.name,
            "game": self.game.name,
            "seat": _SEATS[seat],
        }

    def _hand_start(self, seat: int) -> dict[str, Any]:
        hand = self.hand
        assert hand is not None and hand.id is not None
        dealer = self.game.setup_of(hand.state).get("banker", "E")
        p = self.seats[seat]
        return {
            "type": "hand_start",
            # the balance after the fee: a reconnect must not take the fee twice on screen
            "balance": p.balance if p is not None and p.account is not None else None,
            "hand": hand.id,
            "stake": hand.stake,
            "fee": hand.stake,
            "seat": _SEATS[seat],
            "room": self.room.name,
            "game": self.game.name,
            "dealer": dealer,
        }

    def table_json(self) -> dict[str, Any]:
        """The seating as everyone at the table (and the lobby) sees it.

        >>> from paiju.server.rooms import ROOMS
        >>> TableMachine(3, ROOMS["madiao"], Timing(), random.Random(0)).table_json()["seats"]
        {'E': None, 'S': None, 'W': None, 'N': None}
        """
        seats: dict[str, Any] = {}
        for i, p in enumerate(self.seats):
            seats[_SEATS[i]] = (
                None
                if p is None
                else {
                    "name": p.name,
                    "bot": p.account is None,
                    "level": p.level,
                    "ready": p.confirmed,
                    "tuoguan": p.tuoguan,
                    "connected": p.connected or p.account is None,
                    "points": p.balance if p.account is not None else None,
                }
            )
        return {
            "type": "table",
            "table": self.id,
            "room": self.room.name,
            "game": self.game.name,
            "live": self.live,
            "hand_no": self.hands_started,
            "seats": seats,
        }

    def _broadcast_table(self) -> None:
        frame = self.table_json()
        for p in self.seats:
            if p is not None and p.account is not None and not p.claiming:
                deadline = self._ready_deadline.get(p.account)
                left = None if deadline is None else max(0.0, deadline - self._now)
                self._send(p.account, {**frame, "ready_seconds": left, "code": self.code})

    def _changed(self) -> None:
        self._out.append(io.Changed())

    def _clock(self, seat: int) -> dict[str, Any] | None:
        hand = self.hand
        assert hand is not None
        turns = hand.turns
        mine = turns.get(seat)
        if mine is not None and not mine.key[2]:
            return {
                "seat": None if mine.key[1] else _SEATS[seat],
                "seconds": self.timing.turn,
                "left": self._left(mine),
            }
        # a turn is public; a claim window's clocks are not
        for s, turn in turns.items():
            if not turn.key[1]:
                if turn.key[2]:
                    return None
                return {"seat": _SEATS[s], "seconds": self.timing.turn, "left": self._left(turn)}
        return None

    def _left(self, turn: _Turn) -> float:
        """The seconds left on a turn's clock (all of them until its frame is shown)."""
        if turn.deadline is None:
            return self.timing.turn
        return max(0.0, turn.deadline - self._now)

    def _view_frame(
        self, seat: int, events: list[dict[str, Any]], catch_up: bool = False
    ) -> dict[str, Any]:
        """The seat's view frame with ``events`` (already as the seat may see them), or with
        the hand's whole log when ``catch_up``."""
        hand = self.hand
        assert hand is not None and hand.id is not None
        seat_obj = self.game.seats[seat]
        state = self._shown_state(seat)
        view = self._view_json(self.game.observe(state, seat_obj).to_json())
        self._shown[seat] = view
        return {
            "type": "view",
            "table": self.id,
            "hand": hand.id,
            "version": self.game.seat_version(state, seat_obj),
            "view": orjson.Fragment(view),
            "events": orjson.Fragment(b"[" + bytes(hand.logs.get(seat, b"")) + b"]")
            if catch_up
            else events,
            "clock": self._clock(seat),
            "stake": hand.stake,
            "your_action": hand.last[1] if hand.last and hand.last[0] == seat else None,
            "catch_up": catch_up,
            "timeouts": self._timeouts(seat),
        }

    def _timeouts(self, seat: int) -> int:
        """The seat's player's timeouts in a row (0 for a bot)."""
        p = self.seats[seat]
        return p.timeouts if p is not None and p.account is not None else 0

    def _view_json(self, view: dict[str, Any]) -> bytes:
        """A view as JSON, serialised here, once: the frame carries it as it is, the next
        view of the seat is compared with it, and the seats' public blocks in it (shared by
        the views of a state, and by later states while unchanged) are serialised once per
        change (:attr:`_blocks`), not once per view."""
        seats = view.get("seats")
        if isinstance(seats, dict):
            blocks, json = self._blocks, self._block_json
            done: dict[str, Any] = {}
            for key, block in seats.items():
                if isinstance(block, dict):
                    if blocks.get(key) is not block:
                        blocks[key] = block
                        json[key] = orjson.Fragment(orjson.dumps(block))
                    done[key] = json[key]
                else:
                    done[key] = block
            view = {**view, "seats": done}
        return orjson.dumps(view)

    def _send_view(
        self,
        seat: int,
        events: list[dict[str, Any]],
        force: bool = False,
        catch_up: bool = False,
    ) -> None:
        """A seat's view, if it has a person and anything changed for them (a private
        decision of another seat changes nothing, so nothing is sent: not even the fact)."""
        p = self.seats[seat]
        if p is None or p.account is None or not p.connected:
            return
        hand = self.hand
        assert hand is not None
        before = self._shown.get(seat)
        frame = self._view_frame(seat, events, catch_up)
        if not force and self._shown[seat] == before and not frame["events"]:
            return
        turn = hand.turns.get(seat)
        ack = turn.token if turn is not None and turn.deadline is None else 0
        self._send(p.account, frame, ack=ack)


def _events_json(events: list[Any], viewer: Any) -> list[dict[str, Any]]:
    """The events a seat may see, as that seat may see them (an event answering ``None`` is
    not for this seat)."""
    out = []
    for e in events:
        j = e.to_json(viewer)
        if j is not None:
            out.append(j)
    return out


def _moves_json(
    moves: list[tuple[int | str, int | str, int]] | Any, reason: str, names: dict[int | str, str]
) -> list[dict[str, Any]]:
    return [
        {"from": names.get(a, "?"), "to": names.get(b, "?"), "amount": x, "reason": reason}
        for a, b, x in moves
    ]


def restore(
    table_id: int,
    room: Room,
    timing: Timing,
    rng: random.Random,
    *,
    hand_id: int,
    hand_no: int,
    seed: int,
    stake: int,
    setup: dict[str, Any],
    seats: dict[str, Any],
    actions: list[str],
    balances: dict[int, int],
    now: float,
    make: Callable[..., TableMachine] = TableMachine,
    code: str | None = None,
    tuoguan: Collection[int] = (),
) -> tuple[TableMachine, list[io.Output]]:
    """Rebuild a table whose hand was live when its process stopped: the seats from the
    record (people away, each with the grace period to come back; those in ``tuoguan``
    with 托管 on, as they left it), the state by replay.

    Raises :class:`~paiju.errors.ReplayError` when the log does not replay (the caller
    quarantines the hand).
    """
    # the bots' level is the table's (a table of one's own or for friends may have chosen it)
    level = next((rec.get("level") for rec in seats.values() if rec.get("bot")), None)
    m = make(table_id, room, timing, rng, code=code, level=level)
    g = m.game
    for i, letter in enumerate(_SEATS):
        rec = seats[letter]
        acc = rec.get("account")
        m.seats[i] = Player(
            rec["name"], account=acc, level=rec.get("level"), bot=rec.get("bot"),
            connected=False, confirmed=True, balance=balances.get(acc, 0) if acc else 0,
            tuoguan=acc in tuoguan,
        )  # fmt: skip
    dealt_state, dealt = g.deal(m.ruleset, seed, setup)
    history = list(dealt)  # the hand's events, for the people's logs
    state = replay(
        g, m.ruleset, seed, setup, actions, start=dealt_state, each=lambda _, e: history.extend(e)
    )
    m.hands_started = hand_no
    m.setup = dict(setup)
    m.hand = _Hand(
        no=hand_no,
        seed=seed,
        stake=stake,
        state=state,
        bots=m._seat_bots(),
        rngs=[bot_rng(seed, s) for s in g.seats],
        start_balances={a: b + stake for a, b in balances.items()},  # before the fee
        fee_moves=list(table_fees({a: b + stake for a, b in balances.items()}, stake)),
        id=hand_id,
        seq=len(actions),
    )
    m._log(m.hand, history)
    m.phase = "live"
    m._now = now
    m._out = []
    for acc in m.accounts:
        m._set(f"away:{acc}", timing.disconnect)
        m._player(acc).left_at = now
    m._after_change([])
    m._changed()
    out = m._out
    m._out = m._idle = []  # the outputs returned are not kept (nor added to) by the machine
    return m, out
