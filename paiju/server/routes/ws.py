"""The WebSocket ``/ws`` (docs/protocol.md): one per player, JSON text frames both ways.

>>> [r.path for r in router.routes]
['/ws']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, WebSocket
from redis.exceptions import RedisError
from starlette.websockets import WebSocketDisconnect

from paiju.server.connection import Connection
from paiju.server.errors import ServerError
from paiju.server.models import SeatClaim
from paiju.server.protocol import parse_client
from paiju.server.routes.deps import app_now, credential_of, now, services
from paiju.server.security import Security, security
from paiju.server.sessions import Policy, Resolved, live_sessions, resolve
from paiju.server.socket_guard import CLOSE_TOO_MANY, MessageRate, frame_problem
from paiju.server.writer import TRANSIENT

__all__ = ["router", "watch_sessions"]

log = logging.getLogger("paiju.ws")
router = APIRouter()

CLOSE_UNAUTHORIZED = 4401
CLOSE_BAD_ORIGIN = 4403
FLUSH_SECONDS = 5.0  # how long a closing socket's last frames may take to leave


@router.websocket("/ws")
async def ws(websocket: WebSocket) -> None:
    """A player's socket: ``hello``, then their table's frames; their messages in.

    The session comes as the cookie or an ``Authorization: Bearer`` header, never in the URL;
    a browser's socket (the cookie) must come from an allowed origin. Each message is
    checked for size, depth and rate before it is parsed (:mod:`paiju.server.socket_guard`).
    """
    svc = services(websocket)
    sec = security(websocket)
    await websocket.accept()
    cred = credential_of(websocket)
    try:
        sec.origins.check(websocket.scope, required=cred.via_cookie)
    except ServerError as err:
        await websocket.send_json(_error(err.code, err.message))
        await websocket.close(code=CLOSE_BAD_ORIGIN)
        return
    try:
        found = await asyncio.to_thread(_session, svc, cred.token, now(websocket), sec.policy)
    except TRANSIENT:
        await websocket.send_json(_error("storage_unavailable", "the database is away; retry"))
        await websocket.close(code=1013)
        return
    if found is None:
        await websocket.send_json(_error("unauthorized", "log in first"))
        await websocket.close(code=CLOSE_UNAUTHORIZED)
        return
    resolved, seated = found
    acc, session = resolved.account, resolved.session
    conn = Connection()
    try:
        sec.sockets.open(acc.id, session, conn)
    except ServerError as err:
        await websocket.send_json(_error(err.code, err.message))
        await websocket.close(code=CLOSE_TOO_MANY)
        return
    pump = asyncio.create_task(_pump(websocket, conn))
    hello = {"type": "hello", "name": acc.name, "balance": int(acc.balance), "seated": seated}
    conn.send(hello)
    tables = svc.tables
    clock = asyncio.get_running_loop().time
    rate = sec.sockets.rate(
        acc.id, lambda: MessageRate(sec.settings.ws_rate, sec.settings.ws_burst, clock)
    )
    warned = -1e18
    try:
        try:
            await tables.connected(acc.id, conn)
        except RedisError:
            conn.send(_error("unavailable", "the server cannot reach its peers; try again"))
            conn.close(1013, "try again later")
        while not conn.closed.is_set():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            verdict = rate.take()
            if verdict == "close":
                conn.send(_error("rate_limited", "too many messages"))
                conn.close(CLOSE_TOO_MANY, "too many messages")
                break
            if verdict == "drop":
                # said at most once a second on each socket (the bucket is the account's)
                if clock() - warned >= 1.0:
                    warned = clock()
                    conn.send(_error("rate_limited", "too many messages; this one was dropped"))
                continue
            raw = message.get("text")
            if raw is None:
                conn.send(_error("bad_message", "messages are JSON text frames"))
                continue
            try:
                problem = frame_problem(raw, sec.settings.ws_max_bytes)
                if problem is not None:
                    raise problem
                parsed = parse_client(raw)
                await tables.route(acc.id, acc.name, parsed)
            except ServerError as err:
                conn.send(_error(err.code, err.message))
            except TRANSIENT:
                conn.send(_error("storage_unavailable", "the database is away; try again"))
            except RedisError:
                conn.send(_error("unavailable", "the server cannot reach its peers; try again"))
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()
        sec.sockets.close(acc.id, session, conn)
        with contextlib.suppress(Exception):  # (a cluster's Redis may be away)
            await tables.disconnected(acc.id, conn)
        if conn.close_code != 1000:  # the server closed it: let the pump send the reason
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(pump, FLUSH_SECONDS)
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


def _session(svc: object, token: str, at: float, policy: Policy) -> tuple[Resolved, bool] | None:
    """The token's live session, and whether its account holds a seat now (a client that
    thought it sat somewhere learns at once that the table is gone: it closed, or they were
    unseated while the frame saying so was lost with a process)."""
    from paiju.server.services import Services

    assert isinstance(svc, Services)
    with svc.sessions.begin() as s:
        found = resolve(s, token, at, policy)
        if found is None:
            return None
        seat = s.scalar(
            sa.select(SeatClaim.table_id).where(SeatClaim.account_id == found.account.id)
        )
        return found, seat is not None


async def watch_sessions(app: Any) -> None:
    """Close the sockets whose session has ended (logout, a password change, expiry),
    wherever that happened: every ``PAIJU_SESSION_RECHECK_SECONDS`` the sessions of all the
    process's open sockets are checked together, in one query (an open socket keeps its
    session alive: their ends slide). Runs for the app's life (its lifespan starts it).

    One check per process, not one per socket: thousands of sockets opened at once (a
    restart, a load test) would otherwise each ask the database at the same moment, every
    period, and hold the event loop back while the answers come.
    """
    from paiju.server.services import Services

    svc, sec = app.state.services, app.state.security
    assert isinstance(svc, Services) and isinstance(sec, Security)

    def live(sessions: list[str], at: float) -> set[str]:
        with svc.sessions.begin() as s:
            return live_sessions(s, sessions, at, sec.policy)

    while True:
        await asyncio.sleep(sec.settings.session_recheck_seconds)
        sessions = list(sec.sockets.by_session)
        if not sessions:
            continue
        try:
            alive = await asyncio.to_thread(live, sessions, app_now(app))
        except Exception:  # the database is away: the tables pause; check again later
            log.debug("the sessions of the open sockets could not be checked", exc_info=True)
            continue
        sec.sockets.end_sessions([x for x in sessions if x not in alive])


def _error(code: str, message: str) -> dict[str, str]:
    return {"type": "error", "code": code, "message": message}


async def _pump(websocket: WebSocket, conn: Connection) -> None:
    """Write the connection's frames to the socket; close it if the client fell behind."""
    try:
        while True:
            data = await conn.next()
            if not data:  # closed: by the client, or by the server with a reason
                if conn.close_code != 1000:
                    await websocket.close(code=conn.close_code, reason=conn.close_reason)
                return
            await websocket.send_text(data.decode())
    except Exception:  # the socket is gone
        return
