"""What the routes share: the process's services, the caller's session and the session
cookie.

A caller presents a session token as ``Authorization: Bearer <token>`` (API clients) or as
the session cookie (browsers: HttpOnly, SameSite=Strict, Path=/, no Domain). A request the
cookie authenticates that changes something (POST) must name an allowed ``Origin``
(:mod:`paiju.server.security`).

Over https (the scheme uvicorn reports, from a trusted proxy's ``X-Forwarded-Proto``, or
always with ``PAIJU_SECURE_COOKIES``) the cookie is ``__Host-paiju_session``, Secure: a
browser takes a cookie of that name only from this very host, never from a sibling
subdomain (``Domain=``) or plain http, and the server reads no other. Over plain http
(development) it is ``paiju_session``, which a sibling subdomain could set beside the real
one: a request carrying two different values of the cookie is not logged in at all (neither
is trusted), rather than in whichever account the browser happened to send last.

>>> COOKIE, HTTPS_COOKIE
('paiju_session', '__Host-paiju_session')
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection

from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.security import security
from paiju.server.services import Services
from paiju.server.sessions import resolve

__all__ = [
    "COOKIE",
    "HTTPS_COOKIE",
    "Caller",
    "Credential",
    "app_now",
    "clear_session_cookie",
    "cookie_name",
    "credential_of",
    "current_account",
    "current_caller",
    "now",
    "services",
    "set_session_cookie",
    "token_of",
]

COOKIE = "paiju_session"
HTTPS_COOKIE = "__Host-paiju_session"
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def services(conn: HTTPConnection) -> Services:
    """The process's services."""
    return conn.app.state.services  # type: ignore[no-any-return]


def now(conn: HTTPConnection) -> float:
    """The time (Unix seconds) by the app's clock (``app.state.clock``; tests move it)."""
    return app_now(conn.app)


def app_now(app: Any) -> float:
    """The time (Unix seconds) by an app's clock (``app.state.clock``; tests move it).

    >>> from types import SimpleNamespace
    >>> app_now(SimpleNamespace(state=SimpleNamespace(clock=lambda: 12)))
    12.0
    """
    clock = getattr(app.state, "clock", None)
    return float(clock() if clock is not None else time.time())


@dataclass(frozen=True, slots=True)
class Credential:
    """The token a request presents, and whether it came as the cookie."""

    token: str
    via_cookie: bool


def credential_of(conn: HTTPConnection) -> Credential:
    """The caller's token: a bearer header, else the session cookie of this scheme's name
    (:func:`cookie_name`) if the request carries one value of it, none if it carries two
    (never the URL).

    >>> from types import SimpleNamespace as NS
    >>> from starlette.requests import Request
    >>> app = NS(state=NS(security=NS(settings=NS(secure_cookies=False))))
    >>> def get(scheme: str, header: bytes, name: bytes = b"cookie") -> Credential:
    ...     scope = {"type": "http", "scheme": scheme, "app": app, "headers": [(name, header)]}
    ...     return credential_of(Request(scope))
    >>> get("http", b"Bearer abc", b"authorization")
    Credential(token='abc', via_cookie=False)
    >>> get("http", b"paiju_session=x"), get("https", b"paiju_session=x; __Host-paiju_session=y")
    (Credential(token='x', via_cookie=True), Credential(token='y', via_cookie=True))
    >>> get("https", b"paiju_session=x")  # a sibling subdomain can set this one: not read
    Credential(token='', via_cookie=False)
    >>> get("http", b"paiju_session=evil; paiju_session=x")  # which is the victim's?
    Credential(token='', via_cookie=True)
    """
    header = conn.headers.get("authorization") or ""
    if header[:7].lower() == "bearer ":
        return Credential(header[7:].strip(), False)
    values = _cookie_values(conn.headers.getlist("cookie"), cookie_name(conn))
    if len(values) > 1:  # one may be planted by a sibling host: trust neither
        return Credential("", True)
    return Credential(values.pop(), True) if values else Credential("", False)


