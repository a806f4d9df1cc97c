"""Look-alike names across case: every ``accounts.name_key`` computed again by the key that
also reads a letter whose capital looks like another letter as that letter (``biII`` is
``bill``, ``b0b`` is ``bob``; :func:`paiju.server.names.key`); two names that now share
a key are settled as :func:`~paiju.server.names.rekey_migration` says.
"""

from __future__ import annotations

from paiju.server.names import rekey_migration

revision = "0006"
down_revision = "0005"

upgrade, downgrade = rekey_migration()
