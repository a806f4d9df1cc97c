"""Sessions that end (``tokens.expires_at``, ``tokens.last_used_at``; the sessions open before
this migration end 30 days after it unless used), and the key that makes look-alike names one
name (``accounts.name_key``, unique).

The key of every existing account is computed here (:func:`paiju.server.names.lenient_key`).
Where two existing names share a key (``ana`` and ``Ana``, ``trailnl`` and ``trailnl\\n``),
the older account gets it and the newer keeps a null key: it still logs in by its exact name
and plays as before, and nobody can register a third look-alike. Each collision is logged as
a warning (``paiju.migrations``); ``SELECT id, name FROM accounts WHERE name_key IS NULL``
lists them later.
"""

from __future__ import annotations

import logging
import time

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"

log = logging.getLogger("paiju.migrations")
_DAYS_30 = 30 * 24 * 3600


def upgrade() -> None:
    from paiju.server.names import assign_keys

    now = int(time.time())
    with op.batch_alter_table("tokens") as batch:
        batch.add_column(
            sa.Column(
                "expires_at", sa.BigInteger, nullable=False, server_default=str(now + _DAYS_30)
            )
        )
        batch.add_column(
            sa.Column("last_used_at", sa.BigInteger, nullable=False, server_default=str(now))
        )
    with op.batch_alter_table("tokens") as batch:
        batch.alter_column("expires_at", server_default=None)
        batch.alter_column("last_used_at", server_default=None)
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(400), nullable=True))

    accounts = sa.table("accounts", sa.column("id"), sa.column("name"), sa.column("name_key"))
    bind = op.get_bind()
    rows = bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id))
    for account_id, key in assign_keys(rows.all(), log).items():
        bind.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=key))
    op.create_index("uq_accounts_name_key", "accounts", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_accounts_name_key", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_key")
    with op.batch_alter_table("tokens") as batch:
        batch.drop_column("last_used_at")
        batch.drop_column("expires_at")
