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
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from paiju.server.errors import ServerError
from paiju.server.models import Account, LedgerEntry
from paiju.server.money import HOUSE

__all__ = ["HOUSE", "apply", "audit", "house", "new_account"]

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
_LOCK_FOR_UPDATE = _LOCK.with_for_update()
_SET_BALANCE = (
    sa.update(_ACCOUNTS)
    .where(_ACCOUNTS.c.id == sa.bindparam("acc"))
    .values(balance=sa.bindparam("bal"))
)
# PostgreSQL: the balances and the entries in one statement (one round trip, not two)
_WRITE_PG = sa.text(
    "WITH changed AS (UPDATE accounts AS a SET balance = v.bal "
    "FROM unnest(CAST(:accs AS integer[]), CAST(:bals AS bigint[])) AS v(acc, bal) "
    "WHERE a.id = v.acc RETURNING a.id) "
    "INSERT INTO ledger (account_id, amount, balance_after, reason, hand_id, event_key, seq) "
    "SELECT e.acc, e.amount, e.after, CAST(:reason AS varchar), CAST(:hand AS integer), "
    "CAST(:key AS varchar), e.seq "
    "FROM unnest(CAST(:e_accs AS integer[]), CAST(:e_amounts AS bigint[]), "
    "CAST(:e_afters AS bigint[]), CAST(:e_seqs AS integer[])) AS e(acc, amount, after, seq)"
)


def _house_id(s: Session) -> int:
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
    moves = [m for m in movements if m[2] != 0]
    for _payer, _payee, amount in moves:
        if amount < 0:
            raise ServerError("bad_movement", f"negative movement {amount}")
    if not moves:
        return True
    house_id = _house_id(s)

    def key(k: int | str) -> int:
        return house_id if k == HOUSE else int(k)

    ids = sorted({key(k) for m in moves for k in m[:2]})
    dialect = s.get_bind().dialect.name
    query = _LOCK if dialect == "sqlite" else _LOCK_FOR_UPDATE
    rows = {int(r.id): r for r in s.execute(query, {"ids": ids})}
    balance = {i: int(r.balance) for i, r in rows.items()}
    entries = []
    seq = 0
    for payer, payee, amount in moves:
        src, dst = key(payer), key(payee)
        if balance[src] < amount and not rows[src].is_house:  # the house is the bank
            raise ServerError(
                "insufficient_funds",
                f"{rows[src].name} has {balance[src]} points, {amount} are due",
                402,
            )
        balance[src] -= amount
        balance[dst] += amount
        for acc, delta in ((src, -amount), (dst, amount)):
            entries.append((acc, delta, balance[acc], seq))
            seq += 1
    # movements may cancel out (a person and the house paying each other)
    changed = [(i, b) for i, b in balance.items() if b != int(rows[i].balance)]
    if dialect == "postgresql":
        s.execute(
            _WRITE_PG,
            {
                "accs": [i for i, _ in changed], "bals": [b for _, b in changed],
                "reason": reason, "hand": hand_id, "key": event_key,
                "e_accs": [e[0] for e in entries], "e_amounts": [e[1] for e in entries],
                "e_afters": [e[2] for e in entries], "e_seqs": [e[3] for e in entries],
            },
        )  # fmt: skip
    else:
        if changed:
            s.execute(_SET_BALANCE, [{"acc": i, "bal": b} for i, b in changed])
        s.execute(
            _LEDGER_INSERT,
            [
                {
                    "account_id": acc, "amount": delta, "balance_after": after,
                    "reason": reason, "hand_id": hand_id, "event_key": event_key, "seq": q,
                }
                for acc, delta, after, q in entries
            ],
        )  # fmt: skip
    for obj in list(s.identity_map.values()):  # ORM copies of these accounts are stale now
        if isinstance(obj, Account) and obj.id in balance:
            s.expire(obj, ["balance"])
    return True


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
