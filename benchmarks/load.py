"""Load: N players, each at a table of their own with three bots, over WebSockets on loopback.

Starts ``paiju serve`` in a subprocess (SQLite in a temporary folder, or ``--database-url``),
or ``--processes K`` of them sharing the database and ``--redis-url``; registers N accounts
(not timed), connects N WebSocket clients (spread over the processes) that join the Mazhan
room ``alone`` and wait until every table is live, then plays random legal actions for
``--seconds`` and reports the tables held, player actions per second (each table's three bots
play about three times as many again) and the action latency (from sending an action to the
view that shows it taken). With ``--remote`` every player, once their hand is live, reconnects
to the next process and plays through it, so that every action and view crosses Redis.
Bounded in count (at most 1,000 clients) and in time, loopback only.

    python benchmarks/load.py --tables 50 --seconds 30 [--json]
    python benchmarks/load.py --tables 200 --processes 2 --redis-url redis://127.0.0.1:6379/0 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/paiju_load [--remote]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import websockets

MAX_CLIENTS = 1000


async def signup(base: str, name: str, sem: asyncio.Semaphore) -> str:
    async with sem, httpx.AsyncClient(base_url=base, timeout=120) as http:
        await http.post("/api/register", json={"name": name, "password": "secret-pw"})
        r = await http.post("/api/login", json={"name": name, "password": "secret-pw"})
        token: str = r.json()["token"]
        return token


def _connect(url: str, token: str) -> Any:
    return websockets.connect(f"{url}?token={token}", max_size=2**22, open_timeout=90)


async def _join_alone(ws: Any) -> None:
    await ws.send(json.dumps({"type": "join", "room": "mazhan", "alone": True}))
    await ws.send(json.dumps({"type": "ready"}))


async def _sit_until_live(url: str, token: str) -> None:
    """Take a table of one's own through ``url`` and wait until its hand is live."""
    async with _connect(url, token) as ws:
        await _join_alone(ws)
        seen: list[str] = []
        while not seen or seen[-1] != "hand_start":
            try:
                seen.append(json.loads(await asyncio.wait_for(ws.recv(), 60))["type"])
            except TimeoutError:
                raise RuntimeError(f"no hand_start in 60 s; got {seen}") from None


async def player(
    ws_url: str,
    token: str,
    seated: asyncio.Event,
    go: asyncio.Event,
    until: list[float],
    stats: dict[str, Any],
    rng: random.Random,
    play_url: str | None = None,
) -> None:
    """Join a table of one's own through ``ws_url`` and play random legal actions; with
    ``play_url``, reconnect there once the hand is live and play through that process."""
    if play_url is not None:
        await _sit_until_live(ws_url, token)
    async with _connect(play_url or ws_url, token) as ws:
        if play_url is None:
            await _join_alone(ws)
        sent_at: float | None = None
        sent_action = ""
        while True:
            now = time.perf_counter()
            if go.is_set() and now >= until[0]:
                break
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            m = json.loads(raw)
            kind = m["type"]
            if os.environ.get("PAIJU_LOAD_DEBUG"):
                print(kind, str(m)[:120], flush=True)
            counting = go.is_set()
            if kind in ("hand_start", "view"):  # a view: back at a live hand
                seated.set()
            if kind == "settlement":
                if counting:
                    stats["hands"] += 1
                sent_at = None
            elif kind == "error":
                if counting:
                    stats["errors"] += 1
                    stats["error_codes"][m["code"]] = stats["error_codes"].get(m["code"], 0) + 1
                sent_at = None
            elif kind == "view":
                if sent_at is not None and m.get("your_action") == sent_action:
                    if counting:
                        stats["latency"].append(time.perf_counter() - sent_at)
                    sent_at = None
                legal = m["view"]["legal"]
                if legal and sent_at is None:
                    sent_action = legal[rng.randrange(len(legal))]["action"]
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps(
                            {"type": "action", "action": sent_action, "version": m["version"]}
                        )
                    )
                    if counting:
                        stats["actions"] += 1


