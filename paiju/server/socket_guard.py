"""What a WebSocket may cost the server: the size and nesting depth of a message, how many
messages a second, how many sockets one account holds open on a process; and the index of
open sockets by session, so that ending a session closes its sockets at once.

- A message longer than ``PAIJU_WS_MAX_BYTES`` (4096) is answered ``too_large``; one nested
  deeper than :data:`MAX_DEPTH` is answered ``too_deep`` (neither is parsed). Frames beyond
  16 times the limit are refused by the WebSocket layer itself (uvicorn's ``ws_max_size``):
  the socket is closed with 1009 (message too big).
- An account sends at most ``PAIJU_WS_RATE`` (10) messages a second on average, in bursts of
  ``PAIJU_WS_BURST`` (30), over all its sockets on a process and across reconnects (the
  bucket outlives its sockets until it has refilled): a message beyond is dropped and
  answered ``rate_limited`` (at most once a second); a client that goes on sending as many
  again is closed with 4429.
- An account holds at most ``PAIJU_WS_SOCKETS_PER_ACCOUNT`` (4) sockets on one process: the
  next is answered ``too_many_sockets`` and closed with 4429.

>>> frame_problem('{"type": "ping"}', 4096) is None
True
>>> frame_problem("[" * 100, 4096).code
'too_deep'
"""

from __future__ import annotations

from collections.abc import Callable

from paiju.server.connection import Connection
from paiju.server.errors import ServerError

__all__ = [
    "CLOSE_TOO_MANY",
    "MAX_DEPTH",
    "MessageRate",
    "SocketRegistry",
    "frame_problem",
]

MAX_DEPTH = 8  # every client message is a flat object (depth 1)
CLOSE_TOO_MANY = 4429


def frame_problem(raw: str | bytes, max_bytes: int) -> ServerError | None:
    """Why a message is refused before it is parsed (``too_large``, ``too_deep``), or None.

    >>> frame_problem("x" * 5000, 4096).code
    'too_large'
    >>> frame_problem('{"a": "[[[[[[[[[[[["}', 4096) is None  # brackets inside a string
    True
    """
    size = len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        return ServerError("too_large", f"a message is at most {max_bytes} bytes")
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None  # too few brackets to nest deeper (every message of a real client)
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return ServerError("too_deep", f"a message nests at most {MAX_DEPTH} levels")
        elif ch in "]}":
            depth -= 1
    return None


class MessageRate:
    """A token bucket: ``rate`` messages a second, ``burst`` at once.

    :meth:`take` answers ``"ok"``, ``"drop"`` (over the rate: drop the message) or
    ``"close"`` (the client went on sending ``burst`` more while over the rate).

    >>> now = [0.0]
    >>> r = MessageRate(1.0, 2, lambda: now[0])
    >>> [r.take() for _ in range(5)]
    ['ok', 'ok', 'drop', 'drop', 'close']
    >>> now[0] = 100.0; r.take()
    'ok'
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> str:
        """Account for one message."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1.0
        if self.tokens >= 0:
            return "ok"
        if self.tokens < -self.burst:
            return "close"
        return "drop"

    def full(self) -> bool:
        """Whether the bucket has refilled since its last message (it may be forgotten).

        >>> now = [0.0]
        >>> r = MessageRate(1.0, 2, lambda: now[0]); _ = r.take()
        >>> r.full(), (now.__setitem__(0, 1.0), r.full())[1]
        (False, True)
        """
        return self.tokens + (self.clock() - self.last) * self.rate >= self.burst


class SocketRegistry:
    """The open sockets of this process, by account and by session.

    >>> reg = SocketRegistry(1)
    >>> a, b = Connection(), Connection()
    >>> reg.open(7, "s1", a)
    >>> reg.open(7, "s1", b)
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: you have 1 connections open already; close one first
    >>> reg.end_sessions(["s1"]), a.close_code
    (1, 4401)
    """

    def __init__(self, per_account: int) -> None:
        self.per_account = per_account
        self.by_account: dict[int, set[Connection]] = {}
        self.by_session: dict[str, set[Connection]] = {}
        #: each account's message bucket, shared by its sockets and kept after they close
        #: until it has refilled (a reconnect does not buy a fresh burst)
        self.rates: dict[int, MessageRate] = {}

    def rate(self, account: int, make: Callable[[], MessageRate]) -> MessageRate:
        """The account's message bucket: the one its sockets share, or a new one.

        >>> now = [0.0]
        >>> reg = SocketRegistry(4)
        >>> first = reg.rate(7, lambda: MessageRate(1.0, 2, lambda: now[0]))
        >>> [first.take() for _ in range(3)]
        ['ok', 'ok', 'drop']
        >>> reg.rate(7, lambda: MessageRate(1.0, 2, lambda: now[0])).take()  # reconnected
        'drop'
        """
        found = self.rates.get(account)
        if found is None:
            if len(self.rates) > 2 * len(self.by_account) + 256:
                # forget the buckets of accounts with no socket that have refilled
                for acc, bucket in list(self.rates.items()):
                    if acc not in self.by_account and bucket.full():
                        del self.rates[acc]
            found = self.rates[account] = make()
        return found

    def open(self, account: int, session: str, conn: Connection) -> None:
        """Note an open socket.

        Raises :class:`~paiju.server.errors.ServerError` ``too_many_sockets`` (429).
        """
        mine = self.by_account.setdefault(account, set())
        if len(mine) >= self.per_account:
            raise ServerError(
                "too_many_sockets",
                f"you have {self.per_account} connections open already; close one first",
                429,
            )
        mine.add(conn)
        self.by_session.setdefault(session, set()).add(conn)

    def sessions_of(self, account: int) -> set[str]:
        """The sessions of an account that have a socket open on this process.

        >>> reg = SocketRegistry(4); reg.open(7, "s1", Connection()); reg.sessions_of(7)
        {'s1'}
        """
        mine = self.by_account.get(account, set())
        return {session for session, conns in self.by_session.items() if conns & mine}

    def close(self, account: int, session: str, conn: Connection) -> None:
        """Forget a socket that closed."""
        mine = self.by_account.get(account)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.by_account[account]
        same = self.by_session.get(session)
        if same is not None:
            same.discard(conn)
            if not same:
                del self.by_session[session]

    def end_sessions(self, sessions: list[str]) -> int:
        """Close the sockets of sessions that ended (code 4401); how many."""
        count = 0
        for session in sessions:
            for conn in list(self.by_session.get(session, ())):
                conn.send({"type": "error", "code": "session_ended", "message": "log in again"})
                conn.close(4401, "session ended")
                count += 1
        return count
