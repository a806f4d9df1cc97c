"""The FastAPI application: the HTTP API (:mod:`paiju.server.routes.api`), the WebSocket
(:mod:`paiju.server.routes.ws`, docs/protocol.md) and the browser client.

>>> from paiju.server.config import Settings
>>> app = create_app(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
>>> paths = sorted(p for p in app.openapi()["paths"] if not p.startswith("/api/admin"))
>>> paths[:3]
['/', '/api/hands', '/api/hands/{hand_id}/replay']
>>> app.state.services.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from paiju.server.admin import watch as watch_admin
from paiju.server.config import Settings
from paiju.server.db import migrate
from paiju.server.errors import ServerError
from paiju.server.logs import RequestIds
from paiju.server.metrics import serve_metrics
from paiju.server.routes import admin, api, ops, relief, review, scorer, ws
from paiju.server.security import install
from paiju.server.services import build
from paiju.server.table import Timing
from paiju.server.writer import TRANSIENT

__all__ = ["GC_THRESHOLDS", "create_app", "tune_collector"]

_WEB = Path(__file__).resolve().parent.parent / "web" / "dist"  # the built client (client/)

#: The cyclic garbage collector's thresholds in a serving process. Every table action makes
#: and drops thousands of small objects (states, views, frames), nearly all freed by their
#: reference counts; with Python's defaults (700, 10, 10) the collector ran ~50 times a
#: second over a heap of every table's hands, a full collection taking ~250 ms: a quarter
#: of the process's CPU under load (measured: ``benchmarks/load.py``, 200 tables). Even a
#: young-generation collection walks every object made since the last one and still alive,
#: and between two of them nearly every table's state and views are new: at 2,000 tables
#: 400,000–900,000 objects, a 300–550 ms pause of the event loop whatever the threshold,
#: and the slowest 1% of actions are those that wait for it. The threshold sets how often:
#: at 50,000 every ~10 s, at 200,000 every ~45 s (the pause then 1–2% of the time); at
#: 1,000,000 the first comes ~60 s after the tables open and none in the 200 s after it.
#: In play the collector finds nothing to free (0 objects in every steady-state collection
#: measured; ~20,000 once, from 2,000 sockets' handshakes), so waiting costs little memory.
GC_THRESHOLDS = (1_000_000, 20, 10)


#: The framework's refusals by status, as codes (docs/protocol.md).
_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}


def tune_collector() -> tuple[int, int, int]:
    """Set up the garbage collector for serving (once the server has started): what lives
    now (modules, the app, the rebuilt tables) is frozen out of every later collection, and
    collections run less often (:data:`GC_THRESHOLDS`; cycles are still collected). The
    thresholds it replaced.

    >>> old = tune_collector(); gc.get_threshold() == GC_THRESHOLDS
    True
    >>> gc.unfreeze(); gc.set_threshold(*old)
    """
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return old


def create_app(settings: Settings, timing: Timing | None = None) -> FastAPI:
    """Build the app for these settings. On startup the database is migrated and every
    hand that was live is rebuilt by replay (or, in a cluster, taken over by lease)."""
    services = build(settings, timing)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, services.engine)
        await services.tables.start()
        watch = asyncio.create_task(ws.watch_sessions(app))
        listener = serve_metrics(services.metrics, settings.metrics_address)
        every = settings.admin_poll_seconds
        admin_watch = asyncio.create_task(watch_admin(services.hub, services.sessions, every))
        yield
        # the review thread first (a review may run for seconds, its request waiting on it;
        # under uvicorn the signal has stopped it already: DrainingServer.handle_exit)
        await asyncio.to_thread(app.state.reviews.stop)
        admin_watch.cancel()
        if listener is not None:
            listener.shutdown()
        watch.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watch
        await services.tables.stop()
        await asyncio.to_thread(services.close)
        await app.state.security.aclose()

    app = FastAPI(
        title="paiju",
        version="0.2.0",
        lifespan=lifespan,
        description="牌局: tables of the registered games. WebSocket protocol: docs/protocol.md.",
    )
    app.state.services = services
    app.state.settings = settings
    app.state.metrics = services.metrics
    # the hand reviews' own thread (routes/review.py); a draining process starts none
    app.state.reviews = review.Reviews(
        settings.review_worlds, lambda: services.draining or services.stopping
    )
    install(app, settings)  # headers, origins, throttles, sessions (docs/security.md)
    app.add_middleware(RequestIds)  # each request's id, in its logs and its answer

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e.get('loc', ())[1:]) or 'body'}: {e.get('msg')}"
            for e in err.errors()
        )
        return JSONResponse(
            {"error": {"code": "bad_request", "message": problems[:500]}}, status_code=422
        )

    async def _storage_away(_request: Request, _err: Exception) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": "storage_unavailable", "message": "the database is away; retry"}},
            status_code=503,
            headers={"Retry-After": "2"},
        )

    for transient in TRANSIENT:
        app.add_exception_handler(transient, _storage_away)

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, err: ServerError) -> JSONResponse:
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        # the framework's own refusals (no such path, a wrong method, a body it cannot read)
        # in the coded shape of every other error
        code = _HTTP_CODES.get(err.status_code, "bad_request")
        message = {
            "not_found": "no such address",
            "method_not_allowed": "this address does not take that method",
        }.get(code, "the request could not be read")
        return JSONResponse(
            {"error": {"code": code, "message": message}},
            status_code=err.status_code,
            headers=getattr(err, "headers", None),
        )

    app.include_router(api.router)
    app.include_router(scorer.router)
    app.include_router(review.router)
    app.include_router(ws.router)
    app.include_router(ops.router)
    app.include_router(admin.router)
    app.include_router(relief.router)
    app.mount("/static", StaticFiles(directory=_WEB), name="static")

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        """The browser client."""
        return (_WEB / "index.html").read_text(encoding="utf-8")

    return app
