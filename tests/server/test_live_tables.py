"""The table server over real WebSocket connections (the ASGI test client), on SQLite and
PostgreSQL: a whole hand, the clock and escapes, reconnects, a restart, server authority."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from paiju.server.app import create_app
from paiju.server.config import Settings
from paiju.server.db import make_engine, make_sessions
from paiju.server.ledger import audit
from paiju.server.models import Hand, HandAction
from paiju.server.protocol import SERVER
from paiju.server.table import Timing

FAST = Timing(turn=5.0, ready=60.0, bot_wait=0.01, disconnect=30.0, bot_delay=0.0, claim_pause=0.0)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'paiju.db'}"
        return
    url = request.getfixturevalue("postgres_url")
    engine = make_engine(url)
    with engine.begin() as c:
        if sa.inspect(c).has_table("ledger"):
            c.execute(
                sa.text(
                    "TRUNCATE ledger, hand_actions, seats, hands, tables, tokens, accounts "
                    "RESTART IDENTITY CASCADE"
                )
            )
    engine.dispose()
    yield url


def make(url: str, timing: Timing = FAST) -> TestClient:
    return TestClient(create_app(Settings(database_url=url, data_dir=Path(".")), timing))


def signup(client: TestClient, name: str) -> str:
    assert (
        client.post("/api/register", json={"name": name, "password": "secret-pw"}).status_code
        == 201
    )
    login = {"name": name, "password": "secret-pw", "bearer": True}
    token: str = client.post("/api/login", json=login).json()["token"]
    return token


def bearer(token: str) -> dict[str, str]:
    """The header an API client authenticates with (tokens never travel in URLs)."""
    return {"authorization": f"Bearer {token}"}


def books_balance(url: str) -> None:
    engine = make_engine(url)
    with make_sessions(engine)() as s:
        total, issued = audit(s)
    engine.dispose()
    assert total == issued


def act_text(item: Any) -> str:
    """The action string of a legal item (a string, or format 2's object)."""
    return item["action"] if isinstance(item, dict) else str(item)


def sit_down(ws: WebSocketTestSession, room: str) -> str:
    """Join a room and confirm; the seat."""
    ws.send_json({"type": "join", "room": room})
    seat: str = until(ws, {"seated"})["seat"]
    ws.send_json({"type": "ready"})
    return seat


#: How long a test waits for one frame: far beyond any answer on a loaded machine, and well
#: under pytest's own timeout, so that a frame that never comes fails with what was seen.
FRAME_WAIT = 120.0


def _receive(ws: WebSocketTestSession, seen: list[str]) -> dict[str, Any]:
    """The next frame, or an AssertionError naming the frames seen since the last wait began
    (a lost answer fails here, with its context, instead of hanging until pytest's timeout)."""

    async def bounded() -> Any:
        with anyio.fail_after(FRAME_WAIT):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(bounded)
    except TimeoutError:
        last = seen[-40:]
        raise AssertionError(f"no frame in {FRAME_WAIT:.0f} s; the last frames: {last}") from None
    ws._raise_on_close(message)
    text = message.get("text") or message["bytes"].decode("utf-8")
    frame: dict[str, Any] = json.loads(text)
    return frame


def until(
    ws: WebSocketTestSession,
    kinds: set[str],
    log: list[dict[str, Any]] | None = None,
    play: bool = False,
) -> dict[str, Any]:
    """Read frames until one of ``kinds`` (each checked against the protocol's models);
    with ``play``, answer every view with its last legal action (a pass, or the last
    discard). A wait of :data:`FRAME_WAIT` for any frame fails the test."""
    seen: list[str] = []
    while True:
        m = _receive(ws, seen)
        seen.append(m["type"] if m["type"] != "error" else f"error:{m.get('code')}")
        SERVER.validate_python(m)
        if log is not None:
            log.append(m)
        if m["type"] in kinds:
            return m
        if play and m["type"] == "view" and m["view"]["legal"]:
            ws.send_json(
                {"type": "action", "action": act_text(m["view"]["legal"][-1]),
                 "version": m["version"]}
            )  # fmt: skip


def test_a_whole_hand_with_one_person_and_three_bots(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "ana")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            assert until(ws, {"hello"})["balance"] == 10_000
            seat = sit_down(ws, "mazhan")
            start = until(ws, {"hand_start"})
            assert start["stake"] == 10 and start["fee"] == 10
            frames: list[dict[str, Any]] = []
            settlement = until(ws, {"settlement"}, frames, play=True)
        net = settlement["result"]["net"][seat]
        assert settlement["balance_change"] == settlement["balance"] - 10_000
        assert settlement["balance"] >= 0
        assert net * 10 - 10 == settlement["balance_change"] or settlement["balance"] == 0
        me = client.get("/api/me", headers={"authorization": f"Bearer {token}"}).json()
        assert me["balance"] == settlement["balance"]
        entries = client.get("/api/ledger", headers={"authorization": f"Bearer {token}"}).json()[
            "entries"
        ]
        assert {e["reason"] for e in entries} >= {"issue", "fee"}
        for m in frames:  # a seat only ever sees its own tiles, never the wall
            if m["type"] == "view":
                assert m["view"]["seat"] == seat
                assert "wall" not in m["view"]
                assert (m["view"]["result"] is None) == (m["view"]["phase"] != "over")
    books_balance(db_url)


def test_four_timeouts_in_a_row_are_an_escape_and_cost_400_stakes(db_url: str) -> None:
    # a hand may end before the player's fourth turn: then the player confirms the next
    timing = Timing(
        turn=0.05, ready=60.0, bot_wait=0.01, disconnect=30.0, bot_delay=0.0, claim_pause=0.0
    )
    with make(db_url, timing) as client:
        token = signup(client, "bo")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            while (end := until(ws, {"escape", "settlement"}))["type"] == "settlement":
                ws.send_json({"type": "ready"})
        assert end["why"] == "timeouts" and end["penalty"] == 400 * end.get("stake", 10)
        me = client.get("/api/me", headers={"authorization": f"Bearer {token}"}).json()
        assert me["seated"] is None
        entries = client.get("/api/ledger", headers={"authorization": f"Bearer {token}"}).json()[
            "entries"
        ]
        escape = [e for e in entries if e["reason"] == "escape"]
        assert sum(e["amount"] for e in escape) == -end["penalty"]
        # the escaped hand is in the player's hands, marked, with what it cost
        hands = client.get("/api/hands", headers=bearer(token)).json()["hands"]
        mine = next(h for h in hands if h["hand"] == end["hand"])
        assert mine["status"] == "aborted" and mine["escaper"] == mine["seat"]
        assert mine["why"] == "timeouts" and mine["net"] is None
        assert mine["points"] == -end["penalty"] - end.get("stake", 10)  # with its table fee
    books_balance(db_url)


def test_reconnecting_resumes_the_hand_with_the_full_view(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "cy")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            view = until(ws, {"view"})
        with client.websocket_connect("/ws", headers=bearer(token)) as ws2:
            assert until(ws2, {"seated"})["room"] == "mazhan"
            again = until(ws2, {"view"})
            assert again["hand"] == view["hand"]
            v = again["view"]  # the whole concealed hand
            melds = v["seats"][v["seat"]]["melds"]
            assert len(v["hand"]) + (v["drawn"] is not None) + 3 * len(melds) >= 16
            settlement = until(ws2, {"settlement"}, play=True)
            assert settlement["hand"] == view["hand"]
    books_balance(db_url)


def test_a_restart_in_mid_hand_rebuilds_the_table(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "di")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            first = until(ws, {"view"})
    engine = make_engine(db_url)
    with make_sessions(engine)() as s:
        live = s.scalars(sa.select(Hand).where(Hand.status == "live")).all()
        assert [h.id for h in live] == [first["hand"]]
    engine.dispose()
    # a new server process on the same database
    with make(db_url) as client, client.websocket_connect("/ws", headers=bearer(token)) as ws:
        assert until(ws, {"seated"})["table"] == first["table"]
        view = until(ws, {"view"})
        assert view["hand"] == first["hand"] and view["version"] >= first["version"]
        # the rebuilt table gives the returning player the hand so far, as their seat saw it
        assert view["catch_up"] is True
        assert first["events"] and view["events"][: len(first["events"])] == first["events"]
        settlement = until(ws, {"settlement"}, play=True)
        assert settlement["hand"] == first["hand"]
    books_balance(db_url)


def test_a_restarted_private_table_is_still_private_and_joined_by_its_code(db_url: str) -> None:
    """The code is kept with the table: after a restart in mid-hand the rebuilt table is
    still for friends (its code in the table frame, its bots at the host's level), and a
    friend who comes after the hand sits down by the code, in a bot's seat."""
    with make(db_url) as client:
        host_token, friend_token = (signup(client, n) for n in ("hostr", "friendr"))
        with client.websocket_connect("/ws", headers=bearer(host_token)) as ws:
            ws.send_json({"type": "join", "room": "mazhan", "private": True, "level": "easy"})
            table = until(ws, {"seated"})["table"]
            code = until(ws, {"table"})["code"]
            ws.send_json({"type": "ready"})
            ws.send_json({"type": "fill"})
            first = until(ws, {"view"})
    with make(db_url) as client, client.websocket_connect("/ws", headers=bearer(host_token)) as ws:
        assert until(ws, {"seated"})["table"] == table
        frame = until(ws, {"table"})
        assert frame["code"] == code
        assert {s["level"] for s in frame["seats"].values() if s["bot"]} == {"easy"}
        settlement = until(ws, {"settlement"}, play=True)
        assert settlement["hand"] == first["hand"]
        with client.websocket_connect("/ws", headers=bearer(friend_token)) as friend:
            friend.send_json({"type": "join", "code": code})
            # an error or an unseat fails here with what was said, not in a hang
            answer = until(friend, {"seated", "error", "unseated"})
            assert answer["type"] == "seated" and answer["table"] == table, answer
            seats = until(friend, {"table"})["seats"]
            people = sorted(s["name"] for s in seats.values() if not s["bot"])
            assert people == ["friendr", "hostr"]
    books_balance(db_url)


def test_illegal_stale_and_out_of_turn_actions_change_nothing(db_url: str) -> None:
    # a turn long enough for the seven round trips below on a loaded machine (a timeout's
    # auto-move would make the later answers stale_version)
    with make(
        db_url, Timing(turn=60.0, ready=60.0, bot_wait=0.01, bot_delay=0.0, claim_pause=0.0)
    ) as client:
        token = signup(client, "ed")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            ws.send_json({"type": "action", "action": "E discard 1m", "version": 0})
            assert until(ws, {"error"})["code"] == "not_seated"
            ws.send_json({"type": "join", "room": "nowhere"})
            assert until(ws, {"error"})["code"] == "unknown_room"
            ws.send_json({"type": "join", "room": "mazhan-vip"})
            assert until(ws, {"error"})["code"] == "too_few_points"
            seat = sit_down(ws, "mazhan")
            view = until(ws, {"view"})
            while not view["view"]["legal"]:
                view = until(ws, {"view"})
            version = view["version"]
            ws.send_json(
                {"type": "action", "action": act_text(view["view"]["legal"][0]),
                 "version": version + 5}
            )  # fmt: skip
            assert until(ws, {"error"})["code"] == "stale_version"
            ws.send_json({"type": "action", "action": f"{seat} angang 1m", "version": version})
            err = until(ws, {"error"})
            assert err["code"] in ("illegal_action", "not_your_turn")
            other = next(s for s in "ESWN" if s != seat)
            ws.send_json({"type": "action", "action": f"{other} pass", "version": version})
            assert until(ws, {"error"})["code"] == "not_your_turn"
            ws.send_json({"type": "action", "action": "garbage", "version": version})
            assert until(ws, {"error"})["code"] == "bad_action"
            ws.send_text("not json")
            assert until(ws, {"error"})["code"] == "bad_message"
            ws.send_json(
                {"type": "action", "action": act_text(view["view"]["legal"][-1]),
                 "version": version}
            )  # fmt: skip
            nxt = until(ws, {"view", "settlement"})
            assert nxt.get("version", version + 1) > version


def test_invitations_are_looked_up_within_the_addresss_allowance(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'paiju.db'}"
    settings = Settings(database_url=url, data_dir=Path("."), invite_limits_address="2/minute")
    with TestClient(create_app(settings, FAST)) as client:
        for _ in range(2):
            assert client.get("/api/invite/ABCD2345").status_code == 404
        refused = client.get("/api/invite/ABCD2345")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"


def test_unauthenticated_and_bad_http_requests(tmp_path: Path) -> None:
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        assert client.get("/api/me").json()["error"]["code"] == "unauthorized"
        r = client.post("/api/register", json={"name": "x", "password": "secret-pw"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"
        r = client.post("/api/login", json={"name": "nobody", "password": "secret-pw"})
        assert r.status_code == 401
        r = client.post("/api/register", json={"name": "x"})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
        assert "password" in r.json()["error"]["message"]
        assert client.get("/api/rooms").json()["rooms"][0]["min_balance"] == 800
        with client.websocket_connect("/ws", headers=bearer("forged")) as ws:
            assert ws.receive_json()["code"] == "unauthorized"
        assert json.loads(client.get("/openapi.json").text)["info"]["title"] == "paiju"


def test_a_ma_diao_room_plays_a_hand_and_settles_through_the_ledger(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "fu")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "madiao")
            settlement = until(ws, {"settlement"}, play=True)
        assert len(settlement["result"]["chong"]) == 8
        assert settlement["balance"] == 10_000 + settlement["balance_change"]
    books_balance(db_url)


def test_tuoguan_plays_the_hand_for_the_player(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "gu")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            ws.send_json({"type": "join", "room": "mazhan"})
            until(ws, {"seated"})
            ws.send_json({"type": "tuoguan", "on": True})
            while not until(ws, {"table"})["seats"]["E"]["tuoguan"]:
                pass
            ws.send_json({"type": "ready"})
            settlement = until(ws, {"settlement"})  # never answering: auto-play finishes
        assert settlement["result"]["net"] is not None
    books_balance(db_url)


def test_leaving_a_live_hand_is_an_escape(db_url: str) -> None:
    with make(db_url) as client:
        token = signup(client, "ha")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            until(ws, {"view"})
            ws.send_json({"type": "leave"})  # not confirmed as an escape: refused, free
            assert until(ws, {"error"})["code"] == "escape_unconfirmed"
            ws.send_json({"type": "leave", "escape": True})
            escape = until(ws, {"escape"})
        assert escape["why"] == "left" and escape["penalty"] == 4000
        me = client.get("/api/me", headers={"authorization": f"Bearer {token}"}).json()
        assert me["balance"] == 10_000 - 10 - 4000 and me["seated"] is None
    books_balance(db_url)


def test_staying_away_too_long_is_an_escape(tmp_path: Path) -> None:
    timing = Timing(
        turn=30.0, ready=60.0, bot_wait=0.01, disconnect=0.2, bot_delay=0.0, claim_pause=0.0
    )
    with make(f"sqlite:///{tmp_path / 'paiju.db'}", timing) as client:
        token = signup(client, "io")
        hub = client.app.state.services.hub  # type: ignore[attr-defined]
        left = threading.Event()
        changed = hub.on_changed

        def watch(runner: object) -> None:
            if changed is not None:
                changed(runner)
            if not hub.where:
                left.set()

        hub.on_changed = watch
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            until(ws, {"view"})
        assert left.wait(timeout=30)  # the escape unseated the player
        client.app.state.services.writer.close()  # type: ignore[attr-defined]
        me = client.get("/api/me", headers={"authorization": f"Bearer {token}"}).json()
        assert me["seated"] is None and me["balance"] == 10_000 - 10 - 4000


def test_no_frame_to_a_seat_holds_another_seats_tiles(db_url: str) -> None:
    """Two people at one table: neither ever receives the other's concealed tiles."""
    # the bots wait long enough for the second person to join the same table on a loaded
    # machine
    timing = Timing(
        turn=5.0, ready=60.0, bot_wait=5.0, disconnect=30.0, bot_delay=0.0, claim_pause=0.0
    )
    with make(db_url, timing) as client:
        tokens = [signup(client, "p1"), signup(client, "p2")]
        with (
            client.websocket_connect("/ws", headers=bearer(tokens[0])) as a,
            client.websocket_connect("/ws", headers=bearer(tokens[1])) as b,
        ):
            a.send_json({"type": "join", "room": "mazhan"})
            sat_a = until(a, {"seated"})
            b.send_json({"type": "join", "room": "mazhan"})
            sat_b = until(b, {"seated"})
            seat_a, seat_b = sat_a["seat"], sat_b["seat"]
            assert sat_a["table"] == sat_b["table"] and seat_a != seat_b
            a.send_json({"type": "ready"})
            b.send_json({"type": "ready"})
            frames: dict[str, list[dict[str, Any]]] = {seat_a: [], seat_b: []}
            hands: dict[str, dict[int, str]] = {seat_a: {}, seat_b: {}}

            def play(ws: WebSocketTestSession, seat: str) -> None:
                while True:
                    m = ws.receive_json()
                    frames[seat].append(m)
                    if m["type"] == "settlement":
                        return
                    if m["type"] == "view":
                        hands[seat][m["version"]] = json.dumps(m["view"]["hand"])
                        if m["view"]["legal"]:
                            ws.send_json(
                                {
                                    "type": "action",
                                    "action": act_text(m["view"]["legal"][-1]),
                                    "version": m["version"],
                                }
                            )

            workers = [
                threading.Thread(target=play, args=(a, seat_a)),
                threading.Thread(target=play, args=(b, seat_b)),
            ]
            for w in workers:
                w.start()
            for w in workers:
                w.join(timeout=120)
        for me, other in ((seat_a, seat_b), (seat_b, seat_a)):
            for m in frames[me]:
                if m["type"] != "view" or m["view"]["phase"] == "over":
                    continue
                theirs = hands[other].get(m["version"])
                text = json.dumps(m, ensure_ascii=False)
                assert m["view"]["seat"] == me
                if theirs:
                    assert theirs not in text  # the other seat's concealed tiles
                assert "wall" not in m["view"]
    books_balance(db_url)


def test_a_settlement_is_never_counted_twice(db_url: str) -> None:
    """A hand marked live again after its settlement (as if the server stopped between the
    two writes) is settled again on restart, and the ledger counts it once."""
    with make(db_url) as client:
        token = signup(client, "ju")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            settlement = until(ws, {"settlement"}, play=True)
            ws.send_json({"type": "leave"})
            assert until(ws, {"unseated"})["why"] in ("left", "too_few_points")
    engine = make_engine(db_url)
    with make_sessions(engine).begin() as s:
        hand = s.get(Hand, settlement["hand"])
        assert hand is not None and hand.status == "done"
        hand.status = "live"
    engine.dispose()
    with make(db_url) as client:
        me = client.get("/api/me", headers={"authorization": f"Bearer {token}"}).json()
        assert me["balance"] == settlement["balance"]
    engine = make_engine(db_url)
    with make_sessions(engine)() as s:
        hand = s.get(Hand, settlement["hand"])
        assert hand is not None and hand.status == "done"
    engine.dispose()
    books_balance(db_url)


def test_replays_of_finished_hands_are_the_players_own(tmp_path: Path) -> None:
    with make(f"sqlite:///{tmp_path / 'paiju.db'}") as client:
        token = signup(client, "ko")
        other = signup(client, "lu")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            seat = sit_down(ws, "madiao")
            settlement = until(ws, {"settlement"}, play=True)
        auth = {"authorization": f"Bearer {token}"}
        hands = client.get("/api/hands", headers=auth).json()["hands"]
        assert [h["hand"] for h in hands] == [settlement["hand"]] and hands[0]["seat"] == seat
        first = client.get(f"/api/hands/{settlement['hand']}/replay?step=0", headers=auth).json()
        last = client.get(f"/api/hands/{settlement['hand']}/replay?step=999", headers=auth).json()
        assert first["step"] == 0 and last["step"] == last["steps"] == 32
        assert last["view"]["result"]["net"] == settlement["result"]["net"]
        # each move's events as the seat saw them, and who sat where (no account ids)
        assert len(last["events"]) == last["steps"] and all(last["events"])
        assert last["names"][seat] == {"name": "ko", "bot": False, "level": None}
        assert sum(n["bot"] for n in last["names"].values()) == 3
        assert "account" not in json.dumps(last["names"])
        r = client.get(
            f"/api/hands/{settlement['hand']}/replay", headers={"authorization": f"Bearer {other}"}
        )
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_hand"


def test_a_table_of_ones_own_gets_its_bots_at_once(db_url: str) -> None:
    """`join` with `alone`: a new table nobody else is sent to, bots seated at once (here
    the others wait a minute for bots)."""
    slow = Timing(
        turn=5.0, ready=60.0, bot_wait=60.0, disconnect=30.0, bot_delay=0.0, claim_pause=0.0
    )
    with make(db_url, slow) as client:
        tokens = [signup(client, name) for name in ("solo", "pair", "third")]
        with (
            client.websocket_connect("/ws", headers=bearer(tokens[0])) as solo,
            client.websocket_connect("/ws", headers=bearer(tokens[1])) as pair,
            client.websocket_connect("/ws", headers=bearer(tokens[2])) as third,
        ):
            pair.send_json({"type": "join", "room": "mazhan"})
            waiting = until(pair, {"seated"})["table"]
            solo.send_json({"type": "join", "room": "mazhan", "alone": "yes"})
            assert until(solo, {"error"})["code"] == "bad_message"
            solo.send_json({"type": "join", "room": "mazhan", "alone": True})
            own = until(solo, {"seated"})["table"]
            third.send_json({"type": "join", "room": "mazhan"})
            assert until(third, {"seated"})["table"] == waiting != own
            solo.send_json({"type": "ready"})
            start = until(solo, {"hand_start"})
            assert start["room"] == "mazhan"
            settlement = until(solo, {"settlement"}, play=True)
            assert settlement["hand"] == start["hand"]
    books_balance(db_url)


def test_friends_sit_together_at_a_private_table_by_its_code(db_url: str) -> None:
    """`join` with `private`: a table with a code; a friend joins by the code (either case),
    a stranger joining the room is not sent there, bots sit only when a player asks
    (`fill`); a code no table has, a full table and a malformed code are clear errors."""
    slow = Timing(
        turn=5.0, ready=60.0, bot_wait=0.01, disconnect=30.0, bot_delay=0.0, claim_pause=0.0
    )
    with make(db_url, slow) as client:
        tokens = [signup(client, name) for name in ("host", "friend", "stranger", "late")]
        with (
            client.websocket_connect("/ws", headers=bearer(tokens[0])) as host,
            client.websocket_connect("/ws", headers=bearer(tokens[1])) as friend,
            client.websocket_connect("/ws", headers=bearer(tokens[2])) as stranger,
            client.websocket_connect("/ws", headers=bearer(tokens[3])) as late,
        ):
            host.send_json({"type": "join", "room": "mazhan", "private": True, "level": "easy"})
            table = until(host, {"seated"})["table"]
            code = until(host, {"table"})["code"]
            assert isinstance(code, str) and len(code) == 8 and code.isupper()
            # the invitation, as a friend opening the link sees it before logging in
            invite = client.get(f"/api/invite/{code.lower()}", headers={"authorization": ""})
            assert invite.status_code == 200, invite.text
            shown = invite.json()
            assert (shown["code"], shown["game"], shown["room"]["name"]) == (
                code,
                "mazhan",
                "mazhan",
            )
            assert (shown["people"], shown["free"], shown["playing"]) == (["host"], 3, False)
            gone = client.get("/api/invite/ZZZZZZZ2" if code != "ZZZZZZZ2" else "/api/invite/Z2")
            assert gone.status_code == 404 and gone.json()["error"]["code"] == "unknown_table"
            bad = client.get("/api/invite/ab-cd")
            assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_request"
            host.send_json({"type": "ready"})
            stranger.send_json({"type": "join", "room": "mazhan"})
            assert until(stranger, {"seated"})["table"] != table
            unknown = "ZZZZZZZ2" if code != "ZZZZZZZ2" else "ZZZZZZZ3"
            friend.send_json({"type": "join", "code": unknown})
            assert until(friend, {"error"})["code"] == "unknown_table"
            friend.send_json({"type": "join", "code": "abc"})
            assert until(friend, {"error"})["code"] == "bad_message"
            friend.send_json({"type": "join", "code": code, "private": True})
            assert until(friend, {"error"})["code"] == "bad_message"
            friend.send_json({"type": "join", "code": code.lower()})
            assert until(friend, {"seated"})["table"] == table
            seen = until(friend, {"table"})
            assert seen["code"] == code and seen["seats"]["E"]["name"] == "host"
            shown = client.get(f"/api/invite/{code}").json()
            assert (sorted(shown["people"]), shown["free"]) == (["friend", "host"], 2)
            friend.send_json({"type": "ready"})
            friend.send_json({"type": "tuoguan", "on": True})  # the friend lets it play
            friend.send_json({"type": "fill"})
            start = until(host, {"hand_start"})
            frame = until(host, {"table"})
            bots = [s for s in frame["seats"].values() if s["bot"]]
            assert len(bots) == 2 and {s["level"] for s in bots} == {"easy"}
            shown = client.get(f"/api/invite/{code}").json()
            assert (shown["free"], shown["playing"]) == (0, True)
            late.send_json({"type": "join", "code": code})
            assert until(late, {"error"})["code"] == "table_playing"
            host.send_json({"type": "join", "room": "mazhan", "private": True})
            assert until(host, {"error"})["code"] == "already_seated"
            settlement = until(host, {"settlement"}, play=True)
            assert settlement["hand"] == start["hand"]
    books_balance(db_url)
    engine = make_engine(db_url)
    with engine.connect() as c:
        codes = c.execute(sa.text("SELECT code FROM tables WHERE id = :t"), {"t": table}).all()
    engine.dispose()
    assert codes == [(code,)]


def test_a_friend_who_got_up_sits_down_again_by_the_code(db_url: str) -> None:
    """A friend gets up between hands while the host stays (the same path as being unseated
    by the ready clock): the server sends their next join by the code back to a seat at that
    table, and a later join to a room elsewhere (it used to send both to the table they had
    left, which answered `not_seated`)."""
    with make(db_url) as client:
        tokens = [signup(client, name) for name in ("host", "friend")]
        with (
            client.websocket_connect("/ws", headers=bearer(tokens[0])) as host,
            client.websocket_connect("/ws", headers=bearer(tokens[1])) as friend,
        ):
            host.send_json({"type": "join", "room": "mazhan", "private": True})
            table = until(host, {"seated"})["table"]
            code = until(host, {"table"})["code"]
            friend.send_json({"type": "join", "code": code})
            assert until(friend, {"seated"})["table"] == table
            friend.send_json({"type": "leave"})
            assert until(friend, {"unseated"})["why"] == "left"
            friend.send_json({"type": "join", "code": code})
            assert until(friend, {"seated"})["table"] == table
            assert until(friend, {"table"})["seats"]["E"]["name"] == "host"
            friend.send_json({"type": "leave"})
            assert until(friend, {"unseated"})["why"] == "left"
            friend.send_json({"type": "join", "room": "mazhan", "alone": True})
            assert until(friend, {"seated"})["table"] != table
    books_balance(db_url)


def test_a_hand_that_cannot_be_rebuilt_is_quarantined_and_the_server_starts(db_url: str) -> None:
    """A live hand whose log no longer replays (here: an action edited by hand) does not stop
    the server: that hand is voided, its fees refunded, its player unseated; the rest
    start."""
    with make(db_url) as client:
        token = signup(client, "qa")
        with client.websocket_connect("/ws", headers=bearer(token)) as ws:
            sit_down(ws, "mazhan")
            first = until(ws, {"view"})
            while first["version"] < 2:
                first = until(ws, {"view"}, play=True)
    engine = make_engine(db_url)
    with make_sessions(engine).begin() as s:
        step = s.scalars(
            sa.select(HandAction)
            .where(HandAction.hand_id == first["hand"])
            .order_by(HandAction.seq)
        ).first()
        assert step is not None
        step.action = "E hu"  # no longer a legal action there
    engine.dispose()
    with make(db_url) as client:  # starts
        auth = {"authorization": f"Bearer {token}"}
        me = client.get("/api/me", headers=auth).json()
        assert me["seated"] is None and me["balance"] == 10_000  # the fee came back
        reasons = [e["reason"] for e in client.get("/api/ledger", headers=auth).json()["entries"]]
        assert reasons[0] == "refund"
    engine = make_engine(db_url)
    with make_sessions(engine)() as s:
        hand = s.get(Hand, first["hand"])
        assert hand is not None and hand.status == "void"
    engine.dispose()
    books_balance(db_url)
