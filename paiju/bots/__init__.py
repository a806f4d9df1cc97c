"""Bots and the match driver: one :class:`~paiju.bots.base.Bot` protocol for every game.

>>> from paiju.bots import make_bot
>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> make_bot(g.name, g.default_bot).name == g.default_bot
True
"""

from paiju.bots.base import Bot, make_bot
from paiju.bots.uniform import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
