"""Points for the broke (``/api/relief``) on SQLite and PostgreSQL: who may claim, how much,
once a day by the room's clock, a clear refusal otherwise; claims racing on PostgreSQL pay
exactly once; the books summed after each."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from paiju.server.admin import run_cli
from paiju.server.app import create_app
from paiju.server.config import Settings
from paiju.server.db import make_engine, make_sessions, migrate
from paiju.server.errors import ServerError
from paiju.server.ledger import new_account
from paiju.server.models import LedgerEntry
from paiju.server.relief import Policy, claim, lowest_minimum
from tests.server.conftest import own_database
from tests.server.test_live_tables import FAST, bearer, books_balance, db_url, signup

__all__ = ["db_url"]

#: 2026-03-01 00:00 in Beijing (UTC+8), in Unix seconds
MIDNIGHT = 1_772_294_400


def _client(url: str, **settings: Any) -> TestClient:
    config = Settings(database_url=url, data_dir=Path("."), start_balance=100, **settings)
    client = TestClient(create_app(config, FAST))
    client.app.state.clock = lambda: float(MIDNIGHT + 3600)  # type: ignore[attr-defined]
    return client


def _at(client: TestClient, t: float) -> None:
    client.app.state.clock = lambda: float(t)  # type: ignore[attr-defined]


def _check(url: str) -> None:
    books_balance(url)
    code, out = run_cli("check", {}, url)
    assert code == 0 and out["ok"] is True, out


def test_a_broke_player_claims_once_a_day_up_to_the_minimum(db_url: str) -> None:
    floor = lowest_minimum()
    with _client(db_url) as client:
        ana = bearer(signup(client, "ana"))
        status = client.get("/api/relief", headers=ana).json()
        assert status["eligible"] and status["amount"] == floor - 100 and status["floor"] == floor
        assert client.get("/api/me", headers=ana).json()["relief"] is True
        r = client.post("/api/relief", headers=ana)
        assert r.status_code == 200 and r.json()["given"] == floor - 100
        assert r.json()["balance"] == floor
        assert client.get("/api/me", headers=ana).json()["relief"] is False
        again = client.post("/api/relief", headers=ana)
        assert again.status_code == 409 and again.json()["error"]["code"] == "balance_enough"
        run_cli("take", {"name": "ana", "amount": floor - 50, "why": "lost at cards"}, db_url)
        refused = client.post("/api/relief", headers=ana)
        assert refused.status_code == 409
        error = refused.json()["error"]
        assert error["code"] == "relief_claimed"
        assert error["detail"]["next_day_at"] == MIDNIGHT + 86_400
        _at(client, MIDNIGHT + 86_400 - 1)  # 23:59:59 in Beijing: still the same day
        assert client.post("/api/relief", headers=ana).status_code == 409
        _at(client, MIDNIGHT + 86_400)  # the next day
        r = client.post("/api/relief", headers=ana)
        assert r.status_code == 200 and r.json()["given"] == floor - 50
        assert client.post("/api/relief").status_code == 401
    house = run_cli("house", {}, db_url)[1]
    assert house["by_reason"]["relief"] == {"points": -(2 * floor - 150), "entries": 2}
    _check(db_url)


def test_the_amount_is_capped_and_relief_can_be_turned_off(db_url: str) -> None:
    with _client(db_url, relief_amount=300, relief_per_day=2) as client:
        ana = bearer(signup(client, "ana"))
        assert client.post("/api/relief", headers=ana).json()["given"] == 300
        status = client.get("/api/relief", headers=ana).json()
        assert status["claimed_today"] == 1 and status["per_day"] == 2 and status["amount"] == 300
        assert client.post("/api/relief", headers=ana).json()["balance"] == 700
    with _client(db_url, relief_per_day=0) as client:
        ana = bearer(signup(client, "bo"))
        r = client.post("/api/relief", headers=ana)
        assert r.status_code == 403 and r.json()["error"]["code"] == "relief_off"
        assert client.get("/api/relief", headers=ana).json()["why"] == "relief_off"
        assert client.get("/api/me", headers=ana).json()["relief"] is False
    _check(db_url)


def test_racing_claims_pay_exactly_once_on_postgresql() -> None:
    """Eight players each send eight claims at once over HTTP (a real PostgreSQL, each
    request in its own thread and transaction), then sixteen threads call the claim itself
    for one more player behind a barrier: one claim each is paid, the others refused."""
    with own_database() as url:
        with _client(url) as client:
            people = [bearer(signup(client, f"p{i}")) for i in range(8)]
            jobs = [who for who in people for _ in range(8)]
            with ThreadPoolExecutor(len(jobs)) as pool:
                answers = list(pool.map(lambda h: client.post("/api/relief", headers=h), jobs))
            codes = [a.status_code for a in answers]
            assert codes.count(200) == 8 and codes.count(409) == 56, codes
            assert all(
                a.json()["error"]["code"] in ("relief_claimed", "balance_enough")
                for a in answers
                if a.status_code == 409
            )
        engine = make_engine(url)
        migrate(engine)
        db = make_sessions(engine)
        with db.begin() as s:
            zed = new_account(s, "zed", "", 0).id
        policy = Policy(amount=800, per_day=1, utc_offset=8, floor=800)
        gate = threading.Barrier(16)

        def one(_: int) -> str:
            gate.wait()
            try:
                claim(db, policy, zed, MIDNIGHT)
            except ServerError as e:
                return e.code
            return "paid"

        with ThreadPoolExecutor(16) as pool:
            outcomes = list(pool.map(one, range(16)))
        assert outcomes.count("paid") == 1, outcomes
        with db() as s:
            reliefs = s.scalars(
                sa.select(LedgerEntry.amount).where(
                    LedgerEntry.reason == "relief", LedgerEntry.amount > 0
                )
            ).all()
        assert sorted(reliefs) == [700] * 8 + [800]
        engine.dispose()
        _check(url)
