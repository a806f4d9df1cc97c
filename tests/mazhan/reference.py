"""An independent, slow reference for complete hands: a plain recursive search."""

from __future__ import annotations

from functools import cache


def reference_complete(counts: tuple[int, ...], wilds: int) -> bool:
    """True when 34 natural counts plus ``wilds`` ★ form sets and exactly one pair."""
    if (sum(counts) + wilds) % 3 != 2:
        return False
    return _solve(counts, wilds, True)


@cache
def _solve(counts: tuple[int, ...], wilds: int, need_pair: bool) -> bool:
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        # only ★ left: a pair of ★ and sets of three ★
        rest = wilds - (2 if need_pair else 0)
        return rest >= 0 and rest % 3 == 0
    c = list(counts)
    # the lowest tile is in a pung, the pair or a chow
    for size, pair in ((3, False), (2, True)):
        if pair and not need_pair:
            continue
        for natural in range(min(size, c[i]), 0, -1):
            use = size - natural
            if use > wilds:
                continue
            c[i] -= natural
            if _solve(tuple(c), wilds - use, need_pair and not pair):
                return True
            c[i] += natural
    if i < 27:
        rank = i % 9
        for start in range(max(0, rank - 2), min(rank, 6) + 1):
            base = i - rank + start
            used = 0
            taken = []
            for k in range(base, base + 3):
                if k < i:
                    used += 1
                elif k == i or c[k] > 0:
                    taken.append(k)
                else:
                    used += 1
            if used > wilds:
                continue
            for k in taken:
                c[k] -= 1
            ok = _solve(tuple(c), wilds - used, need_pair)
            for k in taken:
                c[k] += 1
            if ok:
                return True
    return False