def run(
    tables: int,
    seconds: float,
    database_url: str | None,
    port: int,
    processes: int = 1,
    redis_url: str | None = None,
    remote: bool = False,
    bot_delay: float = 0.0,
) -> dict[str, Any]:
    if not 1 <= tables <= MAX_CLIENTS:
        raise SystemExit(f"--tables must be 1–{MAX_CLIENTS}")
    seconds = min(seconds, 300.0)
    data = tempfile.mkdtemp(prefix="paiju-load-")
    env = {
        **os.environ,
        "PAIJU_DATA_DIR": data,
        "PAIJU_BOT_WAIT": "0.05",
        "PAIJU_BOT_DELAY": str(bot_delay),
        "PAIJU_NEXT_HAND_SECONDS": "0",
        "PAIJU_TURN_SECONDS": "30",
    }
    if database_url:
        env["PAIJU_DATABASE_URL"] = database_url
    if processes > 1:
        if not redis_url:
            raise SystemExit("several processes need --redis-url")
        env["PAIJU_REDIS_URL"] = redis_url
        env["PAIJU_REDIS_PREFIX"] = f"paiju-load-{os.getpid()}"
    servers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "paiju.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port + k),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=open(os.environ["PAIJU_LOAD_LOG"] + str(k), "w")  # noqa: SIM115
            if os.environ.get("PAIJU_LOAD_LOG")
            else subprocess.DEVNULL,
        )
        for k in range(processes)
    ]
    base = f"http://127.0.0.1:{port}"
    try:
        for k in range(processes):
            for _ in range(200):
                try:
                    url = f"http://127.0.0.1:{port + k}/api/health"
                    if httpx.get(url, timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            else:
                raise SystemExit("a server did not start")
        stats: dict[str, Any] = {
            "tables": 0,
            "hands": 0,
            "actions": 0,
            "errors": 0,
            "error_codes": {},
            "latency": [],
        }

        async def main() -> tuple[float, int]:
            sem = asyncio.Semaphore(16)
            tokens = await asyncio.gather(*(signup(base, f"load{i}", sem) for i in range(tables)))
            rng = random.Random(1)
            seated = [asyncio.Event() for _ in range(tables)]
            go = asyncio.Event()
            until = [0.0]
            clients = [
                asyncio.create_task(
                    player(
                        f"ws://127.0.0.1:{port + i % processes}/ws",
                        tokens[i],
                        seated[i],
                        go,
                        until,
                        stats,
                        random.Random(rng.getrandbits(32)),
                        f"ws://127.0.0.1:{port + (i + 1) % processes}/ws" if remote else None,
                    )
                )
                for i in range(tables)
            ]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(e.wait() for e in seated)), 120)
            held = sum(e.is_set() for e in seated)
            start = time.perf_counter()
            until[0] = start + seconds
            go.set()
            failed = [
                r
                for r in await asyncio.gather(*clients, return_exceptions=True)
                if isinstance(r, BaseException)
            ]
            stats["client_failures"] = len(failed)
            for err in failed[:3]:  # a client that broke is reported, not hidden
                print(f"a client failed: {err!r}", file=sys.stderr)
            return time.perf_counter() - start, held

        elapsed, held = asyncio.run(main())
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)
        if processes > 1 and redis_url:  # leave no keys behind
            import redis

            r = redis.Redis.from_url(redis_url)
            for key in r.scan_iter(f"{env['PAIJU_REDIS_PREFIX']}:*"):
                r.delete(key)
    lat = sorted(stats["latency"])
    return {
        "tables_requested": tables,
        "tables_held": held,
        "seconds": elapsed,
        "hands": stats["hands"],
        "actions": stats["actions"],
        "actions_per_second": stats["actions"] / elapsed,
        "errors": stats["errors"],
        "client_failures": stats.get("client_failures", 0),
        "error_codes": stats["error_codes"],
        "latency_p50_ms": 1000 * statistics.median(lat) if lat else None,
        "latency_p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        "database": "postgresql" if database_url else "sqlite",
        "processes": processes,
        "remote": remote,
        "bot_delay": bot_delay,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes (more than one needs --redis-url)",
    )
    parser.add_argument("--redis-url", default=None)
    parser.add_argument(
        "--remote",
        action="store_true",
        help="each player plays through another process than their table's (via Redis)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="seconds a bot waits before it plays (0: as fast as the server goes; 0.3: as served)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.remote and args.processes < 2:
        raise SystemExit("--remote needs --processes 2 or more")
    r = run(
        args.tables,
        args.seconds,
        args.database_url,
        args.port,
        args.processes,
        args.redis_url,
        args.remote,
        args.bot_delay,
    )
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        p50 = "—" if r["latency_p50_ms"] is None else f"{r['latency_p50_ms']:.1f} ms"
        p99 = "—" if r["latency_p99_ms"] is None else f"{r['latency_p99_ms']:.1f} ms"
        print(
            f"{r['tables_held']}/{r['tables_requested']} tables held for {r['seconds']:.0f} s "
            f"({r['database']}, {r['processes']} process(es)"
            f"{', played through another process' if r['remote'] else ''}, "
            f"bots wait {r['bot_delay']} s): "
            f"{r['actions']} player actions, "
            f"{r['actions_per_second']:.0f}/s, {r['hands']} hands, latency p50 {p50}, "
            f"p99 {p99}, {r['errors']} errors"
        )


if __name__ == "__main__":
    main()
