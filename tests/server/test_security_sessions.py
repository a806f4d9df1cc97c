"""Sessions on a real server (``paiju serve`` on loopback, PostgreSQL): each attack of issue
13 §3 ("log out does not log out") and what it meets now.

Time is moved in the database, never waited for: a session "last used ten days ago" is one
whose stored times were moved back ten days."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from paiju.server.db import make_engine
from paiju.server.sessions import digest
from tests.server.security_servers import (
    bearer,
    bearer_login,
    cookie_login,
    error_of,
    register,
    serve,
)

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")
DAY = 24 * 3600


@pytest.fixture(scope="module")
def base(db: str) -> Iterator[str]:
    with serve(db, session_recheck_seconds="0.2") as url:
        yield url


def sql(url: str, statement: str, **params: object) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    with engine.begin() as c:
        result = c.execute(sa.text(statement), params)
        rows = [tuple(r) for r in result] if result.returns_rows else []
    engine.dispose()
    return rows


def ws_open(base: str, **headers: str) -> ClientConnection:
    ws = connect(base.replace("http", "ws") + "/ws", additional_headers=headers)
    hello = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello", hello
    return ws


def closed_with(ws: ClientConnection) -> tuple[int | None, list[dict[str, object]]]:
    """Read until the server closes the socket: its close code and the frames before."""
    frames = []
    try:
        while True:
            frames.append(json.loads(ws.recv(timeout=20)))
    except ConnectionClosed as closed:
        return (closed.rcvd.code if closed.rcvd else None), frames


def test_the_database_keeps_only_the_hash_of_a_token(base: str, db: str) -> None:
    register(base, "hashed")
    token = bearer_login(base, "hashed")
    stored = [str(r[0]) for r in sql(db, "SELECT token_hash FROM tokens")]
    assert digest(token) in stored and token not in stored
    assert all(len(h) == 64 for h in stored)


def test_a_browser_login_gets_only_an_httponly_strict_cookie(base: str) -> None:
    register(base, "cookie1")
    r = httpx.post(
        base + "/api/login",
        json={"name": "cookie1", "password": "secret-pw"},
        headers={"origin": base},
    )
    assert r.status_code == 200 and set(r.json()) == {"name", "balance"}  # no token to keep
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("paiju_session=")
    attrs = {a.strip().split("=")[0].lower() for a in cookie.split(";")}
    assert {"httponly", "max-age", "path"} <= attrs and "secure" not in attrs  # plain http
    assert "samesite=strict" in cookie.lower()
    assert f"max-age={30 * DAY}" in cookie.lower()


def test_the_cookie_is_secure_over_https_or_when_configured(db: str, base: str) -> None:
    register_args = {"name": "secure1", "password": "secret-pw"}
    with serve(db, secure_cookies="true") as url:
        register(url, "secure1")
        r = httpx.post(url + "/api/login", json=register_args, headers={"origin": url})
        assert "secure" in r.headers["set-cookie"].lower()
    # the module's server, not configured so (PAIJU_SECURE_COOKIES unset, as by default),
    # behind a TLS proxy (a trusted peer naming the scheme): the cookie is Secure
    https = base.replace("http://", "https://")
    r = httpx.post(
        base + "/api/login",
        json=register_args,
        headers={"origin": https, "x-forwarded-proto": "https"},
    )
    assert r.status_code == 200, r.text
    assert "; secure" in r.headers["set-cookie"].lower()
    assert r.headers["strict-transport-security"].startswith("max-age=")


def test_logout_ends_the_session_not_only_the_cookie(base: str) -> None:
    register(base, "leaver")
    browser = cookie_login(base, "leaver")
    old = browser.cookies["paiju_session"]
    assert browser.get("/api/me").json()["name"] == "leaver"
    socket = ws_open(base, Cookie=f"paiju_session={old}", Origin=base)

    r = browser.post("/api/logout")
    assert r.status_code == 204
    assert (
        'paiju_session=""' in r.headers["set-cookie"]
        and "max-age=0" in r.headers["set-cookie"].lower()
    )
    # the old cookie, replayed after logout (the attack: it still worked after a reload)
    replay = httpx.get(base + "/api/me", cookies={"paiju_session": old})
    assert replay.status_code == 401 and error_of(replay)["code"] == "unauthorized"
    # its open socket is closed at once, with a reason
    code, frames = closed_with(socket)
    assert code == 4401 and frames[-1]["code"] == "session_ended"
    # and it cannot open another
    again = connect(base.replace("http", "ws") + "/ws", additional_headers={
        "Cookie": f"paiju_session={old}", "Origin": base})  # fmt: skip
    assert closed_with(again) == (4401, [{"type": "error", "code": "unauthorized",
                                          "message": "log in first"}])  # fmt: skip


def test_a_bearer_token_logs_out_too_and_logout_is_idempotent(base: str) -> None:
    register(base, "apiuser")
    token = bearer_login(base, "apiuser")
    assert httpx.get(base + "/api/me", headers=bearer(token)).status_code == 200
    assert httpx.post(base + "/api/logout", headers=bearer(token)).status_code == 204
    assert httpx.get(base + "/api/me", headers=bearer(token)).status_code == 401
    assert httpx.post(base + "/api/logout", headers=bearer(token)).status_code == 204
    assert httpx.post(base + "/api/logout").status_code == 204


def test_sessions_expire_and_slide(base: str, db: str) -> None:
    register(base, "slider")
    token = bearer_login(base, "slider")
    h = digest(token)
    query = "SELECT expires_at, last_used_at FROM tokens WHERE token_hash=:h"
    [(expires, used)] = sql(db, query, h=h)
    assert int(expires) - int(used) == 30 * DAY  # type: ignore[call-overload]
    # last used 29 days ago: it still works, and using it moves its end 30 days ahead again
    sql(db, "UPDATE tokens SET expires_at = expires_at - :d, last_used_at = last_used_at - :d "
            "WHERE token_hash = :h", d=29 * DAY, h=h)  # fmt: skip
    assert httpx.get(base + "/api/me", headers=bearer(token)).status_code == 200
    [(expires2,)] = sql(db, "SELECT expires_at FROM tokens WHERE token_hash=:h", h=h)
    assert int(expires2) >= int(time.time()) + 30 * DAY - 60  # type: ignore[call-overload]
    # unused for 30 days: it has ended, and the row is gone
    sql(db, "UPDATE tokens SET expires_at = :t, last_used_at = :t - :d WHERE token_hash = :h",
        t=int(time.time()) - 1, d=30 * DAY, h=h)  # fmt: skip
    r = httpx.get(base + "/api/me", headers=bearer(token))
    assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
    assert sql(db, "SELECT 1 FROM tokens WHERE token_hash=:h", h=h) == []


def test_an_open_socket_keeps_its_session_alive(base: str, db: str) -> None:
    """A player at a table for days uses the session though no HTTP request comes: the
    socket's recheck (every 0.2 s here) moves the end."""
    register(base, "sitter")
    token = bearer_login(base, "sitter")
    h = digest(token)
    socket = ws_open(base, **bearer(token))
    sql(db, "UPDATE tokens SET expires_at = expires_at - :d, last_used_at = last_used_at - :d "
            "WHERE token_hash = :h", d=29 * DAY, h=h)  # fmt: skip
    deadline = time.monotonic() + 20
    while True:  # the socket's next recheck moves the end 30 days ahead again
        [(expires,)] = sql(db, "SELECT expires_at FROM tokens WHERE token_hash=:h", h=h)
        if int(expires) > time.time() + 29 * DAY:  # type: ignore[call-overload]
            break
        assert time.monotonic() < deadline, "the socket did not keep its session alive"
        time.sleep(0.1)
    socket.close()


