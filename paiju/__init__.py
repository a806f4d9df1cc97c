"""paiju (牌局): traditional Chinese games, from the rules core to the table.

Each game is one folder (``paiju/<game>/``): its core, pure Python over plain data that
imports only the standard library, and its parts for the shared layers (``game.py``, the
bots, the environments, the typed views); everything else is built on top of them and finds
the games through their registration (:mod:`paiju.games`).

Importing ``paiju`` makes each game's Gymnasium environment (``paiju/<Game>-v0``,
:func:`gymnasium_envs`) known to Gymnasium (:func:`register_envs`) without importing
Gymnasium itself: they are registered at once if Gymnasium is loaded, else as soon as it
is. (Gymnasium 1.x reads no ``gymnasium.envs`` entry points, so a package cannot register
itself without being imported; ``gymnasium.make("paiju:paiju/<Game>-v0")`` imports it.)

>>> import paiju
>>> paiju.__version__
'0.1.0'
>>> import gymnasium
>>> env_id, entry_point = paiju.gymnasium_envs()[0]
>>> gymnasium.spec(env_id).entry_point == entry_point
True
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

#: The entry-point group of the games' Gymnasium environments: an id, and the function of
#: the game's folder that makes the environment (pyproject.toml declares paiju's own).
GYMNASIUM_ENTRY_POINTS = "paiju.gymnasium"
_REGISTRATION = "gymnasium.envs.registration"


def gymnasium_envs() -> tuple[tuple[str, str], ...]:
    """The installed games' Gymnasium environments: ``(id, entry point)`` pairs, read from
    the packages' metadata (no game is imported).

    >>> all(env_id.startswith("paiju/") for env_id, _ in gymnasium_envs())
    True
    """
    from importlib.metadata import entry_points

    return tuple((p.name, p.value) for p in entry_points(group=GYMNASIUM_ENTRY_POINTS))


def register_envs() -> list[str]:
    """Register :func:`gymnasium_envs` with Gymnasium (those not registered yet); their ids.
    It loads Gymnasium but not the environments, which load when one is made.

    >>> register_envs()  # importing paiju did it already
    []
    """
    import gymnasium.envs.registration

    return _register_into(gymnasium.envs.registration)


def _register_into(registration: ModuleType) -> list[str]:
    """Register :func:`gymnasium_envs` through Gymnasium's ``registration`` module; the new
    ids."""
    new = []
    for env_id, entry in gymnasium_envs():
        if env_id not in registration.registry:
            registration.register(id=env_id, entry_point=entry)
            new.append(env_id)
    return new


class _Registering(importlib.abc.Loader):
    """Gymnasium's registration module's own loader, and :func:`gymnasium_envs` registered
    once the module has run."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        _register_into(module)

    def __getattr__(self, name: str) -> Any:  # get_code, get_source, … for tools that ask
        return getattr(self.loader, name)


class _WhenGymnasiumLoads(importlib.abc.MetaPathFinder):
    """Finds Gymnasium's registration module as the other finders do, with :class:`_Registering`
    as its loader; steps aside after that once."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _REGISTRATION:
            return None
        sys.meta_path.remove(self)
        for finder in sys.meta_path:
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _Registering(spec.loader)
                return spec
        return None


if _REGISTRATION in sys.modules:
    register_envs()
elif not any(isinstance(f, _WhenGymnasiumLoads) for f in sys.meta_path):
    sys.meta_path.insert(0, _WhenGymnasiumLoads())
