"""Load: N players, each at their own table with three bots, over WebSockets on loopback.

Starts ``paiju serve`` in a subprocess (SQLite in a temporary folder, or ``--database-url``),
registers N accounts, connects N WebSocket clients that join the Mazhan room and play random
legal actions for ``--seconds``, and reports the tables held, actions per second and the
action latency (from sending an action to the first frame of a newer version). Bounded in
count (at most 1,000 clients) and in time, loopback only.

    python benchmarks/load.py --tables 50 --seconds 30 [--json]
"""

from __future__ import annotations

import argparse
import asyncio
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


async def player(
    base: str, ws_url: str, name: str, until: float, stats: dict[str, Any], rng: random.Random
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await http.post("/api/register", json={"name": name, "password": "secret-pw"})
        token = (
            await http.post("/api/login", json={"name": name, "password": "secret-pw"})
        ).json()["token"]
    async with websockets.connect(f"{ws_url}?token={token}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "join", "room": "mazhan"}))
        await ws.send(json.dumps({"type": "ready"}))
        sent_at: float | None = None
        sent_version = -1
        sent_action = ""
        seated = False
        while time.perf_counter() < until:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.1, until - time.perf_counter())
                )
            except TimeoutError:
                break
            m = json.loads(raw)
            kind = m["type"]
            if kind == "hand_start" and not seated:
                seated = True
                stats["tables"] += 1
            elif kind == "settlement":
                stats["hands"] += 1
                if sent_at is not None:
                    stats["latency"].append(time.perf_counter() - sent_at)
                    sent_at = None
            elif kind == "error":
                stats["errors"] += 1
                stats["error_codes"][m["code"]] = stats["error_codes"].get(m["code"], 0) + 1
                sent_at = None
            elif kind == "view":
                if sent_at is not None and m.get("your_action") == sent_action:
                    stats["latency"].append(time.perf_counter() - sent_at)
                    sent_at = None
                legal = m["view"]["legal"]
                if legal and sent_at is None:
                    action = legal[rng.randrange(len(legal))]
                    sent_action = action
                    sent_version = m["version"]
                    sent_at = time.perf_counter()
                    await ws.send(
                        json.dumps({"type": "action", "action": action, "version": sent_version})
                    )
                    stats["actions"] += 1


def run(tables: int, seconds: float, database_url: str | None, port: int) -> dict[str, Any]:
    if not 1 <= tables <= MAX_CLIENTS:
        raise SystemExit(f"--tables must be 1–{MAX_CLIENTS}")
    seconds = min(seconds, 300.0)
    data = tempfile.mkdtemp(prefix="paiju-load-")
    env = {
        **os.environ,
        "PAIJU_DATA_DIR": data,
        "PAIJU_BOT_WAIT": "0.05",
        "PAIJU_BOT_DELAY": "0",
        "PAIJU_NEXT_HAND_SECONDS": "0",
        "PAIJU_TURN_SECONDS": "30",
    }
    if database_url:
        env["PAIJU_DATABASE_URL"] = database_url
    server = subprocess.Popen(
        [sys.executable, "-m", "paiju.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        stats: dict[str, Any] = {
            "tables": 0,
            "hands": 0,
            "actions": 0,
            "errors": 0,
            "error_codes": {},
            "latency": [],
        }

        async def main() -> float:
            start = time.perf_counter()
            until = start + seconds
            rng = random.Random(1)
            await asyncio.gather(
                *(
                    player(
                        base,
                        f"ws://127.0.0.1:{port}/ws",
                        f"load{i}",
                        until,
                        stats,
                        random.Random(rng.getrandbits(32)),
                    )
                    for i in range(tables)
                )
            )
            return time.perf_counter() - start

        elapsed = asyncio.run(main())
    finally:
        server.terminate()
        server.wait(timeout=30)
    lat = sorted(stats["latency"])
    return {
        "tables_requested": tables,
        "tables_held": stats["tables"],
        "seconds": elapsed,
        "hands": stats["hands"],
        "actions": stats["actions"],
        "actions_per_second": stats["actions"] / elapsed,
        "errors": stats["errors"],
        "error_codes": stats["error_codes"],
        "latency_p50_ms": 1000 * statistics.median(lat) if lat else None,
        "latency_p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        "database": "postgresql" if database_url else "sqlite",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = run(args.tables, args.seconds, args.database_url, args.port)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        p50 = "—" if r["latency_p50_ms"] is None else f"{r['latency_p50_ms']:.1f} ms"
        p99 = "—" if r["latency_p99_ms"] is None else f"{r['latency_p99_ms']:.1f} ms"
        print(
            f"{r['tables_held']}/{r['tables_requested']} tables held for {r['seconds']:.0f} s "
            f"({r['database']}): {r['actions']} player actions, "
            f"{r['actions_per_second']:.0f}/s, {r['hands']} hands, latency p50 {p50}, "
            f"p99 {p99}, {r['errors']} errors"
        )


if __name__ == "__main__":
    main()
