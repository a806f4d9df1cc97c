"""Many ``paiju serve`` processes, one world (``PAIJU_REDIS_URL``): Redis for coordination,
the database for everything that must survive.

- **Ownership**: each table lives in exactly one process, the holder of the expiring lease
  ``paiju:lease:{table}`` (renewed every second, 10 s to live). Only the owner applies actions
  and moves money.
- **Routing**: a player may be connected to any process. ``paiju:seat:{account}`` names the
  table a player sits at, ``paiju:conn:{account}`` the process holding their socket. A message
  from a player whose table lives elsewhere is published to the owner's channel
  ``paiju:proc:{pid}``; the owner's messages to that player go back the same way, in order.
- **Matchmaking**: ``paiju:open:{room}`` lists the tables with a free seat; a join goes to the
  owner of one of them, or a new table is opened where the player connected.
- **Fail-over**: every process watches the live hands in the database; when a hand's lease has
  expired (its owner died), one process takes the lease, rebuilds the table by replay and goes
  on; the players reconnect to any process. Every ledger write is keyed by hand and event, so
  nothing is counted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from typing import Any

import redis.asyncio as aioredis

from paiju.server.errors import ServerError
from paiju.server.hub import Hub
from paiju.server.store import Store
from paiju.server.table import Connection, Table

__all__ = ["Cluster", "RemoteConnection"]

LEASE_MS = 10_000  # a lease outlives a busy event loop by far; fail-over within 10 s
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""


_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class RemoteConnection(Connection):
    """A player connected to another process: messages go there through Redis, in order."""

    def __init__(self, cluster: Cluster, pid: str, account_id: int) -> None:
        super().__init__()
        self.cluster = cluster
        self.pid = pid
        self.account_id = account_id

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message for the player's process."""
        self.cluster.publish(
            self.pid, {"kind": "deliver", "account": self.account_id, "message": message}
        )


