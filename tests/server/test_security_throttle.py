"""Login throttling and the cost of a password (issue 13 §4) on real servers (``paiju serve``
on loopback, PostgreSQL; Redis for the shared counts), and the back-off tiers with a moved
clock.

Each test counts from its own client address: the server sits behind a "proxy" on loopback
(uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1), so a test names the address it comes
from and never shares a count with another test."""

from __future__ import annotations

import asyncio
import itertools
import threading
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis

from paiju.server import passwords
from paiju.server.config import Settings
from paiju.server.names import lenient_key
from paiju.server.throttle import Throttle, Throttled
from tests.server.security_servers import (
    PASSWORD,
    error_of,
    register,
    serve,
    serve_all,
)

REDIS = "redis://127.0.0.1:6379/0"
_addresses = itertools.count(1)


def address() -> dict[str, str]:
    """A client address of the test's own."""
    n = next(_addresses)
    return {"x-forwarded-for": f"10.13.{n // 250}.{n % 250 + 1}"}


@pytest.fixture(scope="module")
def base(db: str) -> Iterator[str]:
    with serve(db) as url:
        yield url


def login(
    base: str, name: str, password: str, headers: dict[str, str], client: httpx.Client | None = None
) -> httpx.Response:
    """A login from the client address of ``headers`` (through ``client``'s kept connection,
    or a new one)."""
    post = httpx.post if client is None else client.post
    return post(
        base + "/api/login", json={"name": name, "password": password}, headers=headers, timeout=60
    )


def test_three_hundred_wrong_passwords_then_the_right_one_is_refused(base: str) -> None:
    """The attack: 300 wrong passwords, then the right one, which used to answer 200."""
    register(base, "victim")
    me = address()
    with httpx.Client() as attacker:  # one kept connection, as a script would (no new TLS
        # context and TCP connection a guess: the server counts guesses by name and address)
        answers = [login(base, "victim", f"guess-{i:04d}", me, attacker) for i in range(300)]
    codes = [r.status_code for r in answers]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}
    right = login(base, "victim", PASSWORD, me)
    assert right.status_code == 429
    err = error_of(right)
    assert err["code"] == "rate_limited" and 0 < err["retry_after"] <= 60
    assert right.headers["retry-after"] == str(err["retry_after"])
    # the throttle is per name: from another address the name is refused too ...
    assert login(base, "victim", PASSWORD, address()).status_code == 429
    # ... and the victim's open sessions are untouched by it (a session is not a login)


def test_a_burst_for_one_name_is_checked_one_at_a_time(base: str) -> None:
    """Thirty attempts at once from thirty addresses: they used to pass the count together;
    now one check of a name runs at a time, the others are told to come back in a second,
    and never more than five wrong passwords are tried."""
    register(base, "burst")
    barrier = threading.Barrier(30)
    answers: list[httpx.Response] = []
    headers = [address() for _ in range(30)]

    def attempt(i: int) -> None:
        barrier.wait(timeout=30)
        answers.append(login(base, "burst", f"wrong-{i}", headers[i]))

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    codes = [r.status_code for r in answers]
    assert len(codes) == 30 and set(codes) <= {401, 429} and 1 <= codes.count(401) <= 5
    at_once = [error_of(r) for r in answers if r.status_code == 429]
    assert any(e["retry_after"] == 1 and "at once" in e["message"] for e in at_once)


def test_look_alike_names_share_one_count(base: str) -> None:
    register(base, "admin")
    for n, name in enumerate(["ADMIN", "ａｄｍｉｎ", "аdmin", "𝐚𝐝𝐦𝐢𝐧", "Admin"]):
        assert login(base, name, "wrong-pass", address()).status_code == 401, n
    r = login(base, "admin", PASSWORD, address())
    assert r.status_code == 429 and error_of(r)["code"] == "rate_limited"


@pytest.fixture(scope="module")
def limited(db: str) -> Iterator[str]:
    """A server with low limits per client address, for logins and for new accounts (one
    server for the two tests below: each counts from addresses of its own)."""
    with serve(
        db, login_limits_address="8/minute;50/hour", register_limits_address="3/minute"
    ) as url:
        yield url


def test_an_address_spraying_many_names_is_refused(limited: str) -> None:
    url = limited
    register(url, "sprayed")
    me = address()
    codes = [login(url, f"nobody{i}", "wrong-pass", me).status_code for i in range(8)]
    assert codes == [401] * 8
    r = login(url, "sprayed", PASSWORD, me)  # a real account, the right password
    assert r.status_code == 429 and error_of(r)["code"] == "rate_limited"
    assert login(url, "sprayed", PASSWORD, address()).status_code == 200  # elsewhere: fine


def test_registrations_per_address_are_limited(limited: str) -> None:
    url = limited
    me = address()
    codes = [
        httpx.post(
            url + "/api/register", json={"name": f"farm{i}", "password": PASSWORD}, headers=me
        ).status_code
        for i in range(4)
    ]
    assert codes == [201, 201, 201, 429]


def test_unknown_names_cost_a_whole_password_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """No enumeration by timing: an unknown name is verified against a dummy hash of the same
    cost (the check is counted here; benchmarks/login_timing.py measures the times)."""
    seen: list[str] = []
    real = passwords._HASHER

    class Counting:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, stored: str, password: str) -> bool:
            seen.append(stored)
            return real.verify(stored, password)

    monkeypatch.setattr(passwords, "_HASHER", Counting())
    known = passwords.hash_password(PASSWORD)
    assert passwords.verify(known, PASSWORD) and not passwords.verify(None, PASSWORD)
    assert len(seen) == 2 and seen[1].startswith("$argon2id$")
    assert seen[1].split("$")[3] == known.split("$")[3]  # the same cost parameters


