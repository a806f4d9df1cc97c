"""Modifier letters among letters of another script: every ``accounts.name_key`` computed
again by the key that reads a modifier letter only beside a letter of its own script
(``ʻpaulo`` and ``paーulo`` are ``paulo``; ``ラーメン`` keeps its ``ー``;
:func:`paiju.server.names.key`); two names that now share a key are settled as
:func:`~paiju.server.names.rekey_migration` says.
"""

from __future__ import annotations

from paiju.server.names import rekey_migration

revision = "0009"
down_revision = "0008"

upgrade, downgrade = rekey_migration()
