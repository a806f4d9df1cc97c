"""What the routes know of the tables: one interface, served by this process alone
(:class:`~paiju.server.hub.Hub`) or by the world of processes sharing Redis
(:class:`~paiju.server.cluster.Cluster`, which holds a hub for the tables it plays).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> from paiju.server.hub import Hub
>>> from paiju.server.store import Store
>>> from paiju.server.table import Timing
>>> from paiju.server.writer import Writer
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> store = Store(make_sessions(engine), writer="w"); writer = Writer(store)
>>> tables: Tables = Hub(store, writer, Timing())
>>> tables.pid, tables.health()
(None, (None, None))
>>> writer.close()
"""

from __future__ import annotations

from typing import Any, Protocol

from paiju.server.connection import Connection
from paiju.server.protocol import ClientMessage

__all__ = ["Tables"]


class Tables(Protocol):
    """Where players' sockets and messages go, and what the lobby and an invitation show.

    Raises, from its coroutines, :class:`~paiju.server.errors.ServerError` for what a player
    asked wrongly, and ``redis.exceptions.RedisError`` while a cluster cannot reach Redis.
    """

    @property
    def pid(self) -> str | None:
        """This process's name among the others, or ``None`` alone."""

    async def start(self) -> None:
        """Take up the tables that were live (rebuilt from the log, or taken by lease)."""

    async def stop(self) -> None:
        """Let the tables go for another process (alone: nothing; the next start rebuilds
        them)."""

    async def connected(self, account: int, conn: Connection) -> None:
        """A socket opened here for ``account``: it is served, and sent back to its seat."""

    async def disconnected(self, account: int, conn: Connection) -> None:
        """A socket here closed; if it was the account's, its table hears it."""

    async def route(self, account: int, name: str, message: ClientMessage) -> None:
        """A player's message, to the table it is for wherever it plays."""

    async def lobby(self) -> dict[str, Any]:
        """``{"rooms": [...], "online": n}``: each room with its tables and players."""

    async def invitation(self, code: str) -> dict[str, Any] | None:
        """What an invitation to the private table of ``code`` shows, or ``None``."""

    def health(self) -> tuple[str | None, str | None]:
        """The state of the link to the other processes: ``(None, None)`` alone, else
        ``("ok", None)`` or ``("degraded", why)``."""
