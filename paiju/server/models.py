"""The database schema (SQLAlchemy 2; migrations in ``paiju/server/migrations``).

- ``accounts``: players and the house (``is_house``), with their balances and the key that
  makes look-alike names one name (``name_key``, unique; :mod:`paiju.server.names`);
- ``tokens``: login sessions (the SHA-256 of the session token, never the token; when the
  session ends unless used again; :mod:`paiju.server.sessions`);
- ``ledger``: every movement of points, with its reason, hand and an idempotency key;
- ``tables``, ``hands``, ``hand_actions``: the tables and the action log each hand is
  rebuilt from after a restart;
- ``seats``: who sits at which table (one seat per account, the primary key says so), and
  whether 托管 plays for them;
- ``admin_actions``: every admin action, who took it, when and why (:mod:`paiju.server.admin`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "Account",
    "AdminAction",
    "Base",
    "GameTable",
    "Hand",
    "HandAction",
    "LedgerEntry",
    "SeatClaim",
    "Token",
]


class Base(DeclarativeBase):
    """The declarative base of every table."""


class Account(Base):
    """A player, or the house."""

    __tablename__ = "accounts"
    __table_args__ = (Index("uq_accounts_name_key", "name_key", unique=True),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    #: the name as the eye reads it (:func:`paiju.server.names.key`: marks, strokes,
    #: punctuation and spaces folded, then the TR39 skeleton, case-folded); null for a name
    #: registered before a migration (0004, 0006, 0008, 0009) that collided with an older one's key
    name_key: Mapped[str | None] = mapped_column(String(400), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(200), default="")
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    is_house: Mapped[bool] = mapped_column(Boolean, default=False)
    #: may use the admin API (``paiju admin role``)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: an admin suspended it: it cannot log in or sit (``paiju admin suspend``)
    suspended: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class Token(Base):
    """A login session: the SHA-256 of its token, and when it ends (Unix seconds)."""

    __tablename__ = "tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: the session ends at this time unless it is used again (sliding expiry)
    expires_at: Mapped[int] = mapped_column(BigInteger)
    #: the last time its expiry was moved
    last_used_at: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class LedgerEntry(Base):
    """One side of one movement of points."""

    __tablename__ = "ledger"
    __table_args__ = (UniqueConstraint("event_key", "seq", name="uq_ledger_event"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    balance_after: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(20))
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    event_key: Mapped[str] = mapped_column(String(120))
    seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class GameTable(Base):
    """A table of a room; ``code``: a private table's code (friends join by it), else null."""

    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str] = mapped_column(String(20))
    code: Mapped[str | None] = mapped_column(String(8), nullable=True, unique=True, index=True)
    status: Mapped[str] = mapped_column(String(20), default="open")
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class Hand(Base):
    """One hand played at a table: enough to rebuild it by replay. ``status``: ``live``,
    ``done``, ``aborted`` (an escape) or ``void`` (quarantined: it could not be rebuilt)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "hand_no", name="uq_hand_table_no"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    hand_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the process that started the hand, then the one that closed it
    writer: Mapped[str | None] = mapped_column(String(32), nullable=True)
    game: Mapped[str] = mapped_column(String(20))
    seed: Mapped[int] = mapped_column(BigInteger)
    ruleset: Mapped[dict[str, Any]] = mapped_column(JSON)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    stake: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(20), default="live", index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class HandAction(Base):
    """One action of a hand, in order."""

    __tablename__ = "hand_actions"
    __table_args__ = (UniqueConstraint("hand_id", "seq", name="uq_hand_action_seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(40))
    writer: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class SeatClaim(Base):
    """An account sitting at a table (at most one: the account is the key)."""

    __tablename__ = "seats"
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    #: 托管 (auto-play) is on: a rebuilt hand plays the seat for its player
    tuoguan: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )


class AdminAction(Base):
    """One admin action: who (``cli:<user>`` or ``account:<name>``), what, to whom, why."""

    __tablename__ = "admin_actions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(20))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id"), nullable=True, index=True
    )
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), nullable=True)
    amount: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[dt.datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
