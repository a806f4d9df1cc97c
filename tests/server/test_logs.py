"""Logs an operator can search: a real ``paiju serve`` with ``PAIJU_LOG_FORMAT=json`` plays a
hand; every line it writes (besides its two ``paiju:`` announcements on standard output)
is one JSON object with the time, level, logger and message, and the table's, hand's and
account's ids ride on the records of the hand's life; no password or token is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.harness import Player, Server, account, check_books
from tests.server.test_faults import env

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")


def test_a_live_hands_logs_are_json_lines_with_their_fields(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'paiju.db'}"
    server = Server(env(url, PAIJU_LOG_FORMAT="json", PAIJU_LOG_LEVEL="INFO")).start()
    try:
        token = account(server.base, "ana")
        echo = httpx.get(f"http://{server.base}/api/health", headers={"x-request-id": "abc-1"})
        assert echo.headers["x-request-id"] == "abc-1"
        player = Player(token, [server.base])
        player.start()
        player.wait_for(lambda f: f["type"] == "settlement", timeout=180)
        assert not player.errors, player.errors
    finally:
        player.close()
        server.stop()
    lines = [line for line in server.log if line and not line.startswith("paiju: ")]
    records: list[dict[str, Any]] = [json.loads(line) for line in lines]  # every line parses
    assert records, server.log
    for r in records:
        assert {"ts", "level", "logger", "message"} <= set(r), r
        assert r["ts"].endswith("+00:00")
    by_event = {r.get("event"): r for r in records}
    seated, started, settled = by_event["seat"], by_event["hand_start"], by_event["settle"]
    assert seated["account"] in started["accounts"] and seated["logger"] == "paiju.table"
    assert started["table"] == settled["table"] == seated["table"]
    assert started["hand"] == settled["hand"] == player.settlements[0]["hand"]
    text = "\n".join(server.log)
    assert token not in text and "secret-pw-1" not in text
    check_books(url, [player])
