"""The bot protocol: ``act(view, legal, rng) -> Action``, and the registry of bots by name.

>>> from paiju.games import game, names
>>> all("random" in BOTS[n] and game(n).default_bot in BOTS[n] for n in names())
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from paiju.bots.registry import bots_of

__all__ = ["BOTS", "Bot", "make_bot"]


class Bot(Protocol):
    """A player: picks one of ``legal`` from what its seat may see (``view``).

    ``rng`` is the only source of chance a bot may use, so that a seeded match is the same
    every time.
    """

    name: str

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """Choose one of ``legal``."""
        ...


class _Registry(dict[str, Mapping[str, Callable[[], Bot]]]):
    """The factories of :mod:`paiju.bots.registry` by game, read on the first look-up."""

    def __missing__(self, game: str) -> Mapping[str, Callable[[], Bot]]:
        self[game] = bots_of(game).factories  # KeyError for a game without bots
        return self[game]


#: Bot factories by game and name (the games' registrations: :mod:`paiju.bots.registry`).
BOTS: dict[str, Mapping[str, Callable[[], Bot]]] = _Registry()


def make_bot(game: str, name: str) -> Bot:
    """A new bot of ``game`` by name.

    >>> from paiju.games import names
    >>> g = names()[0]
    >>> make_bot(g, "random").name
    'random'
    >>> make_bot(g, "clever")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown ... bot 'clever' (choose from ..., random, ...)
    >>> make_bot(g, "expert@200ms").seconds
    0.2
    >>> make_bot(g, "random@200ms")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the ... bot 'random' takes no time budget ('random@200ms')

    ``NAME@200ms`` gives a search bot a time budget per decision instead of its node budget
    (the table's way: ``expert@200ms``); results then depend on the machine's speed.

    The bots here know no learned policy: ``policy:PATH`` (a policy saved by
    ``examples/train_ppo.py``) is read above them, by :func:`paiju.simulate.make_player`
    and the environments' opponents.

    Raises ``ValueError`` for an unknown game or bot.
    """
    try:
        entry = bots_of(game)
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None
    bots = entry.factories
    base, at, budget = name.partition("@")
    if base not in bots:
        raise ValueError(f"unknown {game} bot {base!r} (choose from {', '.join(sorted(bots))})")
    if not at:
        return bots[base]()
    timed = entry.timed.get(base)
    if timed is None:
        raise ValueError(f"the {game} bot {base!r} takes no time budget ({name!r})")
    if not (budget.endswith("ms") and budget[:-2].isdigit() and 0 < int(budget[:-2]) <= 60_000):
        raise ValueError(f"a time budget is 1–60000 milliseconds like 'expert@200ms', got {name!r}")
    return timed(int(budget[:-2]) / 1000)
