"""The FastAPI application: the HTTP API, the WebSocket ``/ws`` (docs/protocol.md).

>>> from paiju.server.config import Settings
>>> app = create_app(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
>>> sorted(r.path for r in app.routes if r.path.startswith("/api"))[:3]
['/api/hands', '/api/hands/{hand_id}/replay', '/api/health']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from sqlalchemy.pool import StaticPool
from starlette.websockets import WebSocketDisconnected

from paiju.server.accounts import account_for_token, login, register
from paiju.server.cluster import Cluster
from paiju.server.config import Settings
from paiju.server.db import make_engine, make_sessions, migrate
from paiju.server.errors import ServerError
from paiju.server.hub import Hub
from paiju.server.models import Account
from paiju.server.store import Store
from paiju.server.table import Connection, Timing


def replay_step(record: dict[str, Any], seat: str, step: int) -> dict[str, Any]:
    """The view of ``seat`` after ``step`` actions of a finished hand's record.

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.simple import RandomBot
    >>> from paiju.madiao.rules import Ruleset
    >>> r = play_match(Ruleset(), [RandomBot()] * 4, 3, 1)[0].to_json()
    >>> replay_step(r, "E", 32)["steps"], replay_step(r, "E", 0)["view"]["trick_no"]
    (32, 0)
    """
    from paiju.games import replay
    from paiju.replay import read_record

    g, ruleset, seed, setup, actions = read_record(record)
    step = max(0, min(step, len(actions)))
    state = replay(g, ruleset, seed, setup, actions[:step])
    view = g.observe(state, g.seats["ESWN".index(seat)]).to_json()
    return {
        "game": record["game"],
        "seat": seat,
        "step": step,
        "steps": len(actions),
        "last": actions[step - 1] if step else None,
        "view": view,
        # the hand is over: the viewer shows every seat's hand and the whole move list
        "views": {s.value: g.observe(state, s).to_json() for s in g.seats},
        "actions": [str(a) for a in actions],
    }


__all__ = ["create_app"]

COOKIE = "paiju_session"
_WEB = Path(__file__).resolve().parent.parent / "web" / "dist"  # the built client (client/)


class Credentials(BaseModel):
    """``{"name", "password"}`` for register and login."""

    name: str
    password: str


def create_app(settings: Settings, timing: Timing | None = None) -> FastAPI:
    """Build the app for these settings (the database is migrated on startup and every hand
    that was live is rebuilt by replay)."""
    engine = make_engine(settings.database_url)
    sessions = make_sessions(engine)
    # the action log is written by a background thread (not for a private in-memory database)
    store = Store(sessions, background=not isinstance(engine.pool, StaticPool))
    hub = Hub(
        store,
        timing
        or Timing(
            turn=settings.turn_seconds,
            bot_wait=settings.bot_wait,
            bot_delay=settings.bot_delay,
            disconnect=settings.disconnect_seconds,
            next_hand=settings.next_hand_seconds,
        ),
        seed=settings.seed,
    )

    cluster = (
        Cluster(settings.redis_url, hub, store, settings.redis_prefix)
        if settings.redis_url
        else None
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(engine)
        loop = asyncio.get_running_loop()

        def conflict(hand_id: int) -> None:  # from the writer thread to the event loop
            loop.call_soon_threadsafe(hub.hand_conflict, hand_id)

        if store.action_log is not None:
            store.action_log.on_conflict = conflict
        if cluster is not None:
            await cluster.start()  # live hands are taken over by lease, not all at once
        else:
            hub.restore()
        yield
        if cluster is not None:
            await cluster.stop()
        for table in hub.tables.values():
            table.stop()
        store.close()  # every queued action is written
        engine.dispose()

    app = FastAPI(
        title="paiju",
        version="0.1.0",
        lifespan=lifespan,
        description="牌局: Mazhan and Ma Diao tables. WebSocket protocol: docs/protocol.md.",
    )
    app.state.hub = hub
    app.state.store = store
    app.state.settings = settings

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
            for e in err.errors()
        )
        return JSONResponse(
            {"error": {"code": "bad_request", "message": problems}}, status_code=422
        )

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": err.code, "message": err.message}}, status_code=err.status
        )

    def current(request: Request) -> Account:
        token = _token(request.headers.get("authorization"), request.cookies.get(COOKIE))
        with sessions() as s:
            acc = account_for_token(s, token or "")
        if acc is None:
            raise ServerError("unauthorized", "log in first", 401)
        return acc

    app.mount("/static", StaticFiles(directory=_WEB), name="static")

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        """The browser client."""
        return (_WEB / "index.html").read_text(encoding="utf-8")

    @app.get("/api/hands")
    def api_hands(acc: Account = Depends(current)) -> dict[str, Any]:  # noqa: B008
        """The caller's finished hands, newest first."""
        return {"hands": store.hands_for(acc.id)}

    @app.get("/api/hands/{hand_id}/replay")
    def api_replay(hand_id: int, step: int = 0, acc: Account = Depends(current)) -> dict[str, Any]:  # noqa: B008
        """One step of a finished hand the caller played, as the caller's seat saw it."""
        found = store.hand_record(hand_id, acc.id)
        if found is None:
            raise ServerError("unknown_hand", f"you played no finished hand {hand_id}", 404)
        record, seat = found
        return replay_step(record, seat, step)

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        """Liveness."""
        return {
            "ok": True,
            "tables": len(hub.tables),
            "process": None if cluster is None else cluster.pid,
        }

    @app.post("/api/register", status_code=201)
    def api_register(body: Credentials) -> dict[str, Any]:
        """Create an account with the starting balance."""
        with sessions.begin() as s:
            acc = register(s, body.name, body.password, settings.start_balance)
            return {"name": acc.name, "balance": acc.balance}

    @app.post("/api/login")
    def api_login(body: Credentials, response: Response) -> dict[str, Any]:
        """Log in: a bearer token, also set as the session cookie."""
        with sessions.begin() as s:
            token = login(s, body.name, body.password)
        response.set_cookie(COOKIE, token, httponly=True, samesite="lax")
        return {"token": token}

    @app.get("/api/me")
    def api_me(acc: Account = Depends(current)) -> dict[str, Any]:  # noqa: B008
        """The caller's name and balance, and where they sit."""
        found = hub.find(acc.id)
        seat = None
        if found is not None:
            table, i = found
            seat = {"table": table.id, "room": table.room.name, "seat": table.rules.seats[i].value}
        return {"name": acc.name, "balance": acc.balance, "seated": seat}

    @app.get("/api/rooms")
    async def api_rooms() -> dict[str, Any]:
        """The rooms: game, minimum balance, seats, tables and players (every process's),
        and how many people are online."""
        rooms = hub.rooms_json()
        if cluster is None:
            online = sum(
                1
                for t in hub.tables.values()
                for s in t.seats
                if s is not None and s.human and s.connection is not None
            )
            return {"rooms": rooms, "online": online}
        world = await cluster.lobby()
        for r in rooms:
            r.update(world.get(r["name"], {"tables": 0, "players": 0}))
        return {"rooms": rooms, "online": world["_online"]["players"]}

    @app.get("/api/ledger")
    def api_ledger(acc: Account = Depends(current)) -> dict[str, Any]:  # noqa: B008
        """The caller's own ledger entries, newest first."""
        return {"entries": store.ledger_for(acc.id)}

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        token = _token(
            websocket.headers.get("authorization"),
            websocket.cookies.get(COOKIE),
            websocket.query_params.get("token"),
        )
        with sessions() as s:
            acc = account_for_token(s, token or "")
        if acc is None:
            await websocket.send_json(
                {"type": "error", "code": "unauthorized", "message": "log in first"}
            )
            await websocket.close(code=4401)
            return
        conn = Connection() if cluster is None else cluster.connection()
        writer = asyncio.create_task(_writer(websocket, conn))
        conn.send({"type": "hello", "name": acc.name, "balance": acc.balance})
        found = hub.find(acc.id)
        if cluster is not None:
            await cluster.connected(acc.id, conn)
        elif found is not None:  # back at a seat held through a disconnect or a restart
            table, seat = found
            table.reconnect(seat, conn)
            conn.send(
                {
                    "type": "seated",
                    "table": table.id,
                    "room": table.room.name,
                    "seat": table.rules.seats[seat].value,
                }
            )
        try:
            while True:
                try:
                    message = await websocket.receive_json()
                except (ValueError, KeyError):
                    conn.send(
                        {
                            "type": "error",
                            "code": "bad_message",
                            "message": "messages are JSON objects",
                        }
                    )
                    continue
                try:
                    if cluster is not None:
                        await cluster.route(acc.id, acc.name, conn, message)
                    else:
                        dispatch(hub, store, acc.id, acc.name, conn, message)
                except ServerError as err:
                    conn.send({"type": "error", "code": err.code, "message": err.message})
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass
        finally:
            writer.cancel()
            if cluster is not None:
                await cluster.disconnected(acc.id, conn)
            else:
                found = hub.find(acc.id)
                if found is not None:
                    table, seat = found
                    seat_info = table.seats[seat]
                    if seat_info is not None and seat_info.connection is conn:
                        table.disconnect(seat)

    return app


