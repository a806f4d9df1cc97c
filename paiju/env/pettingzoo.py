"""The PettingZoo entry points of one game, written once for every ``<game>_v0`` module:
``raw_env()`` and ``env()`` (AEC) and ``parallel_env()``.

>>> from paiju.env.registry import registered
>>> g = registered()[0]
>>> fns = entry_points(g, "my_games.cards_v0")
>>> fns.raw_env().metadata["name"] == f"paiju_{g}_v0", fns.env().possible_agents[0]
(True, 'player_0')
>>> p = fns.parallel_env(); obs, infos = p.reset(seed=1); sorted(obs) == p.agents
True
>>> fns.env.__module__, fns.env.__qualname__
('my_games.cards_v0', 'env')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from paiju.env.base import PaijuAECEnv
from paiju.env.parallel import PaijuParallelEnv

__all__ = ["EntryPoints", "entry_points"]


class EntryPoints(NamedTuple):
    """A game's PettingZoo entry points (every keyword goes to the environment)."""

    raw_env: Callable[..., PaijuAECEnv]
    env: Callable[..., PaijuAECEnv]
    parallel_env: Callable[..., PaijuParallelEnv]


def entry_points(game: str, module: str) -> EntryPoints:
    """``game``'s entry points, named as functions of ``module`` (where they are bound, so
    that they pickle and document as that module's own)."""

    def raw_env(**kwargs: Any) -> PaijuAECEnv:
        """The AEC environment (it checks its own inputs: no wrappers are needed)."""
        return PaijuAECEnv(game, **kwargs)

    def env(**kwargs: Any) -> PaijuAECEnv:
        """The AEC environment; an illegal action ends the hand (``illegal``, default
        zero-sum)."""
        return raw_env(**kwargs)

    def parallel_env(**kwargs: Any) -> PaijuParallelEnv:
        """The parallel environment: every player that must decide does so in one step (the
        others get an all-zero action mask)."""
        return PaijuParallelEnv(game, **kwargs)

    for fn in (raw_env, env, parallel_env):
        fn.__module__ = module
        fn.__qualname__ = fn.__name__
    return EntryPoints(raw_env, env, parallel_env)
