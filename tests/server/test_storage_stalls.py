"""Storage that stalls is storage that is down: a real :class:`~paiju.server.writer.Writer`
and :class:`~paiju.server.store.Store` on PostgreSQL through a TCP proxy the test controls,
with short settings (a write is stalled after 0.5 s, a call is abandoned after 2 s).

A black hole (the proxy forwards nothing and closes nothing), a connection silently lost,
and a ``LOCK TABLE`` held by another session each make the writes wait; the storage's health
says so, the waiting connection is abandoned, logged and replaced, and once the fault ends
every write is committed exactly once and the ledger sums. The store's own reads through a
black hole fail within the timeouts instead of hanging.

A fault's length is the scenario itself (held for so many seconds); everything else waits
on conditions.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import psycopg
import pytest
import sqlalchemy as sa

from paiju.server import ledger
from paiju.server.db import make_engine, make_sessions, migrate
from paiju.server.models import Account, Hand, HandAction, LedgerEntry
from paiju.server.money import HOUSE
from paiju.server.store import Store
from paiju.server.table import io
from paiju.server.writer import Answer, Writer
from tests.server.conftest import own_database
from tests.server.tcp_proxy import TcpProxy
from tests.server.test_faults import hold_outage, wait_until

STALL = 0.5  # a write waiting longer is stalled (PAIJU_STORAGE_STALL_SECONDS)
TIMEOUT = 2.0  # a call waiting longer is abandoned (PAIJU_STORAGE_TIMEOUT_SECONDS)
FEE, STAKE, START = 10, 100, 1000


@dataclass
class Rig:
    """A writer and a store on their own database, through a proxy; two players at a table
    whose hand has started."""

    direct: str  # the database's URL, not through the proxy (the test's own checks)
    proxy: TcpProxy
    engine: sa.Engine
    store: Store
    writer: Writer
    players: tuple[int, int] = (0, 0)
    hand: int = 0
    answers: dict[int, list[Answer]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def submit(self, write: io.Write) -> int:
        """Queue a write; its number, under which its answers are kept."""
        with self._lock:
            n = len(self.answers)
            self.answers[n] = []

        def answer(a: Answer) -> None:
            with self._lock:
                self.answers[n].append(a)

        self.writer.submit(write, answer)
        return n

    def final(self, n: int) -> Answer | None:
        """A write's last answer once it is done (Stored or Failed), else None."""
        with self._lock:
            got = list(self.answers[n])
        return got[-1] if got and not isinstance(got[-1], io.Trouble) else None

    def all_stored(self, writes: list[int]) -> bool:
        return all(isinstance(self.final(n), io.Stored) for n in writes)

    def troubled(self, writes: list[int]) -> bool:
        with self._lock:
            return any(isinstance(a, io.Trouble) for n in writes for a in self.answers[n])

    def reason(self) -> str:
        """What the writer's health says, in one line (``ok``, or why it is degraded)."""
        state, why = self.writer.health()
        return state if why is None else f"{state}: {why}"


@pytest.fixture
def rig(caplog: pytest.LogCaptureFixture) -> Iterator[Rig]:
    caplog.set_level(logging.WARNING)
    with own_database("paiju_stall_") as direct:
        setup = make_engine(direct)
        migrate(setup)
        setup.dispose()
        proxy = TcpProxy(5432).start()
        url = sa.engine.make_url(direct).set(port=proxy.port)
        engine = make_engine(url.render_as_string(hide_password=False), timeout=TIMEOUT)
        store = Store(make_sessions(engine), writer="w1")
        writer = Writer(store, stall=STALL)
        rig = Rig(direct, proxy, engine, store, writer)
        try:
            with store.sessions.begin() as s:
                a = ledger.new_account(s, "ana", "", START).id
                b = ledger.new_account(s, "bo", "", START).id
            rig.players = (a, b)
            table = store.create_table("mazhan", "mazhan")
            fees = [(a, HOUSE, FEE), (b, HOUSE, FEE)]
            start = io.StartHand(table, 1, "mazhan", 7, {}, {}, {}, STAKE, fees)
            n = rig.submit(start)
            wait_until(lambda: rig.final(n) is not None)
            answer = rig.final(n)
            assert isinstance(answer, io.Stored) and isinstance(answer.result, int)
            rig.hand = answer.result
            yield rig
        finally:
            proxy.restore()
            writer.close()
            engine.dispose()
            proxy.stop()


def steps(rig: Rig, first: int, count: int) -> list[int]:
    """Submit ``count`` steps of the hand from its ``first``-th."""
    return [rig.submit(io.Step(rig.hand, q, f"E discard {q}")) for q in range(first, first + count)]


def close(rig: Rig) -> int:
    """Submit the hand's settlement: the first player pays the second ``STAKE``."""
    a, b = rig.players
    return rig.submit(io.CloseHand(rig.hand, {"winner": "S"}, [(a, b, STAKE)]))