def test_using_a_cookie_session_sends_the_cookie_again_when_it_slides(base: str, db: str) -> None:
    register(base, "slider2")
    browser = cookie_login(base, "slider2")
    h = digest(browser.cookies["paiju_session"])
    assert "set-cookie" not in browser.get("/api/me").headers  # just moved: not again yet
    sql(db, "UPDATE tokens SET expires_at = expires_at - :d, last_used_at = last_used_at - :d "
            "WHERE token_hash = :h", d=2 * DAY, h=h)  # fmt: skip
    r = browser.get("/api/me")
    assert r.status_code == 200 and f"max-age={30 * DAY}" in r.headers["set-cookie"].lower()


def test_a_password_change_ends_every_other_session(base: str) -> None:
    register(base, "changer")
    here = cookie_login(base, "changer")
    elsewhere = bearer_login(base, "changer")
    socket = ws_open(base, **bearer(elsewhere))

    guess = {"password": "not-it-at-all", "new_password": "n3w-pass"}
    wrong = here.post("/api/password", json=guess)
    assert wrong.status_code == 403 and error_of(wrong)["code"] == "wrong_password"
    weak = here.post("/api/password", json={"password": "secret-pw", "new_password": "short"})
    assert weak.status_code == 400 and error_of(weak)["code"] == "weak_password"
    assert httpx.get(base + "/api/me", headers=bearer(elsewhere)).status_code == 200

    ok = here.post("/api/password", json={"password": "secret-pw", "new_password": "n3w-pass"})
    assert ok.status_code == 204
    assert here.get("/api/me").status_code == 200  # the session that changed it goes on
    assert httpx.get(base + "/api/me", headers=bearer(elsewhere)).status_code == 401
    code, frames = closed_with(socket)
    assert code == 4401 and frames[-1]["code"] == "session_ended"
    old = httpx.post(base + "/api/login", json={"name": "changer", "password": "secret-pw"})
    assert old.status_code == 401
    assert bearer_login(base, "changer", "n3w-pass")


