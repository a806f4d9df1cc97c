"""The Ma Diao bots' registration: ``random``, ``heuristic`` and ``expert`` (which takes a
time budget), and the table levels.

>>> from paiju.bots.registry import bots_of
>>> sorted(bots_of("madiao").factories)
['expert', 'heuristic', 'random']
"""

from __future__ import annotations

from paiju.bots.registry import register_bots
from paiju.bots.uniform import RandomBot
from paiju.madiao.bots.heuristic import ExpertMadiaoBot, HeuristicBot

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
