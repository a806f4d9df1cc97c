"""How a cluster process hears about a player whose socket is on another process, without
servers or Redis (its messages are fed to :meth:`Cluster._receive` as the subscription
would): a frame offering a turn is answered ``shown`` or ``gone``; a late ``_disconnect``
from a process the player has left changes nothing; an unanswered turn is offered again,
then the player is unreached (never disconnected: the house's fault is not their escape).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from paiju.server.cluster import SHOWN_WAIT, Cluster
from paiju.server.connection import Connection
from paiju.server.db import make_engine, make_sessions, migrate
from paiju.server.hub import Hub
from paiju.server.store import Store
from paiju.server.table import Timing, io
from paiju.server.writer import Writer


class FakeTable:
    """A table runner that records what it is fed."""

    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.fed: list[io.Input] = []

    def feed(self, event: io.Input) -> None:
        self.fed.append(event)


class Rig:
    """A cluster member (the owner of table 7, where account 1 sits), its Redis never
    reached: what it would publish is read from its outbox."""

    def __init__(self) -> None:
        engine = make_engine("sqlite://")
        migrate(engine)
        store = Store(make_sessions(engine), writer="t")
        self.writer = Writer(store)
        self.hub = Hub(store, self.writer, Timing())
        self.cluster = Cluster("redis://127.0.0.1:1/0", self.hub, store, prefix="t")
        self.table = FakeTable(7)
        self.hub.tables[7] = self.table  # type: ignore[assignment]
        self.hub.where[1] = 7
        self.clock = 100.0
        self.cluster._now = lambda: self.clock  # type: ignore[method-assign]
        self.alive: dict[str, bool] = {}

        async def exists(key: str) -> int:
            return int(self.alive.get(key.rsplit(":", 1)[-1], False))

        self.cluster.redis.exists = exists  # type: ignore[method-assign,assignment]
        self.ttl: dict[str, int] = {}  # each process's alive key's time to live, ms
        self.owner: str | None = None  # who holds account 1's table's lease

        rig = self

        class Pipe:
            def __init__(self) -> None:
                self.asked: list[str] = []

            def pttl(self, key: str) -> None:
                self.asked.append(key.rsplit(":", 1)[-1])

            async def execute(self) -> list[int]:
                return [rig.ttl.get(pid, -2) for pid in self.asked]

        async def where(account: int) -> tuple[str | None, str | None]:
            return "7", self.owner

        self.cluster.redis.pipeline = lambda transaction=False: Pipe()  # type: ignore[assignment,misc]
        self.cluster._where = where  # type: ignore[method-assign,assignment]

    def receive(self, payload: dict[str, Any]) -> None:
        asyncio.run(self.cluster._receive(payload))

    def published(self) -> list[dict[str, Any]]:
        import orjson

        out = [orjson.loads(item[2]) for item in self.cluster._outbox if item[0] == "publish"]
        self.cluster._outbox.clear()
        return out

    def close(self) -> None:
        self.writer.close()


@pytest.fixture
def rig() -> Iterator[Rig]:
    made = Rig()
    yield made
    made.close()


def client(kind: str, source: str) -> dict[str, Any]:
    return {"kind": "client", "account": 1, "from": source, "name": "", "message": {"type": kind}}


def test_a_turn_is_shown_when_the_other_process_says_so_and_a_socket_gone_disconnects(
    rig: Rig,
) -> None:
    rig.receive(client("_reconnect", "B"))  # the player's socket is on B
    assert rig.table.fed == [io.Connect(1)]
    shown: list[bool] = []
    rig.hub.deliver(1, {"type": "view"}, lambda: shown.append(True))
    [sent] = rig.published()
    assert sent["kind"] == "deliver" and sent["ack"]
    rig.receive({"kind": "shown", "account": 1, "ack": sent["ack"]})
    assert shown == [True]
    rig.hub.deliver(1, {"type": "view"}, lambda: shown.append(True))
    [again] = rig.published()
    rig.receive({"kind": "gone", "account": 1, "ack": again["ack"]})  # no socket there
    assert shown == [True] and rig.table.fed[-1] == io.Disconnect(1)
    assert 1 not in rig.hub.remote


def test_a_late_disconnect_from_a_process_the_player_left_changes_nothing(rig: Rig) -> None:
    rig.receive(client("_reconnect", "B"))
    rig.receive(client("_reconnect", "C"))  # reconnected through C
    rig.receive(client("_disconnect", "B"))  # B notices its dead socket late
    assert rig.table.fed == [io.Connect(1), io.Connect(1)]
    assert rig.cluster._routes[1] == "C"
    rig.receive(client("_disconnect", "C"))
    assert rig.table.fed[-1] == io.Disconnect(1)


def test_an_unanswered_turn_cuts_the_player_off_and_is_offered_again(rig: Rig) -> None:
    rig.receive(client("_reconnect", "B"))
    rig.alive["B"] = True
    for offer in range(3):
        rig.hub.deliver(1, {"type": "view"}, lambda: None)
        rig.published()
        rig.clock += SHOWN_WAIT + 1
        asyncio.run(rig.cluster._check_marks())
        # cut off (the turn waits, uncounted), and the table sent to them again
        assert rig.table.fed[-2:] == [io.Unreached(1), io.Resend(1)], offer
    assert not any(isinstance(e, io.Disconnect) for e in rig.table.fed)
    rig.receive(client("_reconnect", "C"))  # back through another process
    assert rig.table.fed[-1:] == [io.Connect(1)] and rig.cluster._routes[1] == "C"


def test_a_turn_sent_to_a_process_no_longer_alive_cuts_the_player_off(rig: Rig) -> None:
    rig.receive(client("_reconnect", "B"))
    rig.hub.deliver(1, {"type": "view"}, lambda: None)
    rig.clock += SHOWN_WAIT + 1  # B's alive key is gone: its sockets died with it
    asyncio.run(rig.cluster._check_marks())
    assert rig.table.fed[-1] == io.Unreached(1)  # never a disconnect: not their doing


def test_players_on_a_process_that_stops_renewing_its_key_are_cut_off_then_offered_again(
    rig: Rig,
) -> None:
    rig.receive(client("_reconnect", "B"))
    rig.ttl["B"] = 9_500  # renewed half a second ago
    asyncio.run(rig.cluster._check_processes())
    assert rig.table.fed == [io.Connect(1)]
    rig.ttl["B"] = 5_000  # not renewed for five seconds: cut from Redis, or stalled
    asyncio.run(rig.cluster._check_processes())
    assert rig.table.fed[-1] == io.Unreached(1)
    asyncio.run(rig.cluster._check_processes())  # said once
    assert rig.table.fed.count(io.Unreached(1)) == 1
    rig.ttl["B"] = 9_900  # renewing again: the table is sent to them anew
    asyncio.run(rig.cluster._check_processes())
    assert rig.table.fed[-1:] == [io.Resend(1)]


def test_frames_from_a_process_that_lost_the_table_are_not_shown(rig: Rig) -> None:
    """After a take-over the old owner may send frames until it learns it lost the lease:
    the process holding the socket shows only the owner's."""
    conn = Connection()
    rig.hub.conns[1] = conn
    rig.hub.where.pop(1)  # the table plays elsewhere
    rig.owner = "A"
    rig.receive({"kind": "deliver", "account": 1, "from": "A", "message": {"type": "x1"}})
    rig.owner = "B"  # B took the table over
    rig.receive({"kind": "deliver", "account": 1, "from": "B", "message": {"type": "x2"}})
    rig.receive({"kind": "deliver", "account": 1, "from": "A", "message": {"type": "x3"}})
    rig.receive({"kind": "deliver", "account": 1, "from": "B", "message": {"type": "x4"}})
    shown = [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]
    assert shown == [b'{"type":"x1"}', b'{"type":"x2"}', b'{"type":"x4"}']


