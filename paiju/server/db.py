"""Engines, migrations and sessions.

Storage that stalls is storage that is down: with a ``timeout`` (the setting
``PAIJU_STORAGE_TIMEOUT_SECONDS``), every PostgreSQL connection is bounded at each level a
stall can hide in. Connecting gives up after the timeout; TCP keepalives and
``tcp_user_timeout`` notice a network that is gone; the server ends a statement, a lock wait
or a transaction left idle that lasts longer (``statement_timeout``, ``lock_timeout``,
``idle_in_transaction_session_timeout``); and a :class:`Watchdog` shuts down the socket of a
connection whose call has had no answer for longer, which is the only thing that notices a
black hole (a firewall or a proxy that acknowledges every byte and forwards none: keepalives
are answered, nothing ever fails). Each of these ends in an ``OperationalError``: the pool
replaces the connection, the writer retries its batch.

>>> engine = make_engine("sqlite://")
>>> migrate(engine)
>>> sorted(sa.inspect(engine).get_table_names())[:3]
['accounts', 'admin_actions', 'alembic_version']
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import socket
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import psycopg
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from psycopg.abc import PQGen
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

__all__ = [
    "Guard",
    "Watchdog",
    "driver_execute",
    "guard_of",
    "make_engine",
    "make_sessions",
    "migrate",
    "one_of",
]  # fmt: skip

log = logging.getLogger("paiju.db")

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"

#: TCP keepalives of a PostgreSQL connection: an idle connection whose peer is gone is
#: noticed after 5 + 3 × 2 = 11 s (the kernel's default is two hours)
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}


class Guard:
    """What the watchdog knows of one connection: since when its current call to the
    server has waited (``since``, ``None`` between calls), how long it may (``limit``,
    ``None``: for ever), why it was abandoned, if it was, and what else to do then
    (``on_abandon``)."""

    __slots__ = (
        "__weakref__", "_clock", "_fileno", "_lock", "abandoned", "limit", "on_abandon", "since",
    )  # fmt: skip

    def __init__(
        self,
        fileno: Callable[[], int],
        limit: float | None,
        clock: Callable[[], float],
        on_abandon: Callable[[], None] | None = None,
    ) -> None:
        self._fileno = fileno
        self._clock = clock
        self.on_abandon = on_abandon
        self._lock = threading.Lock()
        self.limit = limit
        self.since: float | None = None
        self.abandoned: str | None = None

    def begin(self) -> None:
        """A call starts waiting for the server."""
        self.since = self._clock()

    def end(self) -> None:
        """The call is answered (or failed): from now on the socket is not the watchdog's
        to shut (it may be closed, and its number reused)."""
        with self._lock:
            self.since = None

    def _abandon(self, now: float) -> float | None:
        """Shut the socket down if the call has waited too long: how long it had."""
        with self._lock:
            since, limit = self.since, self.limit
            if since is None or limit is None or now - since <= limit:
                return None
            # a duplicate of the descriptor: shutting it down shuts the connection's own
            # socket, so the call blocked on it wakes up and fails at once, in its thread
            # (nothing to do if the socket is gone meanwhile)
            with contextlib.suppress(Exception), socket.socket(fileno=os.dup(self._fileno())) as s:
                s.shutdown(socket.SHUT_RDWR)
            self.abandoned = f"no answer for {now - since:.1f} s"
            return now - since


class Watchdog:
    """Abandons every watched connection whose call has waited longer than its limit: its
    socket is shut down, so the call fails (``OperationalError``) and the connection is
    replaced. A thread looks every ``tick`` seconds; :meth:`check` is one look.

    >>> now = [0.0]
    >>> dog = Watchdog(clock=lambda: now[0], run=False)
    >>> mine, peer = socket.socketpair()
    >>> guard = dog.guard(mine.fileno, limit=10.0)
    >>> guard.begin(); now[0] = 9.0; dog.check()
    0
    >>> now[0] = 10.5; dog.check(), mine.recv(1), guard.abandoned
    (1, b'', 'no answer for 10.5 s')
    >>> guard.end(); now[0] = 99.0; dog.check()
    0
    >>> mine.close(); peer.close()
    """

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, tick: float = 0.25, run: bool = True
    ) -> None:
        self.clock = clock
        self.tick = tick
        self._run = run
        self._guards: weakref.WeakSet[Guard] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.abandoned = 0

    def guard(
        self,
        fileno: Callable[[], int],
        limit: float | None,
        on_abandon: Callable[[], None] | None = None,
    ) -> Guard:
        """Watch a connection (``fileno`` gives its socket's descriptor) from now on, until
        its guard is dropped; the thread starts with the first."""
        guard = Guard(fileno, limit, self.clock, on_abandon)
        with self._lock:
            self._guards.add(guard)
            if self._run and self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="paiju-db-watchdog", daemon=True
                )
                self._thread.start()
        return guard

    def check(self) -> int:
        """Abandon the calls that have waited too long; how many."""
        now = self.clock()
        with self._lock:
            guards = list(self._guards)
        found = 0
        for guard in guards:
            waited = guard._abandon(now)
            if waited is not None:
                found += 1
                log.warning(
                    "a database connection had no answer for %.1f s: abandoned (a stalled "
                    "network or server); it is replaced",
                    waited,
                )
                if guard.on_abandon is not None:
                    try:
                        guard.on_abandon()
                    except Exception:
                        log.exception("after abandoning a connection")
        self.abandoned += found
        return found

    def _watch(self) -> None:
        ticks = threading.Event()
        while True:
            ticks.wait(self.tick)
            try:
                self.check()
            except Exception:  # the watchdog must outlive anything one look meets
                log.exception("the database watchdog failed to look")


#: the watchdog of this process's engines
WATCHDOG = Watchdog()


class _Watched(psycopg.Connection[Any]):
    """A psycopg connection whose every wait for the server its guard's watchdog sees."""

    guard: Guard

    def wait(self, gen: PQGen[Any], *args: Any, **kwargs: Any) -> Any:
        # every query, commit and ping of psycopg waits for the server here
        guard = self.guard
        guard.begin()
        try:
            return super().wait(gen, *args, **kwargs)
        finally:
            guard.end()


def driver_execute(
    s: Session | sa.Connection, sql: str, params: Sequence[Any]
) -> list[tuple[Any, ...]]:
    """PostgreSQL: run ``sql`` (psycopg's placeholders) prepared on the driver's own
    connection, inside the caller's transaction (no SQLAlchemy statement machinery: the
    hot statements of the writer); the rows it returns. The driver's errors come back as
    SQLAlchemy's (``IntegrityError``: a row is there already; ``OperationalError`` /
    ``InterfaceError``: the database cannot be reached), so retries treat it as any
    statement.

    >>> with sessions.begin() as s:  # doctest: +SKIP
    ...     driver_execute(s, "SELECT id FROM accounts WHERE id = ANY(%s)", ([1, 2],))
    [(1,), (2,)]
    """
    conn = s.connection() if isinstance(s, Session) else s
    raw: Any = conn.connection.driver_connection
    try:
        cur = raw.execute(sql, params, prepare=True)
        return cur.fetchall() if cur.description is not None else []
    except psycopg.Error as err:  # mapped by class, as SQLAlchemy maps its own
        raise sa.exc.DBAPIError.instance(sql, params, err, psycopg.Error) from err


def one_of(s: Session, column: Any, values: Sequence[Any]) -> sa.ColumnElement[bool]:
    """``column IN values``; on PostgreSQL ``column = ANY(array)``: one parameter, however
    many values (an ``IN`` of the 2,000 people seated at a process is 2,000 parameters to
    render and send, 30 ms of the interpreter every few seconds).

    >>> from paiju.server.models import Account
    >>> with make_sessions(make_engine("sqlite://"))() as s:
    ...     print(one_of(s, Account.id, [1, 2]))
    accounts.id IN (__[POSTCOMPILE_id_1])
    """
    if s.get_bind().dialect.name == "postgresql":
        array = sa.literal(list(values), ARRAY(column.type))
        return cast(sa.ColumnElement[bool], column == sa.any_(array))
    return cast(sa.ColumnElement[bool], column.in_(values))


def guard_of(conn: sa.Connection) -> Guard | None:
    """The watchdog's guard of a connection (``None``: it is not watched, e.g. SQLite).

    >>> with make_engine("sqlite://").connect() as c:
    ...     guard_of(c) is None
    True
    """
    raw = conn.connection.driver_connection
    return raw.guard if isinstance(raw, _Watched) else None


def make_engine(
    url: str, timeout: float | None = None, watchdog: Watchdog | None = None
) -> sa.Engine:
    """An engine for ``url``; a SQLite file's folder is created, and SQLite enforces foreign
    keys and waits for locks (its transactions begin IMMEDIATE, so SAVEPOINTs work and two
    writers queue instead of failing).

    ``timeout`` bounds every wait (the module's text): on PostgreSQL a connect, a statement,
    a lock wait, an idle transaction and a call with no answer (``watchdog``, this
    process's by default); on SQLite a wait for another connection's lock. ``None`` waits as
    long as it takes (tools, and tests' own checks).

    >>> make_engine("sqlite://").dialect.name
    'sqlite'
    >>> make_engine("postgresql+psycopg://db/paiju", timeout=10).pool.timeout()
    10
    """
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        busy = 30.0 if timeout is None else timeout
        kwargs: dict[str, object] = {"connect_args": {"check_same_thread": False, "timeout": busy}}
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
    if timeout is None:
        return sa.create_engine(url, pool_pre_ping=True)
    return _bounded_postgres(url, timeout, watchdog or WATCHDOG)


def _bounded_postgres(url: str, timeout: float, dog: Watchdog) -> sa.Engine:
    ms = math.ceil(timeout * 1000)
    server = (
        f"-c statement_timeout={ms} -c lock_timeout={ms} "
        f"-c idle_in_transaction_session_timeout={ms}"
    )
    given = sa.engine.make_url(url).query.get("options")
    connect_args: dict[str, Any] = {
        # libpq counts whole seconds, at least 2
        "connect_timeout": max(2, math.ceil(timeout)),
        **KEEPALIVE,
        # sent data unacknowledged this long: the peer is gone (a keepalive only probes an
        # idle connection)
        "tcp_user_timeout": ms,
        "options": f"{given} {server}" if isinstance(given, str) else server,
    }
    # pool_timeout: waiting for a free connection of the pool is a wait like any other
    engine = sa.create_engine(
        url, pool_pre_ping=True, pool_timeout=timeout, connect_args=connect_args
    )

    ref = weakref.ref(engine)

    def replace_idle() -> None:
        # the pool's idle connections most likely went the way of the abandoned one (a
        # network that forgot its connections): replace them too, or each would cost a
        # request its ping's whole timeout
        if (e := ref()) is not None:
            e.dispose()

    @sa.event.listens_for(engine, "do_connect")
    def _connect(_dialect, _record, cargs, cparams):  # type: ignore[no-untyped-def]
        conn = _Watched.connect(*cargs, **cparams)
        conn.guard = dog.guard(conn.fileno, timeout, replace_idle)
        return conn

    return engine


@contextlib.contextmanager
def _patient(connection: sa.Connection) -> Iterator[None]:
    """Lift a connection's bounds for a transaction that may rightly take long (a
    migration, or waiting for another process's)."""
    if connection.dialect.name != "postgresql":
        yield
        return
    connection.execute(sa.text("SET LOCAL statement_timeout = 0"))
    connection.execute(sa.text("SET LOCAL lock_timeout = 0"))
    # a migration may work out much in Python between two statements (rekey_accounts)
    connection.execute(sa.text("SET LOCAL idle_in_transaction_session_timeout = 0"))
    guard = guard_of(connection)
    limit = guard.limit if guard is not None else None
    if guard is not None:
        guard.limit = None
    try:
        yield
    finally:
        if guard is not None:
            guard.limit = limit


def migrate(engine: sa.Engine) -> None:
    """Bring the schema up to the newest Alembic revision.

    >>> migrate(make_engine("sqlite://"))
    """
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection, _patient(connection):
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
