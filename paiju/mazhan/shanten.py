"""Shanten with wild tiles: how many tiles a hand is from complete, as players count it.

A hand of ``3n + 1`` or ``3n + 2`` concealed tiles beside ``k`` declared melds is read as
sets, partial sets (a pair, two in a row, two with a gap) and one pair for the head; junk
costs nothing, since it is thrown away. With ``m`` sets (melds included), ``t`` partial sets
(at most ``5 − m`` count) and a head ``h`` (0 or 1), shanten = ``2·(5 − m) − t − h``; each ★
completes one more step. −1 is a complete hand, 0 one tile from complete (聽牌).

Each suit's readings are computed once per count vector and kept, as in
:mod:`paiju.mazhan.hand`.

>>> c = [0] * 34
>>> for i in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 28): c[i] += 1
>>> shanten(c, melds=1), shanten(c, melds=1, wilds=1)  # 123m 123p 123s 111z 2z + a meld
(0, -1)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

__all__ = ["shanten"]

_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


@cache
def _suit(counts: tuple[int, ...], honor: bool) -> tuple[tuple[int, int, int], ...]:
    """Pareto-best (sets, partials, head) readings of one suit's counts."""
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i >= n:
        return ((0, 0, 0),)
    c = list(counts)
    found: set[tuple[int, int, int]] = set()

    def take(removed: Sequence[int], dm: int, dt: int, dh: int) -> None:
        for k in removed:
            c[k] -= 1
        for m, t, h in _suit(tuple(c), honor):
            if h + dh <= 1:
                found.add((m + dm, t + dt, h + dh))
        for k in removed:
            c[k] += 1

    if c[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if not honor and i + 2 < n and c[i + 1] and c[i + 2]:
        take((i, i + 1, i + 2), 1, 0, 0)
    if c[i] >= 2:
        take((i, i), 0, 0, 1)
        take((i, i), 0, 1, 0)
    if not honor:
        for gap in (1, 2):
            if i + gap < n and c[i + gap]:
                take((i, i + gap), 0, 1, 0)
    take((i,), 0, 0, 0)  # the tile at i as junk
    best = [
        a
        for a in found
        if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in found)
    ]
    return tuple(sorted(best))


def shanten(counts: Sequence[int], melds: int = 0, wilds: int = 0) -> int:
    """Shanten of natural tiles (34 counts) plus ``wilds`` ★ beside ``melds`` declared sets.

    >>> c = [0] * 34
    >>> c[0] = c[4] = c[8] = c[33] = 1  # 1m 5m 9m 中 beside four melds: nothing joins
    >>> shanten(c, melds=4), shanten(c, melds=4, wilds=2), shanten(c, melds=4, wilds=3)
    (2, 0, -1)
    """
    options = [_suit(tuple(counts[lo:hi]), lo == 27) for lo, hi in _SPANS]
    best = 99
    need = 5 - melds
    for a in options[0]:
        for b in options[1]:
            for c in options[2]:
                for d in options[3]:
                    m = a[0] + b[0] + c[0] + d[0]
                    head = min(1, a[2] + b[2] + c[2] + d[2])
                    t = min(a[1] + b[1] + c[1] + d[1], max(0, need - m))
                    best = min(best, 2 * (need - m) - t - head)
    return max(-1, best - wilds)
