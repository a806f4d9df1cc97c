"""What one server process runs: the database, the writer thread, the hub of tables and,
with Redis, its membership of a cluster. Built by :func:`paiju.server.app.create_app` and
kept in ``app.state.services`` for the routes.

>>> from paiju.server.config import Settings
>>> s = build(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
>>> s.tables is s.hub, s.hub.timing.turn
(True, 15.0)
>>> s.close()
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server.config import Settings
from paiju.server.db import make_engine, make_sessions
from paiju.server.hub import Hub
from paiju.server.metrics import Metrics
from paiju.server.store import Store
from paiju.server.table import Timing
from paiju.server.tables import Tables
from paiju.server.writer import Writer

__all__ = ["Services", "build", "timing_of"]


@dataclass
class Services:
    """The parts of a server process."""

    settings: Settings
    engine: sa.Engine
    sessions: sessionmaker[Session]
    store: Store
    writer: Writer
    hub: Hub  # this process's tables
    tables: Tables  # where the routes send players: the hub, or the cluster holding it
    metrics: Metrics  # the process's counters and gauges (/metrics)
    #: the process is going away: seats no new table, readiness says not ready
    draining: bool = False
    #: the process stops now (SIGINT, a second SIGTERM): work that may run for seconds (a
    #: review) stops, since the server waits for open requests before its lifespan ends
    stopping: bool = False

    def close(self) -> None:
        """Stop the tables, write what is queued, close the database."""
        self.hub.stop_tables()
        self.writer.close()
        self.engine.dispose()


def timing_of(settings: Settings) -> Timing:
    """The table clocks of these settings.

    >>> timing_of(Settings.from_env({"PAIJU_TURN_SECONDS": "5"})).turn
    5.0
    """
    return Timing(
        turn=settings.turn_seconds,
        ready=settings.ready_seconds,
        reading=settings.reading_seconds,
        bot_wait=settings.bot_wait,
        bot_delay=settings.bot_delay,
        disconnect=settings.disconnect_seconds,
        claim_pause=settings.claim_pause,
        stall=settings.storage_stall_seconds,
    )


def build(settings: Settings, timing: Timing | None = None) -> Services:
    """Build a process's services (the database is not migrated here; see the app)."""
    engine = make_engine(settings.database_url, timeout=settings.storage_timeout_seconds)
    sessions = make_sessions(engine)
    store = Store(sessions, writer=uuid.uuid4().hex[:16])
    writer = Writer(store, linger=settings.commit_delay, stall=settings.storage_stall_seconds)
    hub = Hub(
        store,
        writer,
        timing or timing_of(settings),
        seed=settings.seed,
        watchers=settings.watchers_per_table,
    )
    metrics = Metrics()
    metrics.watch(hub)
    hub.metrics = writer.metrics = metrics
    tables: Tables = hub
    if settings.redis_url:
        from paiju.server.cluster import Cluster

        tables = Cluster(settings.redis_url, hub, store, settings.redis_prefix)
    services = Services(settings, engine, sessions, store, writer, hub, tables, metrics)
    metrics.draining = lambda: services.draining
    return services
