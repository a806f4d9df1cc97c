"""Accounts: register, log in (argon2 password hashes), bearer tokens.

A token is 32 random bytes (URL-safe); the database keeps only its SHA-256, so a stolen copy
of the database logs nobody in.

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> e = make_engine("sqlite://"); migrate(e); sessions = make_sessions(e)
>>> with sessions.begin() as s:
...     acc = register(s, "ana", "secret-pw", 10_000)
...     token = login(s, "ana", "secret-pw")
>>> with sessions() as s:
...     account_for_token(s, token).name, account_for_token(s, "forged") is None
('ana', True)
"""

from __future__ import annotations

import hashlib
import re
import secrets

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.orm import Session

from paiju.server.errors import ServerError
from paiju.server.ledger import new_account
from paiju.server.models import Account, Token

__all__ = ["account_for_token", "login", "register"]

_HASHER = PasswordHasher()
_NAME = re.compile(r"^[\w\u4e00-\u9fff-]{2,20}$")


def register(s: Session, name: str, password: str, start_balance: int) -> Account:
    """Create an account with its starting balance.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> with make_sessions(e).begin() as s:
    ...     register(s, "x", "secret-pw", 1)
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name is 2–20 letters, digits, _ or -

    Raises :class:`~paiju.server.errors.ServerError` ``bad_name``, ``weak_password`` or
    ``name_taken``.
    """
    if not isinstance(name, str) or not _NAME.match(name) or name.startswith("__"):
        raise ServerError("bad_name", "a name is 2–20 letters, digits, _ or -")
    if not isinstance(password, str) or len(password) < 6:
        raise ServerError("weak_password", "a password has at least 6 characters")
    return new_account(s, name, _HASHER.hash(password), start_balance)


def login(s: Session, name: str, password: str) -> str:
    """Check the password and return a new bearer token.

    Raises :class:`~paiju.server.errors.ServerError` ``bad_credentials`` (for an unknown
    name or a wrong password alike).
    """
    acc = s.scalars(
        sa.select(Account).where(Account.name == name, Account.is_house.is_(False))
    ).first()
    bad = ServerError("bad_credentials", "unknown name or wrong password", 401)
    if acc is None or not isinstance(password, str):
        raise bad
    try:
        _HASHER.verify(acc.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise bad from None
    token = secrets.token_urlsafe(32)
    s.add(Token(account_id=acc.id, token_hash=_digest(token)))
    s.flush()
    return token


def account_for_token(s: Session, token: str) -> Account | None:
    """The account a token belongs to, or None."""
    if not token:
        return None
    row = s.scalars(sa.select(Token).where(Token.token_hash == _digest(token))).first()
    return None if row is None else s.get(Account, row.account_id)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
