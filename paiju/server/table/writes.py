"""The writes a table machine asks its storage to make durable (an :class:`~paiju.server.
table.io.Store` output carries one): seats taken and let go, 托管, a hand's start (with its
table fees), each step, its close (with its settlement's movements) or its abort. Money moves
only as a write's exact ledger movements ``(payer, payee, amount)`` (account ids, or
``HOUSE``), which the storage applies in one transaction.

>>> Step(hand=7, seq=12, action="S peng").seq
12
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "AbortHand",
    "ClaimSeat",
    "CloseHand",
    "Moves",
    "ReleaseSeat",
    "SetTuoguan",
    "StartHand",
    "Step",
    "Write",
]

#: Ledger movements: ``(payer, payee, amount)``, account ids or ``HOUSE``.
Moves = Sequence[tuple[int | str, int | str, int]]


@dataclass(frozen=True, slots=True)
class ClaimSeat:
    """The account sits at this table (one seat per account, enforced by the database)."""

    account: int
    table: int


@dataclass(frozen=True, slots=True)
class ReleaseSeat:
    """The account no longer sits at this table."""

    account: int
    table: int


@dataclass(frozen=True, slots=True)
class StartHand:
    """A new hand: its record (seed, rules, setup, seats, stake) and the table fees."""

    table: int
    hand_no: int
    game: str
    seed: int
    ruleset: dict[str, Any]
    setup: dict[str, Any]
    seats: dict[str, Any]
    stake: int
    fees: Moves


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a live hand (its ``seq``-th, 1-based)."""

    hand: int
    seq: int
    action: str


@dataclass(frozen=True, slots=True)
class CloseHand:
    """A finished hand: its result and the settlement's movements."""

    hand: int
    result: dict[str, Any]
    moves: Moves


@dataclass(frozen=True, slots=True)
class AbortHand:
    """An aborted hand (an escape): why, and the penalty's movements."""

    hand: int
    reason: dict[str, Any]
    moves: Moves
    escaper: int


@dataclass(frozen=True, slots=True)
class SetTuoguan:
    """The account's 托管 (auto-play) is on or off: part of the table's durable state, so a
    rebuilt hand plays the seat as its player left it."""

    account: int
    table: int
    on: bool


Write = ClaimSeat | ReleaseSeat | SetTuoguan | StartHand | Step | CloseHand | AbortHand
