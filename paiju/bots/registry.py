"""The bots of every game, registered by the game's bot module: by name, those that take a
time budget, the bot playing each table level, and how hard a decision looks (the pace of
the bots at a table: :mod:`paiju.bots.think`).

A game's bots register once (:func:`register_bots`, in the game's bots package,
``paiju/<game>/bots/``, named by its registration's ``parts``); :func:`bots_of` looks them up
by the game's name, importing that package on the first look-up (:func:`load`).

>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> g.default_bot in bots_of(g.name).factories
True
>>> sorted(bots_of(g.name).levels) == sorted(LEVELS)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from paiju.games.lazy_registry import LazyRegistry

if TYPE_CHECKING:
    from paiju.bots.base import Bot

__all__ = ["LEVELS", "GameBots", "Hardness", "bots_of", "load", "register_bots", "registered"]

#: The table levels, easiest first: every game names a bot for each.
LEVELS = ("easy", "normal", "hard")

#: How hard a decision looks from a seat's view among its legal actions, 0 (nothing to
#: weigh) to 1 (the closest choice): what a bot's think time at a table grows with.
Hardness = Callable[[Any, Sequence[Any]], float]


@dataclass(frozen=True, slots=True)
class GameBots:
    """A game's bots: factories by name, the factories of those that take a time budget
    (``NAME@200ms``: seconds in, a bot out), the bot (a name ``make_bot`` reads) of each
    table level (:data:`LEVELS`), and the game's judgement of how hard a decision is
    (:data:`Hardness`; ``None``: judged by the number of legal actions)."""

    factories: Mapping[str, Callable[[], Bot]]
    timed: Mapping[str, Callable[[float], Bot]]
    levels: Mapping[str, str]
    hardness: Hardness | None = None


_BOTS: LazyRegistry[GameBots] = LazyRegistry("bots")
_REGISTRY = _BOTS.entries


def register_bots(
    game: str,
    factories: Mapping[str, Callable[[], Bot]],
    *,
    levels: Mapping[str, str],
    timed: Mapping[str, Callable[[float], Bot]] | None = None,
    hardness: Hardness | None = None,
) -> GameBots:
    """Register ``game``'s bots (again: replaced); the registration. ``hardness``: how
    hard a decision looks from the seat's view (:data:`Hardness`, read by
    :func:`paiju.bots.think.hardness`), if the game judges it.

    Raises ``ValueError`` when a level is missing or unknown, or a timed bot or a level's bot
    is not among ``factories``.
    """
    timed = timed or {}
    if set(levels) != set(LEVELS):
        raise ValueError(f"{game}: the levels are {', '.join(LEVELS)}, got {', '.join(levels)}")
    for name in [*timed, *(v.partition("@")[0] for v in levels.values())]:
        if name not in factories:
            raise ValueError(f"{game}: no bot {name!r} among {', '.join(sorted(factories))}")
    entry = GameBots(
        MappingProxyType(dict(factories)),
        MappingProxyType(dict(timed)),
        MappingProxyType({level: levels[level] for level in LEVELS}),
        hardness,
    )
    _REGISTRY[game] = entry
    return entry


#: Register the built-in games' bots, once (the look-ups call it).
load = _BOTS.load


def registered() -> tuple[str, ...]:
    """The games with bots, in the order of :func:`paiju.games.names` first.

    >>> from paiju.games import names
    >>> registered()[:2] == names()[:2]
    True
    """
    return _BOTS.ordered(others=True)


def bots_of(game: str) -> GameBots:
    """The bots of ``game``.

    Raises ``KeyError`` for a game without bots.
    """
    entry = _BOTS.get(game)
    if entry is None:
        raise KeyError(game)
    return entry
