"""The HTTP API (``/api``): accounts, the lobby, the caller's hands, replays and ledger.

>>> sorted(r.path for r in router.routes)[:3]
['/api/hands', '/api/hands/{hand_id}/replay', '/api/health']
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from pydantic import BaseModel, Field

from paiju.games import replay
from paiju.replay import read_record
from paiju.server.accounts import login, register
from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.routes.deps import COOKIE, current_account, services

__all__ = ["replay_step", "router"]

router = APIRouter(prefix="/api")
Me = Annotated[Account, Depends(current_account)]


class Credentials(BaseModel):
    """``{"name", "password"}`` for register and login."""

    name: str = Field(max_length=200)
    password: str = Field(max_length=1024)


def replay_step(record: dict[str, Any], seat: str, step: int) -> dict[str, Any]:
    """The view of ``seat`` after ``step`` actions of a finished hand's record.

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.simple import RandomBot
    >>> from paiju.madiao.rules import Ruleset
    >>> r = play_match(Ruleset(), [RandomBot()] * 4, 3, 1)[0].to_json()
    >>> replay_step(r, "E", 32)["steps"], replay_step(r, "E", 0)["view"]["trick_no"]
    (32, 1)
    """
    g, ruleset, seed, setup, actions = read_record(record)
    step = max(0, min(step, len(actions)))
    state = replay(g, ruleset, seed, setup, actions[:step])
    view = g.observe(state, g.seats["ESWN".index(seat)]).to_json()
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
    }


@router.post("/register", status_code=201)
def api_register(body: Credentials, request: Request) -> dict[str, Any]:
    """Create an account with the starting balance."""
    svc = services(request)
    with svc.sessions.begin() as s:
        acc = register(s, body.name, body.password, svc.settings.start_balance)
        return {"name": acc.name, "balance": acc.balance}


@router.post("/login")
def api_login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    """Log in: a bearer token, also set as the session cookie."""
    with services(request).sessions.begin() as s:
        token = login(s, body.name, body.password)
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax")
    return {"token": token}


@router.get("/me")
def api_me(acc: Me, request: Request) -> dict[str, Any]:
    """The caller's name and balance, and where they sit."""
    svc = services(request)
    seated = svc.hub.seated(acc.id)
    if seated is None:
        table = svc.store.seat_of(acc.id)
        seated = None if table is None else {"table": table, "room": None, "seat": None}
    return {"name": acc.name, "balance": acc.balance, "seated": seated}


@router.get("/rooms")
async def api_rooms(request: Request) -> dict[str, Any]:
    """The rooms: game, minimum balance, level, tables and players (every process's), and
    how many people are online."""
    svc = services(request)
    rooms = svc.hub.rooms_json()
    if svc.cluster is None:
        return {"rooms": rooms, "online": svc.hub.online()}
    from paiju.server.cluster import Cluster

    assert isinstance(svc.cluster, Cluster)
    world = await svc.cluster.lobby()
    for r in rooms:
        r.update(world.get(r["name"], {"tables": 0, "players": 0}))
    return {"rooms": rooms, "online": world["_online"]["players"]}


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
    """Liveness, the tables of this process and the writer's state."""
    svc = services(request)
    return {
        "ok": True,
        "tables": len(svc.hub.tables),
        "storage": "retrying" if svc.writer.troubled else "ok",
        "process": getattr(svc.cluster, "pid", None),
    }
