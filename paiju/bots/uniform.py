"""The ``random`` bot every game has: uniform over the legal actions.

>>> import random
>>> RandomBot().act(None, ["pass", "claim"], random.Random(3)) in ("pass", "claim")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["RandomBot"]

#: Any game's action: ``random`` reads no view, so it plays every game.
A = TypeVar("A")


class RandomBot:
    """Picks uniformly among the legal actions (of any game: it reads no view).

    >>> RandomBot().act(None, ["win"], random.Random(1))
    'win'
    """

    name = "random"
    needs_view = False

    def act(self, view: object, legal: Sequence[A], rng: random.Random) -> A:
        """Choose uniformly.

        >>> RandomBot().act(None, ["a", "b", "c"], random.Random(0))
        'b'
        """
        n = len(legal)
        if type(rng) is not random.Random or not n:
            return legal[rng.randrange(n)]
        # ``rng.randrange(n)`` inlined for the plain generator: the same draws (CPython's
        # ``_randbelow_with_getrandbits``), so the same choices; a random bot's hand spends
        # a twentieth of its time in randrange's argument checks
        bits = rng.getrandbits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return legal[r]
