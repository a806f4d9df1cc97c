"""The Mazhan bots' registration: ``random``, ``greedy``, ``strong`` and ``expert`` (which
takes a time budget), and the table levels.

>>> from paiju.bots.registry import bots_of
>>> sorted(bots_of("mazhan").factories)
['expert', 'greedy', 'random', 'strong']
"""

from __future__ import annotations

from paiju.bots.base import Bot
from paiju.bots.registry import register_bots
from paiju.bots.uniform import RandomBot
from paiju.mazhan.bots.expert import ExpertBot
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.bots.strong import StrongBot

__all__: list[str] = []


def _timed_expert(seconds: float) -> Bot:
    return ExpertBot(nodes=None, seconds=seconds)


register_bots(
    "mazhan",
    {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot},
    timed={"expert": _timed_expert},
    # ``hard`` searches for up to 200 ms a decision
    levels={"easy": "greedy", "normal": "strong", "hard": "expert@200ms"},
)
