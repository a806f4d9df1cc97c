"""A game is one folder and one registration (issue 37), as far as the server: the toy game
of :mod:`tests.toygame`, registered only from ``tests/``, gets its room, sits a player down
with bots, runs its clock, settles through the ledger and is checked against the WebSocket
protocol, over a real socket of the app, without a line of ``paiju/`` naming it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from paiju.server.app import create_app
from paiju.server.config import Settings
from paiju.server.protocol import SERVER
from tests.server.harness import check_books
from tests.toygame import registered


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'paiju.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with registered():
        settings = Settings.from_env(
            {
                "PAIJU_DATABASE_URL": db_url,
                "PAIJU_BOT_WAIT": "0.01",
                "PAIJU_BOT_DELAY": "0.01",
                "PAIJU_SEED": "7",
            }
        )
        with TestClient(create_app(settings)) as c:
            yield c


def test_the_rooms_list_the_toy_game_from_its_registration(client: TestClient) -> None:
    rooms = {r["name"]: r for r in client.get("/api/rooms").json()["rooms"]}
    assert rooms["toy"]["game"] == "toy" and rooms["toy"]["min_balance"] == 10


def test_a_toy_hand_is_played_at_a_table_over_the_websocket(
    client: TestClient, db_url: str
) -> None:
    client.post("/api/register", json={"name": "tess", "password": "secret-pw-1"})
    login = {"name": "tess", "password": "secret-pw-1", "bearer": True}
    token = client.post("/api/login", json=login).json()["token"]
    frames: list[dict[str, Any]] = []
    headers = {"authorization": f"Bearer {token}"}
    with client.websocket_connect("/ws", headers=headers) as ws:
        ws.send_json({"type": "join", "room": "toy", "alone": True})
        while True:
            frame = ws.receive_json()
            SERVER.validate_python(frame)  # the protocol holds for a game it does not type
            frames.append(frame)
            if frame["type"] == "error":
                raise AssertionError(frame)
            if frame["type"] == "settlement":
                break
            if frame["type"] == "seated":
                ws.send_json({"type": "ready"})  # as a player at a table of their own does
            if frame["type"] == "view" and frame["view"]["legal"]:
                action = frame["view"]["legal"][-1]
                ws.send_json({"type": "action", "action": action, "version": frame["version"]})
    kinds = [f["type"] for f in frames]
    assert kinds[:3] == ["hello", "seated", "table"] and "hand_start" in kinds
    start = next(f for f in frames if f["type"] == "hand_start")
    assert start["game"] == "toy" and start["stake"] > 0
    mine = [f for f in frames if f.get("your_action")]
    assert len(mine) == 2  # two rounds, a card each
    settlement = frames[-1]
    assert settlement["result"]["best"] in "ESWN"
    counts = check_books(db_url)
    assert counts["done"] == 1
