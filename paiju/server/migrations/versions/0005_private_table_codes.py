"""Private tables (a table for friends): ``tables.code``, the code its players share, unique;
null for the rooms' public tables.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("code", sa.String(8), nullable=True))
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_tables_code", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("code")
