"""Real servers on loopback for the security tests: ``paiju serve`` subprocesses (the
production entry point, uvicorn's ``ws_max_size`` included) on a fresh PostgreSQL database,
and a private ``redis-server`` that a test may kill."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from paiju.server.db import make_engine, migrate

ROOT = Path(__file__).resolve().parent.parent.parent
PASSWORD = "secret-pw"
TABLES = "ledger, hand_actions, seats, hands, tables, tokens, accounts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def empty_database(url: str) -> None:
    """Migrate the database and empty every table."""
    engine = make_engine(url)
    migrate(engine)
    with engine.begin() as c:
        c.execute(sa.text(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
    engine.dispose()


@contextmanager
def serve(database_url: str, **env: str) -> Iterator[str]:
    """``paiju serve`` on a free loopback port with these ``PAIJU_*`` settings; its base URL
    (``http://127.0.0.1:PORT``). Stopped (SIGTERM) on exit."""
    with serve_all(database_url, env) as (base,):
        yield base


@contextmanager
def serve_all(database_url: str, *envs: dict[str, str]) -> Iterator[list[str]]:
    """One ``paiju serve`` for each of ``envs`` (as :func:`serve`'s settings), started side by
    side (processes of one deployment start at once: the first start migrates, the others
    wait for it); their base URLs, in order. Stopped (SIGTERM) together on exit."""
    procs: list[tuple[subprocess.Popen[bytes], str]] = []
    try:
        for env in envs:
            procs.append(_launch(database_url, env))
        for proc, base in procs:
            _wait_up(proc, base)
        yield [base for _, base in procs]
    finally:
        for proc, _ in procs:
            proc.terminate()
        for proc, _ in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def _launch(database_url: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``paiju serve`` (not waiting for it); the process and its base URL."""
    port = free_port()
    full = {
        **os.environ,
        "PAIJU_DATABASE_URL": database_url,
        "PAIJU_BOT_WAIT": "600",
        "PAIJU_BOT_DELAY": "0.3",  # a quicker pace than the served 1 s: nothing here waits on it
        "PAIJU_CLAIM_PAUSE": "0.05",
        "PAIJU_LOG_LEVEL": "WARNING",
        # a test's stop is a stop: no waiting for live hands to end (tests/server/test_drain.py)
        "PAIJU_DRAIN_SECONDS": "0",
    }
    full.pop("PAIJU_REDIS_URL", None)
    full.update({f"PAIJU_{k.upper()}": v for k, v in env.items()})
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiju.cli", "serve", "--port", str(port)],
        env=full,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return proc, f"http://127.0.0.1:{port}"


def _wait_up(proc: subprocess.Popen[bytes], base: str) -> None:
    """Wait until the server at ``base`` answers its health check."""
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            err = proc.stderr.read().decode()[-2000:] if proc.stderr else ""
            raise RuntimeError(f"paiju serve exited ({proc.returncode}): {err}")
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("paiju serve did not start")
        time.sleep(0.1)


@contextmanager
def private_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A ``redis-server`` of the test's own on a free port (kill it to take Redis away)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def register(base: str, name: str, password: str = PASSWORD) -> None:
    r = httpx.post(f"{base}/api/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text


def bearer_login(base: str, name: str, password: str = PASSWORD) -> str:
    r = httpx.post(f"{base}/api/login", json={"name": name, "password": password, "bearer": True})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def cookie_login(base: str, name: str, password: str = PASSWORD) -> httpx.Client:
    """A browser-like client: logged in with the cookie, sending the server's Origin."""
    client = httpx.Client(base_url=base, headers={"origin": base})
    r = client.post("/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    assert "token" not in r.json()
    return client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(response: httpx.Response) -> dict[str, Any]:
    error: dict[str, Any] = response.json()["error"]
    return error
