"""The hub: every table of every room in this process, and who sits where.

>>> from paiju.server.rooms import ROOMS
>>> sorted(ROOMS)
['madiao', 'mazhan', 'mazhan-vip']
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

from paiju.server.errors import HandConflict, ServerError
from paiju.server.rooms import ROOMS
from paiju.server.store import LiveHand, Store
from paiju.server.table import Connection, Table, Timing

__all__ = ["Hub"]


class Hub:
    """Tables by id; matchmaking into rooms; reconnection to one's seat."""

    def __init__(self, store: Store, timing: Timing, seed: int | None = None) -> None:
        self.store = store
        self.timing = timing
        self.seed = seed
        self.tables: dict[int, Table] = {}
        self.listener: Callable[[Table], None] | None = None
        self.lost_listener: Callable[[Table], None] | None = None

    def _new_table(self, room_name: str, table_id: int | None = None) -> Table:
        room = ROOMS[room_name]
        tid = table_id if table_id is not None else self.store.create_table(room.name, room.game)
        # each hand's seed is drawn here and recorded, so every hand replays exactly; without
        # a configured seed the deals cannot be predicted
        rng = random.Random(f"{self.seed}:{tid}" if self.seed is not None else secrets.randbits(64))
        table = Table(
            tid, room, self.store, self.timing, on_empty=self._drop, rng=rng, on_lost=self.let_go
        )
        table.listener = self.listener
        self.tables[tid] = table
        return table

    def _drop(self, table: Table) -> None:
        if not table.live:
            self.tables.pop(table.id, None)

    def let_go(self, table: Table) -> None:
        """Forget a table another process plays now (its clocks are stopped)."""
        table.stop()
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.lost_listener is not None:
            self.lost_listener(table)

    def hand_conflict(self, hand_id: int) -> None:
        """Another process wrote a step of this hand: the table playing it here lets go."""
        for table in list(self.tables.values()):
            if table.hand is not None and table.hand.hand_id == hand_id:
                table.lose()

    def find(self, account_id: int) -> tuple[Table, int] | None:
        """Where an account sits, if anywhere."""
        for table in self.tables.values():
            seat = table.seat_of(account_id)
            if seat is not None:
                return table, seat
        return None

    def join(
        self,
        account_id: int,
        name: str,
        balance: int,
        room_name: object,
        conn: Connection,
        alone: bool = False,
    ) -> tuple[Table, int]:
        """Seat a player in a room (or back at the seat they hold): at a table waiting for
        players, else a new one; ``alone``: at a new table of their own, with bots at once.

        Raises :class:`~paiju.server.errors.ServerError` ``unknown_room`` or
        ``too_few_points``.
        """
        found = self.find(account_id)
        if found is not None:
            table, seat = found
            table.reconnect(seat, conn)
            return table, seat
        if not isinstance(room_name, str) or room_name not in ROOMS:
            raise ServerError("unknown_room", f"there is no room {room_name!r}", 404)
        room = ROOMS[room_name]
        if balance < room.min_balance:
            raise ServerError(
                "too_few_points",
                f"{room.title} needs {room.min_balance} points; you have {balance}",
                402,
            )
        waiting = None
        if not alone:
            waiting = next(
                (t for t in self.tables.values() if t.room.name == room.name and t.open_seats),
                None,
            )
        table = waiting if waiting is not None else self._new_table(room.name)
        table.alone = alone
        seat = table.sit(account_id, name, conn)
        return table, seat

    def restore(self) -> int:
        """Rebuild every live hand from the database (after a restart); how many."""
        count = 0
        for live in self.store.live_hands():
            if self.restore_hand(live) is not None:
                count += 1
        return count

    def restore_hand(self, live: LiveHand) -> Table | None:
        """Rebuild one live hand's table by replay (None if another process closed the hand
        meanwhile)."""
        table = self._new_table(live.room, live.table_id)
        try:
            table.restore(live.hand_id, live.seed, live.stake, live.setup, live.seats, live.actions)
        except HandConflict:
            return None
        return table

    def rooms_json(self) -> list[dict[str, Any]]:
        """The rooms with their tables and players."""
        out = []
        for room in ROOMS.values():
            tables = [t for t in self.tables.values() if t.room.name == room.name]
            players = sum(1 for t in tables for s in t.seats if s is not None and s.human)
            out.append({**room.to_json(), "tables": len(tables), "players": players})
        return out
