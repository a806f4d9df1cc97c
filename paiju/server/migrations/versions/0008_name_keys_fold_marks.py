"""Look-alike names with accents, strokes, punctuation or spaces: every ``accounts.name_key``
computed again by the key that also drops diacritics, reads a letter with a stroke as the
letter, and ignores ``_ - .`` and spaces (``páulo``, ``pauło``, ``paulo.`` and ``pa ulo``
are ``paulo``; :func:`paiju.server.names.key`). As in 0004 and 0006, where two existing
names now share a key the older account keeps it and the newer keeps a null key (it logs in
by its exact name and plays on); each collision is logged as a warning
(``paiju.migrations``).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

log = logging.getLogger("paiju.migrations")


def upgrade() -> None:
    from paiju.server.names import assign_keys

    accounts = sa.table(
        "accounts", sa.column("id"), sa.column("name"), sa.column("name_key"),
        sa.column("is_house"),
    )  # fmt: skip
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(accounts.c.id, accounts.c.name).order_by(
            accounts.c.is_house.desc(),
            accounts.c.id,  # the house's name first, as it was
        )
    ).all()
    keys = assign_keys(rows, log)
    # cleared first: a key may move from one account to another (unique at every step)
    bind.execute(accounts.update().values(name_key=None))
    for account_id, key in keys.items():
        if key is not None:
            bind.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=key))


def downgrade() -> None:
    """The keys stay as they are: each account still logs in by its exact name, and the
    older code, finding a name by its own key, misses only the spellings it would not fold
    (a login as ``Pauło`` for ``pauło``)."""
