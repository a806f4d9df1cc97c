"""The scorer over HTTP (``POST /api/score``): the settlement of a finished hand, laid out as
the table's settlement is, for the browser's scorer page; bad hands are clear errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from paiju.mazhan.record import EXAMPLE
from paiju.mazhan.schema import MazhanResult
from paiju.server.app import create_app
from paiju.server.config import Settings
from paiju.server.routes.scorer import QUEUE


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'paiju.db'}", data_dir=tmp_path)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_seed_example_is_scored_as_the_table_shows_a_settlement(client: TestClient) -> None:
    """Rules §7, worked example 1: South self-draws; H = 40 × 8 = 320, the dealer pays
    double. No account is needed."""
    answer = client.post("/api/score", json=EXAMPLE)
    assert answer.status_code == 200
    result = answer.json()["result"]
    MazhanResult.model_validate(result)  # the shape the client's settlement renders
    assert result["net"] == {"E": -640, "S": 1280, "W": -320, "N": -320}
    south = result["scores"]["S"]
    assert (south["base"], south["rounded"], south["tai"], south["value"]) == (14, 20, 3, 320)
    assert [m["tiles"] for m in result["hands"]["S"]["melds"]] == [["7z"] * 3, ["5p"] * 3]
    assert result["hands"]["S"]["bonus"] == ["2j"]


def test_a_bad_hand_is_a_clear_error(client: TestClient) -> None:
    bad = {**EXAMPLE, "players": {**EXAMPLE["players"], "E": {"concealed": "11m"}}}
    answer = client.post("/api/score", json=bad)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid_hand" and "E" in error["message"]
    bodies: list[object] = [[], "text", 7, None]
    for body in bodies:
        answer = client.post("/api/score", json=body)
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "invalid_hand"
    garbled = client.post(
        "/api/score", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert garbled.status_code in (400, 422) and "error" in garbled.json()
    huge = client.post("/api/score", json={"wild": "1m" * 20_000})
    assert huge.status_code == 413


def test_a_hand_sent_as_a_form_is_read_as_json(client: TestClient) -> None:
    """``curl -d @hand.json`` sends a form's content type: the body is still the hand."""
    body = json.dumps(EXAMPLE).encode()
    headers = {"content-type": "application/x-www-form-urlencoded"}
    answer = client.post("/api/score", content=body, headers=headers)
    assert answer.status_code == 200 and answer.json()["result"]["net"]["S"] == 1280
    nested = client.post("/api/score", content=b"[" * 5_000 + b"]" * 5_000)  # under 16 KiB
    assert nested.status_code == 400 and nested.json()["error"]["code"] == "invalid_hand"
    form = client.post("/api/score", content=b"wild=9s", headers=headers)
    assert form.status_code == 400
    assert form.json()["error"]["message"].startswith("the body is not JSON: ")


def test_the_scorer_is_limited_per_address_and_never_queues_without_end(
    tmp_path: Path,
) -> None:
    """Each address may score ``PAIJU_SCORE_LIMITS_ADDRESS`` hands (here 3 a minute): the
    next is 429 with its wait; with :data:`QUEUE` hands waiting the next is 503 busy."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'paiju.db'}",
        data_dir=tmp_path,
        score_limits_address="3/minute",
    )
    with TestClient(create_app(settings)) as c:
        for _ in range(3):
            assert c.post("/api/score", json=EXAMPLE).status_code == 200
        refused = c.post("/api/score", json=EXAMPLE)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        # Ma Diao's 開沖 counts against the same allowance
        chong = c.post("/api/score/chong", json={"table": "9m", "draws": "8m"})
        assert chong.status_code == 429
    with TestClient(create_app(settings)) as c:
        for _ in range(2):
            assert (
                c.post("/api/score/chong", json={"table": "9m", "draws": "8m"}).status_code == 200
            )
        assert c.post("/api/score", json=EXAMPLE).status_code == 200
        assert c.post("/api/score", json=EXAMPLE).status_code == 429
    with TestClient(create_app(settings)) as c:
        assert c.post("/api/score", json=EXAMPLE).status_code == 200  # the gate exists now
        c.app.state.score_gate.waiting = QUEUE  # type: ignore[attr-defined]
        busy = c.post("/api/score", json=EXAMPLE)
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"


@pytest.mark.parametrize(
    ("body", "points"),
    [
        ({"table": "9m", "draws": "87654321m"}, [2, 2, 2, 2, 2, 2, 2, 3]),  # T1
        ({"table": "8m", "draws": "7m"}, [0]),  # T6: 斷沖
        ({"table": "98m", "draws": "1m2m5m7m"}, [5, 4, 2, 4]),  # T11: 雙胞胎
        ({"table": "qt", "captured": {"qt": "bt"}, "draws": "29t"}, [10, 4]),  # X5
    ],
    ids=["T1", "T6", "T11", "X5"],
)
def test_ma_diao_chong_draws_are_scored_as_the_rules_vectors(
    client: TestClient, body: dict[str, object], points: list[int]
) -> None:
    """Ma Diao rules §4.9's vectors through ``POST /api/score/chong``: each draw's points
    (0: 斷沖) and their total."""
    answer = client.post("/api/score/chong", json=body)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"points": points, "total": sum(points)}


def test_bad_chong_draws_are_clear_errors(client: TestClient) -> None:
    for body, says in (
        ({"table": "9m", "draws": "9m"}, "draws: 9m (九萬) is already on the table"),
        ({"table": "9m"}, "missing field 'draws'"),
        ([], "expected a JSON object, got an array"),
        ({"table": "9m", "draws": "8x"}, "unknown suit letter 'x'"),
    ):
        answer = client.post("/api/score/chong", json=body)
        assert answer.status_code == 400
        error = answer.json()["error"]
        assert error["code"] == "invalid_hand" and says in error["message"]
    form = client.post(
        "/api/score/chong",
        content=b'{"table": "9m", "draws": "8m"}',
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert form.json() == {"points": [2], "total": 2}
