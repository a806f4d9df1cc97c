"""The HTTP API (``/api``): accounts, the lobby, the caller's hands, replays and ledger.

>>> sorted(r.path for r in router.routes)[:3]
['/api/hands', '/api/hands/{hand_id}/replay', '/api/health']
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from paiju.games import replay
from paiju.records import read_record
from paiju.server import names, relief
from paiju.server.accounts import (
    bad_credentials,
    check_available,
    create_account,
    find_for_login,
    set_password,
)
from paiju.server.admin import refuse_suspended
from paiju.server.errors import ServerError
from paiju.server.hub import unknown_code
from paiju.server.models import Account
from paiju.server.passwords import check_policy, hash_password, verify
from paiju.server.routes.deps import (
    Caller,
    clear_session_cookie,
    credential_of,
    current_account,
    current_caller,
    now,
    services,
    set_session_cookie,
)
from paiju.server.security import client_address, security
from paiju.server.sessions import end_session, open_session_ending

__all__ = ["replay_step", "router"]

router = APIRouter(prefix="/api")
Me = Annotated[Account, Depends(current_account)]
Caller_ = Annotated[Caller, Depends(current_caller)]
T = TypeVar("T")


class Credentials(BaseModel):
    """``{"name", "password"}`` for register and login."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class Login(Credentials):
    """``{"name", "password", "bearer"?}``: ``bearer`` asks for a token (API clients)."""

    bearer: bool = Field(False, description="answer a bearer token instead of the cookie")


class PasswordChange(BaseModel):
    """``{"password", "new_password"}``: the current password and the new one."""

    password: str = Field(max_length=1024)
    new_password: str = Field(max_length=1024)


def replay_step(record: dict[str, Any], seat: str, step: int) -> dict[str, Any]:
    """The view of ``seat`` after ``step`` actions of a finished hand's record.

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game, names
    >>> r = play_match(game(names()[0]).default_ruleset(), [RandomBot()] * 4, 3, 1)[0].to_json()
    >>> at = replay_step(r, "E", 5)
    >>> at["game"] == r["game"], at["step"], at["last"] == r["actions"][4]
    (True, 5, True)
    >>> at["steps"] == len(at["events"]) == len(r["actions"]), all(at["events"])
    (True, True)
    >>> replay_step(r, "E", 0)["last"], replay_step(r, "E", 10**6)["step"] == at["steps"]
    (None, True)
    """
    g, ruleset, seed, setup, actions = read_record(record)
    step = max(0, min(step, len(actions)))
    viewer = g.seats["ESWN".index(seat)]
    # the whole hand once, keeping each action's events as the viewer saw them (the move
    # list names tiles as the live log did) and the state after ``step`` actions
    events: list[list[dict[str, Any]]] = []
    at_step: list[Any] = []

    def keep(after: Any, happened: list[Any]) -> None:
        events.append([j for e in happened if (j := e.to_json(viewer)) is not None])
        if len(events) == step:
            at_step.append(after)

    replay(g, ruleset, seed, setup, actions, each=keep)
    state = at_step[0] if at_step else g.new_hand(ruleset, seed, setup)
    view = g.observe(state, viewer).to_json()
    return {
        "game": g.name,
        "seat": seat,
        "step": step,
        "steps": len(actions),
        "last": actions[step - 1] if step else None,
        "view": view,
        # the hand is over: the viewer shows every seat's hand and the whole move list
        "views": {s.value: g.observe(state, s).to_json() for s in g.seats},
        "actions": list(actions),
        "events": events,
        # who sat where (their names were on the table for everyone to see)
        "names": {
            letter: _shown_seat(rec)
            for letter, rec in (record.get("seats") or {}).items()
            if isinstance(rec, dict)
        },
    }


def _shown_seat(rec: dict[str, Any]) -> dict[str, Any]:
    """A record's seat as the replay shows it: the name on the table, never the account."""
    return {"name": rec.get("name", ""), "bot": bool(rec.get("bot")), "level": rec.get("level")}


