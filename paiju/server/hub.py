"""The hub: every table of this process, who sits where, whose socket is here, and the
handling of a player's messages (the same whether the socket is here or on another process
of a cluster).

>>> from paiju.games import names
>>> from paiju.server.rooms import ROOMS
>>> set(names()) <= set(ROOMS)
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from paiju.errors import RulesError
from paiju.server.connection import Connection
from paiju.server.errors import ServerError
from paiju.server.metrics import NOWHERE, Metrics
from paiju.server.protocol import (
    Act,
    ClientMessage,
    Fill,
    Hint,
    Join,
    Leave,
    Ping,
    Ready,
    SettlementShown,
    Tuoguan,
    Unwatch,
    Watch,
)
from paiju.server.rooms import ROOMS, Room
from paiju.server.socket_guard import MessageRate
from paiju.server.store import LiveHand, Store
from paiju.server.table import TableMachine, Timing, io, restore
from paiju.server.table.runner import TableRunner
from paiju.server.writer import Writer

__all__ = [
    "CODE_ALPHABET",
    "WATCHERS",
    "WATCH_BURST",
    "WATCH_RATE",
    "Hub",
    "Remote",
    "invitation_json",
    "new_code",
    "unknown_code",
]

log = logging.getLogger("paiju.hub")

#: A private table's code: eight of these (no 0/O or 1/I to misread): 2^40, about 10^12
#: codes, so guessing one of a few thousand open tables takes months at 40 joins a second.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

#: Spectators one table takes at most (``PAIJU_WATCHERS_PER_TABLE``).
WATCHERS = 8
#: ``watch`` requests of one account, a second on average and at once: a name looked up is
#: a question about where a player is, so fewer than other messages (10 a minute)
WATCH_RATE = 1 / 6
WATCH_BURST = 5


#: How a frame reaches a socket on another process: ``remote(frame, shown)``, ``shown`` (if
#: given) called once that process has handed the frame to the socket.
Remote = Callable[[dict[str, Any], Callable[[], None] | None], None]


def new_code() -> str:
    """A fresh private-table code (unpredictable: a code is the table's only key).

    >>> c = new_code()
    >>> len(c), set(c) <= set(CODE_ALPHABET)
    (8, True)
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))


def invitation_json(code: str, room: Room, people: list[str], playing: bool) -> dict[str, Any]:
    """An invitation as ``GET /api/invite/{code}`` answers it. ``free``: the seats a friend
    may take now (every seat that is not a person's, bots' included: a bot gives its seat up
    between hands; none while a hand is being played).

    >>> from paiju.server.rooms import ROOMS
    >>> room = next(iter(ROOMS.values()))
    >>> invitation_json("ABCD2345", room, ["ana"], False)["free"]
    3
    """
    return {
        "code": code,
        "game": room.game,
        "room": room.to_json(),
        "people": people,
        "free": 0 if playing else 4 - len(people),
        "playing": playing,
    }


def unknown_code(code: str) -> ServerError:
    """The error for a code no table here (or anywhere) plays under.

    >>> unknown_code("abc234").message
    'no table has the code ABC234 (it may have closed)'
    """
    return ServerError(
        "unknown_table", f"no table has the code {code.upper()} (it may have closed)", 404
    )


def _draining() -> ServerError:
    """A join refused: this process drains (paiju/server/drain.py)."""
    return ServerError(
        "draining", "this server is restarting: connect again to sit down elsewhere", 503
    )


