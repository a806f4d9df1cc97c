"""The database operations of the tables, each idempotent: applied twice (a retry after a
lost answer) it changes nothing the second time, and it says whether a row it meets was
written by this process (``writer``) or by another one (then this process has been fenced
off: another process plays the table now).

Writes run in :class:`paiju.server.writer.Writer`'s thread, several per transaction;
reads run in worker threads (``asyncio.to_thread``), never on the event loop.

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> store = Store(make_sessions(engine), writer="w1")
>>> from paiju.games import names
>>> table = store.create_table(names()[0], names()[0])  # its first room, named like it
>>> with store.sessions.begin() as s:
...     acc = ledger.new_account(s, "ana", "", 1000).id
...     store.claim_seat(s, io.ClaimSeat(acc, table)), store.claim_seat(s, io.ClaimSeat(acc, 99))
(1000, 'seat_taken')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import psycopg
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, sessionmaker

from paiju.server import ledger, names
from paiju.server.db import driver_execute
from paiju.server.models import Account, GameTable, Hand, HandAction, LedgerEntry, SeatClaim
from paiju.server.table import io

__all__ = ["LiveHand", "Store", "hand_event", "void_hand"]

_STEP_INSERT = sa.insert(HandAction.__table__)  # type: ignore[arg-type]
#: PostgreSQL: a batch's steps as three arrays and the writer once, in one statement
#: (psycopg's placeholders: it runs prepared on the driver's connection, see insert_steps)
_STEPS_UNNEST = (
    "INSERT INTO hand_actions (hand_id, seq, action, writer) "
    "SELECT h, q, a, %s FROM unnest(%s::integer[], %s::integer[], %s::varchar[]) AS t(h, q, a)"
)
#: PostgreSQL: a batch's hand starts as arrays (a start that meets its row is left out of
#: what comes back), and its closes, each with whether its settlement is in the ledger
_STARTS_PG = (
    "INSERT INTO hands (table_id, hand_no, game, seed, ruleset, setup, seats, stake, status, "
    "writer) SELECT v.*, 'live', %s FROM unnest(%s::integer[], %s::integer[], %s::varchar[], "
    "%s::bigint[], %s::json[], %s::json[], %s::json[], %s::bigint[]) AS v "
    "ON CONFLICT (table_id, hand_no) DO NOTHING RETURNING id, table_id, hand_no"
)
_CLOSES_PG = (
    "UPDATE hands AS h SET status = %s, result = v.res, writer = %s "
    "FROM unnest(%s::integer[], %s::json[]) AS v(id, res) WHERE h.id = v.id AND h.status = 'live' "
    "RETURNING h.id, EXISTS (SELECT 1 FROM ledger AS l WHERE l.event_key = format(%s, h.id))"
)
_TOGETHER = "a batch's steps, hand starts and closes (one pipeline)"  # (for errors)
_CLOSED = "done"  # a finished hand's status


def hand_event(hand_id: int | str, kind: str) -> str:
    """The key of a hand's ledger event of this kind (``fee``, ``settle``, ``escape``,
    ``refund``): applied once, whoever retries it.

    >>> hand_event(12, "settle")
    'hand:12:settle'
    """
    return f"hand:{hand_id}:{kind}"


_HAND_KEY = ["table_id", "hand_no"]  # the unique key of a table's hand
_HANDS = cast(sa.Table, Hand.__table__)
# a hand's start and close, built once (Core: no ORM work per execution)
_START_PG = (
    pg_insert(_HANDS).on_conflict_do_nothing(index_elements=_HAND_KEY).returning(_HANDS.c.id)
)
_START_SQLITE = (
    sqlite_insert(_HANDS).on_conflict_do_nothing(index_elements=_HAND_KEY).returning(_HANDS.c.id)
)
_CLOSE = (
    sa.update(_HANDS)
    .where(_HANDS.c.id == sa.bindparam("hand"), _HANDS.c.status == "live")
    .values(status=sa.bindparam("to"), result=sa.bindparam("res"), writer=sa.bindparam("by"))
)


@dataclass(frozen=True, slots=True)
class LiveHand:
    """A hand that was live when its process stopped: enough to rebuild it by replay (how it
    started, as its start was written, without the fees charged then; what was played)."""

    start: io.StartHand
    room: str
    hand_id: int
    actions: list[str]
    balances: dict[int, int]
    code: str | None = None  # a private table's code
    tuoguan: frozenset[int] = frozenset()  # the people whose 托管 is on


class Store:
    """The tables' database operations; ``writer`` names this process in what it writes."""

    def __init__(self, sessions: sessionmaker[Session], writer: str) -> None:
        self.sessions = sessions
        self.writer = writer

    # --- writes (in the writer's transaction) --------------------------------------------

    def claim_seat(self, s: Session, w: io.ClaimSeat) -> str | int:
        """Seat an account at a table: its balance as the seat is taken (the table was told
        one when the player joined, which a hand elsewhere may have moved since), or
        ``"seat_taken"`` if it sits at another (the module's example)."""
        held = s.scalar(sa.select(SeatClaim.table_id).where(SeatClaim.account_id == w.account))
        if held is None:
            try:
                with s.begin_nested():
                    s.add(SeatClaim(account_id=w.account, table_id=w.table))
                    s.flush()
            except sa.exc.IntegrityError:  # another process seated the account meanwhile
                held = s.scalar(
                    sa.select(SeatClaim.table_id).where(SeatClaim.account_id == w.account)
                )
            else:
                held = w.table
        if held != w.table:
            return "seat_taken"
        balance = s.scalar(sa.select(Account.balance).where(Account.id == w.account))
        return int(balance or 0)

    def release_seat(self, s: Session, w: io.ReleaseSeat) -> None:
        """Free an account's seat at a table (nothing if it holds none there)."""
        s.execute(
            sa.delete(SeatClaim).where(
                SeatClaim.account_id == w.account, SeatClaim.table_id == w.table
            )
        )

    def set_tuoguan(self, s: Session, w: io.SetTuoguan) -> None:
        """Note an account's 托管 at its seat (nothing if it holds no seat there: it left)."""
        s.execute(
            sa.update(SeatClaim)
            .where(SeatClaim.account_id == w.account, SeatClaim.table_id == w.table)
            .values(tuoguan=w.on)
        )

    def start_hand(self, s: Session, w: io.StartHand) -> int | str:
        """Record a new hand and charge its table fees; the hand's id (the same id when the
        start is retried), or ``"fenced"`` if another process started that hand.

        The hand is inserted unless its row exists (one statement where the database says
        so: PostgreSQL and SQLite); only then is the row read to tell a retry from another
        process's hand."""
        values = {
            "table_id": w.table, "hand_no": w.hand_no, "game": w.game, "seed": w.seed,
            "ruleset": w.ruleset, "setup": w.setup, "seats": w.seats, "stake": w.stake,
            "status": "live", "writer": self.writer,
        }  # fmt: skip
        dialect = s.get_bind().dialect.name
        if dialect in ("postgresql", "sqlite"):
            start = _START_PG if dialect == "postgresql" else _START_SQLITE
            new_id: int | None = s.execute(start, values).scalar()
            if new_id is None:
                return self._started(s, w) or "fenced"
        else:
            if (found := self._started(s, w, missing=None)) is not None:
                return found
            new_id = s.execute(sa.insert(Hand).values(**values).returning(Hand.id)).scalar_one()
        # the hand's row is new in this transaction: its fee cannot have been charged
        ledger.apply(s, w.fees, "fee", hand_event(new_id, "fee"), new_id, fresh=True)
        return int(new_id)

    def _started(
        self, s: Session, w: io.StartHand, missing: str | None = "fenced"
    ) -> int | str | None:
        """A hand's row that exists already: its id if this process wrote it with this
        seed (a retried start), else ``"fenced"``; ``missing`` if there is none."""
        found = s.execute(
            sa.select(Hand.id, Hand.writer, Hand.seed).where(
                Hand.table_id == w.table, Hand.hand_no == w.hand_no
            )
        ).first()
        if found is None:
            return missing
        if found.writer == self.writer and int(found.seed) == w.seed:
            return int(found.id)
        return "fenced"

    def insert_steps(self, s: Session | sa.Connection, steps: Sequence[io.Step]) -> None:
        """Append steps to their hands' logs in one statement (``IntegrityError`` if one is
        written already: then :meth:`log_steps` sorts them out one by one). On PostgreSQL
        the steps go as four arrays in one ``INSERT … SELECT unnest(…)``: one round trip and
        four parameters, whatever the number of steps, prepared on psycopg's own connection
        (no SQLAlchemy statement machinery per batch; inside the caller's transaction, or
        its own on an autocommit connection). The driver's errors come back as
        SQLAlchemy's (``IntegrityError``: a step is written already;
        ``OperationalError``/``InterfaceError``: the database cannot be reached), so retries
        and the careful pass treat it as any statement."""
        conn = s.connection() if isinstance(s, Session) else s
        if conn.dialect.name == "postgresql":
            driver_execute(conn, _STEPS_UNNEST, self._step_params(steps))
            return
        s.execute(
            _STEP_INSERT,
            [
                {"hand_id": w.hand, "seq": w.seq, "action": w.action, "writer": self.writer}
                for w in steps
            ],
        )

    def _step_params(self, steps: Sequence[io.Step]) -> tuple[Any, ...]:
        return (
            self.writer,
            [w.hand for w in steps],
            [w.seq for w in steps],
            [w.action for w in steps],
        )

    def starts_and_closes(
        self, s: Session, steps: Sequence[io.Step], run: Sequence[io.StartHand | io.CloseHand]
    ) -> list[int | str | None]:
        """PostgreSQL: a batch's steps, hand starts and hand closes (in the order they were
        asked for) in four round trips, however many there are: the transaction's start;
        the steps, the starts, the closes and the lock of every account they may move
        points between, together in one pipeline; the ledger's rows, all in one statement;
        the commit. Per write of ``run``, what :meth:`start_hand` or :meth:`close_hand`
        answers for it.

        The writer sends a batch this way when it holds nothing else: under load a batch
        grows, and this keeps its cost from growing with it (one by one, a start costs
        three round trips and a close four). A start or close that meets a row (a retry,
        another process) is sorted out as :meth:`start_hand` and :meth:`close_hand` do.
        Raises ``IntegrityError`` or :class:`~paiju.server.errors.ServerError` (a step
        written already, too few points): the writer then sends the batch again, write by
        write.
        """
        starts = [(i, w) for i, w in enumerate(run) if isinstance(w, io.StartHand)]
        closes = [(i, w) for i, w in enumerate(run) if isinstance(w, io.CloseHand)]
        hid = ledger.house_id(s)
        moving = [ledger.Event(w.fees, "", "") for _, w in starts]
        moving += [ledger.Event(w.moves, "", "") for _, w in closes]
        ids = ledger.accounts_of(moving, hid)
        raw: Any = s.connection().connection.driver_connection
        try:
            with raw.pipeline():
                if steps:
                    raw.execute(_STEPS_UNNEST, self._step_params(steps), prepare=True)
                started_c = closed_c = locked_c = None
                if starts:
                    started_c = raw.execute(_STARTS_PG, self._start_params(starts), prepare=True)
                if closes:
                    first: dict[int, io.CloseHand] = {}
                    for _, w in closes:  # a hand closed twice: the first close's result
                        first.setdefault(w.hand, w)
                    params = (
                        _CLOSED,
                        self.writer,
                        list(first),
                        [json.dumps(w.result) for w in first.values()],
                        hand_event("%s", "settle"),  # (SQL's format() fills in the id)
                    )
                    closed_c = raw.execute(_CLOSES_PG, params, prepare=True)
                if ids:
                    locked_c = raw.execute(ledger.LOCK_PG, (ids,), prepare=True)
                started = {(t, n): h for h, t, n in started_c.fetchall()} if started_c else {}
                closed = {h: seen for h, seen in closed_c.fetchall()} if closed_c else {}
                rows = locked_c.fetchall() if locked_c else []
        except psycopg.Error as err:  # mapped by class, as SQLAlchemy maps its own
            raise sa.exc.DBAPIError.instance(_TOGETHER, (), err, psycopg.Error) from err
        locked = {r[0]: (int(r[1]), bool(r[2]), str(r[3])) for r in rows}
        answers: list[int | str | None] = [None] * len(run)
        events: dict[int, ledger.Event] = {}
        for i, start in starts:
            # (popped: a start asked for twice is answered the second time as a retry)
            new_id = started.pop((start.table, start.hand_no), None)
            if new_id is None:
                answers[i] = self._started(s, start) or "fenced"
            else:
                answers[i] = int(new_id)
                events[i] = ledger.Event(start.fees, "fee", hand_event(new_id, "fee"), new_id)
        keys: set[str] = set()
        for i, close in closes:
            if close.hand not in closed:
                answers[i] = self._closed_before(s, close.hand, _CLOSED)
            elif not closed[close.hand] and (key := hand_event(close.hand, "settle")) not in keys:
                keys.add(key)  # (a close asked for twice is settled once, as one by one)
                events[i] = ledger.Event(close.moves, "hand", key, close.hand)
        changed, entries = ledger.plan([events[i] for i in sorted(events)], hid, locked)
        if entries:
            driver_execute(s, ledger.WRITE_PG, ledger.write_params(changed, entries))
        return answers

    def _start_params(self, starts: Sequence[tuple[int, io.StartHand]]) -> tuple[Any, ...]:
        ws = [w for _, w in starts]
        dumps = json.dumps
        return (
            self.writer, [w.table for w in ws], [w.hand_no for w in ws], [w.game for w in ws],
            [w.seed for w in ws], [dumps(w.ruleset) for w in ws], [dumps(w.setup) for w in ws],
            [dumps(w.seats) for w in ws], [w.stake for w in ws],
        )  # fmt: skip

    def log_steps(self, s: Session, steps: Sequence[io.Step]) -> list[str | None]:
        """Append steps to their hands' logs: per step ``None`` (written now or by this
        process before) or ``"fenced"`` (another process wrote that step)."""
        rows = [
            {"hand_id": w.hand, "seq": w.seq, "action": w.action, "writer": self.writer}
            for w in steps
        ]
        try:
            with s.begin_nested():
                s.execute(_STEP_INSERT, rows)
            return [None] * len(steps)
        except sa.exc.IntegrityError:
            pass
        return [self._log_step(s, row) for row in rows]  # one at a time: which were written

    def _log_step(self, s: Session, row: dict[str, Any]) -> str | None:
        for _ in range(3):
            try:
                with s.begin_nested():
                    s.execute(_STEP_INSERT, [row])
                return None
            except sa.exc.IntegrityError:
                have = s.execute(
                    sa.select(HandAction.action, HandAction.writer).where(
                        HandAction.hand_id == row["hand_id"], HandAction.seq == row["seq"]
                    )
                ).first()
                if have is not None:  # written: by this process before, or by another
                    return None if tuple(have) == (row["action"], self.writer) else "fenced"
                # the row that was in the way was not committed after all (another process's
                # transaction rolled back): the step is free again
        return "fenced"

    def close_hand(self, s: Session, w: io.CloseHand) -> str | None:
        """Close a finished hand and settle it: ``None``, or ``"fenced"`` if another process
        closed it (a retry of this process's own close changes nothing)."""
        return self._close(s, w.hand, _CLOSED, w.result, w.moves, "hand", "settle")

    def abort_hand(self, s: Session, w: io.AbortHand) -> str | None:
        """Abort a hand (an escape), charge the penalty and free the escaper's seat."""
        fenced = self._close(s, w.hand, "aborted", w.reason, w.moves, "escape", "escape")
        if fenced is None:
            s.execute(sa.delete(SeatClaim).where(SeatClaim.account_id == w.escaper))
        return fenced

    def _close(
        self,
        s: Session,
        hand_id: int,
        status: str,
        result: dict[str, Any],
        moves: io.Moves,
        reason: str,
        key: str,
    ) -> str | None:
        done = s.execute(_CLOSE, {"hand": hand_id, "to": status, "res": result, "by": self.writer})
        if done.rowcount != 1:  # type: ignore[attr-defined]
            return self._closed_before(s, hand_id, status)
        # checked even so (a hand found live again after its settlement is settled once)
        ledger.apply(s, moves, reason, hand_event(hand_id, key), hand_id)
        return None

    def _closed_before(self, s: Session, hand_id: int, status: str) -> str | None:
        """A hand that was not live when this process closed it: ``None`` if this process
        closed it so before (a retried close), else ``"fenced"``."""
        row = s.execute(sa.select(Hand.status, Hand.writer).where(Hand.id == hand_id)).first()
        if row is not None and tuple(row) == (status, self.writer):
            return None
        return "fenced"

    def quarantine(self, hand_id: int, why: str) -> list[int]:
        """Void a live hand that cannot be rebuilt: its fees are refunded (the only money a
        live hand has moved), its people unseated; the accounts unseated.

        Raises ``LookupError`` if the hand is not live.
        """
        with self.sessions.begin() as s:
            return void_hand(s, hand_id, why)

    def release_table_seats(self, table_id: int) -> list[int]:
        """Free every seat at one table (its process died between hands); who sat there."""
        return self._release(SeatClaim.table_id == table_id)

    def release_seats(self, keep_tables: Sequence[int]) -> list[int]:
        """Free every seat at a table outside ``keep_tables`` (at startup: tables with no
        live hand are gone); whose seats were freed."""
        return self._release(
            SeatClaim.table_id.not_in(list(keep_tables)) if keep_tables else sa.true()
        )

    def _release(self, where: Any) -> list[int]:
        """Free the seats ``where`` holds, in one statement; their accounts, sorted."""
        with self.sessions.begin() as s:
            freed = s.scalars(sa.delete(SeatClaim).where(where).returning(SeatClaim.account_id))
            return sorted(int(a) for a in freed)

    # --- reads (worker threads) ----------------------------------------------------------

    def balances(self, account_ids: Sequence[int]) -> dict[int, int]:
        """Current balances of some accounts."""
        with self.sessions() as s:
            rows = s.execute(
                sa.select(Account.id, Account.balance).where(Account.id.in_(list(account_ids)))
            )
            return {i: int(b) for i, b in rows}

    def names_of(self, account_ids: Sequence[int]) -> list[str]:
        """The names of these accounts, in the order given (unknown ids left out).

        >>> from paiju.server.db import make_engine, make_sessions, migrate
        >>> engine = make_engine("sqlite://"); migrate(engine)
        >>> store = Store(make_sessions(engine), writer="w1")
        >>> with store.sessions.begin() as s:
        ...     ids = [ledger.new_account(s, n, "", 1000).id for n in ("ana", "bo")]
        >>> store.names_of([ids[1], 999, ids[0]])
        ['bo', 'ana']
        """
        with self.sessions() as s:
            rows = s.execute(
                sa.select(Account.id, Account.name).where(Account.id.in_(list(account_ids)))
            )
            names = {i: n for i, n in rows}
        return [names[i] for i in account_ids if i in names]

    def account_named(self, name: str) -> int | None:
        """The player a name names, as a login reads it: the exact name, else the name as
        the eye reads it (``Ana`` is ``ana``); never the house.

        >>> from paiju.server.db import make_engine, make_sessions, migrate
        >>> engine = make_engine("sqlite://"); migrate(engine)
        >>> store = Store(make_sessions(engine), writer="w1")
        >>> with store.sessions.begin() as s:
        ...     ana = ledger.new_account(s, "ana", "", 1000).id
        >>> store.account_named("ana") == ana, store.account_named("bo")
        (True, None)
        """
        with self.sessions() as s:
            people = sa.select(Account.id).where(Account.is_house.is_(False))
            found = s.scalar(people.where(Account.name == name))
            if found is None:
                found = s.scalar(people.where(Account.name_key == names.lenient_key(name)))
            return None if found is None else int(found)

    def seat_of(self, account_id: int) -> int | None:
        """The table an account sits at, if any."""
        with self.sessions() as s:
            return s.scalar(sa.select(SeatClaim.table_id).where(SeatClaim.account_id == account_id))

    def create_table(self, room: str, game: str, code: str | None = None) -> int:
        """A new table row (``code``: a private table's, unique).

        Raises :class:`sqlalchemy.exc.IntegrityError` when another table has the code.
        """
        with self.sessions.begin() as s:
            t = GameTable(room=room, game=game, status="open", code=code)
            s.add(t)
            s.flush()
            return t.id

    def table_by_code(self, code: str) -> int | None:
        """The private table with this code, if any (open or long gone: the caller asks the
        tables whether it still plays)."""
        with self.sessions() as s:
            return s.scalar(sa.select(GameTable.id).where(GameTable.code == code))

    def live_table_ids(self) -> list[int]:
        """The tables with a live hand (one cheap query, for the fail-over watch)."""
        with self.sessions() as s:
            query = sa.select(Hand.table_id).where(Hand.status == "live").distinct()
            return sorted(s.scalars(query))

    def live_hands(self, table_id: int | None = None) -> list[LiveHand]:
        """Every hand still live (at one table, if given), with its actions and its
        people's balances, for rebuilding after a restart or a fail-over."""
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
                people = [int(v["account"]) for v in h.seats.values() if v.get("account")]
                balances = {
                    int(i): int(b)
                    for i, b in s.execute(
                        sa.select(Account.id, Account.balance).where(Account.id.in_(people))
                    )
                }
                auto = s.scalars(
                    sa.select(SeatClaim.account_id).where(
                        SeatClaim.table_id == t.id, SeatClaim.tuoguan.is_(True)
                    )
                )
                number = h.hand_no if h.hand_no is not None else 1
                out.append(
                    LiveHand(
                        io.StartHand(t.id, number, h.game, int(h.seed), h.ruleset, h.setup,
                                     h.seats, int(h.stake), ()),
                        t.room, h.id, actions, balances, t.code, frozenset(auto),
                    )
                )  # fmt: skip
            return out

    def ledger_for(self, account_id: int, limit: int = 200) -> list[dict[str, Any]]:
        """An account's newest ledger entries, each with the other side of its movement."""
        with self.sessions() as s:
            rows = s.scalars(
                sa.select(LedgerEntry)
                .where(LedgerEntry.account_id == account_id)
                .order_by(LedgerEntry.id.desc())
                .limit(limit)
            ).all()
            partners = _partners(s, rows)
            return [
                {
                    "id": e.id,
                    "amount": int(e.amount),
                    "balance_after": int(e.balance_after),
                    "reason": e.reason,
                    "hand": e.hand_id,
                    "counterpart": partners.get(e.id),
                    "at": e.created_at.isoformat(),
                }
                for e in rows
            ]

    def hands_for(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        """The finished hands an account played, newest first, with its net in points: those
        settled (``status`` "done") and those an escape aborted ("aborted", with the
        ``escaper``'s seat and why; no net in 胡/注, and only the escape's points)."""
        with self.sessions() as s:
            ids = list(
                s.scalars(
                    sa.select(LedgerEntry.hand_id)
                    .where(
                        LedgerEntry.account_id == account_id,
                        LedgerEntry.reason == "fee",
                        LedgerEntry.hand_id.is_not(None),
                    )
                    .order_by(LedgerEntry.hand_id.desc())
                    .limit(limit * 2)
                )
            )
            if not ids:
                return []
            hands = s.scalars(
                sa.select(Hand)
                .where(Hand.id.in_(ids), Hand.status.in_(("done", "aborted")))
                .order_by(Hand.id.desc())
            ).all()
            points = {
                int(h or 0): int(p)
                for h, p in s.execute(
                    sa.select(LedgerEntry.hand_id, sa.func.sum(LedgerEntry.amount))
                    .where(LedgerEntry.account_id == account_id, LedgerEntry.hand_id.in_(ids))
                    .group_by(LedgerEntry.hand_id)
                )
            }
            out = []
            for h in hands[:limit]:
                seat = _seat_of(h.seats, account_id)
                if seat is None:
                    continue
                result = h.result or {}
                row = {
                    "hand": h.id,
                    "game": h.game,
                    "seat": seat,
                    "stake": int(h.stake),
                    "net": result.get("net", {}).get(seat),
                    "points": points.get(h.id, 0),
                    "winner": result.get("winner"),
                    "at": h.created_at.isoformat(),
                    "status": h.status,
                }
                if h.status == "aborted":
                    row.update(net=None, escaper=result.get("escaper"), why=result.get("why"))
                out.append(row)
            return out

    def hand_record(self, hand_id: int, account_id: int) -> tuple[dict[str, Any], str] | None:
        """A finished hand the account played: its record (format 2) and the account's seat."""
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
                    "result": h.result,
                },
                seat,
            )


