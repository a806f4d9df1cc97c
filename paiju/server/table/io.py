"""What goes into a table machine and what comes out (:mod:`paiju.server.table`).

Inputs are what happened: a player's message, a socket opening or closing, a timer firing, a
bot's decision, the storage's answer to a write. Outputs are what the machine decided: frames
to send to accounts, writes to make durable, timers to set or cancel, bot decisions to run,
and news for the hub. The machine does no I/O; :mod:`paiju.server.table.runner` carries the
outputs out and feeds the answers back.

Money and seats are decisions too: the writes (:mod:`paiju.server.table.writes`, named here
as well) carry the exact ledger movements the storage applies in one transaction.

>>> Store(3, Step(hand=7, seq=12, action="S peng")).write.seq
12
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from paiju.server.table.writes import (
    AbortHand,
    ClaimSeat,
    CloseHand,
    Moves,
    ReleaseSeat,
    SetTuoguan,
    StartHand,
    Step,
    Write,
)

__all__ = [
    "AbortHand",
    "Act",
    "BotMove",
    "CancelTimer",
    "Changed",
    "ClaimSeat",
    "CloseHand",
    "Connect",
    "Decide",
    "Delivered",
    "Disconnect",
    "Empty",
    "Failed",
    "Fill",
    "Hint",
    "Input",
    "Join",
    "Leave",
    "Lost",
    "Moves",
    "Output",
    "Ready",
    "ReleaseSeat",
    "Resend",
    "SeatedInput",
    "Send",
    "SetTimer",
    "SetTuoguan",
    "SettlementShown",
    "StartHand",
    "Step",
    "Store",
    "Stored",
    "TimerFired",
    "Trouble",
    "Tuoguan",
    "Unreached",
    "Unwatch",
    "Watch",
    "Write",
]


# --- inputs ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """Seat a new player here (the hub chose this table); ``balance`` is theirs now."""

    account: int
    name: str
    balance: int


@dataclass(frozen=True, slots=True)
class Connect:
    """A seated player's socket is open (again): send them everything they may see."""

    account: int


@dataclass(frozen=True, slots=True)
class Disconnect:
    """A seated player's socket closed."""

    account: int


@dataclass(frozen=True, slots=True)
class Unreached:
    """A seated player's socket cannot be reached now (the process holding it does not
    answer, or cannot reach this one): not their doing. Their turn waits with no clock, for
    as long as a player may be away (``Timing.disconnect``); after that their turns run out
    uncounted, and never is it an escape. A frame shown to them again, or their connecting,
    reaches them. The timeouts counted in the last ``window`` seconds (at least
    ``Timing.cut_off_window``: the time the house took to find out) were not theirs."""

    account: int
    window: float = 0.0


@dataclass(frozen=True, slots=True)
class Resend:
    """Send a connected player the table as it stands again (a frame may have been lost on
    its way to another process)."""

    account: int


@dataclass(frozen=True, slots=True)
class Ready:
    """A player confirms the next hand."""

    account: int


@dataclass(frozen=True, slots=True)
class SettlementShown:
    """A player's page has shown the settlement whole (the 開沖 reveal and the win's
    presentation done, or skipped): their ready clock starts now."""

    account: int


@dataclass(frozen=True, slots=True)
class Watch:
    """An account (not seated here) watches the table: public information only, one
    public change behind (:mod:`paiju.server.table.spectate`)."""

    account: int


@dataclass(frozen=True, slots=True)
class Unwatch:
    """An account stops watching the table (it asked, or its socket closed)."""

    account: int


@dataclass(frozen=True, slots=True)
class Act:
    """A player's action, as sent: the action string and the version it names."""

    account: int
    action: str
    version: int


@dataclass(frozen=True, slots=True)
class Tuoguan:
    """A player switches auto-play (托管)."""

    account: int
    on: bool


@dataclass(frozen=True, slots=True)
class Suspend:
    """An admin suspended this account: 托管 plays its seat to the hand's end, its going
    away is no escape, and between hands it is unseated, all without a penalty."""

    account: int


