"""托管 survives restarts: ``seats.tuoguan``, true while the seat's player has auto-play on.
Written with the step that turns it on or off, read when a live hand is rebuilt (a restart,
a fail-over), so a player who turned it on and walked away is played for, not charged
timeouts.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("tuoguan", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("tuoguan")
