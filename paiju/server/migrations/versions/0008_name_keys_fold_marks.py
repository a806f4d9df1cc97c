"""Look-alike names with accents, strokes, punctuation or spaces: every ``accounts.name_key``
computed again by the key that also drops diacritics, reads a letter with a stroke as the
letter, and ignores ``_ - .`` and spaces (``páulo``, ``pauło``, ``paulo.`` and ``pa ulo``
are ``paulo``; :func:`paiju.server.names.key`); two names that now share a key are
settled as :func:`~paiju.server.names.rekey_migration` says.
"""

from __future__ import annotations

from paiju.server.names import rekey_migration

revision = "0008"
down_revision = "0007"

upgrade, downgrade = rekey_migration()
