"""Modifier letters among letters of another script: every ``accounts.name_key`` computed
again by the key that reads a modifier letter only beside a letter of its own script
(``ʻpaulo`` and ``paーulo`` are ``paulo``; ``ラーメン`` keeps its ``ー``;
:func:`paiju.server.names.key`). As in 0004, 0006 and 0008, where two existing names now
share a key the older account keeps it and the newer keeps a null key (it logs in by its
exact name and plays on); each collision is logged as a warning (``paiju.migrations``).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from paiju.server.names import rekey_migration

revision = "0009"
down_revision = "0008"

# the keys computed again; the downgrade leaves them (each account still logs in by its
# exact name)
upgrade, downgrade = rekey_migration()