def shown_on(conn: Connection) -> list[bytes]:
    return [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]


def test_once_the_table_is_taken_over_here_the_old_owners_frames_are_not_shown(rig: Rig) -> None:
    """Found by a review: the old owner's queued frames, flushed when it reached Redis again,
    were shown after this process had taken the table over (a stale turn, acknowledged)."""
    conn = Connection()
    rig.hub.conns[1] = conn
    rig.hub.where.pop(1)
    rig.owner = "A"
    rig.receive({"kind": "deliver", "account": 1, "from": "A", "message": {"type": "x1"}})
    rig.hub.where[1] = 7  # taken over here
    rig.owner = rig.cluster.pid
    stale = {"kind": "deliver", "account": 1, "from": "A", "ack": 5, "message": {"type": "x2"}}
    rig.receive(stale)
    assert shown_on(conn) == [b'{"type":"x1"}'] and rig.published() == []


def test_a_refusal_from_a_table_with_no_owner_yet_reaches_the_player(rig: Rig) -> None:
    """Found by a review: a player fed by A before joins a table on B, which refuses; the
    seat is nobody's in Redis, and the refusal was dropped as a stale frame."""
    conn = Connection()
    rig.hub.conns[1] = conn
    rig.hub.where.pop(1)
    rig.owner = "A"
    rig.receive({"kind": "deliver", "account": 1, "from": "A", "message": {"type": "x1"}})
    rig.owner = None  # they left A's table; B's join failed
    refusal = {"type": "error", "code": "table_full", "message": "the table is full"}
    rig.receive({"kind": "deliver", "account": 1, "from": "B", "message": refusal})
    assert b"table_full" in shown_on(conn)[-1]


def test_a_process_gone_for_good_leaves_health_ok_once_nobody_is_routed_to_it(rig: Rig) -> None:
    """Found by a review: a stopped process stayed "not renewing" for good (health degraded
    until this process restarted)."""
    rig.receive(client("_reconnect", "B"))
    rig.ttl["B"] = 9_500
    asyncio.run(rig.cluster._check_processes())
    del rig.ttl["B"]  # B stopped
    asyncio.run(rig.cluster._check_processes())
    assert rig.cluster.health()[0] == "degraded"
    rig.ttl["C"] = 9_900
    rig.receive(client("_reconnect", "C"))  # the player is back through C
    asyncio.run(rig.cluster._check_processes())
    assert rig.cluster.health() == ("ok", None)


def test_a_process_back_from_an_outage_has_its_players_timeouts_of_that_time_taken_back(
    rig: Rig,
) -> None:
    """The process holding the socket says how long it could not hear or be heard: the
    table takes back what its clocks counted meanwhile, then sends the table anew."""
    rig.receive({**client("_reconnect", "B"), "message": {"type": "_reconnect", "away": 9.5}})
    assert rig.table.fed == [io.Unreached(1, window=9.5), io.Connect(1)]
