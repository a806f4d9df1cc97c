"""Points for the broke (救濟金): a player whose balance is below the lowest room's minimum
may claim, ``PAIJU_RELIEF_PER_DAY`` times a day, the points that bring it up to that
minimum, at most ``PAIJU_RELIEF_AMOUNT`` a claim (docs/operate.md). The points come from
the house through the ledger (reason ``relief``), like an admin's grant.

A day is a calendar day at ``PAIJU_RELIEF_UTC_OFFSET`` hours from UTC (China's, +8, by
default: the room's day turns at midnight in Beijing). A claim's ledger key names the
account, the day and the claim's number that day, and the ledger takes a key once: of two
claims racing, the account's row lock makes the second wait for the first, and the second
then finds the day's claims used (or, were the lock ever bypassed, the key taken).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> e = make_engine("sqlite://"); migrate(e); db = make_sessions(e)
>>> with db.begin() as s:
...     ana = ledger.new_account(s, "ana", "", 100).id
>>> policy = Policy(amount=1000, per_day=1, utc_offset=8, floor=800)
>>> status(db, policy, ana, 0)["amount"]
700
>>> claim(db, policy, ana, 0)["balance"]
800
>>> status(db, policy, ana, 60)["why"], status(db, policy, ana, 60)["claimed_today"]
('balance_enough', 1)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from paiju.server import ledger
from paiju.server.config import Settings
from paiju.server.errors import ServerError
from paiju.server.models import Account, LedgerEntry
from paiju.server.rooms import ROOMS

__all__ = ["REASON", "Policy", "claim", "day_of", "lowest_minimum", "status"]

log = logging.getLogger("paiju.relief")

#: The ledger reason of a claim.
REASON = "relief"
_DAY = 86_400

#: Why a claim is refused: the code, the HTTP status, and the message.
_REFUSALS = {
    "relief_off": (403, "this room gives no relief points"),
    "balance_enough": (409, "your balance is enough to sit in a room"),
    "relief_claimed": (409, "you have had today's relief; come back tomorrow"),
}


def lowest_minimum() -> int:
    """The lowest balance any room lets sit: below it a player cannot play at all.

    >>> lowest_minimum() == min(r.min_balance for r in ROOMS.values())
    True
    """
    return min((r.min_balance for r in ROOMS.values()), default=0)


@dataclass(frozen=True, slots=True)
class Policy:
    """The relief's settings: the most points a claim gives (``amount``), claims a day
    (``per_day``; 0 is off, as is an ``amount`` of 0), the day's offset from UTC in hours,
    and the balance a claim brings a player up to (``floor``)."""

    amount: int
    per_day: int
    utc_offset: float
    floor: int

    @property
    def on(self) -> bool:
        """Whether relief is given at all.

        >>> Policy(0, 1, 8, 800).on, Policy(800, 0, 8, 800).on, Policy(800, 1, 8, 800).on
        (False, False, True)
        """
        return self.amount > 0 and self.per_day > 0 and self.floor > 0

    @staticmethod
    def of(settings: Settings) -> Policy:
        """The policy of a process's settings, up to the lowest room's minimum.

        >>> Policy.of(Settings.from_env({"PAIJU_RELIEF_PER_DAY": "0"})).on
        False
        """
        return Policy(
            settings.relief_amount, settings.relief_per_day, settings.relief_utc_offset,
            lowest_minimum(),
        )  # fmt: skip


def day_of(t: float, utc_offset: float) -> int:
    """The day number (days since 1970-01-01 at that offset) of Unix time ``t``.

    >>> day_of(16 * 3600 - 1, 8), day_of(16 * 3600, 8), day_of(16 * 3600, 0)
    (0, 1, 0)
    """
    return int((t + utc_offset * 3600) // _DAY)


def _key(account_id: int, day: int, n: int) -> str:
    return f"relief:{account_id}:{day}:{n}"


def _claims(s: Session, account_id: int, day: int) -> int:
    prefix = f"relief:{account_id}:{day}:"
    found = s.scalar(
        sa.select(sa.func.count())
        .select_from(LedgerEntry)
        .where(
            LedgerEntry.account_id == account_id,
            LedgerEntry.reason == REASON,
            LedgerEntry.event_key.startswith(prefix, autoescape=True),
        )
    )
    return int(found or 0)


def _assess(s: Session, policy: Policy, account_id: int, now: float) -> dict[str, Any]:
    balance = int(s.scalar(sa.select(Account.balance).where(Account.id == account_id)) or 0)
    day = day_of(now, policy.utc_offset)
    used = _claims(s, account_id, day) if policy.on else 0
    amount = max(0, min(policy.amount, policy.floor - balance)) if policy.on else 0
    why = None
    if not policy.on:
        why = "relief_off"
    elif amount == 0:
        why = "balance_enough"
    elif used >= policy.per_day:
        why = "relief_claimed"
    next_at = (day + 1) * _DAY - policy.utc_offset * 3600
    return {
        "eligible": why is None,
        "why": why,
        "amount": amount if why is None else 0,
        "balance": balance,
        "floor": policy.floor,
        "claimed_today": used,
        "per_day": policy.per_day if policy.on else 0,
        # when the day's claims are counted afresh (Unix seconds)
        "next_day_at": int(next_at),
        "_day": day,
    }


def _public(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if not k.startswith("_")}


DB = sessionmaker[Session]


def status(db: DB, policy: Policy, account_id: int, now: float) -> dict[str, Any]:
    """Whether ``account_id`` may claim relief at ``now`` and how much: ``eligible``, ``why``
    not (``relief_off``, ``balance_enough``, ``relief_claimed``), ``amount``, ``balance``,
    ``floor``, the claims made today and allowed a day, and when the next day starts.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e); db = make_sessions(e)
    >>> with db.begin() as s:
    ...     rich = ledger.new_account(s, "rich", "", 5000).id
    >>> status(db, Policy(800, 1, 8, 800), rich, 0)["why"]
    'balance_enough'
    """
    with db() as s:
        return _public(_assess(s, policy, account_id, now))


def claim(db: DB, policy: Policy, account_id: int, now: float) -> dict[str, Any]:
    """Claim the day's relief for ``account_id``: the points move from the house in one
    transaction (ledger reason ``relief``), after the account's row is locked, so that of
    claims racing exactly one is paid. The new balance, the points given, and the status
    after the claim.

    Raises :class:`ServerError` ``relief_off`` (403), ``balance_enough`` or
    ``relief_claimed`` (409; nothing moves).
    """
    try:
        with db.begin() as s:
            lock = sa.select(Account.id).where(Account.id == account_id)
            if s.get_bind().dialect.name != "sqlite":  # SQLite: one writer at a time anyway
                lock = lock.with_for_update()
            s.execute(lock)
            found = _assess(s, policy, account_id, now)
            if found["why"] is not None:
                code = str(found["why"])
                status_code, message = _REFUSALS[code]
                raise ServerError(code, message, status_code, detail=_public(found))
            n = int(found["claimed_today"]) + 1
            given = int(found["amount"])
            key = _key(account_id, int(found["_day"]), n)
            ledger.apply(s, [(ledger.HOUSE, account_id, given)], REASON, key)
    except IntegrityError:  # the key was taken by a claim racing this one
        raise ServerError("relief_claimed", _REFUSALS["relief_claimed"][1], 409) from None
    log.info(
        "relief of %d points to account %d (claim %d today)",
        given,
        account_id,
        n,
        extra={"account": account_id, "event": "relief", "points": given},
    )
    after = status(db, policy, account_id, now)
    return {"given": given, "balance": after["balance"], "status": after}