async def _db(request: Request, work: Callable[[Session], T]) -> T:
    """Run ``work`` in one committing transaction, in a worker thread."""

    def run() -> T:
        with services(request).sessions.begin() as s:
            return work(s)

    return await asyncio.to_thread(run)


@router.post("/register", status_code=201)
async def api_register(body: Credentials, request: Request) -> dict[str, Any]:
    """Create an account with the starting balance (docs/security.md: names, passwords)."""
    sec = security(request)
    name = names.normalise(body.name)
    check_policy(body.password)
    key = await _db(request, lambda s: check_available(s, name))
    address = client_address(request)
    await sec.throttle.register(address)
    with sec.throttle.checking(None, address):
        hashed = await sec.gate.run(lambda: hash_password(body.password))
    start = services(request).settings.start_balance
    acc = await _db(request, lambda s: create_account(s, name, key, hashed, start))
    return {"name": acc.name, "balance": acc.balance}


@router.post("/login")
async def api_login(body: Login, request: Request, response: Response) -> dict[str, Any]:
    """Log in. A browser gets the session cookie and ``{"name", "balance"}``; an API client
    that asks (``"bearer": true``) gets ``{"token", "expires_at"}`` and no cookie. Failed
    logins are throttled per name and per address (429 ``rate_limited``)."""
    sec = security(request)
    key = names.lenient_key(body.name)
    address = client_address(request)
    with sec.throttle.checking(key, address):  # one check of a name at a time: counted in turn
        await sec.throttle.check_login(key, address)
        target = await _db(request, lambda s: find_for_login(s, body.name))
        stored = target.password_hash if target else None
        ok = await sec.gate.run(lambda: verify(stored, body.password))
        if not ok or target is None:
            await sec.throttle.login_failed(key, address)
            raise bad_credentials()
    t = now(request)

    in_use = sec.sockets.sessions_of(target.account_id)

    def opened(s: Session) -> tuple[tuple[str, list[str]], Account | None]:
        refuse_suspended(s, target.account_id)
        opening = open_session_ending(s, target.account_id, t, sec.policy, in_use)
        return opening, s.get(Account, target.account_id)

    (token, ended), acc = await _db(request, opened)
    # the sessions this login ended beyond the cap: their sockets close now, as at a logout
    sec.sockets.end_sessions(ended)
    if body.bearer:
        return {"token": token, "expires_at": int(t) + int(sec.policy.ttl)}
    set_session_cookie(response, request, token)
    return {"name": acc.name if acc else body.name, "balance": acc.balance if acc else 0}


@router.post("/logout", status_code=204)
async def api_logout(request: Request) -> Response:
    """End the caller's session (cookie or bearer), drop the cookie and close the session's
    sockets on this process (on other processes within ``PAIJU_SESSION_RECHECK_SECONDS``).
    Without a session it only drops the cookie."""
    cred = credential_of(request)
    sec = security(request)
    if cred.via_cookie:
        sec.origins.check(request.scope, required=True)
    ended = await _db(request, lambda s: end_session(s, cred.token)) if cred.token else None
    if ended is not None:
        sec.sockets.end_sessions([ended])
    response = Response(status_code=204)
    clear_session_cookie(response, request)
    return response


@router.post("/password", status_code=204)
async def api_password(body: PasswordChange, caller: Caller_, request: Request) -> Response:
    """Change the password (the current one is asked again): every other session of the
    account ends, and their sockets close; this one goes on."""
    sec = security(request)
    check_policy(body.new_password)
    key = names.lenient_key(caller.account.name)
    address = client_address(request)
    stored = caller.account.password_hash
    with sec.throttle.checking(key, address):
        await sec.throttle.check_login(key, address)
        if not await sec.gate.run(lambda: verify(stored, body.password)):
            await sec.throttle.login_failed(key, address)
            raise ServerError("wrong_password", "the current password is wrong", 403)
        hashed = await sec.gate.run(lambda: hash_password(body.new_password))
    account_id = caller.account.id
    ended = await _db(request, lambda s: set_password(s, account_id, hashed, caller.session))
    sec.sockets.end_sessions(ended)
    return Response(status_code=204)


