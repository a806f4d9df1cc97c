"""The four Ma Diao seats; play runs counter-clockwise: E → S → W → N → E.

>>> Seat.W.number, Seat.N.next
(3, <Seat.E: 'E'>)
"""

from __future__ import annotations

from enum import Enum

__all__ = ["SEATS", "Seat"]


class Seat(Enum):
    """A seat by letter; ``number`` is 1–4 in play order.

    >>> Seat("S").number
    2
    """

    E = "E"
    S = "S"
    W = "W"
    N = "N"

    def __init__(self, letter: str) -> None:
        #: 1–4 in play order.
        self.number: int = "ESWN".index(letter) + 1

    @property
    def next(self) -> Seat:
        """The next seat in play order.

        >>> Seat.S.next
        <Seat.W: 'W'>
        """
        return SEATS[self.number % 4]


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.E, Seat.S, Seat.W, Seat.N)
