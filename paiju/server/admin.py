"""An admin's tools (docs/operate.md), the same for ``paiju admin`` (the CLI, against the
database of ``paiju serve``) and the admin API (``/api/admin``, :mod:`.routes.admin`).

Every action is audited in ``admin_actions`` (who, when, what, why) in the transaction that
takes it, and is a ledger event (points: from or to the house, keyed by the audit row, so
the books still balance) or a change of sessions and seats, never a balance set by hand.
A serving process applies what reaches its live tables (a suspended account's seat, a
closed table) at once when the API took the action, and within
``PAIJU_ADMIN_POLL_SECONDS`` when another process or the CLI did (:func:`watch`).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> from paiju.server.store import Store
>>> e = make_engine("sqlite://"); migrate(e); store = Store(make_sessions(e), "w1")
>>> with store.sessions.begin() as s:
...     _ = ledger.new_account(s, "ana", "", 100)
>>> move_points(store.sessions, "cli:root", "ana", 700, "relief by hand")["balance"]
800
>>> check(store.sessions)["ok"]
True
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from paiju.server import ledger, names
from paiju.server.db import one_of
from paiju.server.errors import ServerError
from paiju.server.models import Account, AdminAction, GameTable, Hand, LedgerEntry, SeatClaim, Token
from paiju.server.sessions import end_others
from paiju.server.store import Store, void_hand
from paiju.server.table import io

if TYPE_CHECKING:
    from paiju.server.hub import Hub

__all__ = [
    "MAX_POINTS",
    "check",
    "cli_actor",
    "close_table",
    "find",
    "house_report",
    "move_points",
    "refuse_suspended",
    "set_admin",
    "suspend",
    "watch",
]

log = logging.getLogger("paiju.admin")

#: The most points one grant or take may move.
MAX_POINTS = 10**12
DB = sessionmaker[Session]


def cli_actor() -> str:
    """Who acts from the CLI: ``cli:<the system user>``.

    >>> cli_actor().startswith("cli:")
    True
    """
    return f"cli:{getpass.getuser()}"


def _why(reason: str) -> str:
    why = reason.strip()
    if not why:
        raise ServerError("reason_required", "say why (a reason is recorded with the action)", 422)
    if len(why) > 500:
        raise ServerError("bad_request", "a reason is at most 500 characters", 422)
    return why


def _account(s: Session, name: str) -> Account:
    """The account of ``name`` (exactly, else by the key look-alike names share)."""
    acc = s.scalars(sa.select(Account).where(Account.name == name)).first()
    if acc is None:
        key = names.lenient_key(name)
        acc = s.scalars(sa.select(Account).where(Account.name_key == key)).first()
    if acc is None or acc.is_house:
        raise ServerError("unknown_account", f"no account is named {name[:40]!r}", 404)
    return acc


def _audit(s: Session, actor: str, action: str, why: str, **what: int | None) -> AdminAction:
    row = AdminAction(actor=actor[:80], action=action, reason=_why(why), **what)
    s.add(row)
    s.flush()
    log.info(
        "admin %s by %s: %s (%s)",
        action,
        actor,
        what,
        why.strip()[:200],
        extra={"event": f"admin_{action}", "actor": actor, "action_id": row.id}
        | {k.removesuffix("_id"): v for k, v in what.items()},
    )
    return row


def refuse_suspended(s: Session, account_id: int) -> None:
    """Refuse a login to a suspended account.

    Raises :class:`ServerError` ``suspended`` (403).
    """
    if s.scalar(sa.select(Account.suspended).where(Account.id == account_id)):
        raise ServerError("suspended", "this account is suspended", 403)


def find(store: Store, name: str, now: float | None = None) -> dict[str, Any]:
    """An account as an admin sees it: balance, roles, where it sits, its open sessions,
    its newest ledger entries and hands, and the admin actions taken on it.

    Raises :class:`ServerError` ``unknown_account`` (404).
    """
    t = int(time.time() if now is None else now)
    with store.sessions() as s:
        acc = _account(s, name)
        sessions = s.scalar(
            sa.select(sa.func.count())
            .select_from(Token)
            .where(Token.account_id == acc.id, Token.expires_at > t)
        )
        seat = s.scalar(sa.select(SeatClaim.table_id).where(SeatClaim.account_id == acc.id))
        actions = s.scalars(
            sa.select(AdminAction)
            .where(AdminAction.account_id == acc.id)
            .order_by(AdminAction.id.desc())
            .limit(50)
        ).all()
        account_id = acc.id
        out: dict[str, Any] = {
            "id": acc.id,
            "name": acc.name,
            "balance": int(acc.balance),
            "admin": acc.is_admin,
            "suspended": acc.suspended,
            "created": acc.created_at.isoformat(),
            "seated": seat,
            "sessions": int(sessions or 0),
            "actions": [_action_json(a) for a in actions],
        }
    out["ledger"] = store.ledger_for(account_id, limit=50)
    out["hands"] = store.hands_for(account_id, limit=20)
    return out


def _action_json(a: AdminAction) -> dict[str, Any]:
    return {
        "id": a.id,
        "at": a.created_at.isoformat(),
        "actor": a.actor,
        "action": a.action,
        "account": a.account_id,
        "table": a.table_id,
        "amount": a.amount,
        "reason": a.reason,
    }


def move_points(db: DB, actor: str, name: str, amount: int, why: str) -> dict[str, Any]:
    """Grant (``amount`` > 0, from the house) or take (< 0, to the house) points, with the
    audit row, in one transaction; the account's new balance and the action's id.

    Raises :class:`ServerError` ``bad_request`` (0, or beyond :data:`MAX_POINTS`),
    ``reason_required``, ``unknown_account``, ``insufficient_funds`` (a take beyond the
    balance: nothing moves).
    """
    if amount == 0 or abs(amount) > MAX_POINTS:
        raise ServerError("bad_request", f"an amount is 1 to {MAX_POINTS} points, or minus", 422)
    with db.begin() as s:
        acc = _account(s, name)
        kind = "grant" if amount > 0 else "take"
        row = _audit(s, actor, kind, why, account_id=acc.id, amount=amount)
        move = (ledger.HOUSE, acc.id, amount) if amount > 0 else (acc.id, ledger.HOUSE, -amount)
        ledger.apply(s, [move], kind, f"admin:{row.id}", fresh=True)
        s.refresh(acc)
        return {"account": acc.name, "balance": int(acc.balance), "action": row.id}


def suspend(db: DB, actor: str, name: str, on: bool, why: str) -> tuple[dict[str, Any], list[str]]:
    """Suspend an account (``on``) or lift its suspension. Suspending ends every session
    (its sockets close: those of this process at once when the caller passes the ids on,
    the others' at their next check) and it can neither log in nor sit; its seat at a live
    hand is played by 托管 to the end, without penalty (:func:`apply_live`). The account,
    and the sessions ended.

    Raises :class:`ServerError` ``unknown_account``, ``reason_required``, ``no_change``
    (409: it already is, or is not, suspended).
    """
    with db.begin() as s:
        acc = _account(s, name)
        if acc.suspended == on:
            state = "suspended" if on else "not suspended"
            raise ServerError("no_change", f"{acc.name} is {state} already", 409)
        _audit(s, actor, "suspend" if on else "lift", why, account_id=acc.id)
        acc.suspended = on
        ended = end_others(s, acc.id, None) if on else []
        return {"account": acc.name, "id": acc.id, "suspended": on}, ended


def set_admin(db: DB, actor: str, name: str, on: bool, why: str) -> dict[str, Any]:
    """Give an account the admin role (``on``) or take it away.

    Raises :class:`ServerError` ``unknown_account``, ``reason_required``.
    """
    with db.begin() as s:
        acc = _account(s, name)
        _audit(s, actor, "admin" if on else "unadmin", why, account_id=acc.id)
        acc.is_admin = on
        return {"account": acc.name, "admin": on}


def close_table(db: DB, actor: str, table_id: int, why: str) -> dict[str, Any]:
    """Close a table: its live hand (if any) voided and its fees refunded, as a quarantine
    does, its seats freed, the table marked ``closed``, in one transaction with the audit.
    A serving process holding the table stops it and tells its players (:func:`apply_live`).

    Raises :class:`ServerError` ``unknown_table`` (404), ``no_change`` (already closed),
    ``reason_required``.
    """
    with db.begin() as s:
        table = s.get(GameTable, table_id)
        if table is None:
            raise ServerError("unknown_table", f"there is no table {table_id}", 404)
        if table.status == "closed":
            raise ServerError("no_change", f"table {table_id} is closed already", 409)
        row = _audit(s, actor, "close", why, table_id=table_id)
        live = s.scalars(
            sa.select(Hand.id).where(Hand.table_id == table_id, Hand.status == "live")
        ).all()
        voided = []
        for hand_id in live:
            void_hand(s, hand_id, f"closed by an admin (action {row.id})")
            voided.append(hand_id)
        seated = s.scalars(
            sa.delete(SeatClaim)
            .where(SeatClaim.table_id == table_id)
            .returning(SeatClaim.account_id)
        ).all()
        table.status = "closed"
        return {"table": table_id, "voided": voided, "unseated": sorted(seated)}


def house_report(db: DB) -> dict[str, Any]:
    """The house's balance, and what each kind of event brought in (positive) or cost it
    (negative): ``fee`` the table fees, ``escape`` its share of penalties, ``hand`` the
    remainders of settlements, ``refund`` fees returned, ``grant``/``take`` an admin's,
    ``relief`` points for the broke."""
    with db() as s:
        house = ledger.house(s)
        rows = s.execute(
            sa.select(LedgerEntry.reason, sa.func.sum(LedgerEntry.amount), sa.func.count())
            .where(LedgerEntry.account_id == house.id)
            .group_by(LedgerEntry.reason)
            .order_by(LedgerEntry.reason)
        ).all()
        return {
            "balance": int(house.balance),
            "by_reason": {r: {"points": int(p or 0), "entries": int(n)} for r, p, n in rows},
        }


def check(db: DB) -> dict[str, Any]:
    """Sum the books: every balance against the sum of its ledger entries, and all the
    balances against the points ever issued. ``ok`` when nothing differs; the accounts
    that differ otherwise (``{"account", "balance", "ledger"}``)."""
    with db() as s:
        total, issued = ledger.audit(s)
        sums = dict(
            s.execute(
                sa.select(LedgerEntry.account_id, sa.func.sum(LedgerEntry.amount)).group_by(
                    LedgerEntry.account_id
                )
            ).all()
        )
        wrong = [
            {"account": name, "balance": int(bal), "ledger": int(sums.get(i) or 0)}
            for i, name, bal in s.execute(sa.select(Account.id, Account.name, Account.balance))
            if int(bal) != int(sums.get(i) or 0)
        ]
        accounts = s.scalar(sa.select(sa.func.count()).select_from(Account))
    return {
        "ok": not wrong and total == issued,
        "balances": total,
        "issued": issued,
        "accounts": int(accounts or 0),
        "differences": wrong,
    }


def apply_live(hub: Hub, suspended: list[int], closed: list[int]) -> int:
    """Carry out on this process's live tables what admins decided: a suspended account's
    seat is played by 托管 to the hand's end (and freed after it), a closed table stops and
    its players are told. How many tables were touched (idempotent: nothing twice)."""
    touched = 0
    for account in suspended:
        runner = hub.table_of(account)
        if runner is not None:
            runner.feed(io.Suspend(account))
            touched += 1
    for table_id in closed:
        runner = hub.tables.get(table_id)
        if runner is None:
            continue
        people = list(runner.machine.accounts)
        hand = runner.machine.hand
        if hand is not None and hand.id is not None:
            hub.writer.fence(hand.id)  # what it still asked for is not written
        runner.stop()
        del hub.tables[table_id]
        hub.table_changed(runner)
        for account in people:
            hub.deliver(account, {"type": "unseated", "why": "table_closed"})
        touched += 1
    return touched


def _due(db: DB, seated: list[int], tables: list[int]) -> tuple[list[int], list[int]]:
    with db() as s:
        suspended = (
            list(
                s.scalars(
                    sa.select(Account.id).where(
                        one_of(s, Account.id, seated), Account.suspended.is_(True)
                    )
                )
            )
            if seated
            else []
        )
        closed = (
            list(
                s.scalars(
                    sa.select(GameTable.id).where(
                        one_of(s, GameTable.id, tables), GameTable.status == "closed"
                    )
                )
            )
            if tables
            else []
        )
    return suspended, closed


async def watch(hub: Hub, db: DB, every: float) -> None:
    """Every ``every`` seconds, apply what admins decided (elsewhere, or from the CLI) to
    this process's live tables (:func:`apply_live`): one query for the people seated here
    and the tables here. Runs for the app's life."""
    while True:
        await asyncio.sleep(every)
        seated, tables = list(hub.where), list(hub.tables)
        if not seated and not tables:
            continue
        try:
            suspended, closed = await asyncio.to_thread(_due, db, seated, tables)
        except Exception:  # the database is away: the tables pause; look again later
            log.debug("admin actions could not be read", exc_info=True)
            continue
        with contextlib.suppress(Exception):
            apply_live(hub, suspended, closed)


def run_cli(command: str, args: dict[str, Any], database_url: str) -> tuple[int, Any]:
    """``paiju admin COMMAND``: run one admin action against ``database_url`` (migrated
    first, as ``paiju serve`` does), as :func:`cli_actor`; the exit code (0, or 1 with
    the error's code and message) and what to print.

    >>> run_cli("check", {}, "sqlite://")
    (0, {'ok': True, 'balances': 0, 'issued': 0, 'accounts': 0, 'differences': []})
    >>> run_cli("grant", {"name": "nobody", "amount": 5, "why": "x"}, "sqlite://")[1]["error"]
    'unknown_account'
    """
    from paiju.server.db import make_engine, make_sessions, migrate

    engine = make_engine(database_url)
    try:
        migrate(engine)
        db = make_sessions(engine)
        who, why = cli_actor(), str(args.get("why") or "")
        name = str(args.get("name") or "")
        try:
            if command == "find":
                result: Any = find(Store(db, "admin"), name)
            elif command in ("grant", "take"):
                amount = int(args["amount"])
                if amount <= 0:
                    raise ServerError("bad_request", "the amount is a positive number", 422)
                result = move_points(db, who, name, amount if command == "grant" else -amount, why)
            elif command in ("suspend", "lift"):
                result = suspend(db, who, name, command == "suspend", why)[0]
            elif command == "role":
                result = set_admin(db, who, name, not args.get("remove"), why)
            elif command == "close-table":
                result = close_table(db, who, int(args["table"]), why)
            elif command == "house":
                result = house_report(db)
            else:
                result = check(db)
                return (0 if result["ok"] else 1), result
        except ServerError as err:
            return 1, {"error": err.code, "message": err.message}
        return 0, result
    finally:
        engine.dispose()
