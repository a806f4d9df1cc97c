"""The Mazhan bots' registration: ``random``, ``greedy``, ``strong`` and ``expert`` (which
takes a time budget), the table levels, how hard a decision looks (the bots' pace at a
table: :mod:`paiju.mazhan.bots.pace`), and the hand review's parts.

>>> from paiju.bots.registry import bots_of
>>> sorted(bots_of("mazhan").factories)
['expert', 'greedy', 'random', 'strong']
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.bots.base import Bot
from paiju.bots.registry import register_bots
from paiju.bots.review import Reviewer, register_reviewer
from paiju.bots.uniform import RandomBot
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.expert import ExpertBot
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.bots.pace import hardness
from paiju.mazhan.bots.strong import StrongBot
from paiju.mazhan.bots.worlds import sample_world

__all__: list[str] = []


def _timed_expert(seconds: float) -> Bot:
    return ExpertBot(nodes=None, seconds=seconds)


register_bots(
    "mazhan",
    {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot},
    timed={"expert": _timed_expert},
    # ``hard`` searches for up to 200 ms a decision
    levels={"easy": "greedy", "normal": "strong", "hard": "expert@200ms"},
    hardness=hardness,
)


def _kind(legal: Sequence[Action]) -> str:
    """What a Mazhan decision is about, read from the seat's legal actions.

    >>> _kind([Action.parse("E hu"), Action.parse("E discard 1m")])
    'win or not'
    >>> _kind([Action.parse("S pass"), Action.parse("S peng")])
    'claim or pass'
    """
    kinds = {a.kind for a in legal}
    if kinds & {ActionKind.HU, ActionKind.SHAZHU}:
        return "win or not"
    if ActionKind.DISCARD in kinds:
        return "kong or discard" if kinds & {ActionKind.ANGANG, ActionKind.JIAGANG} else "discard"
    return "claim or pass"


# the hand review (paiju.bots.review): worlds from the seat's view, ``strong`` in every seat
# to the hand's end, the ``expert``'s choice compared
register_reviewer("mazhan", Reviewer(sample_world, "strong", "expert", _kind))
