"""A table machine run in memory for tests: a fake clock, a fake storage that answers when
told to (or fails), bots decided at once, every frame checked against the protocol models
and against the rule that nothing is shown before it is durable.

>>> from paiju.server.rooms import ROOMS
>>> sim = Sim(ROOMS["mazhan"], alone=True)
>>> sim.join(1, "ana"); sim.settle_storage(); sim.ready(1); sim.run(5.0)
>>> sim.machine.phase
'live'
"""

from __future__ import annotations

import heapq
import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import orjson

from paiju.server.money import HOUSE
from paiju.server.protocol import SERVER
from paiju.server.rooms import Room
from paiju.server.table import TableMachine, Timing, io

UNHELD = {"error", "paused", "resumed", "pong"}


@dataclass
class Ledger:
    """The fake storage's books: balances, the house, and what each hand wrote."""

    balances: dict[int, int] = field(default_factory=dict)
    house: int = 0
    issued: int = 0
    hands: dict[int, dict[str, Any]] = field(default_factory=dict)
    seats: dict[int, int] = field(default_factory=dict)  # account → table
    tuoguan: set[int] = field(default_factory=set)  # accounts whose seat has 托管 on

    def move(self, moves: Iterable[tuple[int | str, int | str, int]]) -> None:
        for payer, payee, amount in moves:
            assert amount >= 0
            for key, delta in ((payer, -amount), (payee, amount)):
                if key == HOUSE:
                    self.house += delta
                else:
                    self.balances[int(key)] += delta
                    assert self.balances[int(key)] >= 0, f"{key} overdrawn"

    def total(self) -> int:
        return sum(self.balances.values()) + self.house


