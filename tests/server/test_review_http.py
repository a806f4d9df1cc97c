"""``GET /api/hands/{id}/review`` over HTTP on SQLite: a finished hand the caller sat in, for
the caller's seat, reviewed on the review thread, kept, and refused when busy."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from paiju.server.routes import review as route
from tests.server.test_live_tables import bearer, make, signup, sit_down, until


def test_a_player_reviews_their_own_finished_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = route._review

    def watched(record: dict[str, Any], seat: str) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return real(record, seat)

    monkeypatch.setattr(route, "_review", watched)
    monkeypatch.setattr(route, "WORLDS", 2)
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        token = signup(client, "ko")
        other = signup(client, "lu")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            seat = sit_down(ws, "madiao")
            hand = until(ws, {"settlement"}, play=True)["hand"]
        url = f"/api/hands/{hand}/review"
        r = client.get(url, headers=bearer(token))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["seat"] == seat and body["unit"] == "注" and body["worlds"] == 2
        assert body["decisions"] == len(body["items"]) > 0
        assert body["summary"].startswith(f"{seat}: ")
        assert threads and all(t.startswith("paiju-review") for t in threads)
        # kept: asked again (the seat named), the same answer without a second review
        again = client.get(f"{url}?seat={seat}", headers=bearer(token))
        assert again.json() == body and len(threads) == 1
        # another seat of the hand, a hand the caller did not play, no account
        elsewhere = next(s for s in "ESWN" if s != seat)
        r = client.get(f"{url}?seat={elsewhere}", headers=bearer(token))
        assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
        r = client.get(url, headers=bearer(other))
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_hand"
        assert client.get(f"/api/hands/{hand + 1}/review", headers=bearer(token)).status_code == 404
        assert client.get(url).status_code == 401
        assert client.get(f"{url}?seat=X", headers=bearer(token)).status_code == 422
        # busy: as many reviews under way as may wait, and this one not kept
        reviews = client.app.state.reviews  # type: ignore[attr-defined]
        reviews.kept.clear()
        for k in range(route.QUEUE):
            reviews.running[(10**6 + k, "E")] = None
        r = client.get(url, headers=bearer(token))
        assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
        reviews.running.clear()
        assert client.get(url, headers=bearer(token)).json() == body
