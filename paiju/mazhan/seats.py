"""The four seats (rules §2): East is always the dealer; play runs E → S → W → N.

>>> Seat.W.number, Seat.W.wind, Seat.W.next, Seat.W.name_zh
(3, Tile.parse('3z'), <Seat.N: 'N'>, '西')
"""

from __future__ import annotations

from paiju.kit.seats import SeatEnum
from paiju.mazhan.tiles import ALL_TILES, Tile

__all__ = ["SEATS", "Seat"]


class Seat(SeatEnum):
    """A seat by its wind letter; ``number`` is 1–4 (E S W N), 1 for East up to 4 for North
    (a flower or season matches a seat of its number); ``next`` is the next seat in play
    order, 下家 (:class:`~paiju.kit.seats.SeatEnum`); ``wind`` is its wind tile (1z–4z),
    ``name_zh`` 東, 南, 西 or 北.

    >>> Seat("S").number, Seat.N.next, Seat.E.wind, Seat.E.name_zh
    (2, <Seat.E: 'E'>, Tile.parse('1z'), '東')
    """

    E = "E"
    S = "S"
    W = "W"
    N = "N"

    def __init__(self, letter: str) -> None:
        super().__init__(letter)
        #: The seat's wind tile (1z–4z).
        self.wind: Tile = ALL_TILES[26 + self.number]
        #: 東, 南, 西 or 北.
        self.name_zh: str = "東南西北"[self.number - 1]

    def after(self, steps: int) -> Seat:
        """The seat ``steps`` places later in play order.

        >>> Seat.W.after(3)
        <Seat.S: 'S'>
        """
        return SEATS[(self.number - 1 + steps) % 4]


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.E, Seat.S, Seat.W, Seat.N)
