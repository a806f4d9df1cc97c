"""Two ``paiju serve`` processes on two loopback ports, one world over real Redis and
PostgreSQL: four people split across them finish a hand at one table; the owner of the table
is killed in mid-hand and the hand finishes on the other process; the books balance."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from paiju.server.db import make_engine, make_sessions, migrate
from paiju.server.ledger import audit

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
REDIS = os.environ.get("PAIJU_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class World:
    """Two server processes sharing a database and a Redis key prefix."""

    def __init__(self, db_url: str, prefix: str) -> None:
        self.db_url = db_url
        self.prefix = prefix
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.bases: dict[str, str] = {}
        for name in ("A", "B"):
            port = _port()
            env = {
                **os.environ,
                "PAIJU_DATABASE_URL": db_url,
                "PAIJU_REDIS_URL": REDIS,
                "PAIJU_REDIS_PREFIX": prefix,
                "PAIJU_BOT_WAIT": "600",
                "PAIJU_BOT_DELAY": "0",
                "PAIJU_CLAIM_PAUSE": "0",
                "PAIJU_TURN_SECONDS": "60",
                "PAIJU_READY_SECONDS": "600",
                "PAIJU_DISCONNECT_SECONDS": "120",
                # a stop hands the live tables over at once, without waiting for their hands
                "PAIJU_DRAIN_SECONDS": "0",
            }
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "paiju.cli", "serve", "--port", str(port)],
                env=env,
                cwd=ROOT,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            self.bases[name] = f"127.0.0.1:{port}"
        for name, base in self.bases.items():
            end = time.monotonic() + 120  # a loaded machine starts a process slowly
            while True:
                assert self.procs[name].poll() is None, f"paiju serve {name} exited"
                try:
                    if httpx.get(f"http://{base}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < end, f"paiju serve {name} did not start in 120 s"
                time.sleep(0.1)

    def pid(self, name: str) -> str:
        process: str = httpx.get(f"http://{self.bases[name]}/api/health").json()["process"]
        return process

    def kill(self, name: str) -> None:
        self.procs[name].send_signal(signal.SIGKILL)
        self.procs[name].wait(timeout=10)

    def close(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=20)


@pytest.fixture
def world(postgres_url: str) -> Iterator[World]:
    engine = make_engine(postgres_url)
    migrate(engine)
    with engine.begin() as c:
        c.execute(
            sa.text(
                "TRUNCATE ledger, hand_actions, seats, hands, tables, tokens, accounts "
                "RESTART IDENTITY CASCADE"
            )
        )
    engine.dispose()
    prefix = f"paiju-test-{uuid.uuid4().hex[:8]}"
    w = World(postgres_url, prefix)
    yield w
    w.close()
    r = redis.Redis.from_url(REDIS)
    for key in r.scan_iter(f"{prefix}:*"):
        r.delete(key)


def token(base: str, name: str) -> str:
    httpx.post(f"http://{base}/api/register", json={"name": name, "password": "secret-pw"})
    t: str = httpx.post(
        f"http://{base}/api/login", json={"name": name, "password": "secret-pw", "bearer": True}
    ).json()["token"]
    return t


def bearer(token: str) -> dict[str, str]:
    """The header an API client authenticates with (tokens never travel in URLs)."""
    return {"Authorization": f"Bearer {token}"}


def recv_until(ws: ClientConnection, kinds: set[str]) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=60))
        if m["type"] in kinds:
            return m


class Player(threading.Thread):
    """A person who answers every view with its last legal action until the settlement,
    reconnecting to ``fallback`` if their server goes away."""

    def __init__(self, ws: ClientConnection, tok: str, fallback: list[str]) -> None:
        super().__init__(daemon=True)
        self.ws, self.tok, self.fallback = ws, tok, fallback
        self.settlement: dict[str, Any] | None = None
        self.actions = 0
        self.reconnected = False
        self.error: str | None = None
        self.hold = threading.Event()  # set: do not act (the view waits until it is clear)
        self._held: dict[str, Any] | None = None

    def run(self) -> None:
        deadline = time.time() + 120
        while time.time() < deadline and self.settlement is None:
            if self._held is not None and not self.hold.is_set():
                m, self._held = self._held, None
                self._act(m)
            try:
                m = json.loads(self.ws.recv(timeout=0.2 if self._held is not None else 30))
            except TimeoutError:
                continue
            except Exception:  # the server died: come back through the other one
                time.sleep(0.5)
                try:
                    self.ws = connect(
                        f"ws://{self.fallback[0]}/ws", additional_headers=bearer(self.tok)
                    )
                    self.reconnected = True
                except Exception as err:
                    self.error = str(err)
                continue
            if m["type"] == "settlement":
                self.settlement = m
            elif m["type"] == "view" and m["view"]["legal"]:
                if self.hold.is_set():
                    self._held = m
                else:
                    self._act(m)

    def _act(self, m: dict[str, Any]) -> None:
        item = m["view"]["legal"][-1]
        with contextlib.suppress(Exception):  # a dead socket: the receive loop reconnects
            self.ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "action": item["action"] if isinstance(item, dict) else item,
                        "version": m["version"],
                    }
                )
            )
        self.actions += 1


def seat_four(world: World) -> tuple[list[Player], list[str]]:
    names = ["a1", "a2", "b1", "b2"]
    homes = ["A", "A", "B", "B"]
    toks = [token(world.bases[h], n) for n, h in zip(names, homes, strict=True)]
    socks = []
    tables = set()
    for tok, home in zip(toks, homes, strict=True):
        ws = connect(f"ws://{world.bases[home]}/ws", additional_headers=bearer(tok))
        recv_until(ws, {"hello"})
        ws.send(json.dumps({"type": "join", "room": "mazhan"}))
        tables.add(recv_until(ws, {"seated"})["table"])
        socks.append(ws)
    assert len(tables) == 1  # one table, whichever process each person reached
    for ws in socks:
        ws.send(json.dumps({"type": "ready"}))
    players = []
    for ws, tok, home in zip(socks, toks, homes, strict=True):
        other = "B" if home == "A" else "A"
        players.append(Player(ws, tok, [world.bases[other]]))
    return players, homes


def play_until_mid_hand(world: World, players: list[Player]) -> tuple[str, str]:
    """Start the players and wait for a few of their actions; the table's owner ("A" or
    "B") and its lease key. Skips the test if the hand ended first."""
    r = redis.Redis.from_url(REDIS, decode_responses=True)
    end = time.time() + 30  # the lease is registered through the outbox, just after seating
    leases = list(r.scan_iter(f"{world.prefix}:lease:*"))
    while not leases and time.time() < end:
        time.sleep(0.05)
        leases = list(r.scan_iter(f"{world.prefix}:lease:*"))
    assert leases, "the table's lease never appeared in Redis"
    lease = leases[0]
    owner = next(n for n in ("A", "B") if world.pid(n) == r.get(lease))
    for p in players:
        p.start()
    deadline = time.time() + 60
    while sum(p.actions for p in players) < 6 and time.time() < deadline:
        time.sleep(0.05)
    for p in players:  # the hand stands still (a person's turn lasts 60 s) until the test
        p.hold.set()  # has stopped the owner and clears the holds: it cannot end meanwhile
    if any(p.settlement for p in players):
        pytest.skip("the hand ended before the owner could be stopped")
    return owner, lease


def open_private_table(world: World, host: ClientConnection) -> tuple[int, str]:
    """The host opens a table for friends; its id and code, once its lease is in Redis (it
    is registered through the outbox, just after seating)."""
    host.send(json.dumps({"type": "join", "room": "mazhan", "private": True}))
    table: int = recv_until(host, {"seated"})["table"]
    code: str = recv_until(host, {"table"})["code"]
    end = time.time() + 30
    while not redis.Redis.from_url(REDIS).exists(f"{world.prefix}:lease:{table}"):
        assert time.time() < end, "the private table's lease never appeared"
        time.sleep(0.05)
    return table, code


def books_balance(url: str) -> None:
    engine = make_engine(url)
    with make_sessions(engine)() as s:
        total, issued = audit(s)
    engine.dispose()
    assert total == issued


def test_four_people_on_two_processes_finish_a_hand_at_one_table(world: World) -> None:
    players, _ = seat_four(world)
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=120)
    hands = {p.settlement["hand"] for p in players if p.settlement}
    assert len(hands) == 1 and all(p.settlement for p in players)
    assert sum(p.settlement["balance_change"] for p in players if p.settlement) < 0  # 台費
    books_balance(world.db_url)


def test_the_owner_dies_in_mid_hand_and_the_other_process_finishes_it(world: World) -> None:
    players, homes = seat_four(world)
    owner, _ = play_until_mid_hand(world, players)
    world.kill(owner)
    for p in players:
        p.hold.clear()
    for p in players:
        p.join(timeout=120)
    assert all(p.settlement for p in players), [p.error for p in players]
    assert len({p.settlement["hand"] for p in players if p.settlement}) == 1
    assert any(p.reconnected for p, h in zip(players, homes, strict=True) if h == owner)
    books_balance(world.db_url)


def test_the_lobby_counts_every_process(world: World) -> None:
    toks = [token(world.bases["A"], "l1"), token(world.bases["B"], "l2")]
    a = connect(f"ws://{world.bases['A']}/ws", additional_headers=bearer(toks[0]))
    b = connect(f"ws://{world.bases['B']}/ws", additional_headers=bearer(toks[1]))
    for ws in (a, b):
        recv_until(ws, {"hello"})
        ws.send(json.dumps({"type": "join", "room": "madiao"}))
        recv_until(ws, {"seated"})
    for base in world.bases.values():
        end = time.time() + 30  # the registry is written just after the seating
        while True:
            rooms = httpx.get(f"http://{base}/api/rooms").json()
            madiao = next(r for r in rooms["rooms"] if r["name"] == "madiao")
            if (madiao["players"] == 2 and rooms["online"] == 2) or time.time() > end:
                break
            time.sleep(0.05)
        assert madiao["tables"] == 1 and madiao["players"] == 2
        assert rooms["online"] == 2
    a.close()
    b.close()


def test_a_burst_of_joins_on_two_processes_seats_everyone(world: World) -> None:
    """Twelve people join at once, half on each process: every join is answered, and no
    table holds more than four (a seat is reserved atomically, no lock)."""
    names = [f"j{i}" for i in range(12)]
    homes = ["A" if i % 2 else "B" for i in range(12)]
    toks = [token(world.bases[h], n) for n, h in zip(names, homes, strict=True)]
    pairs = zip(toks, homes, strict=True)
    socks = [connect(f"ws://{world.bases[h]}/ws", additional_headers=bearer(t)) for t, h in pairs]
    seated: dict[int, dict[str, Any]] = {}

    def join(i: int) -> None:
        recv_until(socks[i], {"hello"})
        socks[i].send(json.dumps({"type": "join", "room": "mazhan"}))
        seated[i] = recv_until(socks[i], {"seated", "error"})

    threads = [threading.Thread(target=join, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(seated) == list(range(12))
    assert all(m["type"] == "seated" for m in seated.values()), seated
    per_table: dict[int, set[str]] = {}
    for m in seated.values():
        per_table.setdefault(m["table"], set()).add(m["seat"])
    assert sum(len(s) for s in per_table.values()) == 12  # twelve different seats
    assert all(len(s) <= 4 for s in per_table.values())
    for ws in socks:
        ws.close()


def test_a_clean_stop_hands_the_table_over_at_once(world: World) -> None:
    """SIGTERM (a rolling restart): the owner gives its lease back on the way out, so the
    other process takes the live hand without waiting for the lease to expire."""
    players, _ = seat_four(world)
    owner, lease = play_until_mid_hand(world, players)
    other = world.pid("B" if owner == "A" else "A")
    r = redis.Redis.from_url(REDIS, decode_responses=True)
    gone = world.pid(owner)  # the players hold (play_until_mid_hand) until the lease is
    world.procs[owner].terminate()  # seen taken: no bot delay could end the hand in between
    world.procs[owner].wait(timeout=20)
    # given back on the way out: once the owner has exited its lease is free or already the
    # other's, never still its own (a killed owner's would be, for the 10 s a lease lives);
    # this does not depend on how fast a loaded machine lets the other process move
    assert r.get(lease) != gone
    taken = time.time() + 60
    while r.get(lease) != other and time.time() < taken:
        time.sleep(0.1)
    assert r.get(lease) == other
    for p in players:
        p.hold.clear()
    for p in players:
        p.join(timeout=120)
    assert all(p.settlement for p in players), [p.error for p in players]
    books_balance(world.db_url)


def test_friends_on_two_processes_sit_at_one_private_table_by_its_code(world: World) -> None:
    """A private table opened on A; a friend connected to B joins by its code and is seated
    there (the join goes to the table's owner), a stranger on B is not, an unknown code is
    an error; the host fills the other seats with bots and the hand is played to the end."""
    host_tok, friend_tok, stranger_tok = (
        token(world.bases[home], name)
        for name, home in (("host", "A"), ("friend", "B"), ("stranger", "B"))
    )
    host = connect(f"ws://{world.bases['A']}/ws", additional_headers=bearer(host_tok))
    friend = connect(f"ws://{world.bases['B']}/ws", additional_headers=bearer(friend_tok))
    stranger = connect(f"ws://{world.bases['B']}/ws", additional_headers=bearer(stranger_tok))
    for ws in (host, friend, stranger):
        recv_until(ws, {"hello"})
    table, code = open_private_table(world, host)
    # the invitation reads the same on either process (B asks the registry and the database)
    for base in world.bases.values():
        shown = httpx.get(f"http://{base}/api/invite/{code}", timeout=10).json()
        assert (shown["game"], shown["people"], shown["free"]) == ("mazhan", ["host"], 3)
    # registered now, and still no stranger is sent there
    stranger.send(json.dumps({"type": "join", "room": "mazhan"}))
    assert recv_until(stranger, {"seated"})["table"] != table
    unknown = "ZZZZZZZ2" if code != "ZZZZZZZ2" else "ZZZZZZZ3"
    friend.send(json.dumps({"type": "join", "code": unknown}))
    assert recv_until(friend, {"error"})["code"] == "unknown_table"
    friend.send(json.dumps({"type": "join", "code": code.lower()}))
    assert recv_until(friend, {"seated"})["table"] == table
    for ws in (host, friend):
        ws.send(json.dumps({"type": "ready"}))
    recv_until(friend, {"table"})
    friend.send(json.dumps({"type": "fill"}))
    players = [Player(host, host_tok, []), Player(friend, friend_tok, [])]
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=120)
    assert all(p.settlement for p in players)
    assert len({p.settlement["hand"] for p in players if p.settlement}) == 1
    stranger.close()
    books_balance(world.db_url)


def test_after_a_join_refused_elsewhere_the_players_own_process_answers_again(
    world: World,
) -> None:
    """A friend on B joins a private table playing on A by its code: A refuses
    (``table_playing``) and tells B so, and B answers the friend's next messages itself,
    even once A has died (it used to go on sending them to A, where nobody answered)."""
    host_tok, friend_tok = token(world.bases["A"], "host2"), token(world.bases["B"], "friend2")
    host = connect(f"ws://{world.bases['A']}/ws", additional_headers=bearer(host_tok))
    friend = connect(f"ws://{world.bases['B']}/ws", additional_headers=bearer(friend_tok))
    for ws in (host, friend):
        recv_until(ws, {"hello"})
    _table, code = open_private_table(world, host)
    host.send(json.dumps({"type": "ready"}))
    host.send(json.dumps({"type": "fill"}))
    recv_until(host, {"hand_start"})
    friend.send(json.dumps({"type": "join", "code": code}))
    assert recv_until(friend, {"error"})["code"] == "table_playing"
    world.kill("A")
    friend.send(json.dumps({"type": "ready"}))
    assert recv_until(friend, {"error"})["code"] == "not_seated"
    friend.close()
