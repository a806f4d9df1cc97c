"""Setup shared by the tests of the table machine's parts: a table run in memory
(:class:`~tests.server.machine_sim.Sim`) that also records every output the machine
decides, and can hold back the answer that a turn's frame was shown
(:class:`~paiju.server.table.io.Delivered`), so a test says when it reaches the player.

>>> t = Table(alone=True)
>>> t.join(1, "ana")
>>> [type(o).__name__ for o in t.outputs][:3]
['Store', 'SetTimer', 'Changed']
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, TypeVar

from paiju.server.rooms import ROOMS, Room
from paiju.server.table import TableMachine, Timing, io
from paiju.server.table.state import Player
from tests.server.machine_sim import Sim, _action_text

MAZHAN = ROOMS["mazhan"]
MADIAO = ROOMS["madiao"]
#: the clocks of these tests: the defaults but a quicker bot
TIMING = Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.3, disconnect=180, claim_pause=1)

Out = TypeVar("Out", bound=io.Output)

__all__ = [
    "MADIAO",
    "MAZHAN",
    "TIMING",
    "Table",
    "action_text",
    "alone_hand",
    "bare",
    "of",
    "player",
    "sends",
    "stored_answers",
    "timers",
]

action_text = _action_text


class Table(Sim):
    """A :class:`Sim` that keeps every output (``outputs``) and, for the accounts in
    ``hold``, keeps a turn's frame's ack (``acks``) instead of answering it at once:
    :meth:`deliver` answers it. With ``hold_bots`` the bots' decisions asked for are kept
    (``asked``), not run: the test answers them (:class:`~paiju.server.table.io.BotMove`)."""

    def __init__(self, room: Room = MAZHAN, **kw: Any) -> None:
        kw.setdefault("timing", TIMING)
        super().__init__(room, **kw)
        self.outputs: list[io.Output] = []
        self.hold: set[int] = set()
        self.acks: dict[int, tuple[int, int]] = {}  # account → (ack, the frame's version)
        #: accounts whose settlement frame's ack is kept too (:meth:`deliver` answers it)
        self.hold_settlement: set[int] = set()
        self.hold_bots = False
        self.asked: list[io.Decide] = []

    def handle(self, outputs: list[io.Output]) -> None:
        self.outputs.extend(outputs)
        passed: list[io.Output] = []
        for out in outputs:
            if isinstance(out, io.Send) and out.ack and self._holds(out):
                self.acks[out.account] = (out.ack, out.frame.get("version", -1))
                out = dataclasses.replace(out, ack=0)
            if isinstance(out, io.Decide) and self.hold_bots:
                self.asked.append(out)
                continue
            passed.append(out)
        super().handle(passed)

    def _holds(self, out: io.Send) -> bool:
        if out.frame.get("type") == "settlement":
            return out.account in self.hold | self.hold_settlement
        return out.account in self.hold

    def mark(self) -> int:
        """Where the outputs stand now (for :meth:`since`)."""
        return len(self.outputs)

    def since(self, mark: int) -> list[io.Output]:
        return self.outputs[mark:]

    def deliver(self, account: int) -> None:
        """The held frame offering a turn (or the held settlement) is shown to ``account``
        now."""
        ack, version = self.acks.pop(account)
        if version >= 0:
            self.shown_turns[account].append((self.now, version))  # the simulator's check
        self.feed(io.Delivered(account, ack))

    def seat(self, account: int) -> Player:
        """The player of ``account`` (seated)."""
        return player(self.machine, account)

    def my_move(self, account: int = 1, prompt: bool | None = False) -> bool:
        """True when it is the account's seat's turn (a claim prompt when ``prompt``, not
        one when False, either when None): its turn has begun (the claim pause does not
        hold it)."""
        m = self.machine
        seat = m.seat_of(account)
        hand = m.hand
        if hand is None or hand.id is None or m.phase != "live" or seat not in hand.turns:
            return False
        asked = m.game.is_prompt(hand.state, m.game.seats[seat])
        return prompt is None or asked == prompt

    def until(self, account: int = 1, prompt: bool | None = False, step: float = 0.05) -> None:
        """Let time pass (bots play; the person's other turns played with the last legal
        action) until the account's seat must decide (see :meth:`my_move`)."""
        for _ in range(20_000):
            if self.my_move(account, prompt):
                return
            if self.my_move(account, None) and account not in self.hold:
                self.act(account, action_text(self.last_view(account)["view"]["legal"][-1]))
            else:
                self.run(step)
        raise AssertionError("the turn never came")


def alone_hand(room: Room = MAZHAN, seed: int = 1, hold: bool = False, **kw: Any) -> Table:
    """A live hand of one person (account 1, ana) with three bots; ``hold``: the frames
    offering ana a turn are shown only when the test says (:meth:`Table.deliver`)."""
    t = Table(room, alone=True, seed=seed, **kw)
    if hold:
        t.hold.add(1)
    t.join(1, "ana")
    t.ready(1)
    t.run(1.0)
    assert t.machine.phase == "live"
    return t


def bare(room: Room = MAZHAN, seed: int = 1, **kw: Any) -> TableMachine:
    """A table machine on its own, fed by hand."""
    return TableMachine(1, room, kw.pop("timing", TIMING), random.Random(seed), **kw)


def player(m: TableMachine, account: int) -> Player:
    found = m.sitting(account)
    assert found is not None, f"{account} does not sit here"
    return found[1]


def of(kind: type[Out], outputs: list[io.Output]) -> list[Out]:
    """The outputs of one kind, in order."""
    return [o for o in outputs if isinstance(o, kind)]


def sends(outputs: list[io.Output], account: int, kind: str | None = None) -> list[dict[str, Any]]:
    """The frames for ``account`` (of ``kind``) among the outputs."""
    return [
        o.frame
        for o in of(io.Send, outputs)
        if o.account == account and (kind is None or o.frame["type"] == kind)
    ]


def timers(outputs: list[io.Output], key: str) -> list[float]:
    """The delays of the timers set for ``key`` among the outputs."""
    return [o.delay for o in of(io.SetTimer, outputs) if o.key == key]


def stored_answers(m: TableMachine, outputs: list[io.Output], now: float) -> list[io.Output]:
    """Answer every write among ``outputs`` as durable (a seat's claim with a balance of
    10 000), and what the machine does then."""
    out: list[io.Output] = []
    for store in of(io.Store, outputs):
        result = 10_000 if isinstance(store.write, io.ClaimSeat) else None
        out += m.handle(io.Stored(store.op, result), now)
    return out
