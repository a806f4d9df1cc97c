"""The house's faults are never a player's (docs/security.md): on real ``paiju serve``
processes, a database that stalls without failing (a black hole through the TCP proxy, a
``LOCK TABLE``), a writer connection lost without a word, Redis cut for longer than four
turn clocks with the player on the process that does not own their table, and a player on
托管 through kill -9, SIGTERM and a cluster's take-over. Each runs past four turn clocks
(``PAIJU_TURN_SECONDS`` is short here) and ends with the ledger summed and no escape
charged.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
import sqlalchemy as sa
from websockets.sync.client import connect

from paiju.server.db import make_engine, migrate
from paiju.server.models import LedgerEntry
from tests.server.harness import Player, Server, account, check_books, start_all, stop_all
from tests.server.tcp_proxy import TcpProxy
from tests.server.test_faults import REDIS_PORT, TRUNCATE, env, hold_outage, wait_until

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")

TURN = 1.0  # seconds: four turn clocks pass in every fault below
OUTAGE = 5 * TURN + 1


def quick(db_url: str, **more: str) -> dict[str, str]:
    """Short clocks: a stalled write pauses its table after 0.5 s, a statement or connect
    is given up after 2 s, the turn clock is a second."""
    return env(
        db_url, PAIJU_TURN_SECONDS=str(TURN), PAIJU_STORAGE_STALL_SECONDS="0.5",
        PAIJU_STORAGE_TIMEOUT_SECONDS="2", **more,
    )  # fmt: skip


def charged_nothing(db_url: str, players: list[Player | None]) -> None:
    """The books hold (:func:`check_books`), nobody was charged an escape nor shown a
    timeout."""
    seen = [p for p in players if p is not None]
    check_books(db_url, seen)
    engine = make_engine(db_url)
    with engine.connect() as c:
        escapes = c.execute(
            sa.select(sa.func.count()).where(LedgerEntry.reason == "escape")
        ).scalar()
    engine.dispose()
    assert escapes == 0
    for p in seen:
        assert not [f for f in p.frames if f["type"] == "escape"]
        assert all(f["timeouts"] == 0 for f in p.frames if f["type"] == "view")


@pytest.fixture
def fresh_pg(postgres_url: str) -> Iterator[str]:
    """This run's PostgreSQL database, empty."""
    engine = make_engine(postgres_url)
    migrate(engine)
    with engine.begin() as c:
        c.execute(sa.text(TRUNCATE))
    engine.dispose()
    yield postgres_url


@pytest.fixture
def proxied_pg(fresh_pg: str) -> Iterator[tuple[str, TcpProxy]]:
    """The empty database's URL through a proxy the test controls, and the proxy."""
    proxy = TcpProxy(5432).start()
    db = fresh_pg.rsplit("/", 1)[1]
    yield f"postgresql+psycopg://postgres@127.0.0.1:{proxy.port}/{db}", proxy
    proxy.stop()


def play_through(server: Server, fault: Any, undo: Any, name: str, held: bool = True) -> Player:
    """A player alone with bots: once the hand is four views in, ``fault()`` (called in the
    receive thread as the frame arrives, so that the hand cannot end first); the outage held
    for longer than four turn clocks (unless not ``held``: a fault the server mends by
    itself); ``undo()``; then the hand to its settlement."""
    begun = threading.Event()

    def at_4(frame: dict[str, Any]) -> None:
        if frame["type"] == "view" and frame["version"] >= 4 and not begun.is_set():
            begun.set()
            fault()

    player = Player(account(server.base, name), [server.base], on_frame=at_4)
    player.start()
    player.wait_for(lambda f: f["type"] == "view" and f["version"] >= 4)
    assert begun.is_set()
    player.wait_for(lambda f: f["type"] == "paused", timeout=60)
    if held:
        seen = len(player.frames)
        hold_outage(OUTAGE)
        assert "view" not in [f["type"] for f in player.frames[seen:]]  # nothing while paused
        health = server.health()
        assert health["storage"] == "degraded" and health["reason"], health
    undo()
    player.wait_for(lambda f: f["type"] == "resumed", timeout=60)
    player.wait_for(lambda f: f["type"] == "settlement", timeout=180)
    assert not player.errors, player.errors
    wait_until(lambda: server.health()["storage"] == "ok")
    return player


