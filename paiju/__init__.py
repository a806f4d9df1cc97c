"""paiju (牌局): Mazhan mahjong and Ma Diao, from the rules core to the table.

The game cores (:mod:`paiju.mazhan`, :mod:`paiju.madiao`) are pure Python over plain data
and import only the standard library; everything else is built on top of them.

Importing ``paiju`` makes the Gymnasium environments ``paiju/Mazhan-v0`` and
``paiju/MaDiao-v0`` known to Gymnasium (:func:`register_envs`) without importing Gymnasium
itself: they are registered at once if Gymnasium is loaded, else as soon as it is.
(Gymnasium 1.x reads no ``gymnasium.envs`` entry points, so a package cannot register
itself without being imported; ``gymnasium.make("paiju:paiju/Mazhan-v0")`` imports it.)

>>> import paiju
>>> paiju.__version__
'0.1.0'
>>> import gymnasium
>>> gymnasium.spec("paiju/Mazhan-v0").kwargs
{'game': 'mazhan'}
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

#: The Gymnasium environments of :mod:`paiju.env.single`: their ids and games.
ENVS = (("paiju/Mazhan-v0", "mazhan"), ("paiju/MaDiao-v0", "madiao"))
_REGISTRATION = "gymnasium.envs.registration"


def register_envs() -> list[str]:
    """Register :data:`ENVS` with Gymnasium (those not registered yet); their ids. It loads
    Gymnasium but not the environments, which load when one is made.

    >>> import gymnasium
    >>> register_envs()  # importing paiju did it already
    []
    >>> gymnasium.spec("paiju/MaDiao-v0").entry_point
    'paiju.env.single:PaijuSingleEnv'
    """
    import gymnasium.envs.registration

    return _register_into(gymnasium.envs.registration)


def _register_into(registration: ModuleType) -> list[str]:
    """Register :data:`ENVS` through Gymnasium's ``registration`` module; the new ids."""
    new = []
    for env_id, game in ENVS:
        if env_id not in registration.registry:
            entry = "paiju.env.single:PaijuSingleEnv"
            registration.register(id=env_id, entry_point=entry, kwargs={"game": game})
            new.append(env_id)
    return new


class _Registering(importlib.abc.Loader):
    """Gymnasium's registration module's own loader, and :data:`ENVS` registered once the
    module has run."""

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
