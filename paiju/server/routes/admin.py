"""The admin API (``/api/admin``): the tools of ``paiju admin`` for an account with the admin
role (``paiju admin role NAME``), each audited as ``account:<name>`` with the reason given
(:mod:`paiju.server.admin`; docs/operate.md).

>>> sorted(r.path for r in router.routes)[:2]
['/api/admin/accounts/{name}', '/api/admin/accounts/{name}/lift']
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from pydantic import BaseModel, Field

from paiju.server import admin
from paiju.server.errors import ServerError
from paiju.server.routes.deps import Caller, current_caller, now, services
from paiju.server.security import security

__all__ = ["router"]

router = APIRouter(prefix="/api/admin")


def admin_caller(caller: Annotated[Caller, Depends(current_caller)]) -> str:
    """The acting admin, as the audit names them (``account:<name>``).

    Raises :class:`~paiju.server.errors.ServerError` ``forbidden`` (403) for anyone else.
    """
    if not caller.account.is_admin:
        raise ServerError("forbidden", "this needs the admin role", 403)
    return f"account:{caller.account.name}"


Actor = Annotated[str, Depends(admin_caller)]
Name = Annotated[str, Path(min_length=1, max_length=200)]


class Why(BaseModel):
    """``{"reason"}``: why, recorded with the action."""

    reason: str = Field(max_length=500)


class Points(Why):
    """``{"amount", "reason"}``: points to grant (positive) or take (negative)."""

    amount: int = Field(ge=-admin.MAX_POINTS, le=admin.MAX_POINTS)


@router.get("/accounts/{name}")
async def admin_find(name: Name, _actor: Actor, request: Request) -> dict[str, Any]:
    """An account: balance, roles, seat, sessions, ledger, hands and the admin actions on
    it (404 ``unknown_account``)."""
    store = services(request).store
    return await asyncio.to_thread(admin.find, store, name, now(request))


@router.post("/accounts/{name}/points")
async def admin_points(name: Name, body: Points, actor: Actor, request: Request) -> dict[str, Any]:
    """Grant or take points, from or to the house (a ledger event with the reason); 402
    ``insufficient_funds`` for a take beyond the balance (nothing moves)."""
    db = services(request).sessions
    return await asyncio.to_thread(admin.move_points, db, actor, name, body.amount, body.reason)


async def _suspend(name: str, on: bool, body: Why, actor: str, request: Request) -> dict[str, Any]:
    svc = services(request)
    out, ended = await asyncio.to_thread(admin.suspend, svc.sessions, actor, name, on, body.reason)
    if on:
        security(request).sockets.end_sessions(ended)  # this process's sockets close now
        admin.apply_live(svc.hub, [int(out["id"])], [])
    return out


@router.post("/accounts/{name}/suspend")
async def admin_suspend(name: Name, body: Why, actor: Actor, request: Request) -> dict[str, Any]:
    """Suspend an account: its sessions end, it cannot log in or sit; its seat at a live
    hand is played by 托管 to the end, without penalty (409 ``no_change`` if it is)."""
    return await _suspend(name, True, body, actor, request)


@router.post("/accounts/{name}/lift")
async def admin_lift(name: Name, body: Why, actor: Actor, request: Request) -> dict[str, Any]:
    """Lift a suspension (409 ``no_change`` if there is none)."""
    return await _suspend(name, False, body, actor, request)


@router.post("/tables/{table_id}/close")
async def admin_close(
    table_id: Annotated[int, Path(ge=1, le=2**62)], body: Why, actor: Actor, request: Request
) -> dict[str, Any]:
    """Close a table: its live hand voided, the fees refunded, its players unseated and
    told (``unseated``, ``table_closed``); 404 ``unknown_table``, 409 ``no_change``."""
    svc = services(request)
    out = await asyncio.to_thread(admin.close_table, svc.sessions, actor, table_id, body.reason)
    admin.apply_live(svc.hub, [], [table_id])
    return out


@router.get("/house")
async def admin_house(_actor: Actor, request: Request) -> dict[str, Any]:
    """The house's balance and what each kind of event brought it."""
    return await asyncio.to_thread(admin.house_report, services(request).sessions)


@router.get("/check")
async def admin_check(_actor: Actor, request: Request) -> dict[str, Any]:
    """Every balance against its ledger, all against the points issued (``ok``)."""
    return await asyncio.to_thread(admin.check, services(request).sessions)
