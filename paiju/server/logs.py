"""The server's logs: text for a person (the default) or, with ``PAIJU_LOG_FORMAT=json``, one
JSON object a line for a log search (docs/operate.md): ``ts``, ``level``, ``logger``,
``message``, the structured fields a log call passes with ``extra=`` (``table``, ``hand``,
``account``, ``event``, …), the request's id (``request``) when the record was made while
an HTTP request or a socket was served, and ``exc`` for an exception's traceback.

A field named like a secret (a password, token, cookie, authorization, secret) is never
written: its value is replaced by ``"[redacted]"``.

>>> import io
>>> out = io.StringIO()
>>> log = logging.getLogger("paiju.example")
>>> handler = logging.StreamHandler(out); handler.setFormatter(JsonFormatter())
>>> log.addHandler(handler); log.propagate = False
>>> log.warning("table %s paused", 7, extra={"table": 7, "event": "pause", "token": "x"})
>>> line = json.loads(out.getvalue())
>>> line["message"], line["table"], line["event"], line["token"], line["level"]
('table 7 paused', 7, 'pause', '[redacted]', 'WARNING')
>>> log.removeHandler(handler)
"""

from __future__ import annotations

import contextvars
import datetime as dt
import json
import logging
import re
import secrets
from typing import Any, Literal

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["JsonFormatter", "RequestIds", "request_id", "setup"]

#: The id of the HTTP request or socket being served (``-`` outside one).
request_id: contextvars.ContextVar[str] = contextvars.ContextVar("paiju_request", default="-")

_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "request",
}
_SECRET = re.compile(r"password|token|cookie|authori[sz]ation|secret", re.IGNORECASE)
_TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON (see the module)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record's line.

        >>> r = logging.LogRecord("paiju.table", logging.INFO, "", 0, "hand %s", (3,), None)
        >>> r.hand = 3
        >>> sorted(json.loads(JsonFormatter().format(r)))
        ['hand', 'level', 'logger', 'message', 'ts']
        """
        out: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None) or request_id.get()
        if request != "-":
            out["request"] = request
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_"):
                out[key] = "[redacted]" if _SECRET.search(key) else value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        elif record.stack_info:
            out["exc"] = record.stack_info
        return json.dumps(out, ensure_ascii=False, default=str)


class _RequestFilter(logging.Filter):
    """Adds the request's id to a text record (``%(request)s``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request"):
            record.request = request_id.get()
        return True


def setup(level: str, form: Literal["text", "json"]) -> logging.Handler:
    """Send the process's logs (and uvicorn's, which propagate) to standard error, as text or
    JSON lines, at ``level``: the handler put on the root logger.

    >>> h = setup("INFO", "json"); isinstance(h.formatter, JsonFormatter)
    True
    >>> logging.getLogger().removeHandler(h)
    """
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if form == "json" else logging.Formatter(_TEXT))
    handler.addFilter(_RequestFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    return handler


class RequestIds:
    """ASGI middleware: each HTTP request and socket gets an id (the client's
    ``X-Request-ID`` if it is short and plain, else a new one), set in :data:`request_id`
    for the logs made while it is served and sent back as ``x-request-id``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``scope`` with its id set."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or ()).get(b"x-request-id", b"").decode("latin-1")
        rid = given if re.fullmatch(r"[A-Za-z0-9._-]{1,64}", given) else secrets.token_hex(8)
        token = request_id.set(rid)

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers") or ())
                headers.append((b"x-request-id", rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            request_id.reset(token)
