"""What a Mazhan hand is likely to be worth if it wins: the expert's value model.

``strong`` rates a hand's value by small additive bonuses (a flush, a pair of dragons) beside
its acceptance. The rules pay by doubling (each 台 ×2), cap at 400 and pay a limit hand
(清一色, 4 台) the cap, so a value that is eight times another is not "32 points" more. This
module estimates the winner's value H (rules §7) of the hand a seat heads for, from what the
seat holds and has laid down:

- what is already sure: melds, concealed natural triplets and bonus tiles give the base
  (rounded up, + 20: 胡頭), matching flowers, whites and pungs of 中, 發 or the seat wind a
  台 each;
- what may come: a pair of 中, 發 or the seat wind may become a pung (more likely with ★ in
  hand, less with few copies unseen); a hand of pairs and pungs with no chow laid down may
  become 對對胡; a hand nearly all of one suit may become 清一色 (the cap) or 混一色;
  a seat with no bonus tile and no pung may win 平胡 (100, or the cap with two ★);

each as a rough probability, mixed into an expected H. :func:`stake_doublings` turns it
into what the expert's rating adds: log2 of what winning is worth against losing to
another seat, so that a step of value is weighed like a step of speed (a hand twice as
likely to win is as good as a hand whose win is worth twice as much to this seat).

>>> v = HandValue.parse("123m456m789m11m", bonus="", seat_number=2)
>>> 0 < v.expected() <= 400
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.tiles import Tile, parse_tiles

__all__ = ["HandValue", "stake_doublings"]

_GREEN, _RED, _WHITE = 32, 33, 31
#: Rough chances, per tile still needed, that a hand gets there (for the flushes).
_FLUSH_STEP = 0.4
#: Rough chance per copy unseen that a pair becomes a pung before the hand ends, and per ★.
_PUNG_PER_UNSEEN = 0.2
_PUNG_PER_WILD = 0.3
#: Rough chance that a seat still able to win 平胡 does (on a discard, no bonus tile drawn
#: meanwhile, no pung in the end).
_PINGHU = 0.3


def _round_up(base: float) -> int:
    return math.ceil(base / 10.0 - 1e-9) * 10


@dataclass(slots=True)
class HandValue:
    """A seat's hand for the value model: concealed natural counts (34, ★ apart), ★ held,
    the seat's melds (laid down, or about to be), its bonus tiles and its seat number
    (1 East … 4 North), and the copies of each face it cannot see (``unseen``; all four
    when not given).

    >>> HandValue.parse("777z555p", bonus="2j", seat_number=2).sure_tai()  # 中, 2j
    2
    """

    counts: list[int]
    wilds: int
    melds: Sequence[Meld]
    bonus: Sequence[Tile]
    seat_number: int
    unseen: Sequence[int] | None = None

    @staticmethod
    def parse(
        concealed: str,
        bonus: str = "",
        seat_number: int = 1,
        melds: Sequence[str] = (),
        wilds: int = 0,
    ) -> HandValue:
        """A hand from its notation (a test's and a docstring's way).

        >>> HandValue.parse("11z", seat_number=1, melds=["pung 777z"]).sure_tai()
        1
        """
        counts = [0] * 34
        for t in parse_tiles(concealed):
            counts[t.index] += 1
        return HandValue(
            counts,
            wilds,
            [Meld.parse(m) for m in melds],
            parse_tiles(bonus) if bonus else [],
            seat_number,
        )

    def _honour_faces(self) -> tuple[int, ...]:
        return (_GREEN, _RED, 26 + self.seat_number)

    def sure_base(self) -> int:
        """The base points already certain: melds, concealed natural triplets, bonus tiles.

        >>> HandValue.parse("111z", seat_number=2, melds=["pung 555p"], bonus="1h").sure_base()
        14
        """
        base = 4 * len(self.bonus)
        for m in self.melds:
            if m.kind is MeldKind.CHOW:
                continue
            big = m.face.is_terminal_or_honor
            unit = {MeldKind.PUNG: 2, MeldKind.KONG: 8, MeldKind.CKONG: 16}[m.kind]
            base += unit * (2 if big else 1)
        for f, c in enumerate(self.counts):
            if c >= 3:
                base += 8 if Tile(f).is_terminal_or_honor else 4
        return base

    def sure_tai(self) -> int:
        """The 台 already certain: matching flowers and seasons, whites, pungs and kongs
        of 中, 發 or the seat wind (laid down or concealed).

        >>> HandValue.parse("", seat_number=1, bonus="1h1j5z5z").sure_tai()
        3
        """
        tai = 0
        whites = 0
        for b in self.bonus:
            if b.index == _WHITE:
                whites += 1
            elif b.index >= 34 and (b.index - 34) % 4 + 1 == self.seat_number:
                tai += 1
        tai += whites // 2
        faces = self._honour_faces()
        for m in self.melds:
            if m.kind is not MeldKind.CHOW and m.face.index in faces:
                tai += 1
        for f in set(faces):
            if self.counts[f] >= 3:
                tai += 1
        return tai

    def as_loser(self) -> int:
        """What this hand is worth as it stands if another seat wins: a non-winner's U
        (rules §7) = min(400, rounded base × 2^台), from melds, concealed natural triplets
        and bonus tiles. The non-winners settle their differences in U, so it is paid
        whenever the seat does not win.

        >>> HandValue.parse("999m", seat_number=1, melds=["pung 777z"], bonus="1h").as_loser()
        80
        """
        return min(400, _round_up(self.sure_base()) * (1 << self.sure_tai()))

    def as_loser_smooth(self) -> float:
        """:meth:`as_loser` before rounding the base up: what a point of base is worth on
        average, as more points may come before the hand ends (a point that does not move
        the rounded base now may move it later).

        >>> hand = HandValue.parse("999m", seat_number=1, melds=["pung 777z"], bonus="1h")
        >>> hand.as_loser_smooth()
        64.0
        """
        return min(400.0, float(self.sure_base() * 2 ** self.sure_tai()))

    def expected(self) -> float:
        """The expected winner's value H (胡) if this hand wins, capped at 400.

        >>> round(HandValue.parse("123456789m123m11m").expected())
        400
        """
        wilds = self.wilds
        unseen = self.unseen if self.unseen is not None else [4] * 34
        tai = self.sure_tai()
        # pairs of scoring honours: each a 台 with some chance
        factor = 1.0
        for f in set(self._honour_faces()):
            if self.counts[f] == 2:
                p = min(0.8, _PUNG_PER_UNSEEN * unseen[f] + _PUNG_PER_WILD * wilds)
                factor *= 1.0 + p
        # 對對胡: no chow laid down, pairs and pungs enough
        if not any(m.kind is MeldKind.CHOW for m in self.melds):
            groups = sum(1 for m in self.melds) + sum(1 for c in self.counts if c >= 2)
            groups += wilds
            if groups >= 6:
                factor *= 1.6
            elif groups == 5:
                factor *= 1.35
            elif groups == 4:
                factor *= 1.1
        base = _round_up(self.sure_base() + 2)  # + 自摸 or 獨張, often
        plain = min(400.0, (base + 20) * (2.0**tai) * factor)
        if tai >= 4:
            plain = 400.0
        # 平胡: no bonus tile, no pung, chows only (won on a discard)
        if (
            not self.bonus
            and all(m.kind is MeldKind.CHOW for m in self.melds)
            and all(c < 3 for c in self.counts)
        ):
            pinghu = 400.0 if wilds >= 2 else min(400.0, 100.0 * 2.0**tai)
            plain = (1.0 - _PINGHU) * plain + _PINGHU * max(plain, pinghu)
        # flushes
        clean, mixed = self._flush_chances()
        mixed_value = 400.0 if tai + 1 >= 4 else min(400.0, plain * 2.0)
        return clean * 400.0 + (1.0 - clean) * (mixed * mixed_value + (1.0 - mixed) * plain)

    def _flush_chances(self) -> tuple[float, float]:
        """Rough chances of 清一色 and (otherwise) 混一色."""
        suits = {m.face.suit for m in self.melds if m.face.is_suited}
        honour_melds = any(not m.face.is_suited for m in self.melds)
        if len(suits) > 1:
            return 0.0, 0.0
        per_suit = [sum(self.counts[s * 9 : s * 9 + 9]) for s in range(3)]
        honours = sum(self.counts[27:34])
        if suits:
            top = "mps".index(next(iter(suits)).value)
        else:
            top = max(range(3), key=lambda s: per_suit[s])
        off = sum(per_suit) - per_suit[top]
        if per_suit[top] == 0 and not suits:
            return 0.0, 0.0
        clean = 0.0 if honour_melds else _FLUSH_STEP ** (off + honours)
        mixed = _FLUSH_STEP**off if (honours or honour_melds) else 0.0
        return clean, mixed * (1.0 - clean)


def stake_doublings(value: float, dealer: bool, others: float = 60.0) -> float:
    """log2 of what a win worth ``value`` gains this seat against what a loss to another
    seat (worth ``others`` on average) costs it, relative to a plain win of 30: each
    non-winner pays the winner (twice with the dealer), so a win gains about 3 × (4 × for
    a non-dealer, the dealer paying double) its value. Comparable between the hands one
    decision can leave, not across decisions.

    >>> stake_doublings(30.0, dealer=False)
    0.0
    >>> round(stake_doublings(400.0, dealer=False), 2)
    3.21
    """
    win = 3.0 if dealer else 4.0
    lose = 2.0 if dealer else 1.0
    return math.log2((win * value + lose * others) / (win * 30.0 + lose * others))
