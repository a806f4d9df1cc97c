"""Server-side sessions: a login opens one; its token is 32 random bytes (URL-safe text) that
the database never sees, only its SHA-256. A session ends ``PAIJU_SESSION_DAYS`` (30) after
it was last used (sliding: using it moves the end, at most once per 1/100 of the period), at
logout, when the password changes (every other session of the account), or when the account
opens more than ``PAIJU_SESSIONS_PER_ACCOUNT`` (the least recently used ends).

Times are Unix seconds, passed in (tests move the clock, not the wall).

>>> from paiju.server.db import make_engine, make_sessions, migrate
>>> from paiju.server.ledger import new_account
>>> e = make_engine("sqlite://"); migrate(e); db = make_sessions(e)
>>> policy = Policy(ttl=100.0, per_account=2)
>>> with db.begin() as s:
...     acc = new_account(s, "ana", "", 1000)
...     token = open_session(s, acc.id, 1000, policy)
>>> with db.begin() as s:
...     resolve(s, token, 1050, policy).account.name, resolve(s, token, 1200, policy)
('ana', None)
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.orm import Session

from paiju.server.config import Settings
from paiju.server.db import one_of
from paiju.server.models import Account, Token

__all__ = [
    "Policy",
    "Resolved",
    "digest",
    "end_others",
    "end_session",
    "live_sessions",
    "open_session",
    "open_session_ending",
    "resolve",
]

DAY = 24 * 3600
_MAX_TOKEN = 200  # a longer "token" is no token of ours: not even hashed


@dataclass(frozen=True, slots=True)
class Policy:
    """How long sessions live, and how many an account keeps.

    >>> Policy.of(Settings.from_env({"PAIJU_SESSION_DAYS": "1"})).ttl
    86400.0
    """

    ttl: float = 30.0 * DAY
    per_account: int = 20

    @property
    def refresh_every(self) -> float:
        """How long after its last move a session's end is moved again."""
        return self.ttl / 100

    @staticmethod
    def of(settings: Settings) -> Policy:
        """The policy of these settings."""
        return Policy(settings.session_days * DAY, settings.sessions_per_account)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A live session: its account, its id (the token's digest), its end, and whether this
    use moved the end (the cookie is then sent again with the new lifetime)."""

    account: Account
    session: str
    expires_at: int
    refreshed: bool


def digest(token: str) -> str:
    """The SHA-256 (hex) of a token: the session's id, and all the database keeps.

    >>> len(digest("abc"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def open_session(s: Session, account_id: int, now: float, policy: Policy) -> str:
    """Open a session for an account and return its token (shown once, never stored). The
    account's expired sessions, and the least recently used beyond ``policy.per_account``,
    end here (:func:`open_session_ending` also says which)."""
    return open_session_ending(s, account_id, now, policy)[0]


def open_session_ending(
    s: Session,
    account_id: int,
    now: float,
    policy: Policy,
    in_use: Collection[str] = (),
) -> tuple[str, list[str]]:
    """:func:`open_session`, and the ids of the sessions it ended beyond the cap (their open
    sockets are to close). Sessions in ``in_use`` (with a socket open: their players are
    using them) end last, then the least recently used.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> from paiju.server.ledger import new_account
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> policy = Policy(3600, 2)
    >>> with make_sessions(e).begin() as s:
    ...     acc = new_account(s, "ana", "", 0).id
    ...     first, second = (digest(open_session(s, acc, t, policy)) for t in (1, 2))
    ...     _, ended = open_session_ending(s, acc, 3, policy, in_use={first})
    ...     ended == [second]
    True
    """
    token = secrets.token_urlsafe(32)
    t = int(now)
    s.add(
        Token(
            account_id=account_id,
            token_hash=digest(token),
            expires_at=t + int(policy.ttl),
            last_used_at=t,
        )
    )
    s.flush()
    s.execute(sa.delete(Token).where(Token.account_id == account_id, Token.expires_at <= t))
    used = list(in_use)
    extra = (
        sa.select(Token.id, Token.token_hash)
        .where(Token.account_id == account_id)
        .order_by(
            sa.case((Token.token_hash == digest(token), 0), else_=1),  # the new one stays
            sa.case((Token.token_hash.in_(used), 0), else_=1) if used else sa.literal(1),
            Token.last_used_at.desc(),
            Token.id.desc(),
        )
        .offset(policy.per_account)
    )
    old = list(s.execute(extra))
    if old:
        s.execute(sa.delete(Token).where(Token.id.in_([row[0] for row in old])))
    return token, [str(row[1]) for row in old]


def resolve(s: Session, token: str, now: float, policy: Policy) -> Resolved | None:
    """The live session of a token, its end moved if it is due (run it in a transaction
    that commits); None for no token, an unknown, ended or expired one (an expired one is
    deleted)."""
    if not token or len(token) > _MAX_TOKEN:
        return None
    row = s.execute(
        sa.select(Token, Account)
        .join(Account, Account.id == Token.account_id)
        .where(Token.token_hash == digest(token), Account.is_house.is_(False))
    ).first()
    if row is None:
        return None
    session, account = row
    t = int(now)
    if session.expires_at <= t:
        s.delete(session)
        return None
    refreshed = t - session.last_used_at >= policy.refresh_every
    if refreshed:
        session.last_used_at = t
        session.expires_at = t + int(policy.ttl)
    return Resolved(account, session.token_hash, session.expires_at, refreshed)


def end_session(s: Session, token: str) -> str | None:
    """End the session of a token (logout); its id, or None if there was none.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> e = make_engine("sqlite://"); migrate(e)
    >>> with make_sessions(e).begin() as s:
    ...     end_session(s, "no-such-token")
    """
    if not token or len(token) > _MAX_TOKEN:
        return None
    gone = s.execute(
        sa.delete(Token).where(Token.token_hash == digest(token)).returning(Token.token_hash)
    ).first()
    return None if gone is None else str(gone[0])


def end_others(s: Session, account_id: int, keep: str | None) -> list[str]:
    """End every session of an account but ``keep`` (a session id); the ids ended."""
    query = sa.delete(Token).where(Token.account_id == account_id)
    if keep is not None:
        query = query.where(Token.token_hash != keep)
    return [str(h) for h in s.execute(query.returning(Token.token_hash)).scalars()]


#: Sessions asked about in one statement by :func:`live_sessions`.
_CHUNK = 1000


def live_sessions(s: Session, sessions: list[str], now: float, policy: Policy) -> set[str]:
    """Which of these sessions (by id) are still open and unexpired, in one query per
    thousand; the ends of the live ones are moved where due, in one statement (the open
    sockets of a process ask this together: their players are using their sessions). Run it
    in a transaction that commits.

    >>> from paiju.server.db import make_engine, make_sessions, migrate
    >>> from paiju.server.ledger import new_account
    >>> e = make_engine("sqlite://"); migrate(e); db = make_sessions(e)
    >>> policy = Policy(ttl=100.0)
    >>> with db.begin() as s:
    ...     ana = open_session(s, new_account(s, "ana", "", 0).id, 1000, policy)
    >>> with db.begin() as s:
    ...     live_sessions(s, [digest(ana), digest("gone")], 1050, policy) == {digest(ana)}
    True
    >>> with db.begin() as s:
    ...     live_sessions(s, [digest(ana)], 1149, policy) == {digest(ana)}  # moved at 1050
    True
    """
    t = int(now)
    live: set[str] = set()
    due: list[str] = []
    for i in range(0, len(sessions), _CHUNK):
        rows = s.execute(
            sa.select(Token.token_hash, Token.expires_at, Token.last_used_at).where(
                one_of(s, Token.token_hash, sessions[i : i + _CHUNK])
            )
        )
        for token_hash, expires_at, last_used_at in rows:
            if expires_at > t:
                live.add(token_hash)
                if t - last_used_at >= policy.refresh_every:
                    due.append(token_hash)
    for i in range(0, len(due), _CHUNK):
        s.execute(
            sa.update(Token)
            .where(one_of(s, Token.token_hash, due[i : i + _CHUNK]))
            .values(last_used_at=t, expires_at=t + int(policy.ttl))
        )
    return live
