"""Look-ahead features (Mazhan, ``lookahead=True``): what each candidate action leaves.

For every action index of ``Discrete(128)`` (see :mod:`paiju.mazhan.env.obs`) the hand that
action leaves is rated as the ``strong`` bot rates it
(:func:`paiju.mazhan.bots.strong.rate_actions`), term by term, so that a policy sees,
beside each discard or claim, how far it leaves the hand from complete, how many live tiles
would then help, what it is worth and what it risks.
Everything comes from the seat's view (:func:`paiju.mazhan.views.observe`): its own tiles,
every meld, bonus tile and discard on the table, the wild indicator; never another seat's
concealed tiles or the wall's order. "Live" tiles are the copies this seat cannot see.

Rated actions are the discards (index 0–33) on the seat's turn and, in a claim window, the
kong (104), pung (105), chows (106–126) and the pass (127). ``strong`` always takes a win
(34, 35) and a kong on its own turn (36–103): they get ``la_rating`` 1 and ``la_rank`` 1
(a kong ½ when a win is open too), a win ``la_shanten``
0.1 (complete), their other values 0. Every value of an action that is not legal now is 0,
as are all 768 values when the seat has nothing to decide.

**Flat vector** (``float32``, 768 values, appended after the observation and the hints):

| offset | size | name | content |
|---|---|---|---|
| 0 | 128 | `la_shanten` | (shanten after it + 2) / 10: 0.1 complete, 0.2 ready (聽牌) |
| 128 | 128 | `la_accept` | live tiles (★ too) that would then bring the hand a step closer / 40 |
| 256 | 128 | `la_value` | the value term after it / 40 (flush, dragon and wind pairs, 對對胡) |
| 384 | 128 | `la_danger` | the defence term / 36 (12 per threatening seat not known safe) |
| 512 | 128 | `la_rating` | 1 + (rating − best rating) / 100, at least 0.01 (1: the best) |
| 640 | 128 | `la_rank` | 1 / (1 + actions strong prefers to it): 1 its choice, ½ the next, … |

The terms are those of :class:`~paiju.mazhan.bots.strong.Rating`: for a discard the hand after it;
for a chow or pung the hand after the best discard that follows; for a kong on a discard the
hand after the kong; for the pass the hand as it stands. The rating is ``strong``'s utility,
−100 × shanten + live tiles + value − danger (+5 for a kong), so 100 below the best is a whole
step farther; ``la_rating`` marks the best rated action with 1 (several on the seat's turn
when they tie: ``strong`` draws among them). In a claim window a claim rated equal to the
pass, or to an earlier claim, gets 0.995: ``strong`` keeps the pass, then the first.
``la_rank`` gives the order alone: 1 for ``strong``'s choice (every one of a tie), ½ for
the next, and so on, a win or kong it always takes counted before every rated action.

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> la = lookahead_of_state(new_hand(Ruleset(), seed=9), 0)
>>> la.shape, float(la[LAYOUT["la_rating"].offset:].max())
((768,), 1.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.layout import Layout
from paiju.mazhan.actions import ActionKind
from paiju.mazhan.env.obs import N_ACTIONS, action_index
from paiju.mazhan.rules import Phase

__all__ = ["LAYOUT", "N_LOOKAHEAD", "SCALE", "lookahead", "lookahead_of_state"]

LAYOUT = Layout()
_SH, _AC, _VA, _DA, _RA, _RK = (
    LAYOUT.add(name, N_ACTIONS, "actions", doc)
    for name, doc in (
        ("la_shanten", "(shanten after it + 2) / 10: 0.1 complete, 0.2 ready (聽牌)"),
        ("la_accept", "live tiles (★ too) that would then bring the hand a step closer / 40"),
        ("la_value", "the value term after it / 40 (flush, dragon and wind pairs, 對對胡)"),
        ("la_danger", "the defence term / 36 (12 per threatening seat not known safe)"),
        ("la_rating", "1 + (rating − best rating) / 100, at least 0.01 (1: the best)"),
        ("la_rank", "1 / (1 + actions strong prefers to it): 1 its choice, ½ the next, …"),
    )
)

#: The actions ``strong`` always takes, rated ahead of the rest.
_WINS = (ActionKind.HU, ActionKind.SHAZHU)
_OWN_KONGS = (ActionKind.ANGANG, ActionKind.JIAGANG)

#: Values :func:`lookahead` returns.
N_LOOKAHEAD = LAYOUT.size
#: Each value's typical top: the features are already scaled, so ones.
SCALE = np.ones(N_LOOKAHEAD, dtype=np.float32)


def lookahead(view: Any, out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The look-ahead features of a Mazhan view (its ``legal`` actions rated; see the module
    docstring), into ``out`` when given.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> la = lookahead(observe(new_hand(Ruleset(), seed=9), Seat.E))
    >>> int((la[LAYOUT["la_shanten"].offset:][:34] > 0).sum()) > 3
    True
    """
    from paiju.mazhan.bots.strong import rate_actions

    if out is None:
        out = np.zeros(N_LOOKAHEAD, dtype=np.float32)
    else:
        out[:] = 0.0
    if not view.legal:
        return out
    ratings = rate_actions(view, view.legal)
    wins = [a for a in view.legal if a.kind in _WINS]
    kongs = [a for a in view.legal if a.kind in _OWN_KONGS]
    if not ratings and not wins and not kongs:
        return out
    top = max(ratings, key=lambda r: r.utility) if ratings else None
    best = top.utility if top is not None else 0.0
    first = top.action if top is not None else None
    claims = view.phase is not Phase.ACT
    ahead = len(wins) + len(kongs)  # strong takes these first
    utilities = [r.utility for r in ratings]
    for r in ratings:
        i = action_index(r.action)
        out[_SH.start + i] = (r.shanten + 2) / 10.0
        out[_AC.start + i] = r.accept / 40.0
        out[_VA.start + i] = r.value / 40.0
        out[_DA.start + i] = r.danger / 36.0
        rating = max(0.01, 1.0 + (r.utility - best) / 100.0)
        if claims and r.action is not first and rating > 0.995:
            rating = 0.995  # rated equal to the pass (or an earlier claim): strong passes
        out[_RA.start + i] = rating
        better = sum(1 for u in utilities if u > r.utility)
        if claims and r.action is not first and not better:
            better = 1
        out[_RK.start + i] = 1.0 / (1 + ahead + better)
    for a in wins:
        i = action_index(a)
        out[_RA.start + i] = out[_RK.start + i] = 1.0
        out[_SH.start + i] = 0.1  # complete
    for a in kongs:
        i = action_index(a)
        out[_RA.start + i] = 1.0
        out[_RK.start + i] = 1.0 / (1 + len(wins))
    return out


def lookahead_of_state(
    state: Any, me: int, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """:func:`lookahead` of seat ``me``'s (0–3: E S W N) view of a Mazhan state.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> float(lookahead_of_state(new_hand(Ruleset(), seed=9), 1).sum())  # South waits
    0.0
    """
    from paiju.mazhan.seats import SEATS
    from paiju.mazhan.views import observe

    return lookahead(observe(state, SEATS[me]), out)