def test_a_database_black_hole_pauses_the_table_and_charges_nobody(
    proxied_pg: tuple[str, TcpProxy], fresh_pg: str
) -> None:
    url, proxy = proxied_pg
    server = Server(quick(url)).start()
    player: Player | None = None
    try:
        player = play_through(server, proxy.stall, proxy.restore, "hole")
    finally:
        if player is not None:
            player.close()
        server.stop()
    charged_nothing(fresh_pg, [player])


def test_a_lock_on_the_step_table_pauses_the_table_and_charges_nobody(fresh_pg: str) -> None:
    server = Server(quick(fresh_pg)).start()
    engine = make_engine(fresh_pg)
    conn = engine.connect()
    held: list[Any] = []

    def lock() -> None:
        held.append(conn.begin())
        conn.execute(sa.text("LOCK TABLE hand_actions IN ACCESS EXCLUSIVE MODE"))

    def unlock() -> None:
        held[0].commit()

    player: Player | None = None
    try:
        player = play_through(server, lock, unlock, "locked")
    finally:
        if held and held[0].is_active:
            held[0].rollback()
        conn.close()
        engine.dispose()
        if player is not None:
            player.close()
        server.stop()
    charged_nothing(fresh_pg, [player])


def test_a_writer_connection_lost_without_a_word_is_replaced(
    proxied_pg: tuple[str, TcpProxy], fresh_pg: str
) -> None:
    """The connections open now go silent for good (new ones work): the writer notices
    within its timeout, says so in the log, and writes on through a new one."""
    url, proxy = proxied_pg
    server = Server(quick(url)).start()
    player: Player | None = None
    try:
        player = play_through(server, proxy.lose_open, lambda: None, "lost", held=False)
        assert any("connecting again" in line for line in server.log), server.log[-20:]
    finally:
        if player is not None:
            player.close()
        server.stop()
    charged_nothing(fresh_pg, [player])


@pytest.fixture
def redis_proxy() -> Iterator[TcpProxy]:
    proxy = TcpProxy(REDIS_PORT).start()
    yield proxy
    proxy.stop()


@pytest.fixture
def prefix() -> Iterator[str]:
    """This test's Redis keys, deleted after it."""
    name = f"paiju-house-{uuid.uuid4().hex[:8]}"
    yield name
    r = redis.Redis(port=REDIS_PORT)
    for key in r.scan_iter(f"{name}:*"):
        r.delete(key)