class Cluster:
    """This process's membership of the world."""

    def __init__(self, url: str, hub: Hub, store: Store, prefix: str = "paiju") -> None:
        # a blocking pool: a burst of players waits for a connection instead of failing
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=256, timeout=30, decode_responses=True
        )
        self.redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.hub = hub
        self.store = store
        self.pid = uuid.uuid4().hex[:12]
        self.local: dict[int, Connection] = {}
        self._outbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._seated: dict[int, set[int]] = {}
        self._pending: dict[int, str] = {}  # account → the process a join was sent to
        hub.listener = self.table_changed

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe to this process's channel and start the lease and fail-over loops."""
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(f"{self.prefix}:proc:{self.pid}")
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        for coro in (self._listen(), self._sender(), self._leases(), self._watch()):
            self._tasks.append(asyncio.create_task(coro))

    async def stop(self) -> None:
        """Stop the loops (leases then expire, and another process takes the tables)."""
        for t in self._tasks:
            t.cancel()
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
            await self.redis.aclose()

    def publish(self, pid: str, payload: dict[str, Any]) -> None:
        """Send to a process's channel, after everything queued before."""
        self._outbox.put_nowait(("publish", (f"{self.prefix}:proc:{pid}", json.dumps(payload))))

    def _redis_later(self, op: str, *args: Any) -> None:
        self._outbox.put_nowait((op, args))

    async def _sender(self) -> None:
        while True:
            op, args = await self._outbox.get()
            with contextlib.suppress(Exception):  # a lost registry write is redone on change
                await getattr(self.redis, op)(*args)

    # --- players -------------------------------------------------------------------------

    async def connected(self, account_id: int, conn: Connection) -> None:
        """A socket opened here: note it, and send the player back to their seat if any."""
        self.local[account_id] = conn
        await self.redis.set(f"{self.prefix}:conn:{account_id}", self.pid)
        if await self.redis.get(f"{self.prefix}:seat:{account_id}"):
            await self.route(account_id, "", conn, {"type": "_reconnect"})

    async def disconnected(self, account_id: int, conn: Connection) -> None:
        """A socket closed here."""
        if self.local.get(account_id) is conn:
            del self.local[account_id]
            self._pending.pop(account_id, None)
            key = f"{self.prefix}:conn:{account_id}"
            if _text(await self.redis.get(key)) == self.pid:
                await self.redis.delete(key)
            await self.route(account_id, "", conn, {"type": "_disconnect"})

    async def route(
        self, account_id: int, name: str, conn: Connection, message: dict[str, Any]
    ) -> None:
        """Handle a player's message here, or send it to the owner of their table.

        Raises :class:`~paiju.server.errors.ServerError` like the single-process server.
        """
        kind = message.get("type")
        if self.hub.find(account_id) is not None:  # seated here: no need to ask Redis
            self.handle(account_id, name, conn, message)
            return
        tid = _text(await self.redis.get(f"{self.prefix}:seat:{account_id}"))
        pending = self._pending.get(account_id) if tid is None else None
        if tid is not None:
            self._pending.pop(account_id, None)
        if tid is None and pending is not None:
            # a join was sent to that process and is not seated yet: keep the order
            self.publish(
                pending,
                {
                    "kind": "client",
                    "account": account_id,
                    "name": name,
                    "from": self.pid,
                    "message": message,
                },
            )
            return
        if tid is None:
            if kind in ("_reconnect", "_disconnect"):
                return
            if kind == "join":
                await self._matchmake(account_id, name, conn, message)
                return
            raise ServerError("not_seated", "join a room first")
        owner = _text(await self.redis.get(f"{self.prefix}:lease:{tid}"))
        if owner == self.pid or owner is None:
            self.handle(account_id, name, conn, message)
        else:
            self.publish(
                owner,
                {
                    "kind": "client",
                    "account": account_id,
                    "name": name,
                    "from": self.pid,
                    "message": message,
                },
            )

    async def _matchmake(
        self, account_id: int, name: str, conn: Connection, message: dict[str, Any]
    ) -> None:
        room = message.get("room")
        lock = f"{self.prefix}:match:{room}"
        mine = f"{self.pid}:{uuid.uuid4().hex[:8]}"
        for _ in range(250):  # a join takes milliseconds; wait up to 5 s for the room
            if await self.redis.set(lock, mine, nx=True, px=2000):
                break
            await asyncio.sleep(0.02)
        try:
            members = [
                t for t in map(_text, await self.redis.smembers(f"{self.prefix}:open:{room}")) if t
            ]
            for tid in sorted(members, key=int):
                owner = _text(await self.redis.get(f"{self.prefix}:lease:{tid}"))
                if owner is None:
                    await self.redis.srem(f"{self.prefix}:open:{room}", tid)
                    continue
                if owner == self.pid:
                    break
                self._pending[account_id] = owner
                self.publish(
                    owner,
                    {
                        "kind": "client",
                        "account": account_id,
                        "name": name,
                        "from": self.pid,
                        "message": message,
                    },
                )
                return
            self.handle(account_id, name, conn, message)
            await asyncio.sleep(0)  # let the registry writes of this seating go first
        finally:
            with contextlib.suppress(Exception):  # release the room only if still ours
                await self._release(keys=[lock], args=[mine])

    def handle(self, account_id: int, name: str, conn: Connection, message: dict[str, Any]) -> None:
        """A player's message for a table of this process (or a new one)."""
        from paiju.server.app import dispatch  # the same handling as one process

        kind = message.get("type")
        found = self.hub.find(account_id)
        if kind == "_disconnect":
            if found is not None:
                table, seat = found
                info = table.seats[seat]
                if (
                    info is not None
                    and info.connection is not None
                    and (info.connection is conn or isinstance(info.connection, RemoteConnection))
                ):
                    table.disconnect(seat)
            return
        if found is not None:
            table, seat = found
            info = table.seats[seat]
            if info is not None and (info.connection is None or kind == "_reconnect"):
                table.reconnect(seat, conn)
                conn.send(
                    {
                        "type": "seated",
                        "table": table.id,
                        "room": table.room.name,
                        "seat": table.rules.seats[seat].value,
                    }
                )
            if kind == "_reconnect":
                return
            elif info is not None and isinstance(info.connection, RemoteConnection):
                info.connection = conn
        try:
            dispatch(self.hub, self.store, account_id, name, conn, message)
        except ServerError as err:
            conn.send({"type": "error", "code": err.code, "message": err.message})

    async def _listen(self) -> None:
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                payload = json.loads(item["data"])
            except (TypeError, ValueError):
                continue
            if payload.get("kind") == "deliver":
                conn = self.local.get(payload["account"])
                if conn is not None:
                    conn.send(payload["message"])
            elif payload.get("kind") == "client":
                remote = RemoteConnection(self, payload["from"], payload["account"])
                self.handle(payload["account"], payload.get("name", ""), remote, payload["message"])

    async def lobby(self) -> dict[str, dict[str, int]]:
        """Tables and players per room, and the people online, across every process."""
        rooms: dict[str, dict[str, int]] = {}
        for tid in map(_text, await self.redis.smembers(f"{self.prefix}:tables")):
            info = await self.redis.hgetall(f"{self.prefix}:table:{tid}")
            if not info:
                continue
            room = rooms.setdefault(_text(info.get("room")) or "", {"tables": 0, "players": 0})
            room["tables"] += 1
            room["players"] += int(info.get("players", 0))
        online = 0
        async for _key in self.redis.scan_iter(f"{self.prefix}:conn:*"):
            online += 1
        rooms["_online"] = {"tables": 0, "players": online}
        return rooms

    # --- registry, leases, fail-over -----------------------------------------------------

    def table_changed(self, table: Table) -> None:
        """Mirror a local table's seating in Redis (called on every change)."""
        tid = str(table.id)
        self._redis_later("set", f"{self.prefix}:lease:{tid}", self.pid, None, LEASE_MS)
        self._redis_later("sadd", f"{self.prefix}:tables", tid)
        now = {s.account_id for s in table.seats if s is not None and s.account_id}
        for acc in self._seated.get(table.id, set()) - now:
            self._redis_later("delete", f"{self.prefix}:seat:{acc}")
        for acc in now:
            self._redis_later("set", f"{self.prefix}:seat:{acc}", tid)
        self._seated[table.id] = now
        players = sum(1 for s in table.seats if s is not None and s.account_id)
        self._redis_later(
            "hset",
            f"{self.prefix}:table:{tid}",
            None,
            None,
            {"room": table.room.name, "players": players, "live": int(table.live)},
        )
        self._redis_later("pexpire", f"{self.prefix}:table:{tid}", 10 * LEASE_MS)
        key = f"{self.prefix}:open:{table.room.name}"
        if not table.live and table.free_seat() is not None and now:
            self._redis_later("sadd", key, tid)
        else:
            self._redis_later("srem", key, tid)

    async def _leases(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            for tid in list(self.hub.tables):
                ok = await self._renew(
                    keys=[f"{self.prefix}:lease:{tid}"], args=[self.pid, LEASE_MS]
                )
                if not ok:
                    got = await self.redis.set(
                        f"{self.prefix}:lease:{tid}", self.pid, nx=True, px=LEASE_MS
                    )
                    if not got:  # another process owns it now: let go
                        self.hub.tables.pop(tid, None)

    async def _watch(self) -> None:
        """Take over the live hands whose owner has gone (its lease expired)."""
        tables_key = f"{self.prefix}:tables"
        while True:
            await asyncio.sleep(1.0)
            try:
                known = [t for t in map(_text, await self.redis.smembers(tables_key)) if t]
                orphans = []
                for tid in known:
                    if int(tid) in self.hub.tables:
                        continue
                    if not await self.redis.exists(f"{self.prefix}:lease:{tid}"):
                        orphans.append(int(tid))
            except Exception:
                continue
            for table_id in orphans:
                key = f"{self.prefix}:lease:{table_id}"
                if not await self.redis.set(key, self.pid, nx=True, px=LEASE_MS):
                    continue
                hands = await asyncio.to_thread(self.store.live_hands, table_id)
                if not hands:  # nothing live there: forget the table
                    await self.redis.delete(key)
                    await self.redis.srem(tables_key, str(table_id))
                    continue
                live = hands[-1]
                table = self.hub.restore_hand(live)
                for i, info in enumerate(table.seats):
                    if info is None or info.account_id is None:
                        continue
                    acc = info.account_id
                    conn: Connection | None = self.local.get(acc)
                    if conn is None:
                        pid = _text(await self.redis.get(f"{self.prefix}:conn:{acc}"))
                        if pid:
                            conn = RemoteConnection(self, pid, acc)
                    if conn is not None:
                        table.reconnect(i, conn)
                        conn.send(
                            {
                                "type": "seated",
                                "table": table.id,
                                "room": table.room.name,
                                "seat": table.rules.seats[i].value,
                            }
                        )
                self.table_changed(table)


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
