"""The WebSocket ``/ws`` (docs/protocol.md): one per player, JSON text frames both ways.

>>> [r.path for r in router.routes]
['/ws']
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from paiju.server.accounts import account_for_token
from paiju.server.connection import Connection
from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.protocol import parse_client
from paiju.server.routes.deps import services, token_of
from paiju.server.writer import TRANSIENT

__all__ = ["router"]

log = logging.getLogger("paiju.ws")
router = APIRouter()

CLOSE_UNAUTHORIZED = 4401


@router.websocket("/ws")
async def ws(websocket: WebSocket) -> None:
    """A player's socket: ``hello``, then their table's frames; their messages in."""
    svc = services(websocket)
    await websocket.accept()
    header = websocket.headers.get("authorization") or ""
    token = (
        header[7:].strip()
        if header.lower().startswith("bearer ")
        else websocket.query_params.get("token") or token_of(websocket)
    )
    try:
        acc = await asyncio.to_thread(_account, svc, token)
    except TRANSIENT:
        await websocket.send_json(_error("storage_unavailable", "the database is away; retry"))
        await websocket.close(code=1013)
        return
    if acc is None:
        await websocket.send_json(
            {"type": "error", "code": "unauthorized", "message": "log in first"}
        )
        await websocket.close(code=CLOSE_UNAUTHORIZED)
        return
    conn = Connection()
    pump = asyncio.create_task(_pump(websocket, conn))
    conn.send({"type": "hello", "name": acc.name, "balance": int(acc.balance)})
    cluster = svc.cluster
    try:
        if cluster is not None:
            await cluster.connected(acc.id, conn)  # type: ignore[attr-defined]
        else:
            svc.hub.connect(acc.id, conn)
        while not conn.closed.is_set():
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                conn.send(_error("bad_message", "messages are JSON text frames"))
                continue
            try:
                parsed = parse_client(raw)
                if cluster is not None:
                    await cluster.route(acc.id, acc.name, parsed)  # type: ignore[attr-defined]
                else:
                    await svc.hub.handle(acc.id, acc.name, parsed)
            except ServerError as err:
                conn.send(_error(err.code, err.message))
            except TRANSIENT:
                conn.send(_error("storage_unavailable", "the database is away; try again"))
    except WebSocketDisconnect:
        pass
    finally:
        conn.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                await cluster.disconnected(acc.id, conn)  # type: ignore[attr-defined]
        else:
            svc.hub.disconnect(acc.id, conn)
        pump.cancel()
        with contextlib.suppress(BaseException):
            await pump


def _account(svc: object, token: str) -> Account | None:
    from paiju.server.services import Services

    assert isinstance(svc, Services)
    with svc.sessions() as s:
        return account_for_token(s, token)


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
