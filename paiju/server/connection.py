"""One client's outgoing frames: the tables put, the socket's writer takes.

Frames are serialised once, with orjson, when they are put. The queue is bounded: a client
that stops reading is not allowed to grow the server; when its queue is full the connection
is marked ``overflowed`` and closed (the socket's writer closes it with code 4008).

>>> import asyncio
>>> c = Connection(limit=1)
>>> c.send({"type": "pong"}), c.send({"type": "pong"})
(True, False)
>>> c.overflowed, asyncio.run(c.next()), asyncio.run(c.next())
(True, b'{"type":"pong"}', b'')
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

__all__ = ["Connection"]


class Connection:
    """A client's frames on their way to its socket."""

    def __init__(self, limit: int = 1024) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()
        self.limit = limit
        self.overflowed = False
        self.closed = asyncio.Event()
        self.close_code = 1000
        self.close_reason = ""

    def send(self, frame: dict[str, Any]) -> bool:
        """Queue a frame (dropped, and the connection closed, if the client is too slow);
        True if it was queued for the socket.

        >>> c = Connection(); c.send({"a": 1}), c.queue.qsize()
        (True, 1)
        """
        return self.send_bytes(orjson.dumps(frame))

    def send_bytes(self, data: bytes) -> bool:
        """Queue a serialised frame; True if it was queued for the socket."""
        if self.closed.is_set():
            return False
        if self.queue.qsize() >= self.limit:
            self.overflowed = True
            self.close(4008, "too slow: frames piled up")
            return False
        self.queue.put_nowait(data)
        return True

    async def next(self) -> bytes:
        """The next frame to write to the socket (``b""`` once the connection is closed)."""
        return await self.queue.get()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop taking frames; the socket is closed with ``code`` (4008: the client fell
        behind; 4009: a newer socket of the same account took over)."""
        if not self.closed.is_set():
            self.close_code = code
            self.close_reason = reason
            self.closed.set()
            self.queue.put_nowait(b"")
