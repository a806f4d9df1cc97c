"""The 144-tile wall, the seeded shuffle and the dice (rules §1, §3).

The wall is a tuple of face indices in draw order: normal draws take from the head, bonus and
kong replacements from the tail. The dice are rolled and recorded; the break point they name is
cosmetic (§3.2), so the engine deals from the head of the shuffled wall.

>>> wall, dice = shuffled_wall(7)
>>> len(wall), sorted(wall) == sorted(FULL_SET), all(1 <= d <= 6 for d in dice)
(144, True, True)
>>> shuffled_wall(7) == (wall, dice)
True
"""

from __future__ import annotations

import random

from paiju.mazhan.tiles import ALL_TILES

__all__ = ["FULL_SET", "shuffled_wall"]

#: The 144 tiles as face indices: four of each suit tile, wind and dragon, one of each flower
#: and season.
FULL_SET: tuple[int, ...] = tuple(
    t.index for t in ALL_TILES for _ in range(1 if t.index >= 34 else 4)
)
#: The shuffle's steps: the place ``i`` filled, the ``n`` places it draws from, the bits
#: ``k`` a draw below ``n`` takes
_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(FULL_SET) - 1, 0, -1))


def shuffled_wall(seed: int) -> tuple[tuple[int, ...], tuple[int, int]]:
    """The wall for ``seed``, shuffled with its own ``random.Random``, and two dice.

    >>> shuffled_wall(1)[1]  # the same seed, the same dice, always
    (4, 5)
    """
    rng = random.Random(seed)
    tiles = list(FULL_SET)
    # ``rng.shuffle(tiles)`` and two ``rng.randint(1, 6)``, inlined (the same draws from the
    # generator, so the same wall and dice): a shuffle is a tenth of a simulated hand
    bits = rng.getrandbits
    for i, n, k in _STEPS:
        j = bits(k)
        while j >= n:
            j = bits(k)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    die = []
    for _ in range(2):
        j = bits(3)
        while j >= 6:
            j = bits(3)
        die.append(1 + j)
    return tuple(tiles), (die[0], die[1])
