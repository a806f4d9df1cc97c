"""Accounts: register (:mod:`~paiju.server.names`, :mod:`~paiju.server.passwords`), log in
(a server-side session, :mod:`~paiju.server.sessions`), change the password.

The routes split these steps so that no database transaction waits for a password hash and
every hash passes the server's gate; :func:`register` and :func:`login` compose them for
scripts and tests.

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> e = make_engine("sqlite://"); migrate(e); sessions = make_sessions(e)
>>> with sessions.begin() as s:
...     acc = register(s, "ana", "secret-pw", 10_000)
...     token = login(s, "ANA", "secret-pw")
>>> with sessions.begin() as s:
...     account_for_token(s, token).name, account_for_token(s, "forged") is None
('ana', True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from paiju.server import names
from paiju.server.errors import ServerError
from paiju.server.ledger import new_account
from paiju.server.models import Account
from paiju.server.passwords import check_policy, hash_password, verify
from paiju.server.sessions import Policy, end_others, open_session, resolve

__all__ = [
    "LoginTarget",
    "account_for_token",
    "bad_credentials",
    "check_available",
    "create_account",
    "find_for_login",
    "login",
    "register",
    "set_password",
]

_DEFAULT = Policy()


def bad_credentials() -> ServerError:
    """The one answer to a wrong name or a wrong password (401)."""
    return ServerError("bad_credentials", "unknown name or wrong password", 401)


def _taken() -> ServerError:
    return ServerError("name_taken", "that name, or one that looks like it, is taken", 409)


def check_available(s: Session, name: str) -> str:
    """Validate a new name and check nobody holds it or a look-alike; its key.

    Raises :class:`~paiju.server.errors.ServerError` ``bad_name`` or ``name_taken``.
    """
    key = names.key(name)
    clash = sa.select(Account.id).where(sa.or_(Account.name_key == key, Account.name == name))
    if s.scalars(clash).first() is not None:
        raise _taken()
    return key


def create_account(
    s: Session, name: str, key: str, password_hash: str, start_balance: int
) -> Account:
    """Insert an account with its starting balance (``name`` already normalised, ``key`` its
    key); two registrations of look-alikes at once: the database's unique key lets one in.

    Raises :class:`~paiju.server.errors.ServerError` ``name_taken``.
    """
    try:
        with s.begin_nested():
            acc = new_account(s, name, password_hash, start_balance)
            acc.name_key = key
            s.flush()
    except IntegrityError:
        raise _taken() from None
    return acc


def register(s: Session, name: str, password: str, start_balance: int) -> Account:
    """Create an account with its starting balance (the name normalised, :mod:`names`).

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> with make_sessions(e).begin() as s:
    ...     register(s, "x", "secret-pw", 1)
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name has 2–20 characters

    Raises :class:`~paiju.server.errors.ServerError` ``bad_name``, ``weak_password`` or
    ``name_taken``.
    """
    normal = names.normalise(name)
    check_policy(password)
    key = check_available(s, normal)
    return create_account(s, normal, key, hash_password(password), start_balance)


@dataclass(frozen=True, slots=True)
class LoginTarget:
    """The account a login names, and its password hash."""

    account_id: int
    password_hash: str


def find_for_login(s: Session, name: str) -> LoginTarget | None:
    """The account a login names: by its exact name (names registered before the name
    rules, whose key collided, log in only so), else by the name's key (``Ana`` is ``ana``).
    """
    if not isinstance(name, str) or not name:
        return None
    people = sa.select(Account.id, Account.password_hash).where(Account.is_house.is_(False))
    row = s.execute(people.where(Account.name == name)).first()
    if row is None:
        row = s.execute(people.where(Account.name_key == names.lenient_key(name))).first()
    return None if row is None else LoginTarget(int(row[0]), str(row[1]))


def login(
    s: Session, name: str, password: str, now: float | None = None, policy: Policy = _DEFAULT
) -> str:
    """Check the password and open a session; its token. An unknown name costs the same
    hash as a known one.

    Raises :class:`~paiju.server.errors.ServerError` ``bad_credentials``.
    """
    target = find_for_login(s, name)
    if not verify(target.password_hash if target else None, password) or target is None:
        raise bad_credentials()
    return open_session(s, target.account_id, time.time() if now is None else now, policy)


def account_for_token(
    s: Session, token: str, now: float | None = None, policy: Policy = _DEFAULT
) -> Account | None:
    """The account of a live session's token, or None (run it in a committing transaction:
    using a session moves its end)."""
    found = resolve(s, token, time.time() if now is None else now, policy)
    return None if found is None else found.account


def set_password(s: Session, account_id: int, password_hash: str, keep: str | None) -> list[str]:
    """Store a new password hash and end every other session of the account (``keep``: the
    session that asked); the ids of the sessions ended."""
    s.execute(
        sa.update(Account).where(Account.id == account_id).values(password_hash=password_hash)
    )
    return end_others(s, account_id, keep)
