"""``GET /api/hands/{id}/review`` over HTTP on SQLite: a finished hand the caller sat in, for
the caller's seat, reviewed on the review thread, kept, and refused when busy; the thread
stops with the app."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.bots.review import review_hand
from paiju.server.app import create_app
from paiju.server.config import Settings
from paiju.server.routes import review as route
from tests.server.test_live_tables import FAST, bearer, signup, sit_down, until


def make(url: str, worlds: int = 2) -> TestClient:
    """A test app whose reviews play ``worlds`` worlds a decision (``PAIJU_REVIEW_WORLDS``)."""
    settings = Settings(database_url=url, data_dir=Path("."), review_worlds=worlds)
    return TestClient(create_app(settings, FAST))


def finished_hand(client: TestClient, name: str) -> tuple[str, str, int]:
    """A new player's token, seat and finished Ma Diao hand."""
    token = signup(client, name)
    with client.websocket_connect("/ws", headers=bearer(token)) as ws:
        seat = sit_down(ws, "madiao")
        hand: int = until(ws, {"settlement"}, play=True)["hand"]
    return token, seat, hand


def test_a_player_reviews_their_own_finished_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    real = review_hand

    def watched(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(route, "review_hand", watched)
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        token, seat, hand = finished_hand(client, "ko")
        other = signup(client, "lu")
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


def test_the_review_thread_stops_with_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At shutdown the review running stops after its decision and its request is answered
    ``503 unavailable``; a review waiting never runs; the thread is gone."""
    started = threading.Event()
    decisions: list[int] = []

    def endless(
        record: dict[str, Any], seat: str, *, progress: Callable[[int, int], None], **_: Any
    ) -> Any:
        started.set()
        reviews.stopping.wait()  # a decision under way when the app stops
        for n in range(1, 10**6):
            decisions.append(n)
            progress(n, 10**6)  # stops here
        raise AssertionError("the review was not stopped")

    monkeypatch.setattr(route, "review_hand", endless)
    answers: list[Any] = []
    waiting: list[str] = []
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        reviews: route.Reviews = client.app.state.reviews  # type: ignore[attr-defined]
        token, _seat, hand = finished_hand(client, "ko")
        asking = threading.Thread(
            target=lambda: answers.append(
                client.get(f"/api/hands/{hand}/review", headers=bearer(token))
            )
        )
        asking.start()
        assert started.wait(60)
        queued = reviews.pool.submit(lambda: waiting.append("ran"))
    # the lifespan has ended: the thread has stopped, and the request has its answer
    asking.join(60)
    assert not asking.is_alive()
    assert decisions == [1] and queued.cancelled() and not waiting
    assert not [t for t in threading.enumerate() if t.name.startswith("paiju-review")]
    (r,) = answers
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
    assert reviews.closed
    # a stopped app reviews nothing more, at once
    with pytest.raises(route._Stopped):
        reviews.review({}, "E")


def test_the_progress_of_a_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/review/progress``: none before, the decisions reviewed while it runs, done once
    kept; only for the caller's own hand and seat."""
    reached, go = threading.Event(), threading.Event()

    def paused(record: dict[str, Any], seat: str, **kwargs: Any) -> Any:
        kwargs["progress"](1, 3)
        reached.set()
        go.wait()
        return review_hand(record, seat, **kwargs)

    monkeypatch.setattr(route, "review_hand", paused)
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        token, seat, hand = finished_hand(client, "ko")
        other = signup(client, "lu")
        url = f"/api/hands/{hand}/review"
        progress = f"{url}/progress"
        assert client.get(progress, headers=bearer(token)).json() == {
            "state": "none", "done": 0, "total": 0,
        }  # fmt: skip
        answers: list[Any] = []
        asking = threading.Thread(
            target=lambda: answers.append(client.get(url, headers=bearer(token)))
        )
        asking.start()
        try:
            assert reached.wait(60)
            assert client.get(progress, headers=bearer(token)).json() == {
                "state": "running", "done": 1, "total": 3,
            }  # fmt: skip
            r = client.get(progress, headers=bearer(other))
            assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_hand"
            elsewhere = next(s for s in "ESWN" if s != seat)
            r = client.get(f"{progress}?seat={elsewhere}", headers=bearer(token))
            assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
            assert client.get(progress).status_code == 401
        finally:
            go.set()
            asking.join(120)
        (r,) = answers
        n = r.json()["decisions"]
        assert client.get(progress, headers=bearer(token)).json() == {
            "state": "done", "done": n, "total": n,
        }  # fmt: skip
        # asked for while another review holds the thread: waiting
        reviews: route.Reviews = client.app.state.reviews  # type: ignore[attr-defined]
        reviews.kept.clear()
        reviews.running[(hand, seat)] = None  # type: ignore[assignment]
        assert client.get(progress, headers=bearer(token)).json()["state"] == "waiting"
        reviews.running.clear()
        # a draining process starts no review (its requests would hold it open)
        client.app.state.services.draining = True  # type: ignore[attr-defined]
        r = client.get(url, headers=bearer(token))
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        client.app.state.services.draining = False  # type: ignore[attr-defined]
