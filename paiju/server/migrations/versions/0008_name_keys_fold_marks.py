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

from paiju.server.names import rekey_migration

revision = "0008"
down_revision = "0007"

# the keys computed again; the downgrade leaves them (each account still logs in by its
# exact name)
upgrade, downgrade = rekey_migration()
