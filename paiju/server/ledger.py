"""The ledger: every movement of points, one database transaction per event.

Points enter only by issue (a new account's starting balance) and then only move between
accounts, the house included (the house is the bank: it pays for the bots, and only its
balance may go below zero); so the sum of all balances always equals the points ever
issued, which :func:`audit` checks. Every event carries a key: applying the same event twice
changes nothing (a retried or replayed settlement is never counted twice).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> engine = make_engine("sqlite://"); migrate(engine)
>>> sessions = make_sessions(engine)
>>> with sessions.begin() as s:
...     a = new_account(s, "ana", "", 1000); b = new_account(s, "bo", "", 1000)
...     ok = apply(s, [(a.id, b.id, 300), (a.id, HOUSE, 5)], "hand", "hand:1")
>>> with sessions() as s:
...     [x.balance for x in (s.get(Account, a.id), s.get(Account, b.id))], audit(s)
([695, 1300], (2000, 2000))
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from paiju.server.db import driver_execute
from paiju.server.errors import ServerError
from paiju.server.models import Account, LedgerEntry
from paiju.server.money import HOUSE

__all__ = [
    "HOUSE", "LOCK_PG", "WRITE_PG", "Event", "accounts_of", "apply", "audit", "house",
    "house_id", "new_account", "plan", "write_params",
]  # fmt: skip

HOUSE_NAME = "__house__"


def house(s: Session) -> Account:
    """The house account (created on first use, by one process even if several try).

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> with make_sessions(e).begin() as s:
    ...     house(s).is_house
    True
    """
    query = sa.select(Account).where(Account.is_house.is_(True))
    acc = s.scalars(query).first()
    if acc is None:
        # several processes may create it at once: the insert does nothing if one did
        dialect = s.get_bind().dialect.name
        row = {"name": HOUSE_NAME, "password_hash": "", "balance": 0, "is_house": True}
        if dialect == "postgresql":
            s.execute(pg_insert(Account).values(**row).on_conflict_do_nothing())
        elif dialect == "sqlite":
            s.execute(sqlite_insert(Account).values(**row).on_conflict_do_nothing())
        else:
            s.add(Account(**row))
            s.flush()
        acc = s.scalars(query).one()
    return acc


def new_account(s: Session, name: str, password_hash: str, start_balance: int) -> Account:
    """Create an account and issue its starting balance (one ledger entry, reason ``issue``).

    Raises :class:`~paiju.server.errors.ServerError` ``name_taken``.
    """
    if s.scalars(sa.select(Account.id).where(Account.name == name)).first() is not None:
        raise ServerError("name_taken", f"the name {name!r} is taken", 409)
    acc = Account(name=name, password_hash=password_hash, balance=start_balance, is_house=False)
    s.add(acc)
    s.flush()
    s.add(
        LedgerEntry(
            account_id=acc.id,
            amount=start_balance,
            balance_after=start_balance,
            reason="issue",
            hand_id=None,
            event_key=f"issue:{acc.id}",
            seq=0,
        )
    )
    s.flush()
    return acc


_LEDGER_INSERT = sa.insert(LedgerEntry.__table__)  # type: ignore[arg-type]
_LEDGER = cast(sa.Table, LedgerEntry.__table__)
_ACCOUNTS = cast(sa.Table, Account.__table__)
#: per engine (one database): the house account's id never changes. Keyed by the engine
#: itself, not by id() of a connection: a new connection may reuse the id of another
#: database's connection that is gone, and would read that database's house
_HOUSE_IDS: weakref.WeakKeyDictionary[sa.Engine, int] = weakref.WeakKeyDictionary()

# the statements of a movement, built once (Core: no ORM work per execution)
_SEEN = sa.select(_LEDGER.c.id).where(_LEDGER.c.event_key == sa.bindparam("key")).limit(1)
_LOCK = (
    sa.select(_ACCOUNTS.c.id, _ACCOUNTS.c.balance, _ACCOUNTS.c.is_house, _ACCOUNTS.c.name)
    .where(_ACCOUNTS.c.id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(_ACCOUNTS.c.id)
)
_SET_BALANCE = (
    sa.update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == sa.bindparam("acc"))
    .values(balance=sa.bindparam("bal"))
)
#: PostgreSQL (psycopg's placeholders; run prepared on the driver's connection): the
#: accounts locked in id order
LOCK_PG = (
    "SELECT id, balance, is_house, name FROM accounts WHERE id = ANY(%s) ORDER BY id FOR UPDATE"
)
#: PostgreSQL: the balances and the entries in one statement (one round trip, not two), the
#: arrays of :func:`write_params`
WRITE_PG = (
    "WITH changed AS (UPDATE accounts AS a SET balance = v.bal "
    "FROM unnest(%s::integer[], %s::bigint[]) AS v(acc, bal) WHERE a.id = v.acc RETURNING a.id) "
    "INSERT INTO ledger (account_id, amount, balance_after, reason, hand_id, event_key, seq) "
    "SELECT * FROM unnest(%s::integer[], %s::bigint[], %s::bigint[], %s::varchar[], "
    "%s::integer[], %s::varchar[], %s::integer[])"
)


def house_id(s: Session) -> int:
    """The house account's id (read once per database; made if there is none yet)."""
    engine = s.get_bind().engine
    found = _HOUSE_IDS.get(engine)
    if found is None:
        found = s.scalar(sa.select(_ACCOUNTS.c.id).where(_ACCOUNTS.c.is_house.is_(True)))
        if found is None:
            # made in this transaction: not cached, since it may yet roll back (and another
            # transaction, reading the cache, would not see the row before it commits)
            return house(s).id
        _HOUSE_IDS[engine] = found
    return int(found)