class Hub:
    """The tables of this process and the people at them."""

    def __init__(
        self,
        store: Store,
        writer: Writer,
        timing: Timing,
        seed: int | None = None,
        *,
        watchers: int = WATCHERS,
    ) -> None:
        self.store = store
        self.writer = writer
        self.timing = timing
        self.seed = seed
        self.tables: dict[int, TableRunner] = {}
        self.where: dict[int, int] = {}  # account → table, for people seated here
        self._seated: dict[int, set[int]] = {}  # table → its accounts (the same, inverted)
        self.conns: dict[int, Connection] = {}  # sockets on this process
        #: sockets elsewhere: how to send an account a frame (and be told when it is shown)
        self.remote: dict[int, Remote] = {}
        self._joining: set[int] = set()
        #: accounts whose table closed while they were away (a restart between hands): told
        #: so when they come back, instead of waiting at a table that is gone
        self.closed_away: set[int] = set()
        #: called when a table's seating or liveness changes (the cluster registry)
        self.on_changed: Callable[[TableRunner], None] | None = None
        #: called when this process lets a table go
        self.on_lost: Callable[[TableRunner], None] | None = None
        #: spectators of this process's tables (their sockets here or elsewhere): account →
        #: the table they watch; at most ``max_watchers`` a table
        self.watching: dict[int, int] = {}
        self.max_watchers = watchers
        self._watch_rates: dict[int, MessageRate] = {}
        self.metrics: Metrics = NOWHERE  # the process's (services.build sets it)
        #: the process drains (:mod:`paiju.server.drain`): no one is seated at a new table
        self.draining = False

    # --- tables --------------------------------------------------------------------------

    def _rng(self, table_id: int) -> random.Random:
        # each hand's seed is drawn here and recorded, so every hand replays exactly; without
        # a configured seed the deals cannot be predicted
        return random.Random(
            f"{self.seed}:{table_id}" if self.seed is not None else secrets.randbits(64)
        )

    async def new_table(
        self, room_name: str, alone: bool, level: str | None, private: bool = False
    ) -> TableRunner:
        """Open a table of a room here (``private``: a table for friends, with a new code)."""
        room = ROOMS[room_name]
        code, tid = None, 0
        for attempt in range(8):
            code = new_code() if private else None
            try:
                tid = await asyncio.to_thread(self.store.create_table, room.name, room.game, code)
                break
            except IntegrityError:  # another table has the code: draw again
                if not private or attempt == 7:
                    raise
        machine = TableMachine(
            tid, room, self.timing, self._rng(tid), alone=alone, level=level, code=code
        )
        runner = TableRunner(machine, self, self.writer)
        self.tables[tid] = runner
        if self.draining:  # opened by a join in flight as the drain began: no hand here
            runner.feed(io.Drain())
        return runner

    def table_of(self, account: int) -> TableRunner | None:
        """The table (of this process) an account sits at."""
        tid = self.where.get(account)
        return None if tid is None else self.tables.get(tid)

    def table_changed(self, runner: TableRunner) -> None:
        """A table's seating changed: update who sits where."""
        tid = runner.id
        now = set(runner.machine.accounts) if self.tables.get(tid) is runner else set()
        for acc in self._seated.get(tid, set()) - now:
            if self.where.get(acc) == tid:
                del self.where[acc]
        for acc in now:
            self.where[acc] = tid
        if now:
            self._seated[tid] = now
        else:
            self._seated.pop(tid, None)
        if self.on_changed is not None:
            self.on_changed(runner)

    def drop(self, runner: TableRunner) -> None:
        """An empty table with nothing left to write: forget it."""
        if self.tables.get(runner.id) is runner and runner.machine.idle_and_empty:
            runner.stop()
            del self.tables[runner.id]
            self.table_changed(runner)
            self._table_closed(runner)

    def _table_closed(self, runner: TableRunner) -> None:
        """The table is gone from this process: its spectators are told."""
        for account in sorted(runner.machine.watchers):
            if self.watching.get(account) == runner.id:
                del self.watching[account]
                self.deliver(account, {"type": "unwatched", "why": "table_closed"})
        runner.machine.watchers.clear()

    def let_go(self, runner: TableRunner) -> None:
        """Another process plays this table now: stop it and forget it."""
        runner.stop()
        if self.tables.get(runner.id) is runner:
            del self.tables[runner.id]
        for acc in self._seated.pop(runner.id, set()):
            if self.where.get(acc) == runner.id:
                del self.where[acc]
        self._table_closed(runner)
        if self.on_lost is not None:
            self.on_lost(runner)

    def stop_tables(self) -> None:
        """Stop every table (the process is shutting down)."""
        for runner in self.tables.values():
            runner.stop()

    # --- restarts --------------------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every live hand (single-process start-up); a hand that cannot be rebuilt
        is quarantined (voided, its fees refunded, its people unseated) and the rest start.
        Seats at tables without a live hand are freed. How many hands were rebuilt."""
        hands = await asyncio.to_thread(self.store.live_hands)
        count = 0
        for live in hands:
            if await self.restore_hand(live) is not None:
                count += 1
        freed = await asyncio.to_thread(self.store.release_seats, sorted(self.tables))
        self.closed_away.update(freed)
        return count

    async def restore_hand(self, live: LiveHand) -> TableRunner | None:
        """Rebuild one live hand's table by replay, or quarantine it."""
        room = ROOMS.get(live.room)
        try:
            if room is None:
                raise LookupError(f"no room {live.room!r}")
            start = live.start
            machine, outputs = restore(
                start.table, room, self.timing, self._rng(start.table),
                hand_id=live.hand_id, hand_no=start.hand_no, seed=start.seed,
                stake=start.stake, setup=start.setup, seats=start.seats, actions=live.actions,
                balances=live.balances, now=asyncio.get_running_loop().time(),
                code=live.code, tuoguan=live.tuoguan,
            )  # fmt: skip
        except (RulesError, LookupError, KeyError, ValueError, TypeError) as err:
            log.error(
                "hand %s cannot be rebuilt (%s): quarantined",
                live.hand_id,
                err,
                extra={"event": "quarantine", "hand": live.hand_id, "table": live.start.table},
            )
            with contextlib.suppress(LookupError):  # closed meanwhile (another process)
                await asyncio.to_thread(self.store.quarantine, live.hand_id, str(err)[:200])
            return None
        self.writer.unfence(live.hand_id)  # the hand's writes are this process's again
        runner = TableRunner(machine, self, self.writer)
        self.tables[live.start.table] = runner
        runner.start(outputs)
        self.table_changed(runner)
        return runner

    # --- people --------------------------------------------------------------------------

    def deliver(
        self, account: int, frame: dict[str, Any], shown: Callable[[], None] | None = None
    ) -> None:
        """Send a frame to an account's socket, here or on another process; ``shown`` is
        called once it has been handed to the socket (never, if it could not be)."""
        conn = self.conns.get(account)
        if conn is not None:
            if conn.send(frame) and shown is not None:
                shown()
            return
        remote = self.remote.get(account)
        if remote is not None:
            remote(frame, shown)

    def route_remote(self, account: int, remote: Remote | None) -> None:
        """Frames for ``account`` go through ``remote`` to its socket on another process
        (``None``: nowhere, until a socket of theirs opens)."""
        if remote is None:
            self.remote.pop(account, None)
        else:
            self.remote[account] = remote

    def send_here(self, account: int, frame: dict[str, Any]) -> bool:
        """Send a frame to the account's socket on this process; False if it has none."""
        conn = self.conns.get(account)
        return conn is not None and conn.send(frame)

    def connect(self, account: int, conn: Connection) -> None:
        """A socket opened here for an account (the newest socket is the one served)."""
        old = self.conns.get(account)
        if old is not None and old is not conn:
            old.close(4009, "another connection of this account took over")
        self.conns[account] = conn
        self.remote.pop(account, None)
        runner = self.table_of(account)
        if runner is not None:
            runner.feed(io.Connect(account))
        elif account in self.closed_away:
            self.closed_away.discard(account)
            conn.send({"type": "unseated", "why": "table_closed"})

    def disconnect(self, account: int, conn: Connection) -> None:
        """A socket here closed; if it was the account's, its table is told."""
        if self.conns.get(account) is not conn:
            return
        del self.conns[account]
        self.gone(account)
        runner = self.table_of(account)
        if runner is not None:
            runner.feed(io.Disconnect(account))

    def gone(self, account: int) -> None:
        """The account's socket is gone (here, or on the process that held it): it watches
        no table any more."""
        tid = self.watching.pop(account, None)
        runner = None if tid is None else self.tables.get(tid)
        if runner is not None:
            runner.feed(io.Unwatch(account))

    def seated(self, account: int) -> dict[str, Any] | None:
        """Where an account sits here: table, room, seat."""
        runner = self.table_of(account)
        if runner is None:
            return None
        seat = runner.machine.seat_of(account)
        if seat is None:
            return None
        return {"table": runner.id, "room": runner.machine.room.name, "seat": "ESWN"[seat]}

    async def handle(self, account: int, name: str, message: ClientMessage) -> None:
        """A player's message for this process.

        Raises :class:`~paiju.server.errors.ServerError` ``not_seated``, ``unknown_room``,
        ``unknown_table``, ``table_full``, ``too_few_points`` (join), ``join_in_progress``;
        the tables answer the rest with error frames.
        """
        if isinstance(message, Ping):
            self.deliver(account, {"type": "pong"})
            return
        if isinstance(message, Join):
            await self.join(account, name, message)
            return
        if isinstance(message, Watch):
            await self.watch(account, message)
            return
        if isinstance(message, Unwatch):
            self.unwatch(account)
            return
        runner = self.table_of(account)
        if runner is None:
            raise ServerError("not_seated", "join a room first")
        if isinstance(message, Ready):
            runner.feed(io.Ready(account))
        elif isinstance(message, SettlementShown):
            runner.feed(io.SettlementShown(account))
        elif isinstance(message, Act):
            runner.feed(io.Act(account, message.action, message.version))
        elif isinstance(message, Tuoguan):
            runner.feed(io.Tuoguan(account, message.on))
        elif isinstance(message, Fill):
            runner.feed(io.Fill(account))
        elif isinstance(message, Hint):
            runner.feed(io.Hint(account, message.version))
        elif isinstance(message, Leave):
            runner.feed(io.Leave(account, message.escape))

    async def join(
        self,
        account: int,
        name: str,
        message: Join,
        table: int | None = None,
        fresh: bool = False,
    ) -> None:
        """Seat a player: back at the seat they hold; at the private table of ``code``; at a
        new private table; at ``table`` (a seat the cluster reserved), at a table of the
        room waiting for players (unless ``fresh``: the cluster found none anywhere), or at
        a new one.

        Raises :class:`~paiju.server.errors.ServerError` ``unknown_room``,
        ``unknown_table`` (no table here has the code), ``table_playing`` or ``table_full``
        (a friend's table is playing a hand, or has four people), ``already_seated`` (a
        code or a new private table while seated elsewhere), ``too_few_points`` or
        ``join_in_progress``.
        """
        self.closed_away.discard(account)
        self.unwatch(account, quiet=True)  # a spectator who sits down watches no more
        runner = self.table_of(account)
        if runner is not None:
            elsewhere = message.code is not None and runner.machine.code != message.code.upper()
            if elsewhere or message.private:
                raise ServerError("already_seated", "you sit at another table: leave it first", 409)
            runner.feed(io.Connect(account))
            return
        friends = self.by_code(message.code) if message.code is not None else None
        if message.code is not None and friends is None:
            raise unknown_code(message.code)
        if self.draining:
            raise _draining()
        room = friends.machine.room if friends is not None else ROOMS.get(message.room)
        if room is None:
            raise ServerError("unknown_room", f"there is no room {message.room[:40]!r}", 404)
        if account in self._joining:
            raise ServerError("join_in_progress", "your last join is still being handled", 409)
        self._joining.add(account)
        try:
            balance = (await asyncio.to_thread(self.store.balances, [account])).get(account, 0)
            if self.draining:  # the drain began while the balance was read: refused too
                raise _draining()
            if balance < room.min_balance:
                raise ServerError(
                    "too_few_points",
                    f"{room.title} needs {room.min_balance} points; you have {balance}",
                    402,
                )
            if message.code is not None:  # looked up again: the table may have gone meanwhile
                friends = self.by_code(message.code)
                if friends is None or not friends.machine.accounts:
                    raise unknown_code(message.code)
            if friends is not None:
                if friends.machine.live:
                    raise ServerError(
                        "table_playing", "a hand is being played there: join when it ends", 409
                    )
                if not friends.machine.friend_seats:
                    raise ServerError("table_full", "that table has four players", 409)
                friends.feed(io.Join(account, name, balance))
                return
            if message.private:
                mine = await self.new_table(room.name, False, message.level, private=True)
                mine.feed(io.Join(account, name, balance))
                return
            target = self.tables.get(table) if table is not None else None
            if target is not None and not target.machine.open_seats:
                target = None  # filled meanwhile: a new table instead of an error
            if target is None and not message.alone and not fresh:
                target = next(
                    (
                        t
                        for t in self.tables.values()
                        if t.machine.room.name == room.name and t.machine.open_seats
                    ),
                    None,
                )
            if target is None:
                target = await self.new_table(room.name, message.alone, message.level)
            target.feed(io.Join(account, name, balance))
        finally:
            self._joining.discard(account)

    async def watch(self, account: int, message: Watch) -> None:
        """Watch the private table of ``message.code``, or the table of a room where the
        player ``message.name`` sits (a private table only by its code: the code is the
        invitation). Watching another table first stops watching this one.

        Raises :class:`~paiju.server.errors.ServerError` ``already_seated`` (the account
        holds a seat), ``rate_limited`` (past :data:`WATCH_RATE`), ``unknown_table``
        (no table here has the code), ``unknown_player`` (no such name),
        ``not_playing`` (they sit at no table here), ``not_watchable`` (they sit at a
        private table: its code is needed) or ``too_many_watchers`` (the table has
        :attr:`max_watchers`).
        """
        if self.table_of(account) is not None:
            raise ServerError(
                "already_seated", "you sit at a table: leave it to watch another", 409
            )
        rate = self._watch_rates.get(account)
        if rate is None or rate.full():
            clock = asyncio.get_running_loop().time
            rate = self._watch_rates[account] = MessageRate(WATCH_RATE, WATCH_BURST, clock)
        if rate.take() != "ok":
            raise ServerError("rate_limited", "too many watch requests: wait a minute", 429)
        if len(self._watch_rates) > 10_000:  # forget the refilled buckets now and then
            self._watch_rates = {a: r for a, r in self._watch_rates.items() if not r.full()}
        runner = await self.watched_table(message)
        if self.table_of(account) is not None:  # sat down meanwhile
            raise ServerError(
                "already_seated", "you sit at a table: leave it to watch another", 409
            )
        if self.watching.get(account) == runner.id:
            runner.feed(io.Watch(account))  # again: the table and the view, afresh
            return
        if len(runner.machine.watchers) >= self.max_watchers:
            raise ServerError(
                "too_many_watchers", f"{self.max_watchers} people watch that table already", 409
            )
        self.unwatch(account, quiet=True)
        self.watching[account] = runner.id
        runner.feed(io.Watch(account))

    async def watched_table(self, message: Watch) -> TableRunner:
        """The table of this process a ``watch`` names.

        Raises :class:`~paiju.server.errors.ServerError` as :meth:`watch` does.
        """
        if message.code is not None:
            runner = self.by_code(message.code)
            if runner is None or not runner.machine.accounts:
                raise unknown_code(message.code)
            return runner
        name = message.name or ""
        friend = await asyncio.to_thread(self.store.account_named, name)
        if friend is None:
            raise ServerError("unknown_player", f"nobody is called {name[:40]!r}", 404)
        runner = self.table_of(friend)
        if runner is None:
            raise ServerError("not_playing", f"{name[:40]} sits at no table now", 404)
        if runner.machine.code is not None:
            raise ServerError(
                "not_watchable", "that table is for friends: watch it with its code", 403
            )
        return runner

    def unwatch(self, account: int, quiet: bool = False) -> None:
        """Stop watching (``unwatched``, ``left``).

        Raises :class:`~paiju.server.errors.ServerError` ``not_watching`` unless ``quiet``.
        """
        tid = self.watching.pop(account, None)
        runner = None if tid is None else self.tables.get(tid)
        if runner is not None:
            runner.feed(io.Unwatch(account))
        elif not quiet:
            raise ServerError("not_watching", "you watch no table")

    def by_code(self, code: str) -> TableRunner | None:
        """The private table of this process with this code (either case), if any."""
        want = code.upper()
        return next((t for t in self.tables.values() if t.machine.code == want), None)

    def invitation_here(self, code: str) -> dict[str, Any] | None:
        """What an invitation to the private table of ``code`` shows before joining: the
        room (game, minimum balance, level), the people sitting there, the seats a friend
        may take now and whether a hand is being played; ``None`` when no table here has
        the code (or nobody sits there any more)."""
        runner = self.by_code(code)
        if runner is None or not runner.machine.accounts:
            return None
        m = runner.machine
        people = [p.name for p in m.seats if p is not None and p.account is not None]
        return invitation_json(m.code or code.upper(), m.room, people, m.live)

    # --- the lobby -------------------------------------------------------------------------

    def rooms_json(self) -> list[dict[str, Any]]:
        """The rooms with this process's tables and players."""
        out = []
        for room in ROOMS.values():
            tables = [t for t in self.tables.values() if t.machine.room.name == room.name]
            players = sum(len(t.machine.accounts) for t in tables)
            out.append({**room.to_json(), "tables": len(tables), "players": players})
        return out

    def online(self) -> int:
        """People with a socket on this process."""
        return len(self.conns)

    # --- as the process's tables (paiju.server.tables.Tables), alone -----------------------

    async def start(self) -> None:
        """Rebuild the hands that were live (:meth:`restore`)."""
        await self.restore()

    @property
    def pid(self) -> str | None:
        """Alone, a process has no name among others."""
        return None

    async def stop(self) -> None:
        """Nothing to hand over alone: the next start rebuilds the live hands."""

    async def connected(self, account: int, conn: Connection) -> None:
        """A socket opened here (:meth:`connect`)."""
        self.connect(account, conn)

    async def disconnected(self, account: int, conn: Connection) -> None:
        """A socket here closed (:meth:`disconnect`)."""
        self.disconnect(account, conn)

    async def route(self, account: int, name: str, message: ClientMessage) -> None:
        """A player's message (:meth:`handle`)."""
        await self.handle(account, name, message)

    async def lobby(self) -> dict[str, Any]:
        """The rooms with this process's tables and players, and its people online."""
        return {"rooms": self.rooms_json(), "online": self.online()}

    async def invitation(self, code: str) -> dict[str, Any] | None:
        """An invitation to a private table here (:meth:`invitation_here`)."""
        return self.invitation_here(code)

    def health(self) -> tuple[str | None, str | None]:
        """Alone, there are no peers to reach."""
        return None, None
