"""The table's data: its clocks' settings (:class:`Timing`), who sits in a seat
(:class:`Player`), a seat's turn (:class:`Turn`) and the hand being played (:class:`Hand`).

>>> Timing().turn, Timing().claim_pause, Timing().reading
(15.0, 1.0, 30.0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from paiju.bots.base import Bot

__all__ = ["BOT_NAMES", "HOUSE_FUNDS", "PAUSED", "SEATS", "Hand", "Player", "Timing", "Turn"]

BOT_NAMES = ("春風", "夏雨", "秋月", "冬雪")
SEATS = ("E", "S", "W", "N")
HOUSE_FUNDS = 10**15  # the house is the bank: it pays for its bots
PAUSED = {"type": "paused", "why": "storage"}


@dataclass(frozen=True, slots=True)
class Timing:
    """The table's clocks, in seconds."""

    turn: float = 15.0
    ready: float = 20.0
    #: the longest a player's ready clock waits, once their settlement has reached them, for
    #: their page to say it has shown it whole (``settlement_shown``: the 開沖 reveal, about
    #: 8 s, and a win's presentation); then it starts anyway. A player who never answers
    #: is unseated at most ``reading + ready`` after their settlement reached them.
    reading: float = 30.0
    bot_wait: float = 10.0
    bot_delay: float = 1.0
    disconnect: float = 180.0
    #: after every discard, the pause each seat that cannot claim sees (§5 end)
    claim_pause: float = 1.0
    #: a write not durable after this long pauses the table (storage that stalls is down)
    stall: float = 2.0
    #: how long the house may take to find a player cut off (a cluster's detection: a
    #: process's key 3 s unrenewed and a 1-s check, or a silent subscription's 2 + 3 s): a
    #: timeout counted this shortly before they are found cut off is not theirs, and is undone
    cut_off_window: float = 6.0


@dataclass(slots=True)
class Player:
    """Who sits in a seat: a person (``account``) or a bot (``bot``, its ``level``)."""

    name: str
    account: int | None = None
    level: str | None = None
    bot: str | None = None
    connected: bool = False
    #: since when their socket's process cannot be reached (not their doing), or None
    unreached_since: float | None = None
    confirmed: bool = False
    claiming: bool = False  # the seat is not durable yet
    tuoguan: bool = False
    timeouts: int = 0
    #: when the timeouts of late were counted (a house's fault found later takes them back)
    counted: list[float] = field(default_factory=list)
    balance: int = 0
    # time away from the live hand: one allowance of PAIJU_DISCONNECT_SECONDS per hand, so
    # dropping out before each turn and back after it cannot stall the table for ever
    away: float = 0.0
    left_at: float | None = None
    #: an admin suspended the account: played by 托管, never charged for being away
    suspended: bool = False

    @property
    def reached(self) -> bool:
        """False while their socket's process cannot be reached."""
        return self.unreached_since is None

    @property
    def human(self) -> bool:
        """True for a person."""
        return self.account is not None


@dataclass(slots=True)
class Turn:
    """A seat's turn to decide (a discard, a claim prompt): its clock starts when the frame
    offering it is shown to its player (:class:`~paiju.server.table.io.Delivered`), or at
    once for a bot, 托管 or a player away; ``counted``: its expiry counts a timeout (its
    clock started on a frame the player was shown)."""

    key: tuple[int, bool, bool]  # (the seat's version, a prompt, played for)
    token: int
    deadline: float | None = None
    counted: bool = False
    deciding: bool = False  # a bot's decision for it is on its way


@dataclass(slots=True)
class Hand:
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
    turns: dict[int, Turn] = field(default_factory=dict)
    dealt: list[Any] = field(default_factory=list)  # the deal's events, sent with the first view
    # each person's seat: every event of the hand so far as that seat may see it, a JSON
    # array's items (bytes: nothing for the collector to walk); a seat that (re)connects gets
    # them, so its move log is whole after a reload
    logs: dict[int, bytearray] = field(default_factory=dict)
    # the last hint given: at which (seat, version), and the action (asked again, it is not
    # worked out again)
    hint_at: tuple[int, int] | None = None
    hint_action: str = ""
    # the claim pause (§5 end): after a discard, what the seats that cannot claim are
    # shown (the discard done, a window open to nobody) until the pause is over; the events
    # since, each person's seat's, held for them until then
    settling: Any = None
    pausing: bool = False
    pause_began: float = 0.0  # when the pause began (the table's clock): bots answer by it
    held: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    # what a bot's think time was judged from, by seat: (the state, the seat's view, its
    # legal actions); its decision reads them again while the state is the same object
    judged: dict[int, tuple[Any, Any, Any]] = field(default_factory=dict)
    leaving: list[int] = field(default_factory=list)  # escapes asked as the hand ended
