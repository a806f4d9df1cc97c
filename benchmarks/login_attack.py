"""Logins under attack (issue 13 §4), measured on a real ``paiju serve`` on loopback.

1. **Enumeration by timing**: a wrong password for a known name against any password for an
   unknown name, interleaved (each attempt from its own address and for its own name, so the
   throttle never answers instead of the hash).
2. **Memory and latency under a burst**: 32 wrong logins at once (the issue: +800 MB and a
   real login took 5.7 s): the server's peak resident memory, how many were answered
   ``busy``, and how long a real login took meanwhile.

Three repetitions; min and median. ``python benchmarks/login_attack.py [--database-url …]``
(an SQLite file in a temporary folder by default). Quote ``uptime`` with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "secret-pw-1"
_address = iter(range(1, 10**6))


def addr() -> dict[str, str]:
    n = next(_address)
    return {"x-forwarded-for": f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start(database_url: str) -> tuple[subprocess.Popen[bytes], str]:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PAIJU_DATABASE_URL": database_url, "PAIJU_LOG_LEVEL": "ERROR",
           "PAIJU_REGISTER_LIMITS_ADDRESS": "100000/minute"}  # fmt: skip
    env.pop("PAIJU_REDIS_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiju.cli", "serve", "--port", str(port)],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def login(base: str, name: str, password: str) -> tuple[float, int]:
    t = time.perf_counter()
    r = httpx.post(base + "/api/login", json={"name": name, "password": password},
                   headers=addr(), timeout=120)  # fmt: skip
    return time.perf_counter() - t, r.status_code


def ms(xs: list[float]) -> str:
    return f"min {min(xs) * 1000:.0f} ms, median {statistics.median(xs) * 1000:.0f} ms"


def enumeration(base: str, names: list[str], rounds: int) -> tuple[list[float], list[float]]:
    known, unknown = [], []
    for i in range(rounds):  # interleaved
        dt, code = login(base, names[i], "wrong-password")
        assert code == 401, code
        known.append(dt)
        dt, code = login(base, f"nobody-{i}-{time.monotonic_ns()}", "wrong-password")
        assert code == 401, code
        unknown.append(dt)
    return known, unknown


def burst(base: str, pid: int, real: str) -> tuple[int, float, int, int]:
    """32 wrong logins at once, and a real login among them: peak RSS (KiB) above the
    start, the real login's time and status, how many attackers were answered busy."""
    start_rss = rss_kib(pid)
    peak = start_rss
    done = threading.Event()

    def watch() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, rss_kib(pid))
            time.sleep(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    with ThreadPoolExecutor(max_workers=33) as pool:
        attacks = [
            pool.submit(login, base, f"burst-{i}-{time.monotonic_ns()}", "wrong") for i in range(32)
        ]
        time.sleep(0.05)
        real_time, code = login(base, real, PASSWORD)
        assert code in (200, 503), code
        codes = [f.result()[1] for f in attacks]
    done.set()
    watcher.join()
    return peak - start_rss, real_time, code, codes.count(503)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{tmp}/paiju.db"
        proc, base = start(url)
        try:
            run = time.monotonic_ns()
            names = [f"k{run % 10**6}-{i}" for i in range(args.rounds * 3 + 3)]
            for n in names:
                r = httpx.post(base + "/api/register", json={"name": n, "password": PASSWORD},
                               timeout=60)  # fmt: skip
                assert r.status_code == 201, r.text
            print(f"machine: {os.uname().nodename}, load {os.getloadavg()[0]:.2f} (1 min)")
            for rep in range(3):
                chunk = names[rep * args.rounds : (rep + 1) * args.rounds]
                known, unknown = enumeration(base, chunk, args.rounds)
                print(f"rep {rep + 1}: known name, wrong password: {ms(known)}; "
                      f"unknown name: {ms(unknown)}")  # fmt: skip
            for rep in range(3):
                grown, real_time, real_code, busy = burst(base, proc.pid, names[-1 - rep])
                print(
                    f"rep {rep + 1}: 32 wrong logins at once: peak RSS +{grown / 1024:.0f} MiB,"
                    f" a real login answered {real_code} in {real_time:.2f} s,"
                    f" {busy} of the 32 answered busy (503)"
                )
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
