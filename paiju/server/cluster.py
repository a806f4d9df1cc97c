"""Many ``paiju serve`` processes, one world (``PAIJU_REDIS_URL``): Redis for coordination,
the database for everything that must survive.

- **Ownership**: each table lives in exactly one process, the holder of the expiring lease
  ``{prefix}:lease:{table}`` (renewed every second, 10 s to live). Only the owner applies
  actions and moves money. The database fences a process that has lost its lease without
  knowing it (a stalled event loop): a hand's action log takes each step once and a hand is
  closed once, so the second writer learns it and lets the table go.
- **Routing**: a player may be connected to any process. ``{prefix}:seat:{account}`` names the
  table a player sits at, ``{prefix}:conn:{account}`` the process holding their socket. A
  message from a player whose table lives elsewhere is published to the owner's channel
  ``{prefix}:proc:{pid}``; the owner's messages to that player go back the same way, in order.
- **Matchmaking**: ``{prefix}:open:{room}`` counts the free seats of the tables waiting for
  players; a join reserves one in a single atomic step (no lock) and goes to that table's
  owner, or a new table is opened where the player connected. ``{prefix}:joining:{account}``
  (set if absent, short-lived) lets one join of an account through at a time across the
  world; the database's one-seat-per-account key is the final word.
- **Fail-over**: every process watches the tables of the world (and, less often, the live
  hands in the database); when a table's lease has expired (its owner died), one process takes
  the lease, rebuilds the live hand by replay and goes on; the players reconnect to any
  process. A table without a live hand is forgotten and its players are told. Every ledger
  write is keyed by hand and event, so nothing is counted twice.
- **Liveness**: ``{prefix}:alive:{pid}`` lives as long as a lease; a player's socket on a
  process that has died is not taken for a connection.
- **Shown, or not**: a frame that offers a turn goes to another process with a mark, and
  that process answers ``shown`` once it has handed the frame to the socket: only then does
  the owner start the turn's clock (a person is charged only for a turn they were shown).
  While Redis is away nothing is shown, so no clock runs; a process whose Redis subscription
  fails tells its players whose tables are elsewhere (``paused``, ``peers``) and, when it is
  back, asks each table for the current view. A mark unanswered for longer than a lease,
  from a process that is no longer alive, is a player disconnected (their socket died with
  it; they have the disconnect clock to come back anywhere).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from pydantic import ValidationError

from paiju.server.connection import Connection
from paiju.server.errors import ServerError
from paiju.server.hub import Hub, Remote, invitation_json, unknown_code
from paiju.server.protocol import CLIENT, ClientMessage, Join, Ping, Unwatch, Watch
from paiju.server.rooms import ROOMS
from paiju.server.store import Store
from paiju.server.table import io
from paiju.server.table.runner import TableRunner
from paiju.server.writer import TRANSIENT

__all__ = ["Cluster"]

log = logging.getLogger("paiju.cluster")

LEASE_MS = 10_000  # a lease outlives a busy event loop by far; fail-over within 10 s
DB_SWEEP_EVERY = 5  # the watch asks the database for live hands every 5th second
BATCH = 512  # the most outgoing Redis commands sent in one round trip
JOIN_MS = 5_000  # one join of an account at a time: the marker's life
SHOWN_WAIT = LEASE_MS / 1000 + 1  # seconds before an unanswered mark asks if its process lives
STALE_MS = 3_000  # a process whose alive key has not been renewed for this long is in trouble
PING_EVERY = 2.0  # seconds of silence on the subscription before it is asked for a pong
PING_WAIT = 3.0  # seconds a pong may take before the subscription is taken for lost
MAX_AWAY = 120.0  # the longest outage a process's word takes timeouts back for
REDIS_TIMEOUT = 5.0  # seconds a Redis command or connect may take before it is given up
MOVING_WAITS = (0.1, 0.2, 0.4, 0.8, 1.5)  # a table between owners: asked again, about 3 s

# take each lease if it is free or already ours (and extend it): 1, or 0 if another process
# holds it (KEYS: the leases; ARGV: pid, lease ms)
_ACQUIRE_ALL = """
local out = {}
for i = 1, #KEYS do
  local v = redis.call('get', KEYS[i])
  if v and v ~= ARGV[1] then
    out[i] = 0
  else
    redis.call('set', KEYS[i], ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  end
end
return out
"""
LEASES_PER_CALL = 1_000  # Redis runs a script alone: keep each call short

# the tables with no lease: the members of the tables set (KEYS[1]) and the ids in ARGV[2..]
# (ARGV[1]: the lease key prefix)
_ORPHANS = """
local out = {}
local seen = {}
local function check(tid)
  if not seen[tid] then
    seen[tid] = true
    if redis.call('exists', ARGV[1] .. tid) == 0 then out[#out + 1] = tid end
  end
end
for _, tid in ipairs(redis.call('smembers', KEYS[1])) do check(tid) end
for i = 2, #ARGV do check(ARGV[i]) end
return out
"""

_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""

# a table's registry entry, written only while this process holds its lease
# KEYS: lease, tables, table hash, the room's open hash
# ARGV: pid, lease ms, table id, room, players, live, free seats for joiners (0: not open),
#       hash ttl ms, seat key prefix,
#       number of seated accounts, the seated accounts..., the accounts that left...
_REGISTER = """
local v = redis.call('get', KEYS[1])
if v and v ~= ARGV[1] then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('sadd', KEYS[2], ARGV[3])
local n = tonumber(ARGV[10])
local seated = {}
for i = 11, 10 + n do
  redis.call('set', ARGV[9] .. ARGV[i], ARGV[3])
  seated[#seated + 1] = ARGV[i]
end
for i = 11 + n, #ARGV do
  local key = ARGV[9] .. ARGV[i]
  if redis.call('get', key) == ARGV[3] then redis.call('del', key) end
end
redis.call('hset', KEYS[3], 'room', ARGV[4], 'players', ARGV[5], 'live', ARGV[6],
           'accounts', table.concat(seated, ','))
redis.call('pexpire', KEYS[3], ARGV[8])
if tonumber(ARGV[7]) > 0 then
  redis.call('hset', KEYS[4], ARGV[3], ARGV[7])
else
  redis.call('hdel', KEYS[4], ARGV[3])
end
return 1
"""

# reserve a seat at the oldest table waiting for players (KEYS: the room's open hash, table →
# free seats; ARGV: lease key prefix); drops tables whose owner has gone: {table, owner}
_RESERVE = """
local best = nil
local entries = redis.call('hgetall', KEYS[1])
for i = 1, #entries, 2 do
  local tid = entries[i]
  local free = tonumber(entries[i + 1])
  if not redis.call('get', ARGV[1] .. tid) then
    redis.call('hdel', KEYS[1], tid)
  elseif free and free > 0 and (best == nil or tonumber(tid) < tonumber(best)) then
    best = tid
  end
end
if not best then return {false, false} end
if redis.call('hincrby', KEYS[1], best, -1) <= 0 then redis.call('hdel', KEYS[1], best) end
return {best, redis.call('get', ARGV[1] .. best)}
"""

# where a player sits and who owns that table: {table or false, owner or false}
_WHERE = """
local t = redis.call('get', KEYS[1])
if not t then return {false, false} end
return {t, redis.call('get', ARGV[1] .. t)}
"""


class Cluster:
    """This process's membership of the world."""

    def __init__(self, url: str, hub: Hub, store: Store, prefix: str = "paiju") -> None:
        # a blocking pool: a burst of players waits for a connection instead of failing
        # a Redis that stalls is a Redis that is down: every command and connect is bounded
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=256, timeout=30, decode_responses=True,
            socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT,
        )  # fmt: skip
        self.redis = aioredis.Redis(connection_pool=pool)
        self.prefix = prefix
        self.hub = hub
        self.store = store
        self.pid = uuid.uuid4().hex[:12]
        # outgoing Redis work, in order: ("publish", channel, data) or
        # ("table", runner, script arguments); kept while Redis cannot be reached
        self._outbox: collections.deque[tuple[Any, ...]] = collections.deque()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._seated: dict[int, set[int]] = {}
        # account → the process a join was sent to, and that join's own mark (a refusal
        # clears only the join it answers, not one sent since)
        self._pending: dict[int, tuple[str, str]] = {}
        self._ticks = 0
        #: frames sent elsewhere that offer a turn, not yet answered shown: account → (mark,
        #: what to call when shown, the process, when sent)
        self._marks: dict[int, tuple[int, Callable[[], None], str, float]] = {}
        self._mark = 0
        self._routes: dict[int, str] = {}  # account → the process its remote route goes to
        self._stale: set[str] = set()  # processes whose alive key lapsed: their players cut off
        self._pubsub: Any = None  # this process's subscription (made again when lost)
        #: accounts here whose table plays on another process: account → that process
        self._fed: dict[int, str] = {}
        #: spectators here: account → the process of the table they watch
        self._watching_at: dict[int, str] = {}
        self._peers_lost = False  # this process's subscription failed: its players were told
        self._lost_at = 0.0  # when it failed
        self._failing: set[str] = set()  # the loops failing now (Redis away)
        hub.on_changed = self.table_changed
        hub.on_lost = self._forget

    def _key(self, *parts: object) -> str:
        return ":".join([self.prefix, *map(str, parts)])

    # --- lifecycle -----------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe to this process's channel and start the lease and fail-over loops."""
        await self.redis.set(self._key("alive", self.pid), "1", px=LEASE_MS)
        await self._subscribe()
        loops: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("listen", self._listen),
            ("send", self._send_batch),
            ("leases", self._renew_leases),
            ("watch", self._watch),
        ]
        for name, step in loops:
            self._tasks.append(asyncio.create_task(self._forever(name, step)))

    async def stop(self) -> None:
        """Stop the loops and hand the tables back at once (another process takes each live
        hand within a second or two instead of waiting for the lease to expire)."""
        for t in self._tasks:
            t.cancel()
        tables = list(self.hub.tables.values())
        for runner in tables:
            runner.stop()
        with contextlib.suppress(Exception):
            for runner in tables:
                await self.redis.eval(_RELEASE, 1, self._key("lease", runner.id), self.pid)
            await self.redis.delete(self._key("alive", self.pid))
        await self._drop_subscription()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _forever(self, name: str, step: Callable[[], Awaitable[None]]) -> None:
        """Run one of the process's loops for good: an error is logged, never fatal (Redis
        may be away for a while; the loops go on when it is back)."""
        failing = False
        while True:
            try:
                await step()
                self._works_again(name)
                failing = False
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if not failing:
                    log.warning("cluster loop %r failed (%s); going on", name, err)
                self._failing.add(name)
                if name == "listen":
                    self._lose_peers()
                    await self._drop_subscription()
                failing = True
                await asyncio.sleep(0.5)

    def _works_again(self, name: str) -> None:
        if name in self._failing:
            log.warning("cluster loop %r works again", name)
            self._failing.discard(name)

    def health(self) -> tuple[str, str | None]:
        """``("ok", None)``, or ``("degraded", why)`` while this process cannot reach Redis
        (a loop failing, its subscription lost) or another process holding players of its
        tables is not renewing its key (those players are cut off: their turns wait).

        >>> from paiju.server.db import make_engine, make_sessions, migrate
        >>> from paiju.server.table import Timing
        >>> from paiju.server.writer import Writer
        >>> engine = make_engine("sqlite://"); migrate(engine)
        >>> store = Store(make_sessions(engine), writer="w"); writer = Writer(store)
        >>> Cluster("redis://127.0.0.1:1/0", Hub(store, writer, Timing()), store).health()
        ('ok', None)
        >>> writer.close()
        """
        if self._peers_lost or self._failing:
            what = sorted(self._failing | ({"listen"} if self._peers_lost else set()))
            return "degraded", f"Redis cannot be reached ({', '.join(what)})"
        if self._stale:
            return "degraded", f"{len(self._stale)} other process(es) not renewing their keys"
        return "ok", None

    def _lose_peers(self) -> None:
        """This process hears nothing from the others: the players here whose tables play
        elsewhere are told, instead of silence (their clocks stand: nothing is shown), and
        the players elsewhere at tables here are cut off (their answers cannot come: their
        turns wait, uncounted)."""
        if self._peers_lost:
            return
        self._peers_lost = True
        self._lost_at = self._now()
        for account in self._fed:
            conn = self.hub.conns.get(account)
            if conn is not None and self.hub.table_of(account) is None:
                conn.send({"type": "paused", "why": "peers"})
        for account in list(self._routes):
            self._cut_off(account)

    def _cut_off(self, account: int) -> None:
        """A player whose socket is on another process cannot be reached now."""
        runner = self.hub.table_of(account)
        if runner is not None and account in self.hub.remote:
            runner.feed(io.Unreached(account))

    def _offer_again(self, account: int) -> None:
        """Send a player elsewhere the table as it stands again (a frame may be lost)."""
        runner = self.hub.table_of(account)
        if runner is not None and account in self.hub.remote:
            self._marks.pop(account, None)
            runner.feed(io.Resend(account))

    async def _subscribe(self) -> None:
        """Subscribe to this process's channel (again, after the subscription was lost)."""
        if self._pubsub is None:
            pubsub = self.redis.pubsub()
            await pubsub.subscribe(self._key("proc", self.pid))
            self._pubsub = pubsub

    async def _drop_subscription(self) -> None:
        """Let a failed subscription go (its connection may hang for good: a black hole),
        so the next listen subscribes on a new one."""
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), REDIS_TIMEOUT)

    async def _find_peers(self) -> None:
        """Subscribed again (messages sent to this process meanwhile are lost with the
        subscription): each player here told of the loss gets the table's current view from
        its owner, or is told the table is gone; each player elsewhere at a table here is
        offered their turn again (the answer that it was shown may have been lost)."""
        if not self._peers_lost:
            return
        self._peers_lost = False
        # how long this process may have been deaf and dumb: a turn of a player here that ran
        # out meanwhile was the house's doing (it began before the subscription was found lost)
        away = self._now() - self._lost_at + PING_EVERY + PING_WAIT + 1.0
        for account in list(self._routes):
            self._offer_again(account)
        for account in list(self._fed):
            conn = self.hub.conns.get(account)
            if conn is None or self.hub.table_of(account) is not None:
                self._fed.pop(account, None)
                continue
            conn.send({"type": "resumed"})
            tid, owner = await self._where(account)
            if tid is None:
                self._fed.pop(account, None)
                conn.send({"type": "unseated", "why": "table_closed"})
            elif owner is not None and owner != self.pid:
                self._forward(owner, account, "", {"type": "_reconnect", "away": away})

    def publish(self, pid: str, payload: dict[str, Any]) -> None:
        """Send to a process's channel, after everything queued before."""
        self._queue(("publish", self._key("proc", pid), orjson.dumps(payload)))

    def _queue(self, item: tuple[Any, ...]) -> None:
        self._outbox.append(item)
        self._wake.set()

    async def _send_batch(self) -> None:
        """Send what is queued, in order, many commands per round trip; while Redis cannot
        be reached, everything stays queued, in order, and goes when it is back."""
        while not self._outbox:
            self._wake.clear()
            await self._wake.wait()
        batch = [self._outbox.popleft() for _ in range(min(BATCH, len(self._outbox)))]
        pipe = self.redis.pipeline(transaction=False)
        for item in batch:
            if item[0] == "publish":
                pipe.publish(item[1], item[2])
            else:
                pipe.eval(_REGISTER, 4, *item[2])
        try:
            results = await pipe.execute(raise_on_error=False)
        except Exception:
            self._outbox.extendleft(reversed(batch))  # Redis is away: try again, in order
            raise
        for item, result in zip(batch, results, strict=True):
            if isinstance(result, Exception):
                log.warning("redis: %s failed: %s", item[0], result)
            elif item[0] == "table" and result == 0:
                self.hub.let_go(item[1])  # another process holds this table's lease

    # --- players -------------------------------------------------------------------------

    async def connected(self, account_id: int, conn: Connection) -> None:
        """A socket opened here: note it, and send the player back to their seat if any."""
        self.hub.connect(account_id, conn)
        if self.hub.table_of(account_id) is not None:
            await self.redis.set(self._key("conn", account_id), self.pid)
            return
        await self.redis.set(self._key("conn", account_id), self.pid)
        _tid, owner = await self._where(account_id)
        if owner is not None and owner != self.pid:
            self._forward(owner, account_id, "", {"type": "_reconnect"})

    async def disconnected(self, account_id: int, conn: Connection) -> None:
        """A socket closed here: the table's process is told first (queued in order, so it
        goes even while Redis is away), then the registry, as far as Redis allows."""
        if self.hub.conns.get(account_id) is not conn:
            return
        self.hub.disconnect(account_id, conn)
        self._pending.pop(account_id, None)
        fed = self._fed.pop(account_id, None)
        here = self.hub.table_of(account_id) is not None
        if fed is not None and not here:
            self._forward(fed, account_id, "", {"type": "_disconnect"})
        watched = self._watching_at.pop(account_id, None)
        if watched not in (None, fed, self.pid):  # a spectator not sent a frame yet
            self._forward(str(watched), account_id, "", {"type": "_disconnect"})
        await self.redis.eval(_RELEASE, 1, self._key("conn", account_id), self.pid)
        if not here:
            _tid, owner = await self._where(account_id)
            if owner is not None and owner not in (self.pid, fed):  # it moved meanwhile
                self._forward(owner, account_id, "", {"type": "_disconnect"})

    async def route(self, account_id: int, name: str, message: ClientMessage) -> None:
        """Handle a player's message here, or send it to the owner of their table.

        Raises :class:`~paiju.server.errors.ServerError` like the single-process server, and
        ``table_moving`` while the player's table is between processes (a fail-over).
        """
        if self.hub.table_of(account_id) is not None or isinstance(message, Ping):
            await self.hub.handle(account_id, name, message)
            return
        if isinstance(message, Watch | Unwatch):
            await self._spectate(account_id, name, message)
            return
        if isinstance(message, Join):
            self._stop_watching(account_id)
        tid, owner = await self._where(account_id)
        for wait in MOVING_WAITS:  # between two owners (a lease renewed, a take-over)
            if tid is None or owner is not None or not await self._table_known(tid):
                break
            await asyncio.sleep(wait)
            tid, owner = await self._where(account_id)
        if tid is not None and owner is None and not await self._table_known(tid):
            # the table is gone (its process died between hands): the seat is void
            await self.redis.eval(_RELEASE, 1, self._key("seat", account_id), tid)
            tid = None
        # defaults left out: a process of the last release reads what it knows (a rolling
        # restart), and a field left out is its default on the other side
        data = message.model_dump(exclude_defaults=True)
        if tid is None:
            if isinstance(message, Join):  # matched afresh: an earlier join may have failed
                await self._matchmake(account_id, name, message)
                return
            pending = self._pending.get(account_id)
            if pending is not None:  # a join went to that process: keep the order
                self._forward(pending[0], account_id, name, data)
                return
            raise ServerError("not_seated", "join a room first")
        self._pending.pop(account_id, None)
        if owner == self.pid:
            await self.hub.handle(account_id, name, message)
        elif owner is not None:
            self._forward(owner, account_id, name, data)
        else:
            raise ServerError(
                "table_moving",
                "your table is moving to another server; try again in a few seconds",
                503,
            )

    async def _spectate(self, account_id: int, name: str, message: Watch | Unwatch) -> None:
        """Watch a table wherever it plays (the process holding its lease serves the
        spectator, as it serves a player whose socket is elsewhere), or stop watching.

        Raises :class:`~paiju.server.errors.ServerError` as
        :meth:`~paiju.server.hub.Hub.watch` does (the table's process answers the rest with
        an error frame).
        """
        if isinstance(message, Unwatch):
            at = self._watching_at.get(account_id)
            if at is None or at == self.pid:
                self._watching_at.pop(account_id, None)
                self.hub.unwatch(account_id)
            else:
                self._stop_watching(account_id)
            return
        if (await self._where(account_id))[0] is not None:
            raise ServerError(
                "already_seated", "you sit at a table: leave it to watch another", 409
            )
        if message.code is not None:
            found = await asyncio.to_thread(self.store.table_by_code, message.code.upper())
            if found is None:
                raise unknown_code(message.code)
            owner = _text(await self.redis.get(self._key("lease", found)))
            if owner is None:
                raise unknown_code(message.code)
        else:
            friend = await asyncio.to_thread(self.store.account_named, message.name or "")
            if friend is None:
                raise ServerError("unknown_player", f"nobody is called {message.name!r}", 404)
            owner = (await self._where(friend))[1]
            if owner is None:
                raise ServerError("not_playing", f"{message.name} sits at no table now", 404)
        if self._watching_at.get(account_id) not in (None, owner):
            self._stop_watching(account_id)
        self._watching_at[account_id] = owner
        if owner == self.pid:
            await self.hub.watch(account_id, message)
        else:
            self._forward(owner, account_id, name, message.model_dump(exclude_defaults=True))

    def _stop_watching(self, account_id: int) -> None:
        """The account watches no table any more (here, or on the table's process)."""
        at = self._watching_at.pop(account_id, None)
        if at is None or at == self.pid:
            self.hub.unwatch(account_id, quiet=True)
        else:
            self._forward(at, account_id, "", {"type": "unwatch"})

    async def _where(self, account_id: int) -> tuple[str | None, str | None]:
        tid, owner = await self.redis.eval(
            _WHERE, 1, self._key("seat", account_id), self._key("lease", "")
        )
        return _text(tid), _text(owner)

    async def _table_known(self, tid: str) -> bool:
        return bool(await self.redis.sismember(self._key("tables"), tid))

    def _forward(self, pid: str, account_id: int, name: str, message: dict[str, Any]) -> None:
        self.publish(
            pid,
            {"kind": "client", "account": account_id, "name": name, "from": self.pid,
             "message": message},
        )  # fmt: skip

    def _forward_join(self, pid: str, account_id: int, name: str, data: dict[str, Any]) -> None:
        """Send a join to the process that holds the table, marked so that its refusal, if
        any, is matched to it (:meth:`_receive`)."""
        mark = uuid.uuid4().hex[:12]
        self._pending[account_id] = (pid, mark)
        self._forward(pid, account_id, name, {**data, "_join": mark})

    async def _matchmake(self, account_id: int, name: str, message: Join) -> None:
        """Seat a player: at a table waiting for players anywhere in the world (the seat is
        reserved in one atomic step, so no lock is held), else at a new table here. One
        join of an account at a time in the whole world.

        Raises :class:`~paiju.server.errors.ServerError` ``join_in_progress``.
        """
        joining = self._key("joining", account_id)
        if not await self.redis.set(joining, self.pid, nx=True, px=JOIN_MS):
            raise ServerError("join_in_progress", "your last join is still being handled", 409)
        if message.alone or message.private:  # a table of one's own or for friends: here
            await self._join_here(account_id, name, message, None, joining)
            return
        if message.code is not None:  # a friend's table: wherever it plays
            try:
                found = await asyncio.to_thread(self.store.table_by_code, message.code.upper())
                lease = await self.redis.get(self._key("lease", found)) if found else None
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.redis.delete(joining)
                raise
            holder = _text(lease)
            if found is None or holder is None:  # no such code, or its table has closed
                with contextlib.suppress(Exception):
                    await self.redis.delete(joining)
                raise unknown_code(message.code)
            if holder != self.pid:
                data = {**message.model_dump(), "_table": found}
                self._forward_join(holder, account_id, name, data)
                return
            await self._join_here(account_id, name, message, found, joining)
            return
        tid, owner = await self.redis.eval(
            _RESERVE, 1, self._key("open", message.room), self._key("lease", "")
        )
        owner = _text(owner)
        if owner is not None and owner != self.pid:
            data = {**message.model_dump(), "_table": int(_text(tid) or 0)}
            self._forward_join(owner, account_id, name, data)
            return
        table = int(_text(tid) or 0) or None
        await self._join_here(account_id, name, message, table, joining)

    async def invitation(self, code: str) -> dict[str, Any] | None:
        """An invitation to a private table playing on any process (see
        :meth:`~paiju.server.hub.Hub.invitation_here`): here, else from the registry in
        Redis and the names in the database; ``None`` when no live table has the code."""
        here = self.hub.invitation_here(code)
        if here is not None:
            return here
        found = await asyncio.to_thread(self.store.table_by_code, code.upper())
        if found is None or await self.redis.get(self._key("lease", found)) is None:
            return None
        info = await self.redis.hgetall(self._key("table", found))
        room = ROOMS.get(_text(info.get("room")) or "")
        accounts = [int(a) for a in (_text(info.get("accounts")) or "").split(",") if a]
        if room is None or not accounts:
            return None
        people = await asyncio.to_thread(self.store.names_of, accounts)
        return invitation_json(code.upper(), room, people, _text(info.get("live")) == "1")

    async def _join_here(
        self, account_id: int, name: str, message: Join, table: int | None, joining: str
    ) -> None:
        try:
            await self.hub.join(account_id, name, message, table=table, fresh=True)
        finally:
            with contextlib.suppress(Exception):
                await self.redis.delete(joining)

    async def _listen(self) -> None:
        """This process's channel, read for good. A subscription that stays silent is asked
        for a pong; one that does not answer is lost (a stalled or silently dropped
        connection never raises by itself), and the loop subscribes again on a new one."""
        await self._subscribe()
        pubsub = self._pubsub
        quiet_since = self._now()
        pinged = False
        while True:
            item = await pubsub.get_message(timeout=1.0)
            now = self._now()
            if item is None:
                if pinged and now - quiet_since > PING_EVERY + PING_WAIT:
                    raise ConnectionError("the subscription does not answer")
                if not pinged and now - quiet_since > PING_EVERY:
                    await pubsub.ping()  # its answer comes as a message of its own
                    pinged = True
                continue
            quiet_since, pinged = now, False
            if item.get("type") == "subscribe":  # (again, after a failure)
                await self._find_peers()
                self._works_again("listen")  # (the loop itself never returns)
                continue
            if item.get("type") != "message":
                continue
            try:
                await self._receive(orjson.loads(item["data"]))
            except Exception:  # one bad message must not stop the channel
                log.exception("cluster message failed: %.200s", item.get("data"))

    async def _receive(self, payload: dict[str, Any]) -> None:
        account = int(payload["account"])
        if payload.get("kind") == "deliver":
            conn = self.hub.conns.get(account)
            source = payload.get("from")
            if self.hub.table_of(account) is not None:
                return  # the table plays here now (taken over): frames from elsewhere are stale
            if isinstance(source, str) and source != self._fed.get(account):
                # another process sends this player frames: the table's owner now, or one
                # that has lost the table and does not know yet (its frames are stale); a
                # table that has no owner (a join refused, a table closed) may still answer
                owner = (await self._where(account))[1]
                if account in self._fed and owner is not None and owner != source:
                    return
                self._fed[account] = source
            if (
                isinstance(payload["message"], dict)
                and payload["message"].get("type") == "unseated"
            ):
                self._fed.pop(account, None)  # no table feeds them now
            sent = conn is not None and conn.send_bytes(orjson.dumps(payload["message"]))
            if "ack" in payload and isinstance(source, str):  # a turn: say whether it is shown
                answer = "shown" if sent else "gone"
                self.publish(source, {"kind": answer, "account": account, "ack": payload["ack"]})
            return
        if payload.get("kind") in ("shown", "gone"):  # the answer to a turn's frame
            mark = self._marks.get(account)
            if mark is None or mark[0] != payload.get("ack"):
                return
            del self._marks[account]
            if payload["kind"] == "shown":
                mark[1]()
            elif self._routes.get(account) == mark[2] and account not in self.hub.conns:
                self._unroute(account, io.Disconnect(account))  # no socket of theirs there
            return
        if payload.get("kind") == "join_failed":  # a join this process sent there failed
            if self._pending.get(account) == (payload.get("from"), payload.get("join")):
                del self._pending[account]  # so later messages are answered here again
            return
        if payload.get("kind") != "client":
            return
        source = str(payload["from"])
        data = dict(payload["message"])
        kind = data.get("type")
        if kind == "_disconnect":  # only from where their socket is: a late one is stale
            if self._routes.get(account) == source and account not in self.hub.conns:
                self._unroute(account, io.Disconnect(account))
            return
        if account not in self.hub.conns:
            self._route(account, source)
        runner = self.hub.table_of(account)
        if kind == "_reconnect":
            if runner is not None:
                away = data.get("away")
                if isinstance(away, int | float) and away > 0:  # its process was cut off
                    runner.feed(io.Unreached(account, window=min(float(away), MAX_AWAY)))
                runner.feed(io.Connect(account))
            return
        table = data.pop("_table", None)
        mark = data.pop("_join", None)
        try:
            message = CLIENT.validate_python(data)
            if isinstance(message, Join) and runner is None:
                await self.hub.join(
                    account, str(payload.get("name", "")), message, table=table, fresh=True
                )
            else:
                await self.hub.handle(account, str(payload.get("name", "")), message)
        except Exception as err:
            # every forwarded message is answered: a refusal with its code, anything else
            # (the storage down, a message this release does not read) as what it is
            if isinstance(err, ServerError):
                code, text = err.code, err.message
            elif isinstance(err, ValidationError):
                code, text = "bad_message", "this server does not read that message"
            elif isinstance(err, TRANSIENT):
                code, text = "storage_unavailable", "the storage cannot be reached: try again"
            else:
                log.exception("a forwarded %s failed", kind)
                code, text = "internal", "the server failed: try again"
            self.hub.deliver(account, {"type": "error", "code": code, "message": text})
            if kind == "join" and runner is None:  # told after the error, in order
                failed = {"kind": "join_failed", "account": account, "from": self.pid}
                self.publish(source, {**failed, "join": mark})
        finally:
            if kind == "join":
                with contextlib.suppress(Exception):
                    await self.redis.delete(self._key("joining", account))

    def _route(self, account: int, pid: str) -> None:
        """Frames for ``account`` go to its socket on process ``pid``."""
        self.hub.route_remote(account, self._remote(pid, account))
        self._routes[account] = pid

    def _unroute(self, account: int, why: io.Disconnect | io.Unreached) -> None:
        """Frames for ``account`` go nowhere now; its table hears ``why``."""
        self.hub.route_remote(account, None)
        self._routes.pop(account, None)
        self._marks.pop(account, None)
        self.hub.gone(account)  # a spectator's socket is gone too
        runner = self.hub.table_of(account)
        if runner is not None:
            runner.feed(why)

    def _remote(self, pid: str, account: int) -> Remote:
        def send(frame: dict[str, Any], shown: Callable[[], None] | None = None) -> None:
            payload = {"kind": "deliver", "account": account, "from": self.pid, "message": frame}
            if shown is not None:  # a turn: the other process says when it is shown
                self._mark += 1
                self._marks[account] = (self._mark, shown, pid, self._now())
                payload["ack"] = self._mark
            self.publish(pid, payload)

        return send

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _check_marks(self) -> None:
        """Frames offering a turn that no process has answered for a while (an answer, or
        the frame, may be lost: a process not subscribed at that moment hears nothing): the
        player is cut off (their turn waits, uncounted, as long as a player may be away;
        never an escape), and to a process still alive the turn is offered again, each
        :data:`SHOWN_WAIT`, until it is shown or the player comes back elsewhere. While Redis
        is away nothing is asked, and nothing is concluded."""
        now = self._now()
        late = {pid for _, _, pid, sent in self._marks.values() if now - sent > SHOWN_WAIT}
        alive = {pid: bool(await self.redis.exists(self._key("alive", pid))) for pid in late}
        for account, (_, _, pid, sent) in list(self._marks.items()):
            if now - sent <= SHOWN_WAIT:
                continue
            del self._marks[account]
            if account not in self.hub.remote or self._routes.get(account) != pid:
                continue  # the player's socket is elsewhere now
            log.warning("account %s: process %s does not answer; cut off", account, pid)
            self._cut_off(account)
            if alive[pid]:
                self._offer_again(account)

    async def _check_processes(self) -> None:
        """Each process holding sockets of players at tables here: one whose alive key has
        not been renewed for :data:`STALE_MS` (cut from Redis, stalled, gone) cannot carry
        their answers, so they are cut off (their turns wait, uncounted); when it renews it
        again they are offered the table anew."""
        routed: dict[str, list[int]] = {}
        for account, pid in self._routes.items():
            if pid != self.pid and account in self.hub.remote and self.hub.table_of(account):
                routed.setdefault(pid, []).append(account)
        self._stale &= set(routed)  # a process nobody here is routed to is no one's trouble
        if not routed:
            return
        pids = sorted(routed)
        pipe = self.redis.pipeline(transaction=False)
        for pid in pids:
            pipe.pttl(self._key("alive", pid))
        for pid, ttl in zip(pids, await pipe.execute(), strict=True):
            stale = int(ttl) < LEASE_MS - STALE_MS  # -2: gone, -1: never expires (not ours)
            if stale and pid not in self._stale:
                self._stale.add(pid)
                log.warning("process %s is not renewing its key: its players are cut off", pid)
                for account in routed.get(pid, []):
                    self._cut_off(account)
            elif not stale and pid in self._stale:
                self._stale.discard(pid)
                for account in routed.get(pid, []):
                    self._offer_again(account)

    async def lobby(self) -> dict[str, Any]:
        """The rooms with their tables and players, and the people online, across every
        process.

        Raises :class:`~paiju.server.errors.ServerError` ``unavailable`` (503) while Redis
        cannot be reached.
        """
        try:
            world = await self._lobby()
        except (aioredis.ConnectionError, aioredis.TimeoutError, OSError):
            raise ServerError(
                "unavailable", "the lobby is unavailable for a moment; try again", 503
            ) from None
        rooms = self.hub.rooms_json()
        for r in rooms:
            r.update(world.get(r["name"], {"tables": 0, "players": 0}))
        return {"rooms": rooms, "online": world["_online"]["players"]}

    async def _lobby(self) -> dict[str, dict[str, int]]:
        rooms: dict[str, dict[str, int]] = {}
        for tid in map(_text, await self.redis.smembers(self._key("tables"))):
            info = await self.redis.hgetall(self._key("table", tid))
            if not info:
                continue
            room = rooms.setdefault(_text(info.get("room")) or "", {"tables": 0, "players": 0})
            room["tables"] += 1
            room["players"] += int(info.get("players", 0))
        alive: dict[str, bool] = {}
        online = 0
        async for key in self.redis.scan_iter(self._key("conn", "*"), count=1000):
            pid = _text(await self.redis.get(key))
            if pid is not None and pid not in alive:
                alive[pid] = bool(await self.redis.exists(self._key("alive", pid)))
            online += bool(pid is not None and alive[pid])
        rooms["_online"] = {"tables": 0, "players": online}
        return rooms

    # --- registry, leases, fail-over -----------------------------------------------------

    def table_changed(self, runner: TableRunner) -> None:
        """Mirror a local table's seating in Redis (called on every change), fenced by the
        lease: if another process holds it, this process lets the table go."""
        machine = runner.machine
        tid = str(runner.id)
        now = set(machine.accounts) if runner.id in self.hub.tables else set()
        gone = self._seated.get(runner.id, set()) - now
        self._seated[runner.id] = now
        free = machine.open_seats
        keys = [self._key("lease", tid), self._key("tables"), self._key("table", tid)]
        keys.append(self._key("open", machine.room.name))
        args = [self.pid, LEASE_MS, tid, machine.room.name, len(now), int(machine.live)]
        args += [free, 10 * LEASE_MS, self._key("seat", ""), len(now), *now, *gone]
        self._queue(("table", runner, [*keys, *args]))

    def _forget(self, runner: TableRunner) -> None:
        """A table this process let go (the new owner rewrites its registry entry)."""
        self._seated.pop(runner.id, None)

    async def _renew_leases(self) -> None:
        """Every second: extend this process's leases, in one round trip (a script call per
        thousand tables, not a command per table); let go of any table another process holds
        now."""
        await asyncio.sleep(1.0)
        tables = list(self.hub.tables.values())
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self._key("alive", self.pid), "1", px=LEASE_MS)
        for k in range(0, len(tables), LEASES_PER_CALL):
            keys = [self._key("lease", r.id) for r in tables[k : k + LEASES_PER_CALL]]
            pipe.eval(_ACQUIRE_ALL, len(keys), *keys, self.pid, LEASE_MS)
        results = await pipe.execute()
        held = [ok for chunk in results[1:] for ok in chunk]
        for runner, ok in zip(tables, held, strict=True):
            if not ok:
                self.hub.metrics.leases_lost.inc()
                self.hub.let_go(runner)

    async def _watch(self) -> None:
        """Take over the tables whose owner has gone (lease expired); give up on frames
        whose process has gone (:meth:`_check_marks`)."""
        self._ticks += 1
        await asyncio.sleep(1.0)
        if self._marks:
            await self._check_marks()
        await self._check_processes()
        if self._ticks % DB_SWEEP_EVERY == 0:  # routes of players gone from here
            for account in [a for a in self._routes if a not in self.hub.remote]:
                del self._routes[account]
        extra: list[int] = []
        if self._ticks % DB_SWEEP_EVERY == 1:  # hands Redis has forgotten (it was flushed)
            extra = sorted(set(await asyncio.to_thread(self.store.live_table_ids)))
        # one script call, not a command per table of the world
        found = await self.redis.eval(
            _ORPHANS, 1, self._key("tables"), self._key("lease", ""), *extra
        )
        mine = self.hub.tables
        orphans = sorted({int(t) for t in map(_text, found) if t} - set(mine))
        for table_id in orphans:
            if table_id not in mine:  # taken over by this process meanwhile
                try:
                    await self._take_over(table_id)
                except Exception:
                    log.exception("taking over table %s failed", table_id)
                    await self.redis.eval(_RELEASE, 1, self._key("lease", table_id), self.pid)

    async def _take_over(self, table_id: int) -> None:
        lease = self._key("lease", table_id)
        if not await self.redis.set(lease, self.pid, nx=True, px=LEASE_MS):
            return  # another process was first
        hands = await asyncio.to_thread(self.store.live_hands, table_id)
        runner = await self.hub.restore_hand(hands[-1]) if hands else None
        if runner is None:  # nothing live there: forget the table and tell its players
            await self._forget_table(table_id)
            await self.redis.eval(_RELEASE, 1, lease, self.pid)
            return
        log.info(
            "took over table %s (hand %s)",
            table_id,
            hands[-1].hand_id,
            extra={"event": "takeover", "table": table_id, "hand": hands[-1].hand_id},
        )
        self.hub.metrics.takeovers.inc()
        for account in runner.machine.accounts:
            if account in self.hub.conns:
                self._fed.pop(account, None)  # fed here now
                runner.feed(io.Connect(account))
                continue
            # routed even if that process's alive key has lapsed (it may be renewing it
            # after a Redis cut): if the process is gone, its marks go unanswered and the
            # player is unreached, never charged; if not, the view reaches them now
            pid = _text(await self.redis.get(self._key("conn", account)))
            if pid:
                self._route(account, pid)
                runner.feed(io.Connect(account))
        self.table_changed(runner)

    async def _forget_table(self, table_id: int) -> None:
        info = await self.redis.hgetall(self._key("table", table_id))
        accounts = await asyncio.to_thread(self.store.release_table_seats, table_id)
        listed = {int(a) for a in filter(None, (_text(info.get("accounts")) or "").split(","))}
        for acc in sorted(listed | set(accounts)):
            await self.redis.eval(_RELEASE, 1, self._key("seat", acc), str(table_id))
            pid = _text(await self.redis.get(self._key("conn", acc)))
            frame = {"type": "unseated", "why": "table_closed"}
            if acc in self.hub.conns:
                self.hub.send_here(acc, frame)
            elif pid and await self.redis.exists(self._key("alive", pid)):
                self.publish(pid, {"kind": "deliver", "account": acc, "message": frame})
        await self.redis.delete(self._key("table", table_id))
        await self.redis.srem(self._key("tables"), str(table_id))
        if info.get("room"):
            await self.redis.hdel(self._key("open", info["room"]), str(table_id))


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else str(value)
