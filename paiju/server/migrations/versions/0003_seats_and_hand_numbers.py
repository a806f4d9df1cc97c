"""One live seat per account (``seats``); each hand's number at its table, so that a
retried hand start is recognised (unique ``(table_id, hand_no)``); which process wrote a
step, started or closed a hand (``writer``), so that a process retrying a write whose answer
it lost can tell its own row from another process's.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "seats",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), nullable=False, index=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    with op.batch_alter_table("hands") as batch:
        batch.add_column(sa.Column("hand_no", sa.Integer, nullable=True))
        batch.add_column(sa.Column("writer", sa.String(32), nullable=True))
        batch.create_unique_constraint("uq_hand_table_no", ["table_id", "hand_no"])
    with op.batch_alter_table("hand_actions") as batch:
        batch.add_column(sa.Column("writer", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hand_actions") as batch:
        batch.drop_column("writer")
    with op.batch_alter_table("hands") as batch:
        batch.drop_constraint("uq_hand_table_no", type_="unique")
        batch.drop_column("writer")
        batch.drop_column("hand_no")
    op.drop_table("seats")