def test_an_account_keeps_a_bounded_number_of_sessions(db: str) -> None:
    with serve(db, sessions_per_account="3") as url:
        register(url, "many")
        tokens = [bearer_login(url, "many") for _ in range(4)]
        alive = [httpx.get(url + "/api/me", headers=bearer(t)).status_code for t in tokens]
        assert alive == [401, 200, 200, 200]  # the least recently used ended


def test_the_cap_ends_an_unused_session_before_one_with_a_socket_and_closes_what_it_ends(
    db: str,
) -> None:
    """A session with a socket open is in use: logins beyond the cap end the others first;
    when only sessions in use are left to end (a cap of one), the one ended has its socket
    closed at once (4401 ``session_ended``), as at a logout: it no longer plays on."""
    with serve(db, sessions_per_account="2") as url:
        register(url, "capped")
        playing = bearer_login(url, "capped")
        socket = ws_open(url, **bearer(playing))
        idle = bearer_login(url, "capped")
        bearer_login(url, "capped")  # the third: one must end, and it is the idle one
        assert httpx.get(url + "/api/me", headers=bearer(idle)).status_code == 401
        assert httpx.get(url + "/api/me", headers=bearer(playing)).status_code == 200
        socket.close()
    with serve(db, sessions_per_account="1") as url:
        playing = bearer_login(url, "capped")
        socket = ws_open(url, **bearer(playing))
        bearer_login(url, "capped")
        code, frames = closed_with(socket)
        assert code == 4401 and any(f.get("code") == "session_ended" for f in frames), frames
        assert httpx.get(url + "/api/me", headers=bearer(playing)).status_code == 401


def test_a_token_in_the_url_is_not_a_session(base: str) -> None:
    register(base, "inurl")
    token = bearer_login(base, "inurl")
    ws = connect(base.replace("http", "ws") + f"/ws?token={token}")
    code, frames = closed_with(ws)
    assert code == 4401 and frames[0]["code"] == "unauthorized"
    r = httpx.get(base + f"/api/me?token={token}")
    assert r.status_code == 401


def test_a_logout_on_one_process_closes_the_socket_on_another(base: str, db: str) -> None:
    """Two processes on one database: the socket's process notices within
    PAIJU_SESSION_RECHECK_SECONDS (0.2 here) that its session has ended."""
    register(base, "twoproc")
    token = bearer_login(base, "twoproc")
    with serve(db, session_recheck_seconds="0.2") as other:
        socket = ws_open(other, **bearer(token))
        assert httpx.post(base + "/api/logout", headers=bearer(token)).status_code == 204
        code, frames = closed_with(socket)
        assert code == 4401 and frames[-1]["code"] == "session_ended"


def test_the_sessions_of_many_sockets_are_checked_together() -> None:
    """A process checks its open sockets' sessions in one query per thousand: the ended
    and unknown ones are told apart from the live, and only the live ones due to slide
    are moved."""
    from paiju.server.db import make_sessions, migrate
    from paiju.server.ledger import new_account
    from paiju.server.sessions import Policy, live_sessions, open_session

    engine = make_engine("sqlite://")
    migrate(engine)
    db = make_sessions(engine)
    policy = Policy(ttl=100_000.0, per_account=5000)  # slides 1,000 s after a use
    with db.begin() as s:
        acc = new_account(s, "many", "", 0).id
        tokens = [digest(open_session(s, acc, 10_000, policy)) for _ in range(2500)]
    ended, stale = set(tokens[:700]), set(tokens[700:1700])  # 1,800 left live
    with db.begin() as s:  # ended: expired at 10,500; stale: last used long ago (due to slide)
        s.execute(sa.text("UPDATE tokens SET expires_at = 10500 WHERE token_hash IN :h")
                  .bindparams(sa.bindparam("h", expanding=True)), {"h": sorted(ended)})  # fmt: skip
        s.execute(sa.text("UPDATE tokens SET last_used_at = 9000 WHERE token_hash IN :h")
                  .bindparams(sa.bindparam("h", expanding=True)), {"h": sorted(stale)})  # fmt: skip
    with db.begin() as s:
        live = live_sessions(s, [*tokens, digest("unknown")], 10_900, policy)
    assert live == set(tokens) - ended
    with db.begin() as s:
        query = sa.text("SELECT token_hash, last_used_at FROM tokens")
        rows: dict[str, int] = {h: t for h, t in s.execute(query).all()}
    assert {rows[h] for h in stale} == {10_900}  # moved: a socket uses its session
    assert {rows[h] for h in set(tokens) - ended - stale} == {10_000}  # not due yet
    engine.dispose()
