"""The Ma Diao bots' registration: ``random``, ``heuristic`` and ``expert`` (which takes a
time budget), the table levels, and the hand review's parts.

>>> from paiju.bots.registry import bots_of
>>> sorted(bots_of("madiao").factories)
['expert', 'heuristic', 'random']
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.bots.registry import register_bots
from paiju.bots.review import Reviewer, register_reviewer
from paiju.bots.uniform import RandomBot
from paiju.madiao.bots.heuristic import ExpertMadiaoBot, HeuristicBot, sample_madiao_world

__all__: list[str] = []


def _timed_expert(seconds: float) -> ExpertMadiaoBot:
    return ExpertMadiaoBot(seconds=seconds)


register_bots(
    "madiao",
    {"random": RandomBot, "heuristic": HeuristicBot, "expert": ExpertMadiaoBot},
    timed={"expert": _timed_expert},
    # ``hard`` searches for up to 200 ms a decision
    levels={"easy": "heuristic", "normal": "heuristic", "hard": "expert@200ms"},
)


def _kind(legal: Sequence[object]) -> str:
    """What a Ma Diao decision is about: which card to play (lead, capture or throw down).

    >>> _kind([])
    'play'
    """
    return "play"


# the hand review (paiju.bots.review): worlds from the seat's view, ``heuristic`` in every
# seat to the hand's end, the ``expert``'s choice compared
register_reviewer("madiao", Reviewer(sample_madiao_world, "heuristic", "expert", _kind))
