"""The writer: one thread that makes every table's writes durable, in the order they were
asked for, many per transaction (group commit), so the event loop never waits for the
database and a step costs a fraction of a commit. A write that comes alone waits a moment
(``linger``, ``PAIJU_COMMIT_DELAY``) for others to share its transaction: at a human pace
writes come one by one, and a commit each costs far more than the wait.

A batch that fails because the database cannot be reached is retried with back-off until it
succeeds; the first failure is reported for each write in it (``Trouble``: its table pauses
and tells its players), then the answers follow once the batch is written. Every operation
is idempotent (:mod:`paiju.server.store`), so a batch whose commit was cut off and is
written again changes nothing twice. Nothing is ever dropped.

A batch that neither succeeds nor fails (a stalled network or server) is ended by the
engine's bounds (:mod:`paiju.server.db`): after the storage timeout its connection is
abandoned, the writer logs it, connects again and retries. Meanwhile :meth:`Writer.health`
says why the storage is ``degraded``: a batch failing, or a write waiting longer than
``stall`` (the tables pause by themselves then; the writer's answers are the same).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> from paiju.server.store import Store
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> store = Store(make_sessions(engine), writer="w1")
>>> answers = []
>>> from paiju.games import names
>>> w = Writer(store); table = store.create_table(names()[0], names()[0])
>>> w.submit(io.ReleaseSeat(1, table), answers.append); w.close()
>>> answers
[Stored(op=0, result=None)]
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.orm import Session

from paiju.server.db import Guard, guard_of
from paiju.server.errors import ServerError
from paiju.server.metrics import NOWHERE, Metrics
from paiju.server.store import Store
from paiju.server.table import io

__all__ = ["Answer", "Writer"]

log = logging.getLogger("paiju.writer")

#: What a write comes back as (``op`` is filled in by the caller's table).
Answer = io.Stored | io.Trouble | io.Failed
Callback = Callable[[Answer], None]

#: Errors that mean "the database cannot be reached now" (retry), not "this write is wrong".
TRANSIENT = (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError)


@dataclass(slots=True)
class _Item:
    write: io.Write
    answer: Callback


class Writer:
    """The write thread of one server process."""

    def __init__(
        self,
        store: Store,
        batch: int = 500,
        max_backoff: float = 2.0,
        sleep: Callable[[float], None] = time.sleep,
        linger: float = 0.0,
        stall: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self._batch = batch
        # a write that comes alone waits this long for others to share its commit
        self._linger = linger
        self._max_backoff = max_backoff
        self._sleep = sleep
        # a SimpleQueue (C): a put costs the event loop far less than a Queue's Condition
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._idle = threading.Event()
        self._idle.set()
        # a write that has waited this long is stalled (PAIJU_STORAGE_STALL_SECONDS)
        self._stall = stall
        self._clock = clock
        # every write not answered yet was submitted at this time or later (None: none is
        # waiting); one reading of the clock a batch, none a write (see _run)
        self._since: float | None = None
        self._trouble: str | None = None  # why a batch is failing right now
        self._guards: list[Guard] = []  # the watchdog's guards of the connections below
        self._lost: str | None = None  # why the connection just dropped was abandoned
        # hands another process has written on: nothing more of this process's is written
        # for them (a later step or a close would corrupt the other process's hand)
        self.fenced: set[int] = set()
        self._fence_lock = threading.Lock()  # fenced: read and grown here, let go from the loop
        self.batches = 0
        self.writes = 0
        self.metrics: Metrics = NOWHERE  # the process's (services.build sets it)
        self._conn: sa.Connection | None = None  # the writer's own connection, kept open
        self._auto: sa.Connection | None = None  # and one in autocommit, for lone statements
        self._thread = threading.Thread(target=self._run, name="paiju-writer", daemon=True)
        self._thread.start()

    @property
    def troubled(self) -> bool:
        """A batch is failing right now."""
        return self._trouble is not None

    def health(self) -> tuple[Literal["ok", "degraded"], str | None]:
        """``("ok", None)``, or ``("degraded", why)`` while a batch fails or a write has
        waited longer than ``stall`` (read from any thread).

        >>> now = [0.0]
        >>> w = Writer(None, clock=lambda: now[0], stall=2.0)
        >>> w.health()
        ('ok', None)
        >>> w._since = 0.0; now[0] = 3.14; w.health()
        ('degraded', 'stalled: a write has waited 3.1 s')
        >>> w._trouble = "unreachable: connection refused"; w.health()
        ('degraded', 'unreachable: connection refused')
        >>> w.close()
        """
        trouble, since = self._trouble, self._since
        if trouble is not None:
            return "degraded", trouble
        if since is not None and (waited := self._clock() - since) > self._stall:
            return "degraded", f"stalled: a write has waited {waited:.1f} s"
        return "ok", None

    def submit(self, write: io.Write, answer: Callback) -> None:
        """Queue a write; ``answer`` is called from the writer's thread (op 0: the caller
        knows which write it asked for)."""
        self._idle.clear()
        self._queue.put(_Item(write, answer))

    def queued(self) -> int:
        """Writes waiting for the thread (approximate: read from any thread)."""
        return self._queue.qsize()

    def close(self) -> None:
        """Write what is queued and stop."""
        self._queue.put(None)
        self._thread.join()
        self._drop_connection()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            taken = self._clock()
            if self._since is None:  # the queue was empty: this write came just now
                self._since = taken
            if self._linger > 0 and first is not None and self._queue.empty():
                time.sleep(self._linger)  # group commit: one transaction for what comes now
            items = [first]
            drained = False
            while len(items) < self._batch:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    drained = True
                    break
            work = [i for i in items if i is not None]
            if work:
                self._write(work)
            if self._queue.empty():
                self._since = None
                self._idle.set()
            elif drained:
                # what is queued now came after the batch was taken (a full batch left
                # older writes behind: then the time they came is kept)
                self._since = taken
            if None in items:
                return

    def _write(self, items: list[_Item]) -> None:
        attempt = 0
        began, since = self._clock(), self._since
        while True:
            try:
                answers = self._transaction(items)
                break
            except TRANSIENT as err:
                text = str(err.orig if hasattr(err, "orig") else err).splitlines()[0][:200]
                lost, self._lost = self._lost, None
                if lost is not None:
                    log.warning("the writer's connection was lost (%s): connecting again", lost)
                    self._trouble = f"connection lost: {lost}; connecting again"
                else:
                    self._trouble = f"unreachable: {text}"
                if attempt == 0:
                    self.metrics.troubles.inc()
                    log.warning(
                        "storage unavailable (%s); retrying %d writes",
                        text,
                        len(items),
                        extra={"event": "storage_trouble", "writes": len(items)},
                    )
                    for item in items:
                        _call(item.answer, io.Trouble(0, text))
                attempt += 1
                self._sleep(min(self._max_backoff, 0.05 * 2 ** min(attempt, 10)))
            except Exception:  # a bug, not an outage: say so loudly, fence the writes off
                log.exception("a batch of %d writes failed", len(items))
                answers = [io.Failed(0, "fenced") for _ in items]
                break
        if attempt:
            log.warning(
                "storage is back after %d attempts",
                attempt + 1,
                extra={"event": "storage_back", "attempts": attempt + 1},
            )
        self._trouble = None
        self.batches += 1
        self.writes += len(items)
        waited = 0.0 if since is None else max(0.0, began - since)
        kinds = [type(i.write).__name__ for i in items]
        self.metrics.batch(len(items), waited, self._clock() - began, kinds)
        for item, answer in zip(items, answers, strict=True):
            _call(item.answer, answer)

    def _transaction(self, items: list[_Item]) -> list[Answer]:
        """One transaction for the batch: steps inserted together, each other write as it
        comes. A collision (a step or a hand another process wrote) or a refused movement
        sends the batch again, carefully: each write in a savepoint of its own, so only it
        fails."""
        try:
            return self._batch_transaction(items, careful=False)
        except (sa.exc.IntegrityError, ServerError):
            return self._batch_transaction(items, careful=True)

    def _batch_transaction(self, items: list[_Item], careful: bool) -> list[Answer]:
        store = self.store
        answers: list[Answer] = []
        with self._fence_lock:
            fenced = set(self.fenced)
        before = set(fenced)
        try:
            if self._conn is None:
                engine = store.sessions.kw["bind"]
                self._conn = engine.connect()
                self._guards = [g for g in (guard_of(self._conn),) if g is not None]
            steps = [i.write for i in items]
            if not careful and all(
                isinstance(w, io.Step) and w.hand not in fenced for w in steps
            ):  # the common batch: steps only, one plain insert (no session)
                conn = self._conn
                if conn.dialect.name == "postgresql":
                    # one statement, a transaction by itself (autocommit): one round trip,
                    # not three (BEGIN, the insert, COMMIT), prepared on the driver's own
                    # connection (no SQLAlchemy statement machinery per batch)
                    if self._auto is None:
                        self._auto = conn.engine.connect().execution_options(
                            isolation_level="AUTOCOMMIT"
                        )
                        if (guard := guard_of(self._auto)) is not None:
                            self._guards.append(guard)
                    store.insert_steps(self._auto, steps)  # type: ignore[arg-type]
                else:
                    with conn.begin():
                        store.insert_steps(conn, steps)  # type: ignore[arg-type]
                return [io.Stored(0) for _ in steps]
            with Session(bind=self._conn, expire_on_commit=False) as s, s.begin():
                answers.extend(self._batch_in(s, items, careful, fenced))
        except TRANSIENT:
            self._lost = self._drop_connection()
            raise
        with self._fence_lock:
            self.fenced |= fenced - before  # (a hand let go meanwhile stays let go)
        return answers

    def fence(self, hand: int) -> None:
        """Write nothing more of this process's for ``hand`` (an admin closed its table)."""
        with self._fence_lock:
            self.fenced.add(hand)

    def unfence(self, hand: int) -> None:
        """This process holds ``hand`` again (it took the table over): its writes on it are
        its own from now on (a hand fenced once is not fenced for the process's life).

        >>> from paiju.server.db import make_engine, make_sessions, migrate
        >>> engine = make_engine("sqlite://"); migrate(engine)
        >>> w = Writer(Store(make_sessions(engine), writer="w")); w.fenced.add(5)
        >>> w.unfence(5); w.fenced
        set()
        >>> w.close()
        """
        with self._fence_lock:
            self.fenced.discard(hand)

    def _drop_connection(self) -> str | None:
        """Close the writer's connections; why the watchdog abandoned one, if it did."""
        lost = next((g.abandoned for g in self._guards if g.abandoned), None)
        self._guards = []
        for conn in (self._conn, self._auto):
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.invalidate()
                    conn.close()
        self._conn = self._auto = None
        return lost

    def _batch_in(
        self, s: Session, items: list[_Item], careful: bool, fenced: set[int]
    ) -> list[Answer]:
        store = self.store
        writes = [item.write for item in items]
        if not careful and _grouped(s, writes, fenced):
            return self._together(s, writes, fenced)
        answers: list[Answer | None] = [None] * len(items)
        if not careful:
            # every step of the batch in one statement, first: a step's hand was started in
            # an earlier batch (its id comes from that start), and a hand's close comes after
            # its last step, so no other write of the batch can fence a step off
            run = [
                (i, item.write)
                for i, item in enumerate(items)
                if isinstance(item.write, io.Step) and item.write.hand not in fenced
            ]
            if run:
                store.insert_steps(s, [w for _, w in run])
                for i, _ in run:
                    answers[i] = io.Stored(0)
        for i, item in enumerate(items):
            if answers[i] is not None:
                continue
            write = item.write
            hand = _hand_of(write)
            if hand is not None and hand in fenced:
                answers[i] = io.Failed(0, "fenced")
                continue
            if isinstance(write, io.Step):
                result: Any = store.log_steps(s, [write])[0]
            else:
                result = self._isolated(s, write) if careful else self._one(s, write)
            if result == "fenced" and hand is not None:
                fenced.add(hand)
            answers[i] = _answer(result)
        return answers  # type: ignore[return-value]

    def _together(self, s: Session, writes: list[io.Write], fenced: set[int]) -> list[Answer]:
        """A batch of steps, starts and closes in four round trips (:func:`_grouped`)."""
        steps = [w for w in writes if isinstance(w, io.Step)]
        run = [w for w in writes if isinstance(w, io.StartHand | io.CloseHand)]
        results = iter(self.store.starts_and_closes(s, steps, run))
        answers: list[Answer] = []
        for w in writes:
            if isinstance(w, io.Step):
                answers.append(io.Stored(0))
                continue
            result = next(results)
            if result == "fenced" and isinstance(w, io.CloseHand):
                fenced.add(w.hand)
            answers.append(_answer(result))
        return answers

    def _isolated(self, s: Session, write: io.Write) -> Any:
        """One write in a savepoint: if it breaks a constraint or a rule, only it fails."""
        try:
            with s.begin_nested():
                return self._one(s, write)
        except TRANSIENT:
            raise
        except sa.exc.IntegrityError:
            log.warning("%s met another process's row: fenced", write)
            return "fenced"
        except Exception:
            log.exception("%s failed", write)
            return "fenced"

    def _one(self, s: Session, write: io.Write) -> Any:
        run = _BY_KIND.get(type(write))
        if run is None:
            raise TypeError(f"not a write: {write!r}")
        return run(self.store, s, write)


