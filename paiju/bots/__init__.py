"""Bots and the match driver: one :class:`~paiju.bots.base.Bot` protocol for every game.

>>> from paiju.bots import make_bot
>>> make_bot("mazhan", "greedy").name
'greedy'
"""

from paiju.bots.base import Bot, make_bot

__all__ = ["Bot", "make_bot"]
