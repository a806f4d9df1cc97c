"""The four seats E, S, W, N as an enum base: each game's ``Seat`` adds its own members.

An enum with members cannot be subclassed, so the base holds none; a core writes
``class Seat(SeatEnum): E = "E"; S = "S"; W = "W"; N = "N"`` (in play order) and gets
``number`` and ``next``.

>>> class Seat(SeatEnum):
...     E = "E"
...     S = "S"
...     W = "W"
...     N = "N"
>>> Seat.W.number, Seat.N.next
(3, <Seat.E: 'E'>)
"""

from __future__ import annotations

from typing import Self

from paiju.kit.enums import FastEnum

__all__ = ["SeatEnum"]


class SeatEnum(FastEnum):
    """A seat by its letter (E S W N); ``number`` is 1–4 in play order (seats hash by
    identity, :class:`~paiju.kit.enums.FastEnum`).

    >>> Seat = SeatEnum("Seat", {letter: letter for letter in "ESWN"})
    >>> Seat("S").number
    2
    """

    def __init__(self, letter: str) -> None:
        #: 1 for East up to 4 for North, in play order.
        self.number: int = "ESWN".index(letter) + 1

    @property
    def next(self) -> Self:
        """The next seat in play order (下家): North's is East.

        >>> Seat = SeatEnum("Seat", {letter: letter for letter in "ESWN"})
        >>> Seat.S.next, Seat.N.next
        (<Seat.W: 'W'>, <Seat.E: 'E'>)
        """
        return list(type(self))[self.number % 4]