def sit_at(base: str, token: str) -> int:
    """Seat an account alone with bots on the process at ``base`` (its table lives there),
    and leave its socket: the table it sits at."""
    with connect(f"ws://{base}/ws", additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        ws.send(json.dumps({"type": "join", "room": "mazhan", "alone": True}))
        while True:
            frame = json.loads(ws.recv(timeout=60))
            if frame["type"] == "seated":
                return int(frame["table"])


def test_a_redis_cut_charges_nothing_to_a_player_on_the_other_process(
    fresh_pg: str, redis_proxy: TcpProxy, prefix: str
) -> None:
    common = quick(
        fresh_pg, PAIJU_REDIS_URL=f"redis://127.0.0.1:{redis_proxy.port}/0",
        PAIJU_REDIS_PREFIX=prefix, PAIJU_BOT_WAIT="0.05",
    )  # fmt: skip
    owner, other = start_all(Server(common), Server(common))  # side by side
    player: Player | None = None
    try:
        token = account(owner.base, "far")
        table = sit_at(owner.base, token)  # the table lives on the owner
        # its entry in the world's registry follows by a Redis round trip (docs/deploy.md)
        r = redis.Redis(port=REDIS_PORT, decode_responses=True)
        wait_until(lambda: r.hget(f"{prefix}:table:{table}", "players") == "1")
        cut = threading.Event()

        def at_4(frame: dict[str, Any]) -> None:
            if frame["type"] == "view" and frame["version"] >= 4 and not cut.is_set():
                cut.set()
                redis_proxy.cut()

        player = Player(token, [other.base], on_frame=at_4)  # the socket on the other
        player.start()
        player.wait_for(lambda f: f["type"] == "view" and f["version"] >= 4, timeout=120)
        told = player.wait_for(lambda f: f["type"] == "paused", timeout=60)
        assert told["why"] == "peers"
        assert other.health()["peers"] == "degraded"  # it says so to the operator too
        hold_outage(OUTAGE)
        redis_proxy.restore()
        wait_until(lambda: owner.health()["peers"] == other.health()["peers"] == "ok")
        player.wait_for(lambda f: f["type"] == "resumed", timeout=60)
        player.wait_for(lambda f: f["type"] == "settlement", timeout=240)
        # an answer sent as Redis went was refused as such, and nothing else went wrong
        assert not [e for e in player.errors if not e.startswith("unavailable")], player.errors
    finally:
        if player is not None:
            player.close()
        stop_all(owner, other)
    charged_nothing(fresh_pg, [player])


def on_tuoguan(player: Player) -> None:
    """The player turns 托管 on, sees it on, and walks away (answers nothing more)."""
    player.wait_for(lambda f: f["type"] == "view" and f["version"] >= 2, timeout=120)
    player.send({"type": "tuoguan", "on": True})
    seat = player.wait_for(lambda f: f["type"] == "hand_start")["seat"]
    player.wait_for(lambda f: f["type"] == "table" and f["seats"][seat]["tuoguan"], timeout=60)
    player.hold.set()


@pytest.mark.parametrize("stop", ["kill -9", "SIGTERM"])
def test_tuoguan_outlives_a_restart(tmp_path: Any, stop: str) -> None:
    db_url = f"sqlite:///{tmp_path / 'paiju.db'}"
    server = Server(quick(db_url)).start()
    player = Player(account(server.base, "away"), [server.base])
    player.start()
    try:
        on_tuoguan(player)
        seat = player.wait_for(lambda f: f["type"] == "hand_start")["seat"]
        reconnects = player.reconnects
        server.kill() if stop == "kill -9" else server.stop()
        stopped = time.monotonic()
        server = Server(quick(db_url), port=server.port).start()
        player.wait_for(lambda f: player.reconnects > reconnects, timeout=120)
        # shown to the player when they are back, as they left it
        player.wait_for(
            lambda f: f["_at"] > stopped and f["type"] == "table" and f["seats"][seat]["tuoguan"],
            timeout=60,
        )
        player.wait_for(lambda f: f["type"] == "settlement", timeout=240)  # played for
    finally:
        player.close()
        server.stop()
    charged_nothing(db_url, [player])


def test_tuoguan_outlives_a_cluster_take_over(fresh_pg: str, prefix: str) -> None:
    common = quick(
        fresh_pg, PAIJU_REDIS_URL=f"redis://127.0.0.1:{REDIS_PORT}/0", PAIJU_REDIS_PREFIX=prefix,
    )  # fmt: skip
    first, second = start_all(Server(common), Server(common))  # side by side
    player: Player | None = None
    try:
        player = Player(account(first.base, "handed"), [first.base, second.base])
        player.start()
        on_tuoguan(player)
        reconnects = player.reconnects
        first.kill()  # the second takes the table over when its lease runs out
        player.wait_for(lambda f: player.reconnects > reconnects, timeout=120)
        player.wait_for(lambda f: f["type"] == "settlement", timeout=240)  # played for
        assert not player.errors, player.errors
    finally:
        if player is not None:
            player.close()
        stop_all(first, second)
    charged_nothing(fresh_pg, [player])