def void_hand(s: Session, hand_id: int, why: str) -> list[int]:
    """:meth:`Store.quarantine` inside the caller's transaction (an admin closing a table
    writes its audit in the same one).

    Raises ``LookupError`` if the hand is not live.
    """
    h = s.get(Hand, hand_id)
    if h is None or h.status != "live":
        raise LookupError(f"hand {hand_id} is not live")
    fees = s.execute(
        sa.select(LedgerEntry.account_id, LedgerEntry.amount).where(
            LedgerEntry.event_key == hand_event(hand_id, "fee"), LedgerEntry.amount < 0
        )
    ).all()
    refunds = [(ledger.HOUSE, int(acc), -int(amount)) for acc, amount in fees]
    ledger.apply(s, refunds, "refund", hand_event(hand_id, "refund"), hand_id)
    h.status = "void"
    h.result = {"void": why}
    accounts = [int(v["account"]) for v in h.seats.values() if v.get("account")]
    s.execute(sa.delete(SeatClaim).where(SeatClaim.table_id == h.table_id))
    return accounts


def _seat_of(seats: dict[str, Any], account_id: int) -> str | None:
    return next((k for k, v in seats.items() if v.get("account") == account_id), None)


def _partners(s: Session, rows: Sequence[LedgerEntry]) -> dict[int, str]:
    """For each entry, the name of the account on the other side of its movement (entries
    are written in pairs: seq 2k and 2k+1 of one event)."""
    if not rows:
        return {}
    keys = {e.event_key for e in rows}
    others = s.execute(
        sa.select(LedgerEntry.event_key, LedgerEntry.seq, Account.name, Account.is_house)
        .join(Account, Account.id == LedgerEntry.account_id)
        .where(LedgerEntry.event_key.in_(keys))
    ).all()
    names = {(k, q): ("house" if house else n) for k, q, n, house in others}
    return {e.id: names.get((e.event_key, e.seq ^ 1), "") for e in rows if e.reason != "issue"}
