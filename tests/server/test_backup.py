"""Backups (docs/operate.md): a real PostgreSQL database with several finished hands and
several live ones (three tables, Mazhan and Ma Diao, each with a hand settled and the next in
play) is dumped with ``pg_dump``, restored with ``pg_restore`` into a fresh database, and the
restore is whole: every balance, every hand and its action log, ``paiju admin check`` (the
command itself) balanced, and a server started on it rebuilds every live hand at once and
plays each to its settlement for its returning player."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from starlette.testclient import WebSocketTestSession

from paiju.server.admin import run_cli
from paiju.server.db import make_engine, make_sessions
from paiju.server.models import Account, Hand, HandAction
from paiju.server.table import Timing
from tests.server.conftest import own_database
from tests.server.test_live_tables import act_text, bearer, make, signup, until

ROOT = Path(__file__).resolve().parent.parent.parent
#: who plays, and where: each at a table of their own with three bots
PEOPLE = {"ana": "mazhan", "bo": "mazhan", "cy": "madiao"}
#: both servers' clocks: a player who has stopped at a live hand is never timed out while
#: another plays (their hand must still be live when the database is dumped, and still
#: theirs to play when they return to the restored server, however slow the machine)
PATIENT = Timing(turn=600.0, ready=600.0, bot_wait=0.01, disconnect=600.0, bot_delay=0.0,
                 claim_pause=0.0)  # fmt: skip


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


def _one_settled_one_live(ws: WebSocketTestSession, room: str) -> tuple[int, dict[str, Any]]:
    """Sit alone in ``room``, play a hand to its settlement, confirm the next and stop at its
    first view: the settled hand's id, and that view."""
    ws.send_json({"type": "join", "room": room, "alone": True})
    until(ws, {"seated"})
    ws.send_json({"type": "ready"})
    done: int = until(ws, {"settlement"}, play=True)["hand"]
    ws.send_json({"type": "ready"})
    live = until(ws, {"view"})
    assert live["hand"] != done
    return done, live


def _admin_check(url: str) -> dict[str, Any]:
    """``paiju admin check`` run as an operator runs it; exit 0 and its report."""
    out = subprocess.run(
        [sys.executable, "-m", "paiju.cli", "admin", "check"],
        env={**os.environ, "PAIJU_DATABASE_URL": url}, cwd=ROOT,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stdout + out.stderr
    report: dict[str, Any] = json.loads(out.stdout)
    return report


def test_a_dump_restored_elsewhere_is_whole_and_plays_on(tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not on PATH (apt-get install postgresql-client)")
    with own_database() as source, own_database() as copy:
        tokens: dict[str, str] = {}
        done: dict[str, int] = {}
        live: dict[str, dict[str, Any]] = {}
        with make(source, PATIENT) as client:
            for name, room in PEOPLE.items():
                tokens[name] = signup(client, name)
                with client.websocket_connect("/ws", headers=bearer(tokens[name])) as ws:
                    done[name], live[name] = _one_settled_one_live(ws, room)
        # the process is gone in mid-hand at three tables: three hands live in the database
        assert len({v["table"] for v in live.values()}) == len(PEOPLE)
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
        assert hands == {h: "done" for h in done.values()} | {
            v["hand"]: "live" for v in live.values()
        }
        for name, view in live.items():  # (a hand shown at its deal has no action logged)
            assert actions.get(view["hand"], 0) >= view["version"], name
        assert set(balances) >= set(PEOPLE)
        check = _admin_check(copy)
        assert check["ok"] and check["accounts"] == len(balances), check
        # a server on the restore rebuilds every live hand as it starts, before anyone returns
        with make(copy, PATIENT) as client:
            hub = client.app.state.services.hub  # type: ignore[attr-defined]
            rebuilt = {r.id: r.machine.live for r in hub.tables.values()}
            assert rebuilt == {v["table"]: True for v in live.values()}, rebuilt
            for name, view in live.items():
                me = client.get("/api/me", headers=bearer(tokens[name])).json()
                assert me["balance"] == balances[name], name
                with client.websocket_connect("/ws", headers=bearer(tokens[name])) as ws:
                    assert until(ws, {"seated"})["table"] == view["table"]
                    again = until(ws, {"view"})
                    assert again["hand"] == view["hand"] and again["version"] >= view["version"]
                    assert again["catch_up"] is True
                    if again["view"]["legal"]:  # their turn, shown again: they play it
                        ws.send_json(
                            {"type": "action", "action": act_text(again["view"]["legal"][-1]),
                             "version": again["version"]}
                        )  # fmt: skip
                    assert until(ws, {"settlement"}, play=True)["hand"] == view["hand"]
        statuses = _contents(copy)[1]
        assert statuses == {h: "done" for h in hands}, statuses
        assert run_cli("check", {}, copy)[1]["ok"] is True
