"""The Mazhan ``greedy`` bot, and what the other Mazhan bots share with it (a sure win or
kong, a hand's natural counts).

``greedy`` always takes a win (胡, 殺豬), declares its kongs, discards the tile that leaves the
fewest tiles missing (:func:`~paiju.mazhan.hand.shortfall`, ★ counted), and claims a discard
only when the claim brings it closer than passing does.

>>> import random
>>> from paiju.mazhan.rules import Ruleset, new_hand, legal_actions_for
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> state = new_hand(Ruleset(), seed=9)
>>> action = GreedyBot().act(observe(state, Seat.E), legal_actions_for(state, Seat.E),
...                          random.Random(0))
>>> action.kind.value in ("discard", "hu", "shazhu", "angang")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiju.bots.base import ViewBot
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.hand import shortfall, shortfall_after_each
from paiju.mazhan.rules import Phase
from paiju.mazhan.views import View

__all__ = ["GreedyBot", "natural_counts", "sure_action"]

_WINS = (ActionKind.HU, ActionKind.SHAZHU)
_KONGS = (ActionKind.ANGANG, ActionKind.JIAGANG)


def first_of(legal: Sequence[Action], kinds: tuple[ActionKind, ...]) -> Action | None:
    """The first legal action of one of these kinds (a win, a kong), if any.

    >>> first_of([Action.parse("E discard 1m"), Action.parse("E hu")], (ActionKind.HU,))
    Action.parse('E hu')
    """
    return next((a for a in legal if a.kind in kinds), None)


def sure_action(view: View | None, legal: Sequence[Action]) -> Action | None:
    """What ``greedy`` and ``strong`` take without weighing anything: a win whenever one is
    legal, and (with a view) a kong on the seat's own turn; ``None`` otherwise.

    >>> sure_action(None, [Action.parse("N pass"), Action.parse("N hu")])
    Action.parse('N hu')
    >>> sure_action(None, [Action.parse("N pass")]) is None
    True
    """
    win = first_of(legal, _WINS)
    if win is None and view is not None and view.phase is Phase.ACT:
        return first_of(legal, _KONGS)
    return win


def natural_counts(view: View) -> tuple[list[int], int]:
    """The seat's natural tiles as 34 counts, and how many ★ it holds.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> counts, wilds = natural_counts(observe(new_hand(Ruleset(), 1), Seat.S))
    >>> sum(counts) + wilds
    16
    """
    counts = view.hand_counts
    wilds = counts[view.wild.index]
    counts[view.wild.index] = 0
    return counts, wilds


class GreedyBot(ViewBot[View, Action]):
    """Closer to a complete hand with every tile; always wins when it can.

    >>> GreedyBot().name
    'greedy'
    >>> GreedyBot().act(None, [Action.parse("N pass"), Action.parse("N hu")], random.Random(0))
    Action.parse('N hu')
    """

    name = "greedy"
    forced = staticmethod(sure_action)

    def choose(self, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose an action with nothing sure to take (see the module docstring).

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> from paiju.mazhan.views import observe
        >>> from paiju.mazhan.seats import Seat
        >>> view = observe(new_hand(Ruleset(), seed=9), Seat.E)
        >>> GreedyBot().choose(view, view.legal, random.Random(0)).kind.value
        'discard'
        """
        counts, wilds = natural_counts(view)
        if view.phase is Phase.ACT:
            return self._discard(counts, wilds, legal, rng)
        return self._claim(view, counts, wilds, legal)

    @staticmethod
    def _discard(
        counts: list[int], wilds: int, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        best: list[Action] = []
        best_key: tuple[int, int] | None = None
        after = shortfall_after_each(counts, wilds)
        for a in legal:
            if a.kind is not ActionKind.DISCARD or a.tile is None:
                continue
            i = a.tile.index
            left = after[i]
            counts[i] -= 1
            key = (shortfall(counts, wilds) if left is None else left, _connectedness(counts, i))
            counts[i] += 1
            if best_key is None or key < best_key:
                best, best_key = [a], key
            elif key == best_key:
                best.append(a)
        return best[rng.randrange(len(best))] if best else legal[0]

    @staticmethod
    def _claim(view: View, counts: list[int], wilds: int, legal: Sequence[Action]) -> Action:
        passing = next(a for a in legal if a.kind is ActionKind.PASS)
        tile = view.claim_tile
        if tile is None:
            return passing
        now = shortfall(counts, wilds)
        best, best_value = passing, now
        f = tile.index
        for a in legal:
            if a.kind is ActionKind.GANG:
                counts[f] -= 3
                value = shortfall(counts, wilds)
                counts[f] += 3
                if value <= best_value:
                    best, best_value = a, value
            elif a.kind in (ActionKind.PENG, ActionKind.CHI):
                used = (
                    [f, f]
                    if a.kind is ActionKind.PENG
                    else [t.index for t in a.chow if t.index != f]
                )
                for u in used:
                    counts[u] -= 1
                value = min(
                    (v for v in shortfall_after_each(counts, wilds) if v is not None),
                    default=99,
                )
                for u in used:
                    counts[u] += 1
                if value < best_value:
                    best, best_value = a, value
        return best


def _connectedness(counts: list[int], i: int) -> int:
    """How many tiles stand near ``i`` in its suit (a lone honour scores 0)."""
    if i >= 27:
        return counts[i]
    lo = i - i % 9
    return sum(counts[j] for j in range(max(lo, i - 2), min(lo + 9, i + 3)))
