"""The bot protocol: ``act(view, legal, rng) -> Action``, and the registry of bots by name.

>>> from paiju.games import game, names
>>> all("random" in BOTS[n] and game(n).default_bot in BOTS[n] for n in names())
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from paiju.bots.registry import bots_of

__all__ = ["BOTS", "Bot", "ViewBot", "make_bot"]

V = TypeVar("V")  # a seat's view
A = TypeVar("A")  # an action


class Bot(Protocol):
    """A player: picks one of ``legal`` from what its seat may see (``view``).

    ``rng`` is the only source of chance a bot may use, so that a seeded match is the same
    every time.
    """

    name: str

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        """Choose one of ``legal``."""
        ...


class ViewBot(Generic[V, A]):
    """A bot that reads its seat's view: :meth:`act` plays the action :meth:`forced` names
    when there is one, the first legal action when it is given no view, else the one
    :meth:`choose` weighs out. A game's bot writes :meth:`choose` (and its own
    :meth:`forced`, if more than a lone legal action is forced).

    >>> class Last(ViewBot[dict[str, int], str]):
    ...     name = "last"
    ...     def choose(self, view: dict[str, int], legal: Sequence[str], rng: random.Random) -> str:
    ...         return legal[-1]
    >>> rng = random.Random(0)
    >>> Last().act({}, ["a", "b"], rng), Last().act(None, ["a", "b"], rng), Last().needs_view
    ('b', 'a', True)
    """

    name: str
    needs_view = True

    def act(self, view: V | None, legal: Sequence[A], rng: random.Random) -> A:
        """Choose one of ``legal`` (see the class docstring)."""
        forced = self.forced(view, legal)
        if forced is not None:
            return forced
        if view is None:
            return legal[0]
        return self.choose(view, legal, rng)

    def forced(self, view: V | None, legal: Sequence[A]) -> A | None:
        """The action to take without weighing anything: the only legal one; ``None`` when
        there is a choice.

        >>> ViewBot[None, str]().forced(None, ["pass"]), ViewBot[None, str]().forced(None, "ab")
        ('pass', None)
        """
        return legal[0] if len(legal) == 1 else None

    def choose(self, view: V, legal: Sequence[A], rng: random.Random) -> A:
        """Weigh ``legal`` from ``view`` (no action is forced): the game's bot's own choice."""
        raise NotImplementedError


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
