"""How long a bot seems to think at a table: a human-like pace that tells nothing.

At a table a bot (or 托管) answers after a think time. On the seat's **own turn** the time
grows with how hard the decision is (:func:`hardness`, 0–1: a forced move or a tile drawn
and thrown at once is 0, the closest choice 1) and is drawn from a log-normal, whose long
right tail is the shape of people's decision times (:func:`think_seconds`):

    median = scale × (EASIEST + (HARDEST − EASIEST) × hardness)
    think  = median × exp(SPREAD × Z),   Z ~ N(0, 1)
    at most min(LONGEST × scale, TURN_SHARE × the turn clock)

``scale`` is the table's ``bot_delay`` (``PAIJU_BOT_DELAY``, 1 s). How hard a decision is
is the game's own judgement, registered with its bots (``hardness`` in
:func:`paiju.bots.registry.register_bots`), read from the seat's view and legal actions
only, as a player could; a game that registers none is judged by its number of legal
actions (:func:`by_count`). **A claim window's answer does not use any of this**: it comes
within the table's claim pause whatever the seat holds (the server's business,
``paiju/server/table/bots.py``).

>>> import random
>>> rng = random.Random(1)
>>> quick = [think_seconds(0.0, 1.0, rng, turn=15) for _ in range(2000)]
>>> slow = [think_seconds(1.0, 1.0, rng, turn=15) for _ in range(2000)]
>>> sorted(quick)[1000] < 0.4 < 1.4 < sorted(slow)[1000]  # the medians, 0.3 s and 1.6 s
True
>>> max(slow) <= LONGEST
True
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from typing import Any

from paiju.bots.registry import bots_of

__all__ = [
    "EASIEST",
    "HARDEST",
    "LONGEST",
    "SPREAD",
    "TURN_SHARE",
    "by_count",
    "hardness",
    "think_seconds",
]

log = logging.getLogger("paiju.bots")

#: the median think time, in units of the scale, of the easiest decision (hardness 0)
EASIEST = 0.3
#: the median think time, in units of the scale, of the hardest decision (hardness 1)
HARDEST = 1.6
#: σ of the think time's logarithm: people's decision times spread about this much
#: (a tenth of them over 1.9 × the median, one in a hundred over 3.2 ×)
SPREAD = 0.5
#: no think time is longer than this many units of the scale …
LONGEST = 4.0
#: … nor than this share of the turn clock (a bot never comes near a person's limit)
TURN_SHARE = 1 / 3
#: the number of legal actions judged hardest by :func:`by_count`
_MANY = 16


def by_count(n: int) -> float:
    """How hard a choice among ``n`` legal actions is, judged by their number alone (a
    game that registers no judgement of its own): 0 for one, 1 for 16 or more, evenly on
    a log scale between.

    >>> by_count(1), by_count(4), by_count(40)
    (0.0, 0.5, 1.0)

    Raises ``ValueError`` for fewer than one action.
    """
    if n < 1:
        raise ValueError(f"a decision has at least one legal action, got {n}")
    return min(1.0, math.log(n) / math.log(_MANY))


def hardness(game: str, view: Any, legal: Sequence[Any]) -> float:
    """How hard the decision of a seat that sees ``view`` among ``legal`` is, 0–1: 0 for
    one legal action, else the game's registered judgement (clamped to 0–1), else
    :func:`by_count`. A judgement that fails is logged and taken as 0.5: a defect of the
    pace must not stop a table.

    >>> from paiju.games import names
    >>> g = names()[0]
    >>> hardness(g, None, ["only"])
    0.0

    Raises ``KeyError`` for a game without bots.
    """
    if len(legal) <= 1:
        return 0.0
    judge = bots_of(game).hardness
    if judge is None:
        return by_count(len(legal))
    try:
        h = float(judge(view, legal))
    except Exception:
        log.exception("%s: the judgement of a decision's hardness failed", game)
        return 0.5
    return 0.5 if math.isnan(h) else min(1.0, max(0.0, h))


def think_seconds(hard: float, scale: float, rng: random.Random, turn: float) -> float:
    """A think time for a decision of hardness ``hard`` (0–1), in seconds: log-normal with
    the median ``scale × (EASIEST + (HARDEST − EASIEST) × hard)`` and σ :data:`SPREAD`, at
    most ``LONGEST × scale`` and ``TURN_SHARE × turn`` (see the module docstring). Draws
    from ``rng`` only (a table's think stream: deterministic under a seed).

    >>> think_seconds(0.5, 0.0, random.Random(1), turn=15)  # no pace: at once
    0.0
    >>> think_seconds(1.0, 100.0, random.Random(1), turn=15)  # a third of the turn clock
    5.0

    Raises ``ValueError`` for a hardness outside 0–1 or a negative scale or turn.
    """
    if not 0.0 <= hard <= 1.0:
        raise ValueError(f"a hardness is 0–1, got {hard}")
    if scale < 0 or turn < 0:
        raise ValueError(f"a scale and a turn clock are at least 0, got {scale} and {turn}")
    median = scale * (EASIEST + (HARDEST - EASIEST) * hard)
    drawn = median * rng.lognormvariate(0.0, SPREAD)
    return min(drawn, LONGEST * scale, TURN_SHARE * turn)