@dataclass(frozen=True, slots=True)
class Event:
    """One ledger event: its movements ``(payer, payee, amount)`` (ids, or ``HOUSE``), why
    (``reason``), its key (applied once) and the hand it belongs to."""

    moves: Sequence[tuple[int | str, int | str, int]]
    reason: str
    key: str
    hand_id: int | None = None


#: a locked account as :func:`plan` reads it: ``(balance, is_house, name)``
Locked = tuple[int, bool, str]
#: one ledger row to write: ``(account, amount, balance_after, reason, hand, key, seq)``
Entry = tuple[int, int, int, str, int | None, str, int]


def accounts_of(events: Sequence[Event], house_id: int) -> list[int]:
    """The accounts these events move points between, in id order (the order they are
    locked in, so that two transactions never wait for each other in a circle).

    >>> accounts_of([Event([(7, HOUSE, 5), (3, 7, 0)], "fee", "k")], house_id=1)
    [1, 3, 7]
    """
    return sorted({_id(k, house_id) for e in events for m in e.moves for k in m[:2]})


def plan(
    events: Sequence[Event], house_id: int, locked: dict[int, Locked]
) -> tuple[list[tuple[int, int]], list[Entry]]:
    """The events applied in order to the ``locked`` accounts: the balances that change
    ``(account, balance)`` and the entries to write (each event's rows numbered from 0;
    movements of 0 points make none). Only the house may go below zero.

    Raises :class:`~paiju.server.errors.ServerError` ``insufficient_funds`` or
    ``bad_movement``.

    >>> locked = {1: (0, True, "__house__"), 7: (100, False, "ana")}
    >>> changed, entries = plan([Event([(7, HOUSE, 30)], "fee", "hand:4:fee", 4)], 1, locked)
    >>> changed, entries[0]
    ([(1, 30), (7, 70)], (7, -30, 70, 'fee', 4, 'hand:4:fee', 0))
    >>> plan([Event([(7, HOUSE, 300)], "fee", "k")], 1, locked)
    Traceback (most recent call last):
    paiju.server.errors.ServerError: ana has 100 points, 300 are due
    """
    balance = {i: row[0] for i, row in locked.items()}
    entries: list[Entry] = []
    for event in events:
        seq = 0
        for payer, payee, amount in event.moves:
            if amount < 0:
                raise ServerError("bad_movement", f"negative movement {amount}")
            if amount == 0:
                continue
            src, dst = _id(payer, house_id), _id(payee, house_id)
            if balance[src] < amount and not locked[src][1]:  # the house is the bank
                raise ServerError(
                    "insufficient_funds",
                    f"{locked[src][2]} has {balance[src]} points, {amount} are due",
                    402,
                )
            balance[src] -= amount
            balance[dst] += amount
            for acc, delta in ((src, -amount), (dst, amount)):
                entries.append(
                    (acc, delta, balance[acc], event.reason, event.hand_id, event.key, seq)
                )
                seq += 1
    # movements may cancel out (a person and the house paying each other)
    changed = [(i, b) for i, b in sorted(balance.items()) if b != locked[i][0]]
    return changed, entries


