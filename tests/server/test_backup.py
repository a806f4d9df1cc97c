"""Backups (docs/operate.md): a real PostgreSQL database with a finished hand and a live one
is dumped with ``pg_dump``, restored with ``pg_restore`` into a fresh database, and the
restore is whole: every balance, every hand and its action log, ``paiju admin check``
balanced, and a server started on it rebuilds the live hand for its returning player."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import sqlalchemy as sa

from paiju.server.admin import run_cli
from paiju.server.db import make_engine, make_sessions
from paiju.server.models import Account, Hand, HandAction
from tests.server.conftest import own_database
from tests.server.test_live_tables import bearer, make, signup, sit_down, until


def _libpq(url: str) -> str:
    """The URL as PostgreSQL's own programs read it (no SQLAlchemy driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def _contents(url: str) -> tuple[dict[str, int], dict[int, str], dict[int, int]]:
    """Balances by name, hands' statuses, and each hand's logged actions."""
    engine = make_engine(url)
    with make_sessions(engine)() as s:
        balances = {a.name: int(a.balance) for a in s.scalars(sa.select(Account))}
        hands = {h.id: h.status for h in s.scalars(sa.select(Hand))}
        counts = s.execute(
            sa.select(HandAction.hand_id, sa.func.count()).group_by(HandAction.hand_id)
        ).all()
    engine.dispose()
    return balances, hands, {int(h): int(n) for h, n in counts}


def test_a_dump_restored_elsewhere_is_whole_and_plays_on(tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not on PATH (apt-get install postgresql-client)")
    with own_database() as source, own_database() as copy:
        with make(source) as client:
            token = signup(client, "ana")
            signup(client, "bo")
            with client.websocket_connect("/ws", headers=bearer(token)) as ws:
                sit_down(ws, "mazhan")
                done = until(ws, {"settlement"}, play=True)
                ws.send_json({"type": "ready"})
                live = until(ws, {"view"})
                assert live["hand"] != done["hand"]
        # the process is gone in mid-hand: the second hand is live in the database
        dump = tmp_path / "paiju.dump"
        subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", "--file", str(dump), _libpq(source)],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "--dbname", _libpq(copy), str(dump)],
            check=True,
            capture_output=True,
        )
        before, after = _contents(source), _contents(copy)
        assert before == after
        balances, hands, actions = after
        assert hands == {done["hand"]: "done", live["hand"]: "live"}
        assert actions[live["hand"]] >= live["version"] and set(balances) >= {"ana", "bo"}
        code, check = run_cli("check", {}, copy)
        assert code == 0 and check["ok"] and check["accounts"] == len(balances), check
        # a server on the restore rebuilds the live hand; its player sits there again
        with make(copy) as client:
            assert (
                client.get("/api/me", headers=bearer(token)).json()["balance"] == (balances["ana"])
            )
            with client.websocket_connect("/ws", headers=bearer(token)) as ws:
                assert until(ws, {"seated"})["table"] == live["table"]
                view = until(ws, {"view"})
                assert view["hand"] == live["hand"] and view["version"] >= live["version"]
                until(ws, {"settlement"}, play=True)
        assert run_cli("check", {}, copy)[1]["ok"] is True
