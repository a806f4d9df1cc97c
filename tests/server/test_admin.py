"""An admin's tools over the API and the CLI, on SQLite and PostgreSQL: points moved through
the ledger, a suspension during a live hand (托管 plays on, no escape), a table closed with
its fees refunded; each audited, and the books summed after each."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa

from paiju.server.admin import run_cli
from paiju.server.db import make_engine, make_sessions
from paiju.server.models import AdminAction, Hand, LedgerEntry
from tests.server.test_live_tables import (  # the fixture db_url: SQLite and PostgreSQL
    FAST,
    bearer,
    books_balance,
    db_url,
    make,
    signup,
    sit_down,
    until,
)

__all__ = ["db_url"]


def _ended(svc: Any) -> threading.Event:
    """Set once the writer has committed a hand's end (a settlement or an escape)."""
    done = threading.Event()
    batch = svc.metrics.batch

    def watch(size: int, waited: float, took: float, kinds: Sequence[str]) -> None:
        batch(size, waited, took, kinds)
        if "CloseHand" in kinds or "AbortHand" in kinds:
            done.set()

    svc.metrics.batch = watch
    return done


def _rows(url: str, query: Any) -> list[Any]:
    engine = make_engine(url)
    with make_sessions(engine)() as s:
        rows = list(s.execute(query).all())
    engine.dispose()
    return rows


def test_points_roles_and_refusals(db_url: str) -> None:
    with make(db_url) as client:
        signup(client, "ana")
        boss = bearer(signup(client, "boss"))
        assert client.get("/api/admin/house", headers=boss).status_code == 403
        assert run_cli("role", {"name": "boss", "why": "runs the room"}, db_url)[0] == 0
        r = client.post(
            "/api/admin/accounts/ana/points", headers=boss, json={"amount": 500, "reason": "prize"}
        )
        assert r.status_code == 200 and r.json()["balance"] == 10_500
        take = {"amount": -20_000, "reason": "too much"}
        r = client.post("/api/admin/accounts/ana/points", headers=boss, json=take)
        assert r.status_code == 402 and r.json()["error"]["code"] == "insufficient_funds"
        blank = {"amount": -5, "reason": "  "}
        r = client.post("/api/admin/accounts/ana/points", headers=boss, json=blank)
        assert r.status_code == 422 and r.json()["error"]["code"] == "reason_required"
        r = client.post("/api/admin/accounts/zed/points", headers=boss, json=take)
        assert r.status_code == 404
        found = client.get("/api/admin/accounts/ana", headers=boss).json()
        assert found["balance"] == 10_500 and found["actions"][0]["actor"] == "account:boss"
        assert {e["reason"] for e in found["ledger"]} == {"issue", "grant"}
    code, out = run_cli("take", {"name": "ana", "amount": 100, "why": "a refund undone"}, db_url)
    assert code == 0 and out["balance"] == 10_400
    assert run_cli("grant", {"name": "ana", "amount": 0, "why": "x"}, db_url)[0] == 1
    house = run_cli("house", {}, db_url)[1]
    assert house["by_reason"]["grant"]["points"] == -500
    assert house["by_reason"]["take"]["points"] == 100
    audit = _rows(db_url, sa.select(AdminAction.actor, AdminAction.action, AdminAction.amount))
    assert [a[1:] for a in audit] == [("admin", None), ("grant", 500), ("take", -100)]
    assert run_cli("check", {}, db_url) == (0, run_cli("check", {}, db_url)[1])
    assert run_cli("check", {}, db_url)[1]["ok"] is True
    books_balance(db_url)


#: 托管 at a human pace: with bots and 托管 answering at once, the suspended seat's hand can be
#: played to its end (and the seat freed) before the test looks at the table; once it has
#: looked, the table's bots and 托管 answer at once again (FAST) for the rest of the hand
PACED = dataclasses.replace(FAST, bot_delay=0.3)


def test_a_suspended_player_is_played_for_without_penalty(db_url: str) -> None:
    with make(db_url, PACED) as client:
        svc = client.app.state.services  # type: ignore[attr-defined]
        ana = signup(client, "ana")
        boss = bearer(signup(client, "boss"))
        run_cli("role", {"name": "boss", "why": "ops"}, db_url)
        ended = _ended(svc)
        with client.websocket_connect("/ws", headers=bearer(ana)) as ws:
            sit_down(ws, "mazhan")
            until(ws, {"hand_start"})
            r = client.post(
                "/api/admin/accounts/ana/suspend", headers=boss, json={"reason": "cheating"}
            )
            assert r.status_code == 200
            runner = svc.hub.table_of(r.json()["id"])
            assert runner.machine.seats  # still seated: 托管 plays
            # looked: the rest of the hand at once (PACED only kept it from ending before the
            # look), set on the event loop's thread, between the table's steps
            assert client.portal is not None
            client.portal.call(setattr, runner.machine, "timing", FAST)
        assert ended.wait(120)  # the hand ends, played for
        again = client.post("/api/login", json={"name": "ana", "password": "secret-pw"})
        assert again.status_code == 403 and again.json()["error"]["code"] == "suspended"
        assert client.get("/api/me", headers=bearer(ana)).status_code == 401  # sessions ended
        r = client.post("/api/admin/accounts/ana/suspend", headers=boss, json={"reason": "x"})
        assert r.status_code == 409
        lift = client.post("/api/admin/accounts/ana/lift", headers=boss, json={"reason": "ok"})
        assert lift.status_code == 200
        assert (
            client.post("/api/login", json={"name": "ana", "password": "secret-pw"}).status_code
            == 200
        )
    hands = _rows(db_url, sa.select(Hand.status))
    assert [h[0] for h in hands] == ["done"]  # settled, not an escape
    escapes = _rows(db_url, sa.select(LedgerEntry.id).where(LedgerEntry.reason == "escape"))
    assert escapes == []
    books_balance(db_url)


def test_closing_a_table_voids_its_hand_and_refunds_the_fees(db_url: str) -> None:
    with make(db_url) as client:
        cy = signup(client, "cy")
        boss = bearer(signup(client, "boss"))
        run_cli("role", {"name": "boss", "why": "ops"}, db_url)
        with client.websocket_connect("/ws", headers=bearer(cy)) as ws:
            sit_down(ws, "mazhan")
            start = until(ws, {"hand_start"})
            assert start["fee"] > 0
            table = client.get("/api/me", headers=bearer(cy)).json()["seated"]["table"]
            r = client.post(
                f"/api/admin/tables/{table}/close", headers=boss, json={"reason": "broken"}
            )
            assert r.status_code == 200 and len(r.json()["voided"]) == 1
            assert until(ws, {"unseated"})["why"] == "table_closed"
        assert client.get("/api/me", headers=bearer(cy)).json()["balance"] == 10_000
        again = client.post(f"/api/admin/tables/{table}/close", headers=boss, json={"reason": "x"})
        assert again.status_code == 409
        assert (
            client.post(
                "/api/admin/tables/9999/close", headers=boss, json={"reason": "x"}
            ).status_code
            == 404
        )
    assert [h[0] for h in _rows(db_url, sa.select(Hand.status))] == ["void"]
    assert run_cli("check", {}, db_url)[1]["ok"] is True
    books_balance(db_url)
