"""Persistence of tables and hands: each hand's seed and every action as it happens, so that
a table can be rebuilt by replay after a restart; money through the ledger, one transaction
per event (the fee, the settlement, an escape), each keyed by hand so it is never counted
twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server import ledger
from paiju.server.action_log import ACTION_INSERT, ActionLog
from paiju.server.errors import HandConflict
from paiju.server.models import Account, GameTable, Hand, HandAction, LedgerEntry

__all__ = ["LiveHand", "Store"]

Moves = Sequence[tuple[int | str, int | str, int]]


@dataclass(frozen=True, slots=True)
class LiveHand:
    """A hand that was live when the server stopped."""

    table_id: int
    room: str
    hand_id: int
    game: str
    seed: int
    ruleset: dict[str, Any]
    setup: dict[str, Any]
    seats: dict[str, Any]
    stake: int
    actions: list[str]


class Store:
    """The server's database operations."""

    def __init__(self, sessions: sessionmaker[Session], background: bool = False) -> None:
        self.sessions = sessions
        # background: actions are written by a thread, many per transaction (the server)
        self.action_log = ActionLog(sessions) if background else None

    def close(self) -> None:
        """Write what is queued (the background action log) and stop."""
        if self.action_log is not None:
            self.action_log.close()
            self.action_log = None

    def _drain(self, hand_id: int | None = None) -> None:
        """Make the action log complete (of one hand: raise HandConflict if another process
        wrote it on)."""
        if self.action_log is not None:
            self.action_log.drain()
            if hand_id is not None and self.action_log.conflicted(hand_id):
                raise HandConflict(hand_id)

    def balances(self, account_ids: Sequence[int]) -> dict[int, int]:
        """Current balances of some accounts."""
        with self.sessions() as s:
            rows = s.execute(
                sa.select(Account.id, Account.balance).where(Account.id.in_(list(account_ids)))
            )
            return {i: int(b) for i, b in rows}

    def create_table(self, room: str, game: str) -> int:
        """A new table row."""
        with self.sessions.begin() as s:
            t = GameTable(room=room, game=game, status="open")
            s.add(t)
            s.flush()
            return t.id

    def start_hand(
        self,
        table_id: int,
        game: str,
        seed: int,
        ruleset: dict[str, Any],
        setup: dict[str, Any],
        seats: dict[str, Any],
        stake: int,
        fees: Moves,
    ) -> int:
        """Record a new hand and charge the table fees, in one transaction."""
        with self.sessions.begin() as s:
            h = Hand(
                table_id=table_id,
                game=game,
                seed=seed,
                ruleset=ruleset,
                setup=setup,
                seats=seats,
                stake=stake,
                status="live",
            )
            s.add(h)
            s.flush()
            ledger.apply(s, fees, "fee", f"hand:{h.id}:fee", h.id)
            return h.id

    def log_action(self, hand_id: int, seq: int, action: str) -> None:
        """Append an action to a hand's log.

        Raises :class:`~paiju.server.errors.HandConflict` when that step is already written
        (another process plays this hand now); with the background log, once a step of the
        hand has collided (the collision itself is reported through its ``on_conflict``).
        """
        if self.action_log is not None:
            if self.action_log.conflicted(hand_id):
                raise HandConflict(hand_id)
            self.action_log.append(hand_id, seq, action)
            return
        try:
            with self.sessions.begin() as s:  # a plain insert: no unit of work to flush
                s.connection().execute(
                    ACTION_INSERT, {"hand_id": hand_id, "seq": seq, "action": action}
                )
        except sa.exc.IntegrityError:
            raise HandConflict(hand_id) from None

    def finish_hand(self, hand_id: int, result: dict[str, Any], moves: Moves) -> None:
        """Close a live hand with its result and settle it, in one transaction.

        Raises :class:`~paiju.server.errors.HandConflict` if the hand is no longer live.
        """
        self._drain(hand_id)
        with self.sessions.begin() as s:
            _close(s, hand_id, "done", result)
            ledger.apply(s, moves, "hand", f"hand:{hand_id}:settle", hand_id)  # once only

    def abort_hand(self, hand_id: int, reason: dict[str, Any], moves: Moves) -> None:
        """Abort a live hand (an escape) and charge the penalty, in one transaction.

        Raises :class:`~paiju.server.errors.HandConflict` if the hand is no longer live.
        """
        self._drain(hand_id)
        with self.sessions.begin() as s:
            _close(s, hand_id, "aborted", reason)
            ledger.apply(s, moves, "escape", f"hand:{hand_id}:escape", hand_id)

    def live_table_ids(self) -> list[int]:
        """The tables with a live hand (one cheap query, for the fail-over watch)."""
        with self.sessions() as s:
            query = sa.select(Hand.table_id).where(Hand.status == "live").distinct()
            return sorted(s.scalars(query))

    def live_hands(self, table_id: int | None = None) -> list[LiveHand]:
        """Every hand still live (at one table, if given), with its actions, for rebuilding
        after a restart or a fail-over."""
        self._drain()
        with self.sessions() as s:
            out = []
            query = sa.select(Hand).where(Hand.status == "live").order_by(Hand.id)
            if table_id is not None:
                query = query.where(Hand.table_id == table_id)
            for h in s.scalars(query):
                t = s.get(GameTable, h.table_id)
                assert t is not None
                actions = list(
                    s.scalars(
                        sa.select(HandAction.action)
                        .where(HandAction.hand_id == h.id)
                        .order_by(HandAction.seq)
                    )
                )
                out.append(
                    LiveHand(
                        t.id,
                        t.room,
                        h.id,
                        h.game,
                        int(h.seed),
                        h.ruleset,
                        h.setup,
                        h.seats,
                        int(h.stake),
                        actions,
                    )
                )
            return out

    def ledger_for(self, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """An account's newest ledger entries."""
        with self.sessions() as s:
            rows = s.scalars(
                sa.select(LedgerEntry)
                .where(LedgerEntry.account_id == account_id)
                .order_by(LedgerEntry.id.desc())
                .limit(limit)
            )
            return [
                {
                    "id": e.id,
                    "amount": int(e.amount),
                    "balance_after": int(e.balance_after),
                    "reason": e.reason,
                    "hand": e.hand_id,
                    "at": e.created_at.isoformat(),
                }
                for e in rows
            ]

    def hands_for(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The finished hands an account played, newest first."""
        with self.sessions() as s:
            rows = s.scalars(
                sa.select(Hand).where(Hand.status == "done").order_by(Hand.id.desc()).limit(2000)
            )
            out = []
            for h in rows:
                seat = _seat_of(h.seats, account_id)
                if seat is None:
                    continue
                net = (h.result or {}).get("net", {}).get(seat)
                out.append(
                    {
                        "hand": h.id,
                        "game": h.game,
                        "seat": seat,
                        "stake": int(h.stake),
                        "net": net,
                        "at": h.created_at.isoformat(),
                    }
                )
                if len(out) >= limit:
                    break
            return out

    def hand_record(self, hand_id: int, account_id: int) -> tuple[dict[str, Any], str] | None:
        """A finished hand the account played: its record and the account's seat."""
        with self.sessions() as s:
            h = s.get(Hand, hand_id)
            if h is None or h.status != "done":
                return None
            seat = _seat_of(h.seats, account_id)
            if seat is None:
                return None
            actions = list(
                s.scalars(
                    sa.select(HandAction.action)
                    .where(HandAction.hand_id == h.id)
                    .order_by(HandAction.seq)
                )
            )
            return (
                {
                    "format": 2,
                    "game": h.game,
                    "seed": int(h.seed),
                    "ruleset": h.ruleset,
                    "setup": h.setup,
                    "actions": actions,
                    "seats": h.seats,
                    "stake": int(h.stake),
                },
                seat,
            )


def _close(s: Session, hand_id: int, status: str, result: dict[str, Any]) -> None:
    """Close a hand once: the update takes effect only while the hand is live (an atomic
    check on every database, so two processes cannot both close it)."""
    done = s.execute(
        sa.update(Hand)
        .where(Hand.id == hand_id, Hand.status == "live")
        .values(status=status, result=result)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise HandConflict(hand_id)


def _seat_of(seats: dict[str, Any], account_id: int) -> str | None:
    return next((k for k, v in seats.items() if v.get("account") == account_id), None)
