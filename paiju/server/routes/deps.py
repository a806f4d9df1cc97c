"""What the routes share: the process's services, the caller's session and the session
cookie.

A caller presents a session token as ``Authorization: Bearer <token>`` (API clients) or as
the ``paiju_session`` cookie (browsers: HttpOnly, SameSite=Strict, Secure over https or with
``PAIJU_SECURE_COOKIES``). A request the cookie authenticates that changes something (POST)
must name an allowed ``Origin`` (:mod:`paiju.server.security`).

>>> COOKIE
'paiju_session'
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
    "Caller",
    "Credential",
    "app_now",
    "clear_session_cookie",
    "credential_of",
    "current_account",
    "current_caller",
    "now",
    "services",
    "set_session_cookie",
    "token_of",
]

COOKIE = "paiju_session"
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
    """The caller's token: a bearer header, else the session cookie (never the URL).

    >>> from starlette.requests import Request
    >>> credential_of(Request({"type": "http", "headers": [(b"authorization", b"Bearer abc")]}))
    Credential(token='abc', via_cookie=False)
    >>> credential_of(Request({"type": "http", "headers": [(b"cookie", b"paiju_session=x")]}))
    Credential(token='x', via_cookie=True)
    """
    header = conn.headers.get("authorization") or ""
    if header[:7].lower() == "bearer ":
        return Credential(header[7:].strip(), False)
    cookie = conn.cookies.get(COOKIE)
    if cookie:
        return Credential(cookie, True)
    return Credential("", False)


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
    return bool(security(conn).settings.secure_cookies) or conn.url.scheme in ("https", "wss")


def set_session_cookie(response: Response, conn: HTTPConnection, token: str) -> None:
    """Send the session cookie (HttpOnly, SameSite=Strict, Secure over https or when
    configured), living as long as the session."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=int(security(conn).policy.ttl),
        path="/",
        httponly=True,
        samesite="strict",
        secure=_secure(conn),
    )


def clear_session_cookie(response: Response, conn: HTTPConnection) -> None:
    """Tell the browser to drop the session cookie."""
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=_secure(conn))


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
