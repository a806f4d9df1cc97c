"""Every error code the server sends is worded on the page, in both languages: a player never
meets a code, or the catch-all "something went wrong", for a refusal the server names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


#: Codes no page meets: the ledger's own checks, which refuse a write inside the server (a
#: table's money is worked out before it is written); the password change, which only the
#: HTTP API offers (the page has no form for it); the admin's API (`paiju admin` and
#: /api/admin: no page of the player's client asks it) and the metrics' address (scraped by
#: Prometheus, never by a page).
UNSEEN = {
    "bad_movement", "insufficient_funds", "wrong_password",
    "no_change", "reason_required", "unknown_account", "not_found",
}  # fmt: skip


def _sent_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "paiju" / "server").rglob("*.py"):
        lines = path.read_text("utf-8").splitlines()
        text = "\n".join(line for line in lines if ">>>" not in line)  # not the examples
        codes |= set(re.findall(r'ServerError\(\s*"(\w+)"', text))
        # a table's `self._error(account, "code", …)` and the socket's `_error("code", …)`
        codes |= set(re.findall(r'_error\(\s*(?:[\w.]+,\s*)?"(\w+)"', text))
        codes |= set(re.findall(r'"type": "error", "code": "(\w+)"', text))
    return codes


def _worded(lang: str) -> set[str]:
    source = (ROOT / "client" / "src" / "i18n" / f"{lang}.ts").read_text("utf-8")
    block = source[source.index("  errors: {") :].split("\n  },", 1)[0]
    return set(re.findall(r"^    (\w+):", block, re.MULTILINE))


def test_the_codes_are_found() -> None:
    # the search above finds what it should: a table's refusal, an HTTP one, a socket one
    found = _sent_codes()
    assert {"not_seated", "escape_unconfirmed", "name_taken", "bad_message"} <= found
    assert {"storage_unavailable", "rate_limited"} <= found  # the socket's own


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_code_the_server_sends_is_worded(lang: str) -> None:
    missing = _sent_codes() - UNSEEN - _worded(lang)
    assert not missing, f"{lang}: no words for {sorted(missing)}"
