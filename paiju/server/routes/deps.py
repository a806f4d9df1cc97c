"""What the routes share: the process's services and the caller's account.

>>> COOKIE
'paiju_session'
"""

from __future__ import annotations

from fastapi import Request
from starlette.requests import HTTPConnection

from paiju.server.accounts import account_for_token
from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.services import Services

__all__ = ["COOKIE", "current_account", "services", "token_of"]

COOKIE = "paiju_session"


def services(conn: HTTPConnection) -> Services:
    """The process's services."""
    return conn.app.state.services  # type: ignore[no-any-return]


def token_of(conn: HTTPConnection) -> str:
    """The caller's token: a bearer header, else the session cookie.

    >>> from starlette.requests import Request
    >>> token_of(Request({"type": "http", "headers": [(b"authorization", b"Bearer abc")]}))
    'abc'
    """
    header = conn.headers.get("authorization") or ""
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return conn.cookies.get(COOKIE) or ""


def current_account(request: Request) -> Account:
    """The caller's account (a sync dependency: it runs in a worker thread).

    Raises :class:`~paiju.server.errors.ServerError` ``unauthorized``.
    """
    with services(request).sessions() as s:
        acc = account_for_token(s, token_of(request))
    if acc is None:
        raise ServerError("unauthorized", "log in first", 401)
    return acc
