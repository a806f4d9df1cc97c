"""The origin and logout attacks of issue 13 in a real browser: Playwright driving Debian's
Chromium against ``paiju serve`` on loopback, and an attacker's page served from another
port of the same host (the same *site*, so the SameSite=Strict cookie rides along: only the
Origin check stands in the way). The client's own pages run under the server's CSP without a
single violation."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.security_servers import serve
from tests.web.clicks import act_once
from tests.web.conftest import CHROMIUM

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="Debian's chromium is not installed (.ci/run installs it)",
)


# The attacker's page: drives the victim's socket and posts a logout, with the victim's
# cookie (the browser adds it: same site), then reports what the server answered.
ATTACK = """<!doctype html><meta charset="utf-8"><title>free points</title><script>
const target = new URLSearchParams(location.search).get("target");
window.result = new Promise((done) => {
  const seen = {frames: []};
  const ws = new WebSocket(`ws://${target}/ws`);
  ws.onopen = () => ws.send(JSON.stringify({type: "join", room: "mazhan"}));
  ws.onmessage = (e) => {
    const frame = JSON.parse(e.data);
    seen.frames.push(frame);
    if (frame.type === "seated") { seen.code = null; done(seen); }  // the victim was seated
  };
  ws.onclose = (e) => { seen.code = e.code; done(seen); };
});
// then (not meanwhile: the socket's answer must not depend on the race) a logout
window.logout = window.result.then(() => fetch(`http://${target}/api/logout`, {
  method: "POST", credentials: "include", mode: "no-cors",
  headers: {"content-type": "text/plain"}, body: "{}",
})).then(() => "sent", (err) => String(err));
</script>"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("security-web")
    with serve(
        f"sqlite:///{data / 'paiju.db'}",
        bot_wait="0.2",
        bot_delay="0.05",
        turn_seconds="60",
        log_level="WARNING",
    ) as base:
        yield base


@pytest.fixture(scope="module")
def attacker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The attacker's site: another port of the same host."""
    root = tmp_path_factory.mktemp("attacker")
    (root / "attack.html").write_text(ATTACK, encoding="utf-8")
    handler = partial(SimpleHTTPRequestHandler, directory=str(root))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def open_page(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh browser profile, a page, and the CSP violations it reports."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-TW")
    context.add_init_script(
        """window.__csp = [];
        document.addEventListener("securitypolicyviolation",
            (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return context, page, problems


def register_by_clicks(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    page.fill("#name", name)
    page.fill("#password", "secret-pw-1")
    page.click("#do-register")
    page.wait_for_selector("#lobby", timeout=15_000)


def session_cookie(context: Any) -> str | None:
    for c in context.cookies():
        if c["name"] == "paiju_session":
            assert c["httpOnly"] and c["sameSite"] == "Strict"
            return str(c["value"])
    return None


def test_a_page_of_another_origin_cannot_use_the_victims_session(
    server: str, attacker: str, browser: Any
) -> None:
    context, page, problems = open_page(browser)
    register_by_clicks(page, server, "受害者")
    cookie = session_cookie(context)
    assert cookie is not None
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script reads it

    target = server.removeprefix("http://")
    page.goto(f"{attacker}/attack.html?target={target}")
    seen = page.evaluate("window.result")
    assert seen["code"] == 4403, seen
    assert [f.get("code") for f in seen["frames"]] == ["bad_origin"], seen
    page.evaluate("window.logout")

    # the victim's session was not touched: the cross-origin logout was refused (403)
    page.goto(server + "/")
    page.wait_for_selector("#lobby", timeout=15_000)
    assert session_cookie(context) == cookie
    me = httpx.get(server + "/api/me", cookies={"paiju_session": cookie})
    assert me.status_code == 200 and me.json()["seated"] is None  # never seated by the page
    # the site's own page opens the same socket without trouble
    own = page.evaluate(
        """() => new Promise((done) => {
            const ws = new WebSocket(`ws://${location.host}/ws`);
            ws.onmessage = (e) => { done(JSON.parse(e.data).type); ws.close(); };
            ws.onclose = (e) => done("closed " + e.code);
        })"""
    )
    assert own == "hello"
    assert problems == [] and page.evaluate("window.__csp") == []
    context.close()


def test_without_the_origin_check_the_same_page_would_act_as_the_victim(
    attacker: str, browser: Any, tmp_path: Path
) -> None:
    """The control: allow the attacker's origin, and the same page, with the cookie the
    browser adds on its own, opens the victim's socket and logs the victim out. The check
    is what stops both."""
    with serve(f"sqlite:///{tmp_path / 'paiju.db'}", allowed_origins=attacker) as base:
        httpx.post(base + "/api/register", json={"name": "victim", "password": "secret-pw-1"})
        login = httpx.post(base + "/api/login", json={"name": "victim", "password": "secret-pw-1"})
        cookie = login.cookies["paiju_session"]
        context, page, _ = open_page(browser)
        context.add_cookies([{"name": "paiju_session", "value": cookie, "url": base,
                              "httpOnly": True, "sameSite": "Strict"}])  # fmt: skip
        page.goto(f"{attacker}/attack.html?target={base.removeprefix('http://')}")
        seen = page.evaluate("window.result")
        hello = {"type": "hello", "name": "victim", "balance": 10_000, "seated": False}
        assert seen["frames"][0] == hello
        page.evaluate("window.logout")
        assert httpx.get(base + "/api/me", cookies={"paiju_session": cookie}).status_code == 401
        context.close()


def test_log_out_logs_out(server: str, browser: Any) -> None:
    context, page, problems = open_page(browser)
    register_by_clicks(page, server, "登出者")
    cookie = session_cookie(context)
    assert cookie is not None
    assert page.evaluate("JSON.stringify(localStorage)").find(cookie) == -1  # no token there

    page.click("[data-action=logout]")  # the client's own button (POST /api/logout)
    page.wait_for_selector("#do-login", timeout=15_000)
    assert session_cookie(context) is None
    page.reload()  # the attack: a reload used to bring the lobby back
    page.wait_for_selector("#do-login", timeout=15_000)
    assert page.query_selector("#lobby") is None
    # the old cookie, replayed by hand, is dead on the server too
    r = httpx.get(server + "/api/me", cookies={"paiju_session": cookie})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert problems == [] and page.evaluate("window.__csp") == []
    context.close()


def test_the_client_plays_under_the_csp(server: str, browser: Any) -> None:
    """A hand's first moves in the client, with no CSP violation and no inline code."""
    context, page, problems = open_page(browser)
    register_by_clicks(page, server, "守法者")
    page.click("button[data-alone=mazhan]")
    page.wait_for_selector("#ready", timeout=15_000)
    page.click("#ready")
    page.wait_for_selector(".hand [data-tile]", timeout=20_000)
    # the dealer moves first: at least one move is this player's, then as many as the hand
    # lasts, up to three (each waits for the server's next view, never for the clock)
    moves = 0
    while moves < 3 and act_once(page):
        moves += 1
    assert moves >= 1
    page.wait_for_selector(".move-log li")
    headers = page.evaluate(
        "fetch('/').then(r => [r.headers.get('content-security-policy'), "
        "r.headers.get('x-frame-options')])"
    )
    assert "frame-ancestors 'none'" in headers[0] and headers[1] == "DENY"
    assert problems == [] and page.evaluate("window.__csp") == []
    context.close()
