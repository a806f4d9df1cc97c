"""Headers, cookies and errors (issue 13 §7, issue 35 §6) on a real server (``paiju serve``
on loopback, PostgreSQL): every response carries the security headers, the session cookie
is ``__Host-`` over https and one a sibling subdomain cannot plant, the page needs no inline
script or style, out-of-range ids are 404/422, an unforeseen failure is a coded 500."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from paiju.server.config import Settings
from paiju.server.security import CSP, install
from tests.server.security_servers import (
    PASSWORD,
    bearer,
    bearer_login,
    empty_database,
    error_of,
    register,
)
from tests.server.security_servers import serve as serve_process


@pytest.fixture(scope="module")
def base(postgres_url: str) -> Iterator[str]:
    empty_database(postgres_url)
    with serve_process(postgres_url) as url:
        yield url


def _attributes(set_cookie: str) -> tuple[str, dict[str, str]]:
    """A ``Set-Cookie`` header's cookie name and its attributes (lower-case names)."""
    first, *rest = (part.strip() for part in set_cookie.split(";"))
    attrs = {}
    for attr in rest:
        key, _, value = attr.partition("=")
        attrs[key.lower()] = value
    return first.partition("=")[0], attrs


def _login(base: str, name: str, headers: dict[str, str]) -> httpx.Response:
    r = httpx.post(base + "/api/login", json={"name": name, "password": PASSWORD}, headers=headers)
    assert r.status_code == 200, r.text
    return r


