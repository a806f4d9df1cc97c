"""The Ma Diao ``heuristic`` bot: keep red cards to capture with, lead what cannot be beaten.

- Leading: a card that no unseen card of its suit can beat wins the trick, so lead it (the
  most valuable first: 賞 and 百老 score on the table). Otherwise lead the lowest 青 card of the
  longest suit, and keep the red cards back.
- Following: capture when this seat plays last, or when the capturing card cannot be beaten
  by any card still unseen, with the lowest card that does; hold back (滅) otherwise, throwing
  the least useful card face down.

>>> import random
>>> from paiju.madiao.rules import Ruleset, new_hand
>>> from paiju.madiao.views import observe
>>> from paiju.madiao.seats import Seat
>>> s = new_hand(Ruleset(), seed=5, banker=Seat.E)
>>> HeuristicBot().act(observe(s, Seat.E), observe(s, Seat.E).legal, random.Random(0)).kind.value
'fa'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from paiju.madiao.cards import ALL_CARDS, Card, Role
from paiju.madiao.rules import Action, ActionKind
from paiju.madiao.views import View

__all__ = ["HeuristicBot"]

_KEEP = {
    Role.SHANG: 6,
    Role.BAI: 6,
    Role.JIAN: 5,
    Role.JI: 3,
    Role.DING: 2,
    Role.FUJI: 1,
    Role.QING: 0,
}


def _value(card: Card) -> int:
    """How much a card is worth keeping."""
    return _KEEP[card.role] * 10 + card.rank


def _unbeatable(card: Card, view: View) -> bool:
    known = set(view.seen) | set(view.hand)
    return all(
        other in known for other in ALL_CARDS if other.suit is card.suit and other.rank > card.rank
    )


class HeuristicBot:
    """Plays to win tricks it can hold and to get its red cards 上桌.

    >>> HeuristicBot().name
    'heuristic'
    """

    name = "heuristic"
    needs_view = True

    def act(self, view: View | None, legal: Sequence[Action], rng: random.Random) -> Action:
        """Choose a play (see the module docstring).

        >>> HeuristicBot().act(None, [Action.parse("E fa 9m")], random.Random(0))
        Action.parse('E fa 9m')
        """
        if view is None or len(legal) == 1:
            return legal[0]
        if legal[0].kind is ActionKind.FA:
            return self._lead(view, legal)
        return self._follow(view, legal)

    @staticmethod
    def _lead(view: View, legal: Sequence[Action]) -> Action:
        sure = [a for a in legal if _unbeatable(a.card, view)]
        if sure:
            return max(sure, key=lambda a: _value(a.card))
        counts: dict[object, int] = {}
        for a in legal:
            counts[a.card.suit] = counts.get(a.card.suit, 0) + 1
        return min(
            legal, key=lambda a: (_value(a.card) >= 30, -counts[a.card.suit], _value(a.card))
        )

    @staticmethod
    def _follow(view: View, legal: Sequence[Action]) -> Action:
        captures = [a for a in legal if a.kind is ActionKind.ZHUO]
        last = len(view.trick) == 3
        good = [a for a in captures if last or _unbeatable(a.card, view)]
        if good:
            return min(good, key=lambda a: a.card.rank)
        discards = [a for a in legal if a.kind is ActionKind.MIE]
        return min(discards, key=lambda a: _value(a.card))
