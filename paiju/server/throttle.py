"""Login and registration throttling with the ``limits`` library (moving windows).

- **Failed logins per name** (``PAIJU_LOGIN_LIMITS_ACCOUNT``, 5/minute;20/hour;100/day) and
  **per client address** (``PAIJU_LOGIN_LIMITS_ADDRESS``, 20/minute;200/hour;1000/day). The
  tiers are the back-off: after 5 failures the wait is up to a minute, after 20 up to an
  hour, after 100 up to a day. A name is counted by its key (:func:`paiju.server.names.
  lenient_key`), so ``ADMIN`` and ``аdmin`` share the count of ``admin``, and an unknown
  name is counted like a known one (the answer does not tell them apart). Once a limit is
  reached even the right password is refused until the window moves: that is the point.
- **New accounts per client address** (``PAIJU_REGISTER_LIMITS_ADDRESS``, 20/minute;200/day).
- **One password check at a time per name, two per address** (in this process): a burst of
  attempts cannot all pass the count before the first failure is counted, nor fill the hash
  queue (:class:`~paiju.server.passwords.HashGate`) that everybody's login waits in.
- A refusal is :class:`Throttled`: ``429 {"error": {"code": "rate_limited", "message",
  "retry_after"}}`` with a ``Retry-After`` header, in whole seconds.

The counts live in Redis when ``PAIJU_REDIS_URL`` is set (shared by every process, keys
``{prefix}:limits:…``), in memory otherwise. While Redis cannot be reached the process counts
in its own memory (logged once), so logins keep working and stay throttled.

An IPv6 client is counted by its /64 network (one host usually holds a whole /64).

>>> client_key("2001:db8::1") == client_key("2001:db8::ffff"), client_key("10.0.0.1")
(True, '10.0.0.1')
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable, Iterator, Sequence

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.errors import StorageError

from paiju.server.config import Settings
from paiju.server.errors import ServerError

__all__ = ["Throttle", "Throttled", "client_key"]

log = logging.getLogger("paiju.throttle")


class Throttled(ServerError):
    """Too many attempts: try again in ``retry_after`` seconds.

    >>> Throttled(61, "logins").retry_after, Throttled(61, "logins").status
    (61, 429)
    """

    def __init__(self, retry_after: int, what: str) -> None:
        super().__init__(
            "rate_limited", f"too many {what}; try again in {retry_after} s", status=429
        )
        self.retry_after = retry_after
        self.what = what  # counted by the metrics (paiju_throttled_total)


_IN_FLIGHT = (1, 2)  # password checks at once: per name, per address


def client_key(host: str | None) -> str:
    """What a client address is counted by: an IPv4 address, an IPv6 /64, else the text.

    >>> client_key(None), client_key("testclient")
    ('unknown', 'testclient')
    """
    if not host:
        return "unknown"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _id(text: str) -> str:
    # identifiers of bounded length, whatever a name holds
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class Throttle:
    """The throttles of one server process (its counts in Redis or in memory)."""

    def __init__(self, settings: Settings, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.account_limits = parse_many(settings.login_limits_account)
        self.address_limits = parse_many(settings.login_limits_address)
        self.register_limits = parse_many(settings.register_limits_address)
        self.score_limits = parse_many(settings.score_limits_address)
        self.invite_limits = parse_many(settings.invite_limits_address)
        self._memory = MovingWindowRateLimiter(MemoryStorage())
        self._storage: Storage | None = None
        self._shared: MovingWindowRateLimiter | None = None
        self._degraded = False
        self._flying: dict[tuple[str, str], int] = {}
        if settings.redis_url:
            url = settings.redis_url
            self._storage = RedisStorage(
                url if url.startswith("async+") else "async+" + url,
                implementation="redispy",
                key_prefix=f"{settings.redis_prefix}:limits",
                wrap_exceptions=True,
                socket_timeout=2,
                socket_connect_timeout=2,
            )
            self._shared = MovingWindowRateLimiter(self._storage)

    async def aclose(self) -> None:
        """Close the Redis connections (the app's shutdown)."""
        storage = self._storage
        if storage is not None:
            bridge = getattr(storage, "bridge", None)
            client = getattr(bridge, "storage", None)
            close = getattr(client, "aclose", None)
            if close is not None:
                with contextlib.suppress(Exception):  # already gone
                    await close()

    async def _call(self, op: str, item: RateLimitItem, ident: tuple[str, ...]) -> object:
        if self._shared is not None:
            try:
                result = await getattr(self._shared, op)(item, *ident)
                if self._degraded:
                    log.warning("login throttle: Redis is back")
                    self._degraded = False
                return result
            except StorageError as err:
                if not self._degraded:
                    log.warning("login throttle: Redis unreachable (%s); counting in memory", err)
                    self._degraded = True
        return await getattr(self._memory, op)(item, *ident)

    async def _wait(self, items: Sequence[RateLimitItem], ident: tuple[str, ...]) -> int:
        """Seconds until every limit of ``items`` has room again (0: now)."""
        wait = 0.0
        now = self.clock()
        for item in items:
            if not await self._call("test", item, ident):
                stats = await self._call("get_window_stats", item, ident)
                wait = max(wait, stats.reset_time - now, 1.0)  # type: ignore[attr-defined]
        return math.ceil(wait)

    async def check_login(self, name_key: str, address: str) -> None:
        """Refuse a login attempt while the name or the address is over its limits.

        Raises :class:`Throttled`.
        """
        wait = max(
            await self._wait(self.account_limits, ("login-name", _id(name_key))),
            await self._wait(self.address_limits, ("login-addr", _id(address))),
        )
        if wait:
            raise Throttled(wait, "failed logins")

    async def login_failed(self, name_key: str, address: str) -> None:
        """Count a failed login against the name and the address."""
        for item in self.account_limits:
            await self._call("hit", item, ("login-name", _id(name_key)))
        for item in self.address_limits:
            await self._call("hit", item, ("login-addr", _id(address)))

    @contextlib.contextmanager
    def checking(self, name_key: str | None, address: str) -> Iterator[None]:
        """Hold one of the name's (1; no name: a new account's hash) and the address's (2)
        password hashes in flight.

        Raises :class:`Throttled` (retry after 1 s) when either has none left.
        """
        caps = {("addr", _id(address)): _IN_FLIGHT[1]}
        if name_key is not None:
            caps[("name", _id(name_key))] = _IN_FLIGHT[0]
        keys = list(caps)
        if any(self._flying.get(k, 0) >= cap for k, cap in caps.items()):
            raise Throttled(1, "password checks at once")
        for k in keys:
            self._flying[k] = self._flying.get(k, 0) + 1
        try:
            yield
        finally:
            for k in keys:
                left = self._flying[k] - 1
                if left:
                    self._flying[k] = left
                else:
                    del self._flying[k]

    async def register(self, address: str) -> None:
        """Count a registration attempt, or refuse it while the address is over its limits.

        Raises :class:`Throttled`.
        """
        await self._take(self.register_limits, ("register-addr", _id(address)), "new accounts")

    async def score(self, address: str) -> None:
        """Count a hand sent to the scorer, or refuse it while the address is over its
        limits (``POST /api/score`` needs no account).

        Raises :class:`Throttled`.
        """
        await self._take(self.score_limits, ("score-addr", _id(address)), "hands scored")

    async def invite(self, address: str) -> None:
        """Count an invitation looked up by its code, or refuse it while the address is over
        its limits (``GET /api/invite/{code}`` needs no account).

        Raises :class:`Throttled`.

        >>> import asyncio
        >>> from pathlib import Path
        >>> from paiju.server.config import Settings
        >>> t = Throttle(Settings(data_dir=Path("."), invite_limits_address="1/minute"))
        >>> asyncio.run(t.invite("10.0.0.1"))
        >>> try:
        ...     asyncio.run(t.invite("10.0.0.1"))
        ... except Throttled as refused:
        ...     print(refused.message)
        too many invitations from your address; try again in 60 s
        """
        await self._take(self.invite_limits, ("invite-addr", _id(address)), "invitations")

    async def _take(
        self, items: Sequence[RateLimitItem], ident: tuple[str, ...], what: str
    ) -> None:
        """Count one more against ``items``, or refuse while they are full."""
        wait = await self._wait(items, ident)
        if wait:
            raise Throttled(wait, f"{what} from your address")
        for item in items:
            await self._call("hit", item, ident)
