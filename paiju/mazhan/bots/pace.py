"""How hard a Mazhan decision looks, for the pace of the bots at a table
(:mod:`paiju.bots.think`): read from the seat's view and legal actions only, and cheap (a
table judges every bot's turn on its event loop: this costs about 25 µs, a twentieth of
``strong``'s rating, which cost more than the easy level's bot itself).

- one legal action, or a discard of the tile just drawn when no other discard keeps the
  hand as near to complete (摸打: drawn and thrown): 0;
- a win on offer (胡, 殺豬): :data:`WIN`, taken almost at once;
- on the seat's turn, the distinct discards that keep the least shanten (those a player
  weighs against one another): one (not the drawn tile): :data:`CLEAR`; more, the harder —
  :data:`CLEAR` + (1 − :data:`CLEAR`) × log₂ of their number ÷ 4, 1 at sixteen;
- a claim window kept open past the pause: by the number of its options, the same way;
- a kong the seat may declare on its turn makes it at least :data:`KONG` (declare or keep).

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
>>> 0.0 <= hardness(view, view.legal) <= 1.0
True
>>> hardness(view, view.legal[:1])
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.greedy import natural_counts
from paiju.mazhan.rules import Phase
from paiju.mazhan.shanten import shanten
from paiju.mazhan.views import View

__all__ = ["CLEAR", "KONG", "WIN", "hardness"]

#: a win on offer
WIN = 0.1
#: one choice clearly the best (not the tile just drawn)
CLEAR = 0.15
#: a kong the seat may declare
KONG = 0.5
_WINS = {ActionKind.HU, ActionKind.SHAZHU}
_KONGS = {ActionKind.ANGANG, ActionKind.JIAGANG}


def _among(n: int) -> float:
    """The hardness of weighing ``n`` choices of which none stands out (``n`` ≥ 2)."""
    return CLEAR + (1.0 - CLEAR) * min(1.0, math.log2(n) / 4.0)


def hardness(view: View | None, legal: Sequence[Action]) -> float:
    """How hard this decision looks, 0–1 (see the module docstring); a seat with no view
    is judged by the number of its choices alone (0 for one, else :data:`CLEAR`).

    >>> hardness(None, [Action.parse("N pass"), Action.parse("N peng")])
    0.15
    """
    if len(legal) <= 1:
        return 0.0
    kinds = {a.kind for a in legal}
    if kinds & _WINS:
        return WIN
    if view is None:
        return CLEAR
    if view.phase is not Phase.ACT:
        return _among(len(legal))
    counts, wilds = natural_counts(view)
    melds = len(view.melds[view.seat])
    best, near = 99, []
    for tile in {a.tile for a in legal if a.kind is ActionKind.DISCARD and a.tile is not None}:
        counts[tile.index] -= 1
        left = shanten(counts, melds, wilds)
        counts[tile.index] += 1
        if left < best:
            best, near = left, [tile]
        elif left == best:
            near.append(tile)
    if not near:  # no discard offered (a kong or nothing): weighed like a clear choice
        h = CLEAR
    elif len(near) == 1:
        h = 0.0 if near[0] == view.drawn else CLEAR
    else:
        h = _among(len(near))
    if kinds & _KONGS:
        h = max(h, KONG)
    return h
