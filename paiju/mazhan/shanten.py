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
from functools import cache, lru_cache

__all__ = ["shanten"]

_Readings = tuple[tuple[int, int, int], ...]


@cache
def _suit(counts: bytes, honor: bool) -> _Readings:
    """Pareto-best (sets, partials, head) readings of one suit's counts (as bytes: neither
    they nor the key they make are tracked by the garbage collector)."""
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
        for m, t, h in _suit(bytes(c), honor):
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
    need = 5 - melds
    key = bytes(counts)
    known = _BEST.get(need)
    if known is None:
        known = _BEST[need] = {}
    best = known.get(key)
    if best is None:
        if len(key) != 34:
            raise ValueError(f"shanten counts 34 faces, not {len(key)}")
        best = _best(key, need)
        if len(known) >= _BEST_SIZE:
            known.clear()
        known[key] = best
    return max(-1, best - wilds)


#: :func:`_best` by the number of sets to make, then by the 34 counts as bytes (kept: a bot
#: asks about the same few hands again and again, a tile more or less). Bytes keys and int
#: values leave the tables out of the garbage collector's walks, where a cache keyed by
#: tuples added two tracked objects per new hand: a server's bots ask about tens of
#: thousands of new hands a second. A table is emptied when it reaches :data:`_BEST_SIZE`.
_BEST: dict[int, dict[bytes, int]] = {}
_BEST_SIZE = 1 << 16


def _best(c: bytes, need: int) -> int:
    """Shanten before ★ of these counts, ``need`` sets to make."""
    return _combine(
        _suit(c[0:9], False), _suit(c[9:18], False), _suit(c[18:27], False), _suit(c[27:34], True),
        need,
    )  # fmt: skip


@lru_cache(maxsize=1 << 16)
def _combine(ra: _Readings, rb: _Readings, rc: _Readings, rd: _Readings, need: int) -> int:
    """The best shanten before ★ over one reading per suit (kept too: many hands share
    their suits' readings)."""
    # The value falls (or stays) as sets, partial sets or the head grow, so only the
    # Pareto-best sums of two suits matter (partial sets capped at ``need``, the head at 1):
    # merge the suits pairwise, dropping dominated sums, then take the best.
    ab = _merge(ra, rb, need)
    abc = _merge(ab, rc, need)
    best = 99
    for m0, t0, h0 in abc:
        for m1, t1, h1 in rd:
            m = m0 + m1
            head = min(1, h0 + h1)
            t = min(t0 + t1, max(0, need - m))
            best = min(best, 2 * (need - m) - t - head)
    return best


def _merge(x: _Readings, y: _Readings, need: int) -> _Readings:
    sums = {(a[0] + b[0], min(need, a[1] + b[1]), min(1, a[2] + b[2])) for a in x for b in y}
    if len(sums) <= 2:
        return tuple(sums)
    # keep the sums no other is at least as good as in all three: from the most sets down,
    # a sum is dominated only by one kept before it (as many sets or more)
    kept: list[tuple[int, int, int]] = []
    for a in sorted(sums, reverse=True):
        _, t, h = a
        for b in kept:
            if b[1] >= t and b[2] >= h:
                break
        else:
            kept.append(a)
    return tuple(kept)
