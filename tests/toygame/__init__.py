"""A tiny third game defined only here, to prove that a game is one folder and one
registration: :mod:`tests.toygame.game` (the rules and the :class:`~paiju.games.Game`
adapter), :mod:`tests.toygame.bots` and :mod:`tests.toygame.env` register it with every
registry (:func:`tests.toygame.register`), and no line of ``paiju/`` names it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

__all__ = ["register", "registered"]


def register() -> None:
    """Register the toy game with the games, the bots and the environments."""
    from tests.toygame import bots, env, game

    game.register_game()
    bots.register_toy_bots()
    env.register_toy_env()


@contextlib.contextmanager
def registered() -> Iterator[None]:
    """The toy game registered for a while, every registry as it was afterwards (the
    doctests list the built-in games only)."""
    import paiju.bots.registry as bot_registry
    import paiju.env.registry as env_registry
    import paiju.games as games_registry
    from paiju.bots.base import BOTS

    games_registry.load()
    bot_registry.load()
    env_registry.load()
    saved = [(r, dict(r._REGISTRY)) for r in (games_registry, bot_registry, env_registry)]
    register()
    try:
        yield
    finally:
        for r, before in saved:
            r._REGISTRY.clear()
            r._REGISTRY.update(before)
        BOTS.pop("toy", None)
