"""Passwords: what a password may be, its argon2 hash, and a gate that bounds how many hashes
the server computes at once.

A password is 8–256 bytes of UTF-8 and not only whitespace or control characters. Each hash
costs argon2id's defaults (64 MiB, three passes, four lanes), so the gate lets
``PAIJU_HASH_CONCURRENCY`` (2) run at once and ``PAIJU_HASH_QUEUE`` (16) wait; beyond that a
request is answered ``busy`` (503) at once instead of growing the server. A login for an
unknown name verifies against a dummy hash of the same cost, so both take the same time.

>>> check_policy("secret-pw")
>>> check_policy(" " * 12)
Traceback (most recent call last):
...
paiju.server.errors.ServerError: a password may not be only spaces or control characters
>>> verify(hash_password("secret-pw"), "secret-pw"), verify(None, "secret-pw")
(True, False)
"""

from __future__ import annotations

import asyncio
import functools
import secrets
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from paiju.server.errors import ServerError

__all__ = ["MAX_BYTES", "MIN_BYTES", "HashGate", "check_policy", "hash_password", "verify"]

MIN_BYTES = 8
MAX_BYTES = 256
_HASHER = PasswordHasher()
T = TypeVar("T")


def check_policy(password: object) -> None:
    """Raise ``weak_password`` unless ``password`` may be a password.

    >>> check_policy("123456")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a password is 8–256 bytes
    >>> check_policy("\\x00" * 8)
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a password may not be only spaces or control characters

    Raises :class:`~paiju.server.errors.ServerError` ``weak_password``.
    """
    if not isinstance(password, str):
        raise ServerError("weak_password", "a password is text")
    if not MIN_BYTES <= len(password.encode("utf-8", "surrogatepass")) <= MAX_BYTES:
        raise ServerError("weak_password", f"a password is {MIN_BYTES}–{MAX_BYTES} bytes")
    if all(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in password):
        raise ServerError(
            "weak_password", "a password may not be only spaces or control characters"
        )


def hash_password(password: str) -> str:
    """The argon2id hash of a password (blocking: about half a second of one core).

    >>> hash_password("secret-pw").startswith("$argon2id$")
    True
    """
    return _HASHER.hash(password)


@functools.cache
def _dummy() -> str:
    return _HASHER.hash(secrets.token_urlsafe(24))


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash; with no hash (an unknown name) the
    same work is done against a dummy hash and the answer is False (blocking).

    >>> verify(hash_password("secret-pw"), "other-pw")
    False
    """
    try:
        ok = _HASHER.verify(stored or _dummy(), password)
    except (VerificationError, InvalidHashError):
        return False
    return bool(ok) and stored is not None


class HashGate:
    """At most ``concurrency`` password hashes at once, at most ``queue`` waiting.

    >>> gate = HashGate(1, 0)
    >>> asyncio.run(gate.run(lambda: 42))
    42
    """

    def __init__(self, concurrency: int, queue: int) -> None:
        self.concurrency = concurrency
        self.queue = queue
        self._semaphore: asyncio.Semaphore | None = None
        self._waiting = 0
        self.running = 0

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` (a blocking hash) in a worker thread when a slot is free.

        Raises :class:`~paiju.server.errors.ServerError` ``busy`` (503) when ``queue``
        others are waiting already.
        """
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.concurrency)
        if self._semaphore.locked() and self._waiting >= self.queue:
            raise ServerError("busy", "the server is busy checking passwords; try again", 503)
        self._waiting += 1
        try:
            await self._semaphore.acquire()
        finally:
            self._waiting -= 1
        semaphore = self._semaphore
        self.running += 1
        # the slot is freed when the hash is done, even if the request was cancelled
        # meanwhile (a worker thread cannot be stopped)
        future = asyncio.get_running_loop().run_in_executor(None, work)

        def done(_: object) -> None:
            self.running -= 1
            semaphore.release()

        future.add_done_callback(done)
        return await asyncio.shield(future)
