"""A table of the online room (the table rules, §10): a pure machine (inputs in, decisions
out: :mod:`~paiju.server.table.io`) in parts, and its runner on the event loop
(:mod:`~paiju.server.table.runner`).

>>> from paiju.server.table import TableMachine, Timing
>>> Timing().turn
15.0
"""

from paiju.server.table.machine import TableMachine
from paiju.server.table.restore import restore
from paiju.server.table.state import BOT_NAMES, Player, Timing

__all__ = ["BOT_NAMES", "Player", "TableMachine", "Timing", "restore"]
