"""An admin's tools: ``accounts.is_admin`` (the role the admin API asks for),
``accounts.suspended`` (a suspended account cannot log in or sit), and ``admin_actions``,
the audit of every admin action: who, when, what, to which account or table, how many
points, and why. Points an admin moves are ledger events keyed by their audit row.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    # ADD COLUMN in place on every database (a batch would copy ``accounts`` on SQLite, which
    # the rows referring to it forbid while foreign keys are enforced)
    for column in ("is_admin", "suspended"):
        op.add_column(
            "accounts",
            sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false()),
        )
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("reason", sa.String(500), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_index("ix_admin_actions_account_id", "admin_actions", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_admin_actions_account_id", "admin_actions")
    op.drop_table("admin_actions")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("suspended")
        batch.drop_column("is_admin")