@router.get("/me")
def api_me(acc: Me, request: Request) -> dict[str, Any]:
    """The caller's name and balance, where they sit, and whether they may claim relief
    now (``relief``: ``/api/relief`` says how much)."""
    svc = services(request)
    seated = svc.hub.seated(acc.id)
    if seated is None:
        table = svc.store.seat_of(acc.id)
        seated = None if table is None else {"table": table, "room": None, "seat": None}
    policy = relief.Policy.of(svc.settings)
    may = (
        policy.on
        and acc.balance < policy.floor
        and relief.status(svc.sessions, policy, acc.id, now(request))["eligible"]
    )
    return {"name": acc.name, "balance": acc.balance, "seated": seated, "relief": may}


@router.get("/rooms")
async def api_rooms(request: Request) -> dict[str, Any]:
    """The rooms: game, minimum balance, level, tables and players (every process's), and
    how many people are online."""
    return await services(request).tables.lobby()


@router.get("/invite/{code}")
async def api_invite(
    request: Request,
    code: Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9]+$")],
) -> dict[str, Any]:
    """What an invitation to a friend's private table shows before joining: its game and
    room, the people sitting there, the seats free now and whether a hand is being played.
    No account is needed (a friend opens the link before logging in); each address may look
    up ``PAIJU_INVITE_LIMITS_ADDRESS`` invitations (``429 rate_limited``). Anyone with the
    code could join and see as much.

    Raises :class:`~paiju.server.errors.ServerError` ``unknown_table`` (404) for a code no
    table plays under.
    """
    await security(request).throttle.invite(client_address(request))
    info = await services(request).tables.invitation(code)
    if info is None:
        raise unknown_code(code)
    return info


@router.get("/ledger")
def api_ledger(acc: Me, request: Request) -> dict[str, Any]:
    """The caller's own ledger entries, newest first, with the other side of each."""
    return {"entries": services(request).store.ledger_for(acc.id)}


@router.get("/hands")
def api_hands(acc: Me, request: Request) -> dict[str, Any]:
    """The caller's finished hands, newest first."""
    return {"hands": services(request).store.hands_for(acc.id)}


@router.get("/hands/{hand_id}/replay")
def api_replay(
    acc: Me,
    request: Request,
    hand_id: Annotated[int, Path(ge=1, le=2**62)],
    step: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> dict[str, Any]:
    """One step of a finished hand the caller played, as the caller's seat saw it."""
    found = services(request).store.hand_record(hand_id, acc.id)
    if found is None:
        raise ServerError("unknown_hand", f"you played no finished hand {hand_id}", 404)
    record, seat = found
    return replay_step(record, seat, step)


@router.get("/health")
def health(request: Request) -> dict[str, Any]:
    """Liveness, the tables of this process and the storage's state: ``"storage": "ok"``,
    or ``"degraded"`` with a ``"reason"`` (a short sentence) while the database cannot be
    reached, a write has waited longer than ``PAIJU_STORAGE_STALL_SECONDS``, or the writer's
    connection was just lost and no batch has committed since.

    With Redis (a cluster), ``"peers": "ok"``, or ``"degraded"`` with a ``"peers_reason"``
    while this process cannot reach Redis or another process holding players of its tables
    is not renewing its key; ``null`` alone.

    Always HTTP 200 while the process answers: this is the liveness check, and a degraded
    storage is no reason to restart the process (its tables pause and resume by themselves
    when the database is back; a restart would only end their sockets)."""
    svc = services(request)
    storage, reason = svc.writer.health()
    peers, peers_reason = svc.tables.health()
    return {
        "ok": True,
        "tables": len(svc.hub.tables),
        "storage": storage,
        "reason": reason,
        "peers": peers,
        "peers_reason": peers_reason,
        "process": svc.tables.pid,
    }