class Sim:
    """One table machine, its clock, storage and sockets."""

    def __init__(
        self,
        room: Room,
        *,
        alone: bool = False,
        timing: Timing | None = None,
        seed: int = 1,
        ledger: Ledger | None = None,
        table_id: int = 1,
        auto_store: bool = True,
        code: str | None = None,
    ) -> None:
        self.timing = timing or Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.3)
        self.machine = TableMachine(
            table_id, room, self.timing, random.Random(seed), alone=alone, code=code
        )
        self.now = 0.0
        self.timers: list[tuple[float, int, str, int]] = []
        self._seq = 0
        self.ledger = ledger or Ledger()
        self.frames: dict[int, list[dict[str, Any]]] = defaultdict(list)
        self.times: dict[int, list[float]] = defaultdict(list)  # when each frame was sent
        self.connected: set[int] = set()
        #: connected, but on a process this table's cannot reach now: nothing gets to them
        self.unreachable: set[int] = set()
        #: each account's frames that offered a turn and were shown: (time, version)
        self.shown_turns: dict[int, list[tuple[float, int]]] = defaultdict(list)
        self.writes: list[tuple[int, io.Write]] = []  # not yet answered
        self.durable: list[io.Write] = []
        self.auto_store = auto_store
        self.storage_down = False
        self.storage_stalled = False  # writes wait unanswered, without failing
        #: the escapes charged: (time, escaper, why)
        self.escapes: list[tuple[float, int, str]] = []
        self._escapes_seen = 0
        self._timeouts: dict[int, int] = {}
        self.lost = False
        self.empty = False
        self.decisions: list[io.Decide] = []
        self._next_hand_id = 100 * table_id
        self._troubled: set[int] = set()
        #: The accounts the hub sends to this table (``Hub.table_changed`` reads the machine's
        #: accounts when told ``Changed``; ``Empty`` forgets the table): after every answer
        #: they must be those seated, or a player unseated here could not sit down anywhere
        #: (the hub would send their join here) and one seated here could not act.
        self.routed: set[int] = set()

    # --- feeding the machine -------------------------------------------------------------

    def feed(self, event: io.Input) -> None:
        self.handle(self.machine.handle(event, self.now))
        self._check_charges()

    def _check_charges(self) -> None:
        """A person is charged only for a turn they were shown: every timeout counted, and
        every escape for timeouts, comes exactly one turn clock after a frame offering a
        turn reached them."""
        turn = self.timing.turn

        def shown_at(account: int, when: float) -> bool:
            return any(abs(t + turn - when) < 1e-6 for t, _ in self.shown_turns[account])

        for p in self.machine.seats:
            if p is None or p.account is None:
                continue
            before = self._timeouts.get(p.account, 0)
            if p.timeouts > before:
                assert shown_at(p.account, self.now), (
                    f"{p.account} charged a timeout at {self.now} for a turn never shown"
                )
            self._timeouts[p.account] = p.timeouts
        for when, escaper, why in self.escapes[self._escapes_seen :]:
            if why == "timeouts":
                assert shown_at(escaper, when), f"{escaper} escaped at {when} unshown"
        self._escapes_seen = len(self.escapes)

    def handle(self, outputs: list[io.Output]) -> None:
        acks: list[io.Delivered] = []
        for out in outputs:
            if isinstance(out, io.Send):
                frame = orjson.loads(orjson.dumps(out.frame))  # as a client reads it
                SERVER.validate_python(frame)
                if frame["type"] == "view":
                    _shows_only_its_seat(frame)
                if frame["type"] not in UNHELD:
                    early = [op for op, _ in self.writes if op <= out.after]
                    assert not early, f"{frame['type']} shown before writes {early} are durable"
                else:
                    assert out.after == 0
                if out.account in self.connected and out.account not in self.unreachable:
                    self.frames[out.account].append(frame)
                    self.times[out.account].append(self.now)
                    if out.ack:
                        acks.append(io.Delivered(out.account, out.ack))
                        if frame["type"] == "view":
                            self.shown_turns[out.account].append((self.now, frame["version"]))
            elif isinstance(out, io.Store):
                self.writes.append((out.op, out.write))
                if isinstance(out.write, io.AbortHand):  # charged now, however slow the write
                    why = str(out.write.reason.get("why"))
                    self.escapes.append((self.now, out.write.escaper, why))
            elif isinstance(out, io.SetTimer):
                self._seq += 1
                heapq.heappush(self.timers, (self.now + out.delay, self._seq, out.key, out.token))
            elif isinstance(out, io.CancelTimer):
                pass  # the token makes a cancelled timer a no-op
            elif isinstance(out, io.Decide):
                self.decisions.append(out)
            elif isinstance(out, io.Lost):
                self.lost = True
            elif isinstance(out, io.Empty):
                self.empty = True
                if self.machine.idle_and_empty:
                    self.routed = set()
            elif isinstance(out, io.Changed):
                self.routed = set(self.machine.accounts)
        if not self.lost:
            assert self.routed == set(self.machine.accounts), (
                f"the hub sends {sorted(self.routed)} here; seated: {sorted(self.machine.accounts)}"
            )
        for ack in acks:  # the runner answers once the frame is handed to the socket
            self.feed(ack)
        if self.auto_store and not self.storage_down and not self.storage_stalled:
            self.settle_storage()
        elif self.storage_down and self.writes and self.writes[0][0] not in self._troubled:
            self._troubled.add(self.writes[0][0])
            self.feed(io.Trouble(self.writes[0][0], "connection refused"))
        self._run_bots()

    def _run_bots(self) -> None:
        while self.decisions:
            d = self.decisions.pop(0)
            action = d.bot.act(d.view, d.legal, d.rng)
            self.feed(io.BotMove(d.seat, d.token, action))

    def settle_storage(self) -> None:
        """Answer every queued write: durable (and book its money)."""
        while self.writes and not self.storage_down and not self.storage_stalled:
            op, write = self.writes.pop(0)
            result = self._book(write)
            if isinstance(result, str):
                self.feed(io.Failed(op, result))
            else:
                self.durable.append(write)
                self.feed(io.Stored(op, result))

    def fail_storage(self) -> None:
        """The storage goes away: the next write answers Trouble."""
        self.storage_down = True
        if self.writes and self.writes[0][0] not in self._troubled:
            self._troubled.add(self.writes[0][0])
            self.feed(io.Trouble(self.writes[0][0], "connection refused"))

    def restore_storage(self) -> None:
        self.storage_down = False
        self.storage_stalled = False
        self.settle_storage()

    def stall_storage(self) -> None:
        """The storage stops answering without failing (a black hole, a ``LOCK TABLE``)."""
        self.storage_stalled = True

    def _book(self, write: io.Write) -> Any:
        led = self.ledger
        if isinstance(write, io.ClaimSeat):
            if led.seats.get(write.account, write.table) != write.table:
                return "seat_taken"
            led.seats[write.account] = write.table
            return led.balances[write.account]
        if isinstance(write, io.ReleaseSeat):
            if led.seats.get(write.account) == write.table:
                del led.seats[write.account]
                led.tuoguan.discard(write.account)
            return None
        if isinstance(write, io.SetTuoguan):
            if led.seats.get(write.account) == write.table:
                (led.tuoguan.add if write.on else led.tuoguan.discard)(write.account)
            return None
        if isinstance(write, io.StartHand):
            self._next_hand_id += 1
            led.hands[self._next_hand_id] = {"status": "live", "steps": 0, "start": write}
            led.move(write.fees)
            return self._next_hand_id
        if isinstance(write, io.Step):
            hand = led.hands[write.hand]
            assert hand["status"] == "live"
            assert write.seq == hand["steps"] + 1, "a gap in the action log"
            hand["steps"] = write.seq
            return None
        hand = led.hands[write.hand]
        assert hand["status"] == "live", "a hand closed twice"
        hand["status"] = "done" if isinstance(write, io.CloseHand) else "aborted"
        led.move(write.moves)
        return None

    # --- people --------------------------------------------------------------------------

    def join(self, account: int, name: str, balance: int = 10_000) -> None:
        if account not in self.ledger.balances:
            self.ledger.balances[account] = balance
            self.ledger.issued += balance
        self.connected.add(account)
        self.feed(io.Join(account, name, self.ledger.balances[account]))

    def ready(self, account: int) -> None:
        self.feed(io.Ready(account))

    def act(self, account: int, action: str, version: int | None = None) -> None:
        if version is None:
            version = self.last_view(account)["version"]
        self.feed(io.Act(account, action, version))

    def leave(self, account: int, escape: bool = False) -> None:
        self.feed(io.Leave(account, escape))

    def disconnect(self, account: int) -> None:
        self.connected.discard(account)
        self.feed(io.Disconnect(account))

    def connect(self, account: int) -> None:
        self.connected.add(account)
        self.feed(io.Connect(account))

    # --- time ----------------------------------------------------------------------------

    def run(self, seconds: float) -> None:
        """Let ``seconds`` pass, firing every timer due."""
        end = self.now + seconds
        while self.timers and self.timers[0][0] <= end:
            when, _, key, token = heapq.heappop(self.timers)
            self.now = max(self.now, when)
            self.feed(io.TimerFired(key, token))
        self.now = end

    # --- reading -------------------------------------------------------------------------

    def last(self, account: int, kind: str) -> dict[str, Any]:
        for found in self.frames[account][::-1]:
            if found["type"] == kind:
                return found
        raise AssertionError(f"no {kind} frame for {account}")

    def last_view(self, account: int) -> dict[str, Any]:
        return self.last(account, "view")

    def kinds(self, account: int) -> list[str]:
        return [f["type"] for f in self.frames[account]]

    def my_turn(self, account: int) -> bool:
        if not self.machine.hand or self.machine.phase != "live":
            return False
        frames = [f for f in self.frames[account] if f["type"] == "view"]
        return bool(frames) and bool(frames[-1]["view"]["legal"])

    def play_until_over(self, account: int, pick: int = -1, limit: float = 3000.0) -> None:
        """Play the person's turns with ``legal[pick]`` until the hand ends."""
        spent = 0.0
        while self.machine.phase == "live" and spent < limit:
            view = self.last_view(account)
            legal = view["view"]["legal"]
            seat = self.machine.seat_of(account)
            movers = self.machine._movers() if self.machine.hand else []
            if legal and seat in movers:
                self.act(account, _action_text(legal[pick]), view["version"])
            else:
                self.run(0.5)
                spent += 0.5


#: events whose tiles or cards only their own seat may see (rules, end of Mazhan §5)
_PRIVATE = {"dealt", "draw", "deal"}
#: events only their own seat is shown at all (a seat's own decision, its claim that lost)
_OWN = {"decision", "claim_lost"}


def _shows_only_its_seat(frame: dict[str, Any]) -> None:
    """A view frame's events (live or a connection's catch-up) name no tile or card another
    seat holds hidden: another seat's dealt tiles or cards and draws, a card played face
    down; and none is another seat's own decision or lost claim."""
    seat = frame["view"]["seat"]
    for e in frame["events"]:
        if e.get("seat") in (None, seat):
            continue
        assert e["kind"] not in _OWN, f"seat {seat} shown {e}"
        if e["kind"] in _PRIVATE:
            assert not e.get("tiles") and not e.get("cards"), f"seat {seat} shown {e}"
        if e["kind"] == "play" and e.get("detail") == "mie":
            assert e.get("card") is None, f"seat {seat} shown {e}"


def _action_text(item: Any) -> str:
    return item["action"] if isinstance(item, dict) else str(item)
