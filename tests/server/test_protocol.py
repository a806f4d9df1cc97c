"""The protocol's models are the one description of the WebSocket: the JSON Schema and the
message tables of docs/protocol.md are written from them and must be up to date; client
messages are parsed strictly, with coded errors that never echo long input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from paiju.server.errors import ServerError
from paiju.server.protocol import parse_client

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_schema_and_the_protocol_doc_are_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/protocol_docs.py", "--check"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    "raw",
    [
        b"not json",
        b"[]",
        b'{"type": "dance"}',
        b'{"type": "join"}',
        b'{"type": "join", "room": "mazhan", "alone": "yes"}',
        b'{"type": "action", "action": "S peng", "version": "4"}',
        b'{"type": "action", "action": "S peng", "version": -1}',
        b'{"type": "ready", "extra": 1}',
        b"[" * 100_000,
        b'{"type": "join", "room": "' + b"x" * 1_000_000 + b'"}',
    ],
)
def test_bad_client_messages_get_a_short_coded_error(raw: bytes) -> None:
    with pytest.raises(ServerError) as err:
        parse_client(raw)
    assert err.value.code == "bad_message"
    assert len(err.value.message) <= 220