def test_password_hashes_are_computed_two_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """32 logins at once (the attack grew the server by 800 MB): at most two hashes run,
    the rest wait in the queue or are told ``busy`` (503) at once."""
    gate = passwords.HashGate(concurrency=2, queue=8)
    running = 0
    peak = 0
    lock = threading.Lock()
    release = threading.Event()

    def hash_work() -> str:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        release.wait(timeout=10)
        with lock:
            running -= 1
        return "done"

    async def attack() -> list[Any]:
        tasks = [asyncio.create_task(gate.run(hash_work)) for _ in range(32)]
        while gate.running < 2:  # both slots taken
            await asyncio.sleep(0)
        for _ in range(50):
            await asyncio.sleep(0)
        release.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(attack())
    busy = [r for r in results if isinstance(r, Exception)]
    assert peak == 2
    assert results.count("done") == 10  # two running, eight queued
    assert len(busy) == 22 and {(e.code, e.status) for e in busy} == {("busy", 503)}  # type: ignore[attr-defined]


def test_passwords_are_8_to_256_bytes_and_not_blank(base: str) -> None:
    me = address()
    weak = [" " * 6, "\x00" * 6, "123456", " " * 12, "\t\n " * 4, "\x00" * 9, "é" * 129]
    for i, pw in enumerate(weak):
        body = {"name": f"weak{i}", "password": pw}
        r = httpx.post(base + "/api/register", json=body, headers=me)
        assert r.status_code == 400 and error_of(r)["code"] == "weak_password", (pw, r.text)
    ok = httpx.post(base + "/api/register", json={"name": "strong", "password": "é" * 128})
    assert ok.status_code == 201  # 256 bytes


def test_a_fifty_megabyte_password_is_never_read_nor_hashed(base: str) -> None:
    huge = b'{"name": "big", "password": "' + b"x" * (50 * 1024 * 1024) + b'"}'
    r = httpx.post(base + "/api/login", content=huge, headers={"content-type": "application/json"})
    assert r.status_code == 413 and error_of(r)["code"] == "too_large"
    chunks = (huge[i : i + 65536] for i in range(0, len(huge), 65536))  # no length given
    r = httpx.post(
        base + "/api/register", content=chunks, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and error_of(r)["code"] == "too_large"


def test_failed_logins_count_across_processes_in_redis(db: str) -> None:
    """Two processes sharing Redis: failures on one count on the other."""
    prefix = f"paiju-test-{uuid.uuid4().hex[:8]}"
    env = {"redis_url": REDIS, "redis_prefix": prefix}
    try:
        with serve_all(db, env, env) as (a, b):  # started side by side
            register(a, "shared")
            me = address()
            assert [login(x, "shared", "wrong-pass", me).status_code for x in (a, b) * 2] == [
                401
            ] * 4
            assert login(b, "shared", "wrong-pass", me).status_code == 401  # the 5th
            for x in (a, b):
                r = login(x, "shared", PASSWORD, me)
                assert r.status_code == 429 and error_of(r)["code"] == "rate_limited"
            keys = redis.Redis.from_url(REDIS).keys(f"{prefix}:limits:*")
            assert keys  # the counts live in Redis, under the deployment's prefix
    finally:
        store = redis.Redis.from_url(REDIS)
        for key in store.scan_iter(f"{prefix}:*"):
            store.delete(key)


def test_the_waits_grow_from_a_minute_to_an_hour_to_a_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """The back-off tiers (5/minute;20/hour;100/day), with the clock moved: after 5 failures
    the wait is under a minute; after 20 (spread over the minutes) under an hour; after 100
    under a day; a day later the name is free again."""
    import limits.aio.storage.memory as memory

    clock = [1_000_000.0]

    class FakeTime:
        @staticmethod
        def time() -> float:
            return clock[0]

    monkeypatch.setattr(memory, "time", FakeTime)
    throttle = Throttle(Settings.from_env({}), clock=lambda: clock[0])
    key = lenient_key("victim")
    waits: list[int] = []

    async def fail_until_refused() -> int:
        """Fail until refused; the wait announced."""
        while True:
            try:
                await throttle.check_login(key, f"203.0.113.{len(waits)}")
            except Throttled as refused:
                return refused.retry_after
            await throttle.login_failed(key, f"203.0.113.{len(waits)}")

    async def run() -> None:
        waits.append(await fail_until_refused())  # after 5: the minute
        for _ in range(3):  # 5 more each minute: 20 in all
            clock[0] += waits[-1] + 1
            waits.append(await fail_until_refused())
        while len(waits) < 30:  # and on, an hour at a time, until the day's 100
            clock[0] += waits[-1] + 1
            waits.append(await fail_until_refused())
            if waits[-1] > 3600:
                break
        clock[0] += waits[-1] + 1
        await throttle.check_login(key, "203.0.113.250")  # a day later: free again

    asyncio.run(run())
    assert 0 < waits[0] <= 60 and all(0 < w <= 60 for w in waits[1:3])
    assert 60 < waits[3] <= 3600  # the 20th failure: the hour
    assert 3600 < waits[-1] <= 24 * 3600  # the 100th: the day
