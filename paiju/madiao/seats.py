"""The four Ma Diao seats; play runs counter-clockwise: E → S → W → N → E.

>>> Seat.W.number, Seat.N.next
(3, <Seat.E: 'E'>)
"""

from __future__ import annotations

from paiju.kit.seats import SeatEnum

__all__ = ["SEATS", "Seat"]


class Seat(SeatEnum):
    """A seat by letter; ``number`` is 1–4 in play order, ``next`` the next seat
    (:class:`~paiju.kit.seats.SeatEnum`).

    >>> Seat("S").number, Seat.S.next
    (2, <Seat.W: 'W'>)
    """

    E = "E"
    S = "S"
    W = "W"
    N = "N"


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.E, Seat.S, Seat.W, Seat.N)
