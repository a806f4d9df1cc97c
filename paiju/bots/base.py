"""The bot protocol: ``act(view, legal, rng) -> Action``, and the registry of bots by name.

>>> sorted(BOTS["mazhan"]), sorted(BOTS["madiao"])
(['expert', 'greedy', 'random', 'strong'], ['expert', 'heuristic', 'random'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["BOTS", "TIMED", "Bot", "make_bot"]


class Bot(Protocol):
    """A player: picks one of ``legal`` from what its seat may see (``view``).

    ``rng`` is the only source of chance a bot may use, so that a seeded match is the same
    every time.
    """

    name: str

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """Choose one of ``legal``."""
        ...


def _mazhan_bots() -> dict[str, Callable[[], Bot]]:
    from paiju.bots.expert import ExpertBot
    from paiju.bots.simple import GreedyBot, RandomBot
    from paiju.bots.strong import StrongBot

    return {"random": RandomBot, "greedy": GreedyBot, "strong": StrongBot, "expert": ExpertBot}


def _madiao_bots() -> dict[str, Callable[[], Bot]]:
    from paiju.bots.madiao_bots import ExpertMadiaoBot, HeuristicBot
    from paiju.bots.simple import RandomBot

    return {"random": RandomBot, "heuristic": HeuristicBot, "expert": ExpertMadiaoBot}


_FACTORIES: dict[str, Callable[[], dict[str, Callable[[], Bot]]]] = {
    "mazhan": _mazhan_bots,
    "madiao": _madiao_bots,
}


class _Registry(dict[str, dict[str, Callable[[], Bot]]]):
    def __missing__(self, game: str) -> dict[str, Callable[[], Bot]]:
        if game not in _FACTORIES:
            raise KeyError(game)
        self[game] = _FACTORIES[game]()
        return self[game]


def _timed(game: str, seconds: float) -> Bot:
    if game == "madiao":
        from paiju.bots.madiao_bots import ExpertMadiaoBot

        return ExpertMadiaoBot(seconds=seconds)
    from paiju.bots.expert import ExpertBot

    return ExpertBot(nodes=None, seconds=seconds)


#: The bots that take a time budget (``NAME@200ms``), by name.
TIMED: dict[str, Callable[[str, float], Bot]] = {"expert": _timed}

#: Bot factories by game and name.
BOTS: dict[str, dict[str, Callable[[], Bot]]] = _Registry()


def make_bot(game: str, name: str) -> Bot:
    """A new bot of ``game`` by name.

    >>> make_bot("mazhan", "random").name
    'random'
    >>> make_bot("mazhan", "clever")
    Traceback (most recent call last):
    ...
    ValueError: unknown mazhan bot 'clever' (choose from expert, greedy, random, strong)
    >>> make_bot("mazhan", "expert@200ms").seconds
    0.2
    >>> make_bot("mazhan", "greedy@200ms")
    Traceback (most recent call last):
    ...
    ValueError: the mazhan bot 'greedy' takes no time budget ('greedy@200ms')

    ``NAME@200ms`` gives a search bot a time budget per decision instead of its node budget
    (the table's way: ``expert@200ms``); results then depend on the machine's speed.

    The bots here know no learned policy: ``policy:PATH`` (a policy saved by
    ``examples/train_ppo.py``) is read above them, by :func:`paiju.simulate.make_player`
    and the environments' opponents.

    Raises ``ValueError`` for an unknown game or bot.
    """
    try:
        bots = BOTS[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None
    base, at, budget = name.partition("@")
    if base not in bots:
        raise ValueError(f"unknown {game} bot {base!r} (choose from {', '.join(sorted(bots))})")
    if not at:
        return bots[base]()
    if base not in TIMED:
        raise ValueError(f"the {game} bot {base!r} takes no time budget ({name!r})")
    if not (budget.endswith("ms") and budget[:-2].isdigit() and 0 < int(budget[:-2]) <= 60_000):
        raise ValueError(f"a time budget is 1–60000 milliseconds like 'expert@200ms', got {name!r}")
    return TIMED[base](game, int(budget[:-2]) / 1000)
