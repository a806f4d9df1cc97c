"""A registry by game name for one layer (the bots, the environments, the typed views) that
imports a game's module of that layer (its registration's :attr:`~paiju.games.Registration.
parts`) on the first look-up of the game: what the layers' registries
(:mod:`paiju.bots.registry`, :mod:`paiju.env.registry`, :mod:`paiju.views`) share.

>>> from paiju.games import names
>>> reg: LazyRegistry[int] = LazyRegistry("nothing")
>>> reg.entries["other"] = 2
>>> reg.get("other"), reg.get(names()[0]), reg.get("nope"), reg.ordered(), reg.ordered(others=True)
(2, None, None, (), ('other',))
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

from paiju.games import names, registration

__all__ = ["ByGame", "LazyRegistry"]

T = TypeVar("T")
U = TypeVar("U")


class LazyRegistry(Generic[T]):
    """``entries`` by game name; a game's module of ``layer`` (which registers its entries as
    it is imported) is imported once, on the first look-up of that game."""

    def __init__(self, layer: str) -> None:
        self.entries: dict[str, T] = {}
        self.layer = layer
        self._tried: set[str] = set()

    def _import(self, name: str) -> None:
        if name in self._tried or name not in names():
            return
        self._tried.add(name)
        module = registration(name).parts.get(self.layer)
        if module is not None:
            importlib.import_module(module)

    def get(self, name: str) -> T | None:
        """The entry of ``name`` (importing the game's module of this layer first if it is
        not there yet), or ``None``."""
        entry = self.entries.get(name)
        if entry is None:
            self._import(name)
            entry = self.entries.get(name)
        return entry

    def load(self) -> None:
        """Import every registered game's module of this layer, once each."""
        for name in names():
            self._import(name)

    def ordered(self, others: bool = False) -> tuple[str, ...]:
        """The names with an entry in :func:`paiju.games.names`' order, then (``others``)
        those of games :mod:`paiju.games` does not know, in the order they registered."""
        self.load()
        known = tuple(n for n in names() if n in self.entries)
        if not others:
            return known
        return (*known, *(n for n in self.entries if n not in known))


class ByGame(Mapping[str, U]):
    """A read-only mapping over the games a layer's registry holds (``games()``), each to
    ``of(game)``, read at each look-up (a game registered later shows).

    >>> m = ByGame(lambda: ("a", "b"), str.upper)
    >>> dict(m), m.get("c")
    ({'a': 'A', 'b': 'B'}, None)
    """

    def __init__(self, games: Callable[[], tuple[str, ...]], of: Callable[[str], U]) -> None:
        self._games = games
        self._of = of

    def __getitem__(self, game: str) -> U:
        if game not in self._games():
            raise KeyError(game)
        return self._of(game)

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())