#: how each write other than a step is made (steps go in batches: Store.log_steps)
_BY_KIND: dict[type, Callable[[Store, Session, Any], Any]] = {
    io.ClaimSeat: Store.claim_seat,
    io.ReleaseSeat: Store.release_seat,
    io.SetTuoguan: Store.set_tuoguan,
    io.StartHand: Store.start_hand,
    io.CloseHand: Store.close_hand,
    io.AbortHand: Store.abort_hand,
}


def _grouped(s: Session, writes: list[io.Write], fenced: set[int]) -> bool:
    """Whether a batch goes to the database in four round trips
    (:meth:`~paiju.server.store.Store.starts_and_closes`): on PostgreSQL, a batch of steps,
    hand starts and hand closes only (the writes of a busy room), none of them fenced."""
    return (
        s.get_bind().dialect.name == "postgresql"
        and any(isinstance(w, io.StartHand | io.CloseHand) for w in writes)
        and all(
            isinstance(w, io.StartHand)
            or (isinstance(w, io.Step | io.CloseHand) and w.hand not in fenced)
            for w in writes
        )
    )


def _hand_of(write: io.Write) -> int | None:
    if isinstance(write, io.Step | io.CloseHand | io.AbortHand):
        return write.hand
    return None


def _answer(result: Any) -> Answer:
    if isinstance(result, str):
        return io.Failed(0, result)
    return io.Stored(0, result)


def _call(answer: Callback, value: Answer) -> None:
    try:
        answer(value)
    except Exception:  # an answer must never stop the writer
        log.exception("answering a write failed")