def write_params(changed: Sequence[tuple[int, int]], entries: Sequence[Entry]) -> tuple[Any, ...]:
    """:data:`WRITE_PG`'s parameters: the changed balances and the entries, as arrays.

    >>> write_params([(7, 70)], [(7, -30, 70, "fee", None, "k", 0)])
    ([7], [70], [7], [-30], [70], ['fee'], [None], ['k'], [0])
    """
    return (
        [i for i, _ in changed],
        [b for _, b in changed],
        *(list(c) for c in zip(*entries, strict=True)),
    )


def apply(
    s: Session,
    movements: Sequence[tuple[int | str, int | str, int]],
    reason: str,
    event_key: str,
    hand_id: int | None = None,
    fresh: bool = False,
) -> bool:
    """Move points between accounts (ids, or ``HOUSE``) inside the caller's transaction;
    False, changing nothing, when this event was applied before (``fresh``: the caller
    knows it cannot have been, the row it belongs to being made in this transaction, and
    the check is skipped). The accounts are locked (PostgreSQL: ``FOR UPDATE``, in id
    order) and written with plain statements (PostgreSQL: balances and entries in one).

    Raises :class:`~paiju.server.errors.ServerError` ``insufficient_funds`` (the whole event
    is rolled back with the transaction) or ``bad_movement``.
    """
    if not fresh and s.execute(_SEEN, {"key": event_key}).first() is not None:
        return False
    event = Event([m for m in movements if m[2] != 0], reason, event_key, hand_id)
    if not event.moves:
        return True
    hid = house_id(s)
    ids = accounts_of([event], hid)
    dialect = s.get_bind().dialect.name
    postgres = dialect == "postgresql"
    if postgres:
        s.flush()  # (the driver's statements skip the session's autoflush)
        locked = {r[0]: (int(r[1]), r[2], r[3]) for r in driver_execute(s, LOCK_PG, (ids,))}
    else:
        query = _LOCK if dialect == "sqlite" else _LOCK.with_for_update()
        locked = {
            int(r.id): (int(r.balance), r.is_house, r.name) for r in s.execute(query, {"ids": ids})
        }
    changed, entries = plan([event], hid, locked)
    if postgres:
        driver_execute(s, WRITE_PG, write_params(changed, entries))
    else:
        _write_entries(s, changed, entries)
    _expire_balances(s, ids)
    return True


def _write_entries(
    s: Session, changed: Sequence[tuple[int, int]], entries: Sequence[Entry]
) -> None:
    """Write :func:`plan`'s balances and entries with portable statements (SQLite; on
    PostgreSQL :data:`WRITE_PG` does it in one)."""
    if changed:
        s.execute(_SET_BALANCE, [{"acc": i, "bal": b} for i, b in changed])
    s.execute(
        _LEDGER_INSERT,
        [
            {
                "account_id": acc, "amount": delta, "balance_after": after,
                "reason": reason, "hand_id": hand, "event_key": key, "seq": q,
            }
            for acc, delta, after, reason, hand, key, q in entries
        ],
    )  # fmt: skip


def _expire_balances(s: Session, ids: Sequence[int]) -> None:
    """The session's ORM copies of these accounts have stale balances now: reload them
    when they are next read."""
    moved = set(ids)
    for obj in list(s.identity_map.values()):
        if isinstance(obj, Account) and obj.id in moved:
            s.expire(obj, ["balance"])


def _id(k: int | str, house_id: int) -> int:
    return house_id if k == HOUSE else int(k)


def audit(s: Session) -> tuple[int, int]:
    """``(sum of all balances, points ever issued)``: equal when the books balance.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> with make_sessions(e)() as s:
    ...     audit(s)
    (0, 0)
    """
    balances = s.scalar(sa.select(sa.func.coalesce(sa.func.sum(Account.balance), 0)))
    issued = s.scalar(
        sa.select(sa.func.coalesce(sa.func.sum(LedgerEntry.amount), 0)).where(
            LedgerEntry.reason == "issue"
        )
    )
    return int(balances or 0), int(issued or 0)