def dispatch(
    hub: Hub, store: Store, account_id: int, name: str, conn: Connection, message: Any
) -> None:
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ServerError("bad_message", "a message is a JSON object with a 'type'")
    kind = message["type"]
    if kind == "ping":
        conn.send({"type": "pong"})
        return
    if kind == "join":
        alone = message.get("alone", False)
        if not isinstance(alone, bool):
            raise ServerError("bad_message", "join's 'alone' is true or false")
        balance = store.balances([account_id]).get(account_id, 0)
        table, seat = hub.join(account_id, name, balance, message.get("room"), conn, alone)
        conn.send(
            {
                "type": "seated",
                "table": table.id,
                "room": table.room.name,
                "seat": table.rules.seats[seat].value,
            }
        )
        return
    found = hub.find(account_id)
    if found is None:
        raise ServerError("not_seated", "join a room first")
    table, seat = found
    if kind == "ready":
        table.ready(seat)
    elif kind == "action":
        table.act(seat, message.get("action"), message.get("version"))
    elif kind == "tuoguan":
        on = message.get("on")
        if not isinstance(on, bool):
            raise ServerError("bad_message", "tuoguan needs 'on': true or false")
        table.set_tuoguan(seat, on)
    elif kind == "leave":
        table.leave(seat)
        conn.send({"type": "left"})
    else:
        raise ServerError("bad_message", f"unknown message type {kind!r}")


async def _writer(websocket: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(Exception):
        while True:
            message = await conn.next()
            await websocket.send_json(message)


def _token(header: str | None, cookie: str | None, query: str | None = None) -> str | None:
    if header and header.lower().startswith("bearer "):
        return header[7:].strip()
    return query or cookie
