"""Look-alike names across case: every ``accounts.name_key`` computed again by the key that
also reads a letter whose capital looks like another letter as that letter (``biII`` is
``bill``, ``b0b`` is ``bob``; :func:`paiju.server.names.key`). As in 0004, where two existing
names now share a key the older account keeps it and the newer keeps a null key (it logs in
by its exact name and plays on); each collision is logged as a warning
(``paiju.migrations``).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from paiju.server.names import rekey_migration

revision = "0006"
down_revision = "0005"

# the keys computed again; the downgrade leaves them (each account still logs in by its
# exact name)
upgrade, downgrade = rekey_migration()
