"""What a load balancer and a monitoring system ask: readiness (``/api/ready``) and the
metrics (``/metrics``, Prometheus' text format, for a bearer of ``PAIJU_METRICS_TOKEN``;
without it the path does not exist). Liveness is ``/api/health`` (:mod:`.api`).

>>> sorted(r.path for r in router.routes)
['/api/ready', '/metrics']
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from paiju.server.errors import ServerError
from paiju.server.metrics import CONTENT_TYPE
from paiju.server.routes.deps import services

__all__ = ["readiness", "router"]

router = APIRouter()


def readiness(draining: bool, storage: str, reason: str | None) -> tuple[bool, str | None]:
    """Whether a process should be sent new players, and if not why.

    >>> readiness(False, "ok", None)
    (True, None)
    >>> readiness(False, "degraded", "unreachable: connection refused")
    (False, 'storage degraded: unreachable: connection refused')
    >>> readiness(True, "ok", None)
    (False, 'draining')
    """
    if draining:
        return False, "draining"
    if storage != "ok":
        return False, f"storage degraded: {reason}"
    return True, None


@router.get("/api/ready", response_model=None)
def ready(request: Request) -> dict[str, Any] | JSONResponse:
    """Readiness: HTTP 200 ``{"ready": true}`` while this process may be sent new players;
    503 ``{"ready": false, "reason"}`` while it drains (it is shutting down: its players
    finish their hands) or its storage is degraded (``/api/health`` says why). A load
    balancer stops sending new connections, and sends them again once it is ready."""
    svc = services(request)
    storage, reason = svc.writer.health()
    ok, why = readiness(svc.draining, storage, reason)
    body = {"ready": ok, "reason": why, "process": svc.tables.pid}
    return body if ok else JSONResponse(body, status_code=503, headers={"Retry-After": "5"})


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """The process's metrics (docs/operate.md), to ``Authorization: Bearer
    <PAIJU_METRICS_TOKEN>``; 404 when no token is set, 401 for a wrong one."""
    svc = services(request)
    token = svc.settings.metrics_token
    if not token:
        raise ServerError("not_found", "no such address", 404)
    given = request.headers.get("authorization") or ""
    if given[:7].lower() != "bearer " or not hmac.compare_digest(
        given[7:].strip().encode(), token.encode()
    ):
        raise ServerError("unauthorized", "the metrics need their bearer token", 401)
    return Response(svc.metrics.render(), media_type=CONTENT_TYPE)
