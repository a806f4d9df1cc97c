"""What one seat may know, as JSON: the fields every game's view starts with
(:func:`view_head`; each core's ``views`` module adds its own)."""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["SeatView", "view_head"]


class _Coded(Protocol):
    @property
    def value(self) -> str: ...


class SeatView(Protocol):
    """A seat's view: whose it is, the phase, the version, and whose turn it is."""

    @property
    def seat(self) -> _Coded: ...
    @property
    def phase(self) -> _Coded: ...
    @property
    def version(self) -> int: ...
    @property
    def my_turn(self) -> bool: ...
    @property
    def turn(self) -> _Coded | None: ...


def view_head(game: str, fmt: int, view: SeatView) -> dict[str, Any]:
    """The fields every view's JSON starts with (``docs/views.md``): the game, the format ``fmt``,
    the seat, the phase, the version, whether it is the seat's turn, and whose it is.

    >>> from types import SimpleNamespace as NS
    >>> v = NS(seat=NS(value="S"), phase=NS(value="play"), version=3, my_turn=True, turn=None)
    >>> list(view_head("dice", 1, v).items())[2:]
    [('seat', 'S'), ('phase', 'play'), ('version', 3), ('my_turn', True), ('turn', None)]
    """
    turn = view.turn
    return {
        "game": game,
        "format": fmt,
        "seat": view.seat.value,
        "phase": view.phase.value,
        "version": view.version,
        "my_turn": view.my_turn,
        "turn": None if turn is None else turn.value,
    }