@dataclass(frozen=True, slots=True)
class Drain:
    """The process is going away: the live hand plays on to its end, no other starts."""


@dataclass(frozen=True, slots=True)
class Leave:
    """A player leaves the table (``escape``: a live hand too, as an escape)."""

    account: int
    escape: bool = False


@dataclass(frozen=True, slots=True)
class Fill:
    """A player at a private table asks bots to take the empty seats now."""

    account: int


@dataclass(frozen=True, slots=True)
class Hint:
    """A player at a table of bots asks what the room's default bot would play at the view
    of ``version``."""

    account: int
    version: int


@dataclass(frozen=True, slots=True)
class TimerFired:
    """A timer the machine set has run out."""

    key: str
    token: int


@dataclass(frozen=True, slots=True)
class BotMove:
    """A bot (or 托管, or the clock's default player) chose ``action`` for ``seat``."""

    seat: int
    token: int
    action: Any


@dataclass(frozen=True, slots=True)
class Delivered:
    """The frame sent with ``ack`` was handed to the account's connection (on this process,
    or on the process that holds their socket): the turn it offers has been shown."""

    account: int
    ack: int


@dataclass(frozen=True, slots=True)
class Stored:
    """Write ``op`` is durable; ``result`` is what it returned (a new hand's id)."""

    op: int
    result: Any = None


@dataclass(frozen=True, slots=True)
class Trouble:
    """Write ``op`` failed for now (the storage is unreachable); it is being retried."""

    op: int
    error: str


@dataclass(frozen=True, slots=True)
class Failed:
    """Write ``op`` can never succeed: ``seat_taken`` (the account sits elsewhere) or
    ``fenced`` (another process has written this table's hand on)."""

    op: int
    code: str


#: The inputs only a seated player may send.
SeatedInput = Ready | SettlementShown | Act | Tuoguan | Leave | Fill | Hint
Input = (
    Join
    | Connect
    | Disconnect
    | Unreached
    | Resend
    | Ready
    | SettlementShown
    | Watch
    | Unwatch
    | Act
    | Tuoguan
    | Suspend
    | Drain
    | Leave
    | Fill
    | Hint
    | TimerFired
    | BotMove
    | Delivered
    | Stored
    | Trouble
    | Failed
)


# --- outputs -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Send:
    """A frame for an account's socket (dropped if they have none). ``after`` is the last
    write the frame depends on: the machine emits it only once that write and every one
    before it are durable (0: it depends on none). ``ack``, when not 0: the frame offers a
    turn, and its clock starts only once it is shown: answer :class:`Delivered` with it when
    the frame has been handed to the account's connection (never, if it cannot be)."""

    account: int
    frame: dict[str, Any]
    after: int = 0
    ack: int = 0


@dataclass(frozen=True, slots=True)
class Store:
    """Make ``write`` durable; the answer comes back as :class:`Stored`, :class:`Trouble`
    or :class:`Failed` naming ``op``. A table's writes are carried out in order."""

    op: int
    write: Write


@dataclass(frozen=True, slots=True)
class SetTimer:
    """Fire ``TimerFired(key, token)`` after ``delay`` seconds (replacing the key's timer)."""

    key: str
    delay: float
    token: int


@dataclass(frozen=True, slots=True)
class CancelTimer:
    """Cancel the key's timer."""

    key: str


@dataclass(frozen=True, slots=True)
class Decide:
    """Run ``bot.act(view, legal, rng)`` for ``seat`` and answer with :class:`BotMove`."""

    seat: int
    token: int
    bot: Any
    view: Any
    legal: tuple[Any, ...]
    rng: random.Random = field(compare=False)


@dataclass(frozen=True, slots=True)
class Changed:
    """The table's seating or liveness changed (the lobby, the cluster registry)."""


@dataclass(frozen=True, slots=True)
class Empty:
    """Nobody sits at the table any more and nothing is left to write: the hub drops it."""


@dataclass(frozen=True, slots=True)
class Lost:
    """Another process plays this table now: stop it and let it go."""


Output = Send | Store | SetTimer | CancelTimer | Decide | Changed | Empty | Lost
