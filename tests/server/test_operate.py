"""What an operator reads: the metrics scraped during a live hand, readiness."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from paiju.server.app import create_app
from paiju.server.config import Settings
from tests.server.test_live_tables import FAST, bearer, books_balance, signup, sit_down, until

TOKEN = "metrics-token-0123456789"


def scrape(client: TestClient) -> dict[str, float]:
    """The samples of ``/metrics``: ``name`` or ``name{k=v,…}`` → value."""
    r = client.get("/metrics", headers=bearer(TOKEN))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            out[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return out


def _app(tmp_path: Path, **extra: Any) -> TestClient:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'paiju.db'}", data_dir=tmp_path, **extra
    )
    return TestClient(create_app(settings, FAST))


def test_the_metrics_move_during_a_live_hand(tmp_path: Path) -> None:
    with _app(tmp_path, metrics_token=TOKEN) as client:
        before = scrape(client)
        assert before["paiju_actions_total"] == 0 and before["paiju_tables{state=playing}"] == 0
        token = signup(client, "ana")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            until(ws, {"hello"})
            sit_down(ws, "mazhan")
            until(ws, {"hand_start"})
            until(ws, {"view"})  # the hand is live: a first scrape in its midst
            during = scrape(client)
            assert during["paiju_tables{state=playing}"] == 1
            assert during["paiju_seated_people"] == 1 and during["paiju_sockets"] == 1
            assert during["paiju_writes_total{kind=StartHand}"] == 1
            assert during["paiju_writer_batch_size_count"] >= 1
            until(ws, {"settlement"}, play=True)
            after = scrape(client)
    assert after["paiju_actions_total"] > during["paiju_actions_total"]
    assert after["paiju_action_durable_seconds_count"] >= after["paiju_actions_total"] - 1
    assert after["paiju_action_frame_seconds_count"] > 0
    assert after["paiju_bot_decision_seconds_count{where=loop}"] > 0
    assert after["paiju_settlements_total"] == 1 and after["paiju_escapes_total"] == 0
    assert after["paiju_writer_wait_seconds_count"] == after["paiju_writer_batch_size_count"]
    books_balance(f"sqlite:///{tmp_path / 'paiju.db'}")


def test_the_metrics_are_not_public(tmp_path: Path) -> None:
    with _app(tmp_path) as client:  # no token: no such path
        assert client.get("/metrics").status_code == 404
    with _app(tmp_path, metrics_token=TOKEN) as client:
        assert client.get("/metrics").status_code == 401
        assert client.get("/metrics", headers=bearer("x" * 24)).status_code == 401
        assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_a_failed_login_throttled_is_counted(tmp_path: Path) -> None:
    with _app(tmp_path, metrics_token=TOKEN, login_limits_account="1/minute") as client:
        for _ in range(3):
            client.post("/api/login", json={"name": "nobody", "password": "wrong-pw-1"})
        assert scrape(client)["paiju_throttled_total{what=failed logins}"] >= 1


def test_readiness_goes_not_ready_while_draining_or_degraded(tmp_path: Path) -> None:
    with _app(tmp_path) as client:
        svc = client.app.state.services  # type: ignore[attr-defined]
        assert client.get("/api/ready").json()["ready"] is True
        svc.draining = True
        r = client.get("/api/ready")
        assert r.status_code == 503 and r.json()["reason"] == "draining"
        assert client.get("/api/health").status_code == 200  # alive all the same
        svc.draining = False
        svc.writer._trouble = "unreachable: connection refused"
        r = client.get("/api/ready")
        assert r.status_code == 503 and r.json()["reason"].startswith("storage degraded")
        svc.writer._trouble = None
        assert client.get("/api/ready").status_code == 200
