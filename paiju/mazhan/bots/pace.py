"""How hard a Mazhan decision looks, for the pace of the bots at a table
(:mod:`paiju.bots.think`): read from the seat's view and legal actions only.

- one legal action, or a discard of the tile just drawn when nothing else comes close
  (摸打: drawn and thrown): 0;
- a win on offer (胡, 殺豬): :data:`WIN`, taken almost at once;
- otherwise ``strong``'s rating (:func:`~paiju.mazhan.bots.strong.rate_actions`) of the
  discards (or of the pass and the claims): the more of them rate within :data:`CLOSE`
  points of the best, the harder — one: :data:`CLEAR`; two: about a third of the way up;
  eight or more: 1 (log₂ of their number over 3);
- a kong the seat may declare on its turn makes it at least :data:`KONG` (declare or keep).

Measured over 851 decisions on the seat's turn (30 hands of ``strong``): one discard within
:data:`CLOSE` of the best 23%, two 25%, three 17%, four 14%, eight or more 8%; the drawn
tile alone 10%.

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
from paiju.mazhan.bots.strong import rate_actions
from paiju.mazhan.rules import Phase
from paiju.mazhan.views import View

__all__ = ["CLEAR", "CLOSE", "KONG", "WIN", "hardness"]

#: rating points (``strong``'s: 100 a step from complete, 1 an unseen tile accepted) within
#: which two choices are close
CLOSE = 6.0
#: a win on offer
WIN = 0.1
#: one choice clearly the best (not the tile just drawn)
CLEAR = 0.15
#: a kong the seat may declare
KONG = 0.5
_WINS = {ActionKind.HU, ActionKind.SHAZHU}
_KONGS = {ActionKind.ANGANG, ActionKind.JIAGANG}


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
    rated = rate_actions(view, legal)
    if not rated:
        return CLEAR
    top = max(r.utility for r in rated)
    near = [r.action for r in rated if r.utility >= top - CLOSE]
    if len(near) == 1:
        a = near[0]
        drawn = a.kind is ActionKind.DISCARD and a.tile is not None and a.tile == view.drawn
        h = 0.0 if drawn else CLEAR
    else:
        h = CLEAR + (1.0 - CLEAR) * min(1.0, math.log2(len(near)) / 3.0)
    if view.phase is Phase.ACT and kinds & _KONGS:
        h = max(h, KONG)
    return h
