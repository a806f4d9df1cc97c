"""Points for the broke over HTTP (``/api/relief``; :mod:`paiju.server.relief`).

>>> sorted((r.path, sorted(r.methods)) for r in router.routes)
[('/api/relief', ['GET']), ('/api/relief', ['POST'])]
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from paiju.server import relief
from paiju.server.models import Account
from paiju.server.routes.deps import current_account, now, services

__all__ = ["router"]

router = APIRouter(prefix="/api")
Me = Annotated[Account, Depends(current_account)]


@router.get("/relief")
async def relief_status(acc: Me, request: Request) -> dict[str, Any]:
    """Whether the caller may claim relief now: ``eligible``, ``why`` not
    (``relief_off``, ``balance_enough``, ``relief_claimed``), ``amount``, ``balance``,
    ``floor`` (the lowest room's minimum), ``claimed_today``, ``per_day`` and
    ``next_day_at`` (Unix seconds: when the day's claims are counted afresh)."""
    svc = services(request)
    policy = relief.Policy.of(svc.settings)
    return await asyncio.to_thread(relief.status, svc.sessions, policy, acc.id, now(request))


@router.post("/relief")
async def relief_claim(acc: Me, request: Request) -> dict[str, Any]:
    """Claim the relief: ``{"given", "balance", "status"}``. Refused, nothing moving, with
    403 ``relief_off``, 409 ``balance_enough`` or 409 ``relief_claimed`` (the error's
    ``detail`` is the status, with ``next_day_at``)."""
    svc = services(request)
    policy = relief.Policy.of(svc.settings)
    return await asyncio.to_thread(relief.claim, svc.sessions, policy, acc.id, now(request))
