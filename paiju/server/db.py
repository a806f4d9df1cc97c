"""Engines, migrations and sessions.

>>> engine = make_engine("sqlite://")
>>> migrate(engine)
>>> sorted(sa.inspect(engine).get_table_names())[:3]
['accounts', 'alembic_version', 'hand_actions']
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = ["make_engine", "make_sessions", "migrate"]

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url``; a SQLite file's folder is created, and SQLite enforces foreign
    keys and waits for locks (its transactions begin IMMEDIATE, so SAVEPOINTs work and two
    writers queue instead of failing).

    >>> make_engine("sqlite://").dialect.name
    'sqlite'
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        kwargs: dict[str, object] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
        if not path:
            kwargs["poolclass"] = StaticPool  # one in-memory database for every session
        engine = sa.create_engine(url, **kwargs)

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            # SQLAlchemy, not the sqlite3 module, begins transactions (SAVEPOINTs then work)
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if path:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(conn):  # type: ignore[no-untyped-def]
            # IMMEDIATE: a transaction takes the write lock when it begins, so two writers
            # wait for each other instead of failing when one upgrades from reading
            conn.exec_driver_sql("BEGIN IMMEDIATE")

        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def migrate(engine: sa.Engine) -> None:
    """Bring the schema up to the newest Alembic revision.

    >>> migrate(make_engine("sqlite://"))
    """
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # several processes may start at once: one migrates, the others wait for it
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(7273001)"))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def make_sessions(engine: sa.Engine) -> sessionmaker[Session]:
    """The session factory of an engine.

    >>> make_sessions(make_engine("sqlite://"))().bind is not None
    True
    """
    return sessionmaker(engine, expire_on_commit=False)
