"""A registry by game name that loads its built-in entries on the first look-up: what the
bots' and the environments' registries (:mod:`paiju.bots.registry`,
:mod:`paiju.env.registry`) share.

>>> reg: LazyRegistry[int] = LazyRegistry("json")
>>> reg.entries["madiao"] = 1; reg.entries["other"] = 2
>>> reg.get("madiao"), reg.get("nope"), reg.ordered(), reg.ordered(others=True)
(1, None, ('madiao',), ('madiao', 'other'))
"""

from __future__ import annotations

import importlib
from typing import Generic, TypeVar

from paiju.games import names

__all__ = ["LazyRegistry"]

T = TypeVar("T")


class LazyRegistry(Generic[T]):
    """``entries`` by game name; ``modules`` (the built-in ones, each registering its
    entries as it is imported) are imported once, on the first look-up that needs them."""

    def __init__(self, *modules: str) -> None:
        self.entries: dict[str, T] = {}
        self._modules = modules
        self._loaded = False

    def load(self) -> None:
        """Import the built-in modules, once."""
        if self._loaded:
            return
        self._loaded = True
        for module in self._modules:
            importlib.import_module(module)

    def get(self, name: str) -> T | None:
        """The entry of ``name`` (loading the built-in ones first if it is not there yet), or
        ``None``."""
        entry = self.entries.get(name)
        if entry is None:
            self.load()
            entry = self.entries.get(name)
        return entry

    def ordered(self, others: bool = False) -> tuple[str, ...]:
        """The names with an entry in :func:`paiju.games.names`' order, then (``others``)
        those of games :mod:`paiju.games` does not know, in the order they registered."""
        self.load()
        known = tuple(n for n in names() if n in self.entries)
        if not others:
            return known
        return (*known, *(n for n in self.entries if n not in known))
