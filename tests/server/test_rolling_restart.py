"""A rolling restart of a cluster of two ``paiju serve`` processes (Redis and a PostgreSQL
database of the test's own) under live hands: four people, two at tables on each process,
each in mid-hand, waiting on their own turn.

- A is sent SIGTERM with a drain bound longer than its hands need: its players are told
  (``draining``), play on, and settle on A with no reconnect and no ``unseated`` before the
  settlement; A exits 0 and a new process A' starts on its port.
- B is sent SIGTERM with a short bound (0.5 s) while its players still hold: their hands
  outlive the drain, B hands them over through the cluster and exits 0; A' takes them, the
  players come back through it and settle there.

Every hand that was live ends ``done`` with one settlement (none lost, none void), no escape
is charged, and the books sum (``paiju admin check``'s own function)."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from typing import Any

import pytest
import redis
import sqlalchemy as sa

from paiju.server import admin
from paiju.server.db import make_engine, make_sessions
from paiju.server.models import Hand, LedgerEntry
from tests.server.conftest import own_database
from tests.server.harness import Player, Server, account, check_books, start_all, stop_all
from tests.server.test_cluster import REDIS
from tests.server.test_faults import env

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")


def _holding(people: dict[str, Player], name: str, held: threading.Event) -> Any:
    """An ``on_frame`` that makes ``people[name]`` hold from the hand's view 4 on (set in
    the receive thread, before the player could answer it)."""

    def at_4(frame: dict[str, Any]) -> None:
        if frame["type"] == "view" and frame["version"] >= 4 and not held.is_set():
            people[name].hold.set()
            held.set()

    return at_4


def _release(player: Player) -> None:
    """Let a holding player play on, answering the view they last held on (a view that
    crosses this is answered twice: the second is a quiet ``stale_version``)."""
    player.hold.clear()
    views = [f for f in player.frames if f["type"] == "view"]
    if views and views[-1]["view"]["legal"]:
        last = views[-1]
        player.send({"type": "action", "action": player.pick(last), "version": last["version"]})


def _back_and_shown(player: Player) -> None:
    """Wait until the player has come back (a second ``hello``) and been shown the hand."""
    hellos = 0

    def back_view(frame: dict[str, Any]) -> bool:
        nonlocal hellos
        hellos += 1 if frame["type"] == "hello" else 0
        return hellos > 1 and frame["type"] == "view"

    player.wait_for(back_view, timeout=60)


def _poll(test: Any, timeout: float = 30.0) -> None:
    """Look at ``test()`` every 20 ms until it is true."""
    tick = threading.Event()
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, f"not within {timeout} s"
        tick.wait(0.02)


def _before_settlement(player: Player) -> list[str]:
    settlement = player.settlements[0]
    return [f["type"] for f in player.frames[: player.frames.index(settlement)]]


def test_a_rolling_restart_of_two_processes_loses_no_hand_and_charges_no_escape() -> None:
    prefix = f"paiju-roll-{uuid.uuid4().hex[:8]}"
    with own_database("paiju_roll_") as url:
        cluster = {"PAIJU_REDIS_URL": REDIS, "PAIJU_REDIS_PREFIX": prefix}
        a = Server(env(url, PAIJU_DRAIN_SECONDS="120", **cluster))
        b = Server(env(url, PAIJU_DRAIN_SECONDS="0.5", **cluster))
        start_all(a, b)  # side by side (the first start migrates the database, the other waits)
        a2 = Server(env(url, PAIJU_DRAIN_SECONDS="0", **cluster), port=a.port)
        helds: dict[str, threading.Event] = {}
        people: dict[str, Player] = {}
        try:
            for name, home in (("ra1", a), ("ra2", a), ("rb1", b), ("rb2", b)):
                held = helds[name] = threading.Event()
                player = Player(
                    account(home.base, name),
                    [home.base, (b if home is a else a).base],
                    on_frame=_holding(people, name, held),
                )
                people[name] = player
                player.start()
            for name, held in helds.items():
                assert held.wait(120), (name, people[name].frames[-3:])
            tables = {
                n: p.wait_for(lambda f: f["type"] == "seated")["table"] for n, p in people.items()
            }
            assert len(set(tables.values())) == 4  # four tables, two on each process
            owners = {a.base: a.health()["process"], b.base: b.health()["process"]}
            leases = redis.Redis.from_url(REDIS, decode_responses=True)
            for n, p in people.items():
                key = f"{prefix}:lease:{tables[n]}"  # registered through the outbox
                _poll(lambda k=key, o=owners[p.bases[0]]: leases.get(k) == o)
            live = {
                n: p.wait_for(lambda f: f["type"] == "hand_start")["hand"]
                for n, p in people.items()
            }

            # A drains: its hands play to their ends there
            assert a.proc is not None and b.proc is not None
            a.proc.send_signal(signal.SIGTERM)
            for name in ("ra1", "ra2"):
                people[name].wait_for(lambda f: f["type"] == "draining", timeout=30)
                _release(people[name])
            for name in ("ra1", "ra2"):
                assert people[name].done.wait(120), people[name]._why()
            assert a.proc.wait(timeout=60) == 0, "\n".join(a.log[-20:])
            a2.start()

            # B drains for 0.5 s only: its held hands are handed over to A'
            b.proc.send_signal(signal.SIGTERM)
            for name in ("rb1", "rb2"):
                people[name].wait_for(lambda f: f["type"] == "draining", timeout=30)
            assert b.proc.wait(timeout=60) == 0, "\n".join(b.log[-20:])
            for name in ("rb1", "rb2"):
                _back_and_shown(people[name])
                _release(people[name])
            for name in ("rb1", "rb2"):
                assert people[name].done.wait(120), people[name]._why()
        finally:
            for p in people.values():
                p.close()
            stop_all(a, b, a2)
            r = redis.Redis.from_url(REDIS)
            for key in r.scan_iter(f"{prefix}:*"):
                r.delete(key)

        for name, p in people.items():
            assert not p.errors, (name, p.errors)
            assert [s["hand"] for s in p.settlements] == [live[name]], (name, p.settlements)
        for name in ("ra1", "ra2"):  # finished on the draining process: never cut
            before = _before_settlement(people[name])
            assert people[name].reconnects == 0 and "unseated" not in before, (name, before)
            assert before.count("hello") == 1 and "draining" in before
        for name in ("rb1", "rb2"):  # handed over: back through A', still seated, settled there
            before = _before_settlement(people[name])
            assert people[name].reconnects >= 1 and "unseated" not in before, (name, before)
            assert before.count("hello") >= 2 and "draining" in before
        engine = make_engine(url)
        with make_sessions(engine)() as s:
            hands = dict(s.execute(sa.select(Hand.id, Hand.status)).all())
            escapes = s.scalars(
                sa.select(LedgerEntry.id).where(LedgerEntry.reason == "escape")
            ).all()
        books = admin.check(make_sessions(engine))
        engine.dispose()
        assert hands == {h: "done" for h in live.values()}, hands
        assert escapes == []
        assert books["ok"] is True, books
        counts = check_books(url, list(people.values()))
        assert counts["done"] == 4 and counts["live"] == 0
