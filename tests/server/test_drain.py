"""Drain on SIGTERM: a real ``paiju serve`` sent SIGTERM in mid-hand says at once it is not
ready (``/api/ready`` 503, ``paiju_draining`` 1), tells its player (``draining``), refuses
a new join (``draining``), lets the live hand play to its settlement with no escape and no
reconnect, starts no other hand, and exits 0."""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import connect

from paiju.server.db import make_engine, make_sessions
from paiju.server.models import Hand, LedgerEntry
from tests.server.harness import Player, Server, account, check_books
from tests.server.test_faults import env

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
TOKEN = "metrics-token-0123456789"


def _poll(test: Any, timeout: float = 30.0) -> Any:
    """Look at ``test()`` every 20 ms until it is true; its value."""
    tick = threading.Event()
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = test()
        if value:
            return value
        tick.wait(0.02)
    raise AssertionError(f"not within {timeout} s: {test}")


def test_sigterm_in_mid_hand_drains_finishes_the_hand_and_exits_0(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'paiju.db'}"
    settings = env(url, PAIJU_DRAIN_SECONDS="120", PAIJU_METRICS_TOKEN=TOKEN)
    server = Server(settings).start()
    base = f"http://{server.base}"
    held = threading.Event()

    def hold_at_4(frame: dict[str, Any]) -> None:
        # in the receive thread, before the player answers: stop acting from view 4 on
        if frame["type"] == "view" and frame["version"] >= 4 and not held.is_set():
            player.hold.set()
            held.set()

    player = Player(account(server.base, "ana"), [server.base], on_frame=hold_at_4)
    try:
        player.start()
        assert held.wait(120), player.frames[-3:]
        assert httpx.get(f"{base}/api/ready").status_code == 200
        late = account(server.base, "bo")
        assert server.proc is not None
        server.proc.send_signal(signal.SIGTERM)
        notice = player.wait_for(lambda f: f["type"] == "draining", timeout=30)
        assert notice["seconds"] == 120
        ready = _poll(lambda: (r := httpx.get(f"{base}/api/ready")).status_code == 503 and r)
        assert ready.json()["reason"] == "draining"
        scraped = httpx.get(f"{base}/metrics", headers={"authorization": f"Bearer {TOKEN}"})
        assert "paiju_draining 1.0" in scraped.text
        with connect(
            f"ws://{server.base}/ws", additional_headers={"Authorization": f"Bearer {late}"}
        ) as ws:
            assert json.loads(ws.recv(timeout=30))["type"] == "hello"
            ws.send(json.dumps({"type": "join", "room": "mazhan", "alone": True}))
            refusal = json.loads(ws.recv(timeout=30))
            assert refusal["type"] == "error" and refusal["code"] == "draining", refusal
        # the player plays on: the hand ends on this process
        player.hold.clear()
        last = [f for f in player.frames if f["type"] == "view"][-1]
        if last["view"]["legal"]:
            player.send({"type": "action", "action": player.pick(last), "version": last["version"]})
        settlement = player.wait_for(lambda f: f["type"] == "settlement", timeout=180)
        assert server.proc.wait(timeout=60) == 0, "\n".join(server.log[-20:])
    finally:
        player.close()
        server.stop()
    assert player.reconnects == 0 and not player.errors, player.errors
    after = [f["type"] for f in player.frames[player.frames.index(settlement) :]]
    assert "hand_start" not in after  # no other hand started on a draining process
    engine = make_engine(url)
    with make_sessions(engine)() as s:
        hands = s.execute(sa.select(Hand.id, Hand.status)).all()
        escapes = s.scalars(sa.select(LedgerEntry.id).where(LedgerEntry.reason == "escape")).all()
    engine.dispose()
    assert [(h, st) for h, st in hands] == [(settlement["hand"], "done")] and escapes == []
    check_books(url, [player])
