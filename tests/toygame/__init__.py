"""A tiny third game defined only here, to prove that a game is one folder and one
registration: :mod:`tests.toygame.game` (the rules and the :class:`~paiju.games.Game`
adapter), :mod:`tests.toygame.bots` and :mod:`tests.toygame.env` register it with every
registry (:func:`tests.toygame.register`), and no line of ``paiju/`` names it."""

from __future__ import annotations

__all__ = ["register"]


def register() -> None:
    """Register the toy game with the games, the bots and the environments."""
    from tests.toygame import bots, env, game

    game.register_game()
    bots.register_toy_bots()
    env.register_toy_env()
