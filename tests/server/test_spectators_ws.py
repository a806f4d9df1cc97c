"""Spectators and the reader's ready clock over real WebSocket connections (issue 36): a
player watches a friend's table by the friend's name and sees public views only; the seated
player sees that one watches; the ready clock starts when the page says the settlement is
shown (``settlement_shown``)."""

from __future__ import annotations

from typing import Any

from tests.server.test_live_tables import bearer, db_url, make, signup, until

__all__ = ["db_url"]  # the fixture, used by name


def test_a_friend_watches_by_name_and_the_ready_clock_waits_for_the_reader(
    db_url: str,
) -> None:
    with make(db_url) as client:
        ana, bo = signup(client, "ana"), signup(client, "bo")
        with (
            client.websocket_connect("/ws", headers=bearer(ana)) as seat,
            client.websocket_connect("/ws", headers=bearer(bo)) as eye,
        ):
            until(seat, {"hello"})
            until(eye, {"hello"})
            seat.send_json({"type": "join", "room": "mazhan", "alone": True})
            until(seat, {"seated"})
            eye.send_json({"type": "watch", "code": "ZZZZ2345"})
            assert until(eye, {"error"})["code"] == "unknown_table"
            eye.send_json({"type": "watch", "name": "nobody-here"})
            assert until(eye, {"error"})["code"] == "unknown_player"
            eye.send_json({"type": "watch", "name": "Ana"})
            watching = until(eye, {"watching"})
            assert watching["room"] == "mazhan" and watching["game"] == "mazhan"
            seat.send_json({"type": "ready"})
            frames: list[dict[str, Any]] = []
            settlement = until(seat, {"settlement"}, frames, play=True)
            assert any(f["type"] == "table" and f["watchers"] == 1 for f in frames)
            assert settlement["reading_seconds"] == 30.0
            # the ready clock waits for the page: the seating after the settlement has none
            table = until(seat, {"table"})
            assert table["ready_seconds"] is None
            seat.send_json({"type": "settlement_shown"})
            table = until(seat, {"table"})
            assert table["ready_seconds"] is not None and table["ready_seconds"] > 59

            seen: list[dict[str, Any]] = []
            while True:
                frame = until(eye, {"watch_view"}, seen)
                if frame["view"]["phase"] == "over":
                    break
            views = [f["view"] for f in seen if f["type"] == "watch_view"]
            assert len(views) > 5
            for view in views:  # the models forbid them too: never a hand nor an action
                assert "hand" not in view and "legal" not in view and "waits" not in view
            assert views[-1]["result"]["net"] == settlement["result"]["net"]
            eye.send_json({"type": "unwatch"})
            assert until(eye, {"unwatched"})["why"] == "left"
            eye.send_json({"type": "unwatch"})
            assert until(eye, {"error"})["code"] == "not_watching"
            # a seated player cannot watch
            seat.send_json({"type": "watch", "name": "bo"})
            assert until(seat, {"error"})["code"] == "already_seated"


def test_an_invite_seats_a_new_account_and_a_private_table_is_watched_by_its_code(
    db_url: str,
) -> None:
    """The invite link's flow as the server sees it: the invitation is read before any
    account exists; the newcomer registers, logs in and joins by the code (nothing else is
    needed from the server). A private table is watched by its code, never by a name."""
    with make(db_url) as client:
        host = signup(client, "host")
        with client.websocket_connect("/ws", headers=bearer(host)) as ws:
            until(ws, {"hello"})
            ws.send_json({"type": "join", "room": "mazhan", "private": True})
            until(ws, {"seated"})
            code = until(ws, {"table"})["code"]
            invitation = client.get(f"/api/invite/{code}").json()  # not logged in
            assert invitation["people"] == ["host"] and invitation["free"] == 3
            newcomer = signup(client, "newcomer")
            with client.websocket_connect("/ws", headers=bearer(newcomer)) as friend:
                assert until(friend, {"hello"})["seated"] is False
                friend.send_json({"type": "join", "code": code.lower()})
                assert until(friend, {"seated"})["room"] == "mazhan"
            eye = signup(client, "eye")
            with client.websocket_connect("/ws", headers=bearer(eye)) as watcher:
                until(watcher, {"hello"})
                watcher.send_json({"type": "watch", "name": "host"})
                assert until(watcher, {"error"})["code"] == "not_watchable"
                watcher.send_json({"type": "watch", "code": code})
                table = until(watcher, {"watching"})
                assert table["room"] == "mazhan" and table["seats"]["E"]["name"] == "host"
                assert table["watchers"] == 1 and "code" not in table
                assert until(ws, {"table"})["watchers"] >= 0
