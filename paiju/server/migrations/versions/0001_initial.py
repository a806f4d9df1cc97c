"""The initial schema: accounts, tokens, ledger, tables, hands, hand actions."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def _created() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("is_house", sa.Boolean, nullable=False),
        _created(),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True
        ),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        _created(),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(40), nullable=False, index=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        _created(),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("ruleset", sa.JSON, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("stake", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("result", sa.JSON, nullable=True),
        _created(),
    )
    op.create_table(
        "hand_actions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        _created(),
        sa.UniqueConstraint("hand_id", "seq", name="uq_hand_action_seq"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False, index=True
        ),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("balance_after", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=True),
        sa.Column("event_key", sa.String(120), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        _created(),
        sa.UniqueConstraint("event_key", "seq", name="uq_ledger_event"),
    )


def downgrade() -> None:
    for table in ("ledger", "hand_actions", "hands", "tables", "tokens", "accounts"):
        op.drop_table(table)