def _cookie_values(headers: list[str], name: str) -> set[str]:
    """Every non-empty value the ``Cookie`` headers give the cookie ``name`` (a dictionary of
    cookies, such as Starlette's ``conn.cookies``, keeps only the last).

    >>> sorted(_cookie_values(["a=1; b=2", "a=3;a=1; a="], "a"))
    ['1', '3']
    """
    values = set()
    for header in headers:
        for chunk in header.split(";"):
            key, sep, value = chunk.partition("=")
            if sep and key.strip() == name and value.strip():
                values.add(value.strip())
    return values


def token_of(conn: HTTPConnection) -> str:
    """The caller's token (see :func:`credential_of`)."""
    return credential_of(conn).token


@dataclass(frozen=True, slots=True)
class Caller:
    """The caller: their account, their session's id, how they presented it."""

    account: Account
    session: str
    token: str
    via_cookie: bool


def _secure(conn: HTTPConnection) -> bool:
    # the scope's scheme: uvicorn's, from X-Forwarded-Proto when the proxy is trusted
    https = conn.scope.get("scheme") in ("https", "wss")
    return https or bool(security(conn).settings.secure_cookies)


def cookie_name(conn: HTTPConnection) -> str:
    """The session cookie's name for this request: :data:`HTTPS_COOKIE` over https or with
    ``PAIJU_SECURE_COOKIES``, else :data:`COOKIE`.

    >>> from types import SimpleNamespace as NS
    >>> from starlette.requests import Request
    >>> def app(secure: bool) -> NS:
    ...     return NS(state=NS(security=NS(settings=NS(secure_cookies=secure))))
    >>> [cookie_name(Request({"type": "http", "scheme": s, "app": app(c), "headers": []}))
    ...  for s, c in [("http", False), ("https", False), ("http", True)]]
    ['paiju_session', '__Host-paiju_session', '__Host-paiju_session']
    """
    return HTTPS_COOKIE if _secure(conn) else COOKIE


def set_session_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Send the session cookie (:func:`cookie_name`; HttpOnly, SameSite=Strict, Path=/, no
    Domain, Secure over https or when configured), living as long as the session."""
    response.set_cookie(
        cookie_name(conn),
        token,
        max_age=int(security(conn).policy.ttl),
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(conn),
    )


def clear_session_cookie(response: Response, conn: HTTPConnection) -> None:
    """Tell the browser to drop the session cookie of this scheme's name (a ``__Host-`` one
    is dropped only by a Set-Cookie as Secure, Path=/ and Domain-less as the one that set
    it)."""
    response.delete_cookie(
        cookie_name(conn), path="/", httponly=True, samesite="strict", secure=_secure(conn)
    )


def current_caller(request: Request, response: Response) -> Caller:
    """The caller's live session (a sync dependency: it runs in a worker thread). Using a
    session moves its end; the cookie is then sent again.

    Raises :class:`~paiju.server.errors.ServerError` ``unauthorized`` (401), ``bad_origin``
    or ``origin_required`` (403).
    """
    cred = credential_of(request)
    sec = security(request)
    if cred.via_cookie and request.method in _UNSAFE:
        sec.origins.check(request.scope, required=True)
    with services(request).sessions.begin() as s:
        found = resolve(s, cred.token, now(request), sec.policy)
    if found is None:
        raise ServerError("unauthorized", "log in first", 401)
    if found.refreshed and cred.via_cookie:
        set_session_cookie(response, request, cred.token)
    return Caller(found.account, found.session, cred.token, cred.via_cookie)


def current_account(caller: Annotated[Caller, Depends(current_caller)]) -> Account:
    """The caller's account.

    Raises :class:`~paiju.server.errors.ServerError` ``unauthorized`` (401).
    """
    return caller.account
