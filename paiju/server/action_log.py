"""The action log written in the background: a server's tables append each action to a queue
and go on; one thread writes whatever has gathered in a single transaction (group commit), so
the event loop never waits for the database on a move.

The log still fences a process that has lost a table without knowing it: a step of a hand is
written once (a unique key), and when this process's step collides, the hand is marked as
conflicted, its later steps are dropped, and ``on_conflict(hand_id)`` is called so the table
can stop. Before a hand is closed the server drains the queue (:meth:`ActionLog.drain`), so a
finished hand's log is always complete; a crash loses at most the last few milliseconds of
steps, which the restored table then plays again.

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> engine = make_engine("sqlite://")
>>> migrate(engine)
>>> log = ActionLog(make_sessions(engine))
>>> log.conflicted(1)
False
>>> log.close()
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server.models import HandAction

__all__ = ["ActionLog"]

log = logging.getLogger("paiju.action_log")

ACTION_INSERT = sa.insert(HandAction.__table__)  # type: ignore[arg-type]
Row = tuple[int, int, str]  # hand, step, action


class ActionLog:
    """A background writer of hands' actions, many per transaction."""

    def __init__(self, sessions: sessionmaker[Session], batch: int = 1000) -> None:
        self._sessions = sessions
        self._batch = batch
        self._queue: queue.Queue[Row | None] = queue.Queue()
        self._conflicts: set[int] = set()
        self._lock = threading.Lock()
        self.on_conflict: Callable[[int], None] | None = None
        self._thread = threading.Thread(target=self._run, name="paiju-action-log", daemon=True)
        self._thread.start()

    def append(self, hand_id: int, seq: int, action: str) -> None:
        """Queue one step of a hand (returns at once)."""
        self._queue.put((hand_id, seq, action))

    def drain(self) -> None:
        """Wait until everything queued so far is written."""
        self._queue.join()

    def conflicted(self, hand_id: int) -> bool:
        """True once a step of this hand collided with one another process wrote."""
        with self._lock:
            return hand_id in self._conflicts

    def close(self) -> None:
        """Write what is queued and stop the thread."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            batch = [self._queue.get()]
            while len(batch) < self._batch:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            try:
                self._write([row for row in batch if row is not None])
            except Exception:  # the database is gone for good: say so, keep serving
                log.exception("could not write %d actions", len(batch))
            finally:
                for _ in batch:
                    self._queue.task_done()
            if None in batch:
                return

    def _write(self, rows: list[Row]) -> None:
        rows = [r for r in rows if not self.conflicted(r[0])]
        if not rows:
            return
        for attempt in range(5):  # a database restart: try again for a few seconds
            try:
                self._insert(rows)
                return
            except sa.exc.IntegrityError:
                break  # a collision: find it below
            except sa.exc.OperationalError:
                if attempt == 4:
                    raise
                time.sleep(0.2 * 2**attempt)
        for row in rows:  # one at a time, to find the steps another process wrote
            if self.conflicted(row[0]):
                continue
            try:
                self._insert([row])
            except sa.exc.IntegrityError:
                with self._lock:
                    self._conflicts.add(row[0])
                log.warning("hand %s step %s is already written elsewhere", row[0], row[1])
                if self.on_conflict is not None:
                    self.on_conflict(row[0])

    def _insert(self, rows: list[Row]) -> None:
        with self._sessions.begin() as s:
            s.connection().execute(
                ACTION_INSERT, [{"hand_id": h, "seq": q, "action": a} for h, q, a in rows]
            )
