"""The toy game's bots: ``random`` (paiju's own) and ``first``, which plays its highest
card, with a time-budget variant for the table's ``hard`` level."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from paiju.bots.registry import register_bots
from paiju.bots.uniform import RandomBot


class HighBot:
    name = "first"
    needs_view = True

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view is not None and tuple(legal) == view.legal
        return max(legal, key=lambda a: a.card)


def _timed(seconds: float) -> HighBot:
    return HighBot(seconds)


def register_toy_bots() -> None:
    register_bots(
        "toy",
        {"random": RandomBot, "first": HighBot},
        timed={"first": _timed},
        levels={"easy": "random", "normal": "first", "hard": "first@100ms"},
    )