def check_books(rig: Rig, steps_written: int, settled: bool) -> None:
    """Every step once, the hand settled once (or live), and the ledger sums."""
    engine = make_engine(rig.direct)
    try:
        with make_sessions(engine)() as s:
            seqs = list(
                s.scalars(
                    sa.select(HandAction.seq)
                    .where(HandAction.hand_id == rig.hand)
                    .order_by(HandAction.seq)
                )
            )
            assert seqs == list(range(1, steps_written + 1))
            hand = s.get(Hand, rig.hand)
            assert hand is not None and hand.status == ("done" if settled else "live")
            settles = s.scalar(
                sa.select(sa.func.count()).where(LedgerEntry.event_key == f"hand:{rig.hand}:settle")
            )
            assert settles == (2 if settled else 0)
            a, b = (s.get(Account, p) for p in rig.players)
            assert a is not None and b is not None
            paid = STAKE if settled else 0
            assert (a.balance, b.balance) == (START - FEE - paid, START - FEE + paid)
            total, issued = ledger.audit(s)
            assert total == issued == 2 * START
    finally:
        engine.dispose()


def logged(caplog: pytest.LogCaptureFixture, text: str) -> bool:
    return any(text in r.getMessage() for r in caplog.records)


def test_a_black_hole_longer_than_the_timeout_pauses_and_loses_nothing(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    before = steps(rig, 1, 5)
    wait_until(lambda: rig.all_stored(before))
    rig.proxy.stall()
    began = time.monotonic()
    during = [*steps(rig, 6, 20), close(rig)]
    wait_until(lambda: rig.reason().startswith("degraded: stalled: a write has waited"))
    # the watchdog abandons the batch's connection (the proxy acknowledges every byte:
    # nothing else would notice) and the writer says so
    wait_until(lambda: rig.reason().startswith("degraded: connection lost: no answer for"))
    assert time.monotonic() - began >= TIMEOUT
    assert logged(caplog, "abandoned") and logged(caplog, "writer's connection was lost")
    assert rig.troubled(during) and not any(rig.final(n) for n in during)
    hold_outage(max(0.0, 1.5 * TIMEOUT - (time.monotonic() - began)))
    assert rig.writer.health()[0] == "degraded"
    assert not any(rig.final(n) for n in during)  # nothing answered while it lasts
    rig.proxy.restore()
    wait_until(lambda: rig.all_stored(during))
    wait_until(lambda: rig.writer.health() == ("ok", None))
    check_books(rig, 25, settled=True)


def test_a_silently_lost_writer_connection_is_replaced_within_the_timeout(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    before = steps(rig, 1, 3)  # the writer's connections are open and used
    wait_until(lambda: rig.all_stored(before))
    rig.proxy.lose_open()
    began = time.monotonic()
    after = [*steps(rig, 4, 10), close(rig)]
    wait_until(lambda: rig.troubled(after), timeout=3 * TIMEOUT)
    found = time.monotonic() - began
    assert TIMEOUT <= found < TIMEOUT + 1.5, found
    wait_until(lambda: rig.all_stored(after), timeout=3 * TIMEOUT)
    assert time.monotonic() - began < 2 * TIMEOUT  # the new connection commits at once
    assert logged(caplog, "abandoned") and logged(caplog, "writer's connection was lost")
    wait_until(lambda: rig.writer.health() == ("ok", None))
    check_books(rig, 13, settled=True)


def test_a_lock_held_longer_than_the_timeout_delays_the_writes_once(rig: Rig) -> None:
    before = steps(rig, 1, 3)
    wait_until(lambda: rig.all_stored(before))
    # another session (not bounded: an operator's) holds the step table
    operator = sa.engine.make_url(rig.direct).set(drivername="postgresql")
    with psycopg.connect(operator.render_as_string(hide_password=False)) as holder:
        holder.execute("LOCK TABLE hand_actions IN ACCESS EXCLUSIVE MODE")
        began = time.monotonic()
        during = steps(rig, 4, 10)
        wait_until(lambda: rig.reason().startswith("degraded: stalled"))
        wait_until(lambda: rig.troubled(during), timeout=3 * TIMEOUT)  # the wait was ended
        hold_outage(max(0.0, 1.5 * TIMEOUT - (time.monotonic() - began)))
        assert rig.writer.health()[0] == "degraded"
        assert not any(rig.final(n) for n in during)
        holder.rollback()
    wait_until(lambda: rig.all_stored(during))
    wait_until(lambda: rig.writer.health() == ("ok", None))
    check_books(rig, 13, settled=False)


def test_the_stores_reads_through_a_black_hole_fail_instead_of_hanging(rig: Rig) -> None:
    players = list(rig.players)
    assert rig.store.balances(players) == dict.fromkeys(players, START - FEE)
    rig.proxy.stall()
    began = time.monotonic()
    with pytest.raises(sa.exc.OperationalError):
        rig.store.balances(players)
    # at worst twice the timeout: the pooled connection's ping is abandoned after it, then
    # connecting again gives up after it (the connect timeout: whole seconds, at least 2)
    took = time.monotonic() - began
    assert TIMEOUT <= took < 2 * TIMEOUT + 2.0, took
    rig.proxy.restore()
    assert rig.store.balances(players) == dict.fromkeys(players, START - FEE)
    assert rig.writer.health() == ("ok", None)
    check_books(rig, 0, settled=False)
