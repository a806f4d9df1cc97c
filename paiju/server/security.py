"""The HTTP side of the server's defences (docs/security.md), installed on the app by
:func:`install`:

- **Headers** on every response: a Content Security Policy with no inline script or style
  and ``frame-ancestors 'none'``, ``X-Frame-Options: DENY``, ``X-Content-Type-Options:
  nosniff``, ``Referrer-Policy: no-referrer``, ``Cross-Origin-Opener-Policy: same-origin``;
  ``Cache-Control: no-store`` on ``/api``; ``Strict-Transport-Security`` over https.
- **Origins**: a POST (PUT, PATCH, DELETE) that names an ``Origin`` must name an allowed one
  (``PAIJU_ALLOWED_ORIGINS``; by default the server's own, from the request's scheme and
  ``Host``), else ``403 bad_origin``. A request authenticated by the session cookie must also
  name one (``403 origin_required``; browsers always do for these requests). The WebSocket
  checks the same in :mod:`paiju.server.routes.ws`.
- **Bodies** longer than :data:`MAX_BODY` bytes are refused with ``413 too_large`` before
  they are read whole.
- **Errors** are always coded: :class:`~paiju.server.throttle.Throttled` is ``429`` with
  ``retry_after``; Redis out of reach is ``503 unavailable``; anything unforeseen is ``500
  internal`` without a trace (and with the headers).

>>> policy = OriginPolicy(())
>>> policy.allowed("http://127.0.0.1:8000", "http://127.0.0.1:8000")
True
>>> policy.allowed("http://evil.example", "http://127.0.0.1:8000")
False
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from paiju.server.config import Settings
from paiju.server.errors import ServerError
from paiju.server.passwords import HashGate
from paiju.server.sessions import Policy
from paiju.server.socket_guard import SocketRegistry
from paiju.server.throttle import Throttle, Throttled, client_key

__all__ = [
    "CSP",
    "MAX_BODY",
    "OriginPolicy",
    "Security",
    "SecurityHeaders",
    "client_address",
    "install",
    "security",
]

log = logging.getLogger("paiju.security")

MAX_BODY = 16_384
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class OriginPolicy:
    """Which origins a browser may drive the API and the socket from."""

    def __init__(self, allowed: tuple[str, ...]) -> None:
        self.configured = frozenset(allowed)

    @staticmethod
    def own(scope: Scope) -> str:
        """The server's own origin as this request reached it (scheme and ``Host``).

        >>> OriginPolicy.own({"scheme": "wss", "headers": [(b"host", b"Paiju.example")]})
        'https://paiju.example'
        """
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), "")
        scheme = scheme or scope.get("scheme", "http")
        host = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
        return f"{scheme}://{host.decode('latin-1').lower()}"

    def allowed(self, origin: str, own: str) -> bool:
        """Whether ``origin`` may use this server (``own`` is the server's own origin)."""
        origin = origin.strip().lower().rstrip("/")
        if self.configured:
            return origin in self.configured
        return origin == own

    def check(self, scope: Scope, required: bool) -> None:
        """Refuse a request whose ``Origin`` is not allowed, or missing when ``required``.

        Raises :class:`~paiju.server.errors.ServerError` ``bad_origin`` or
        ``origin_required`` (403).
        """
        raw = next((v for k, v in scope.get("headers", ()) if k == b"origin"), None)
        if raw is None:
            if required:
                raise ServerError(
                    "origin_required", "a request with the session cookie must name its origin",
                    403,
                )  # fmt: skip
            return
        if not self.allowed(raw.decode("latin-1"), self.own(scope)):
            raise ServerError("bad_origin", "this origin may not use this server", 403)


@dataclass
class Security:
    """The defences' state of one server process (``app.state.security``)."""

    settings: Settings
    origins: OriginPolicy
    throttle: Throttle
    gate: HashGate
    sockets: SocketRegistry
    policy: Policy

    @staticmethod
    def of(settings: Settings) -> Security:
        """The defences for these settings."""
        return Security(
            settings=settings,
            origins=OriginPolicy(settings.allowed_origins),
            throttle=Throttle(settings),
            gate=HashGate(settings.hash_concurrency, settings.hash_queue),
            sockets=SocketRegistry(settings.ws_sockets_per_account),
            policy=Policy.of(settings),
        )

    async def aclose(self) -> None:
        """Release the connections (the app's shutdown)."""
        await self.throttle.aclose()


def security(conn: HTTPConnection) -> Security:
    """The process's defences."""
    return conn.app.state.security  # type: ignore[no-any-return]


def client_address(conn: HTTPConnection) -> str:
    """What the caller's address is counted by (uvicorn takes it from ``X-Forwarded-For``
    only when the peer is a trusted proxy: ``--forwarded-allow-ips``, 127.0.0.1 by default).
    """
    return client_key(conn.client.host if conn.client else None)


class SecurityHeaders:
    """ASGI middleware: the headers, the body limit and the Origin of unsafe requests."""

    def __init__(self, app: ASGIApp, origins: OriginPolicy) -> None:
        self.app = app
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = list(_HEADERS)
        if scope.get("scheme") == "https":
            headers.append((b"strict-transport-security", b"max-age=31536000"))
        if scope.get("path", "").startswith("/api/"):
            headers.append((b"cache-control", b"no-store"))

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        if scope.get("method") in _UNSAFE:
            try:
                self.origins.check(scope, required=False)
            except ServerError as err:
                await _respond(send_with_headers, err.status, err.code, err.message)
                return
            body = await _read_body(scope, receive)
            if body is None:
                await _respond(
                    send_with_headers,
                    413,
                    "too_large",
                    f"a request body is at most {MAX_BODY} bytes",
                )
                return
            receive = _replay(body)
        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as err:  # a coded 500, never a trace
            log.error("unhandled error on %s", scope.get("path"), exc_info=err)
            if not started:
                await _respond(
                    send_with_headers, 500, "internal", "something went wrong on the server"
                )


async def _respond(send: Send, status: int, code: str, message: str) -> None:
    body = orjson.dumps({"error": {"code": code, "message": message}})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _read_body(scope: Scope, receive: Receive) -> bytes | None:
    """The whole body, or None once it is longer than :data:`MAX_BODY`."""
    length = next((v for k, v in scope.get("headers", ()) if k == b"content-length"), None)
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes) -> Receive:
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def install(app: FastAPI, settings: Settings) -> Security:
    """Install the defences on an app: the middleware, the coded error handlers and the
    state (``app.state.security``). Returns the state (close it on shutdown).

    >>> from paiju.server.config import Settings
    >>> app = FastAPI()
    >>> install(app, Settings.from_env({})).policy.ttl
    2592000.0
    """
    state = Security.of(settings)
    app.state.security = state
    app.add_middleware(SecurityHeaders, origins=state.origins)

    @app.exception_handler(Throttled)
    async def _throttled(_request: Request, err: Throttled) -> JSONResponse:
        metrics = getattr(_request.app.state, "metrics", None)
        if metrics is not None:
            metrics.throttled.labels(err.what).inc()
        return JSONResponse(
            {"error": {"code": err.code, "message": err.message, "retry_after": err.retry_after}},
            status_code=err.status,
            headers={"retry-after": str(err.retry_after)},
        )

    @app.exception_handler(RedisError)
    async def _redis(_request: Request, err: RedisError) -> JSONResponse:
        log.warning("Redis unreachable: %s", err)
        return JSONResponse(
            {"error": {"code": "unavailable", "message": "try again in a moment"}},
            status_code=503,
            headers={"retry-after": "2"},
        )

    return state