def _me(base: str, cookie: str, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.get(base + "/api/me", headers={**(headers or {}), "cookie": cookie})


def test_over_http_the_cookie_is_paiju_session_and_two_of_them_log_nobody_in(base: str) -> None:
    """Plain http (development): the cookie is ``paiju_session``, not Secure. A sibling
    subdomain can set one of that name beside the victim's; the browser sends both, and the
    server used to take the last, logging the victim into the attacker's account. Two
    different values now log nobody in."""
    register(base, "plainvictim")
    register(base, "plainattacker")
    login = _login(base, "plainvictim", {"origin": base})
    name, attrs = _attributes(login.headers["set-cookie"])
    assert name == "paiju_session" and "secure" not in attrs and "domain" not in attrs
    assert attrs["path"] == "/" and "httponly" in attrs and attrs["samesite"].lower() == "strict"
    victim = login.cookies["paiju_session"]
    planted = bearer_login(base, "plainattacker")
    assert _me(base, f"paiju_session={victim}").json()["name"] == "plainvictim"
    for both in [f"paiju_session={planted}; paiju_session={victim}",
                 f"paiju_session={victim}; paiju_session={planted}"]:  # fmt: skip
        r = _me(base, both)
        assert r.status_code == 401 and error_of(r)["code"] == "unauthorized", both
    # the https name is not read over http
    assert _me(base, f"__Host-paiju_session={victim}").status_code == 401
    out = httpx.post(base + "/api/logout", headers={"origin": base,
                     "cookie": f"paiju_session={victim}"})  # fmt: skip
    assert out.status_code == 204
    name, attrs = _attributes(out.headers["set-cookie"])
    assert name == "paiju_session" and attrs["max-age"] == "0"
    assert _me(base, f"paiju_session={victim}").status_code == 401


def test_over_https_the_cookie_is_host_prefixed_and_only_it_is_read(base: str) -> None:
    """Behind a TLS proxy (a trusted peer saying https): the cookie is
    ``__Host-paiju_session`` (Secure, Path=/, no Domain), which a browser accepts only from
    this host, and the server reads no other: a ``paiju_session`` a sibling subdomain
    planted is ignored, on HTTP and on the socket, and logout drops the right cookie."""
    register(base, "tlsvictim")
    register(base, "tlsattacker")
    https = base.replace("http://", "https://")
    proxied = {"x-forwarded-proto": "https"}
    login = _login(base, "tlsvictim", {**proxied, "origin": https})
    name, attrs = _attributes(login.headers["set-cookie"])
    assert name == "__Host-paiju_session", login.headers["set-cookie"]
    assert "secure" in attrs and attrs["path"] == "/" and "domain" not in attrs
    assert "httponly" in attrs and attrs["samesite"].lower() == "strict"
    victim = f"__Host-paiju_session={login.cookies['__Host-paiju_session']}"
    planted = f"paiju_session={bearer_login(base, 'tlsattacker')}"
    for cookies in [f"{planted}; {victim}", f"{victim}; {planted}"]:
        r = _me(base, cookies, proxied)
        assert r.status_code == 200 and r.json()["name"] == "tlsvictim", cookies
    r = _me(base, planted, proxied)  # the planted one alone logs nobody in
    assert r.status_code == 401 and error_of(r)["code"] == "unauthorized"
    with connect(base.replace("http://", "ws://") + "/ws", additional_headers={
            **proxied, "origin": https, "cookie": f"{planted}; {victim}"}) as ws:  # fmt: skip
        hello = json.loads(ws.recv(timeout=20))
    assert hello["type"] == "hello" and hello["name"] == "tlsvictim"

    out = httpx.post(base + "/api/logout", headers={**proxied, "origin": https,
                     "cookie": f"{planted}; {victim}"})  # fmt: skip
    assert out.status_code == 204
    name, attrs = _attributes(out.headers["set-cookie"])
    # a __Host- cookie is dropped only by a Set-Cookie that is Secure, Path=/, Domain-less
    assert name == "__Host-paiju_session" and attrs["max-age"] == "0"
    assert "secure" in attrs and attrs["path"] == "/" and "domain" not in attrs
    assert _me(base, victim, proxied).status_code == 401  # the session ended with it


def test_every_response_carries_the_security_headers(base: str) -> None:
    register(base, "headers")
    token = bearer_login(base, "headers")
    responses = [
        httpx.get(base + "/"),
        httpx.get(base + "/api/me"),  # 401
        httpx.get(base + "/api/me", headers=bearer(token)),
        httpx.get(base + "/api/rooms"),
        httpx.get(base + "/static/no-such-file.js"),  # 404
        httpx.post(base + "/api/login", json={}),  # 422
    ]
    static = re.search(r'src="(/static/assets/[^"]+\.js)"', responses[0].text)
    assert static is not None
    responses.append(httpx.get(base + static.group(1)))
    for r in responses:
        h = r.headers
        assert h["content-security-policy"] == CSP, r.url
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
        assert h["cross-origin-opener-policy"] == "same-origin"
    assert [r.status_code for r in responses] == [200, 401, 200, 200, 404, 422, 200]
    assert all(r.headers["cache-control"] == "no-store" for r in responses[1:4])
    policy = dict(p.strip().split(" ", 1) for p in CSP.split(";"))
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert "unsafe" not in CSP and "data:" not in CSP


class _Inline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style>")
        if "style" in names:
            self.problems.append(f"style= on <{tag}>")
        if any(k.startswith("on") for k in names):
            self.problems.append(f"an inline handler on <{tag}>")


def test_the_page_needs_no_inline_script_or_style(base: str) -> None:
    page = _Inline()
    page.feed(httpx.get(base + "/").text)
    assert page.problems == []


def test_out_of_range_and_malformed_ids_are_404_or_422(base: str) -> None:
    register(base, "ids")
    auth = bearer(bearer_login(base, "ids"))
    cases = {
        "/api/hands/99999999999999999999/replay": 422,  # was a 500
        "/api/hands/0/replay": 422,
        "/api/hands/-1/replay": 422,
        "/api/hands/abc/replay": 422,
        "/api/hands/1e3/replay": 422,
        "/api/hands/12345/replay": 404,
        "/api/hands/12345/replay?step=-1": 422,
        "/api/hands/12345/replay?step=99999999999999999999": 422,
    }
    for path, status in cases.items():
        r = httpx.get(base + path, headers=auth)
        assert r.status_code == status, (path, r.text)
        assert error_of(r)["code"] == ("unknown_hand" if status == 404 else "bad_request")
        assert len(error_of(r)["message"]) <= 500


def test_the_frameworks_own_refusals_are_coded_too(base: str) -> None:
    """No such path, a wrong method, a body the framework cannot read: the same coded shape
    as every other error (they were FastAPI's ``{"detail": ...}``)."""
    cases = [
        (httpx.get(base + "/api/no-such-thing"), 404, "not_found"),
        (httpx.get(base + "/static/no-such-file.js"), 404, "not_found"),
        (httpx.delete(base + "/api/rooms"), 405, "method_not_allowed"),
        (
            httpx.post(
                base + "/api/login",
                content=b'{"name": ' + b"[" * 5000,
                headers={"content-type": "application/json"},
            ),
            400,
            "bad_request",
        ),
    ]
    for answer, status, code in cases:
        assert answer.status_code == status, answer.text
        assert error_of(answer)["code"] == code, answer.text
        assert "detail" not in answer.json()


def test_an_unforeseen_failure_is_a_coded_500_with_the_headers() -> None:
    app = FastAPI()
    install(app, Settings.from_env({}))

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a secret detail")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
    assert r.status_code == 500
    assert r.json() == {
        "error": {"code": "internal", "message": "something went wrong on the server"}
    }
    assert r.headers["content-security-policy"] == CSP and "secret" not in r.text
