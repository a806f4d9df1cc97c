"""An index on hands.status: the fail-over watch and a restart look for the live hands."""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_index("ix_hands_status", "hands", ["status"])


def downgrade() -> None:
    op.drop_index("ix_hands_status", table_name="hands")
