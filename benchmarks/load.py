"""Load: N people, each at a table of their own with three bots, over WebSockets on loopback,
the load clients in processes of their own.

Starts ``paiju serve`` (one process, or ``--processes K`` sharing PostgreSQL and Redis) on a
database of its own (a fresh PostgreSQL database on ``--postgres``, dropped after; else
SQLite in a temporary folder). The accounts and their sessions are written straight into the
database (not timed: a login costs an argon2 hash by design). Each client process holds a
share of the WebSockets: every person joins the Mazhan room ``alone`` (easy bots), confirms
every hand, and plays a random legal action — at a human pace (``--pace human``: 1–3 s after
their turn comes, the bots thinking about 1 s) or at once (``--pace fast``). After every table
is live, it measures for ``--seconds``: tables held, actions per second (the people's and
everyone's, from the action log), action-to-view latency (from sending an action to the view
that shows it taken) at p50/p99, errors, the server processes' CPU time per table action
(bots included), the load clients' CPU time per player action, PostgreSQL's CPU and how busy
the machine was (``--latencies FILE`` writes every measured action's send time and latency).

``--cpu-quota C`` caps each server process at ``C`` cores (a cgroup v1 ``cpu`` group of its
own, CFS quota; Linux, as root): on a machine with fewer cores than servers plus load
clients, this is how the scaling from one process to two is measured: one process at ``C``
against two at ``C`` each, the rest of the machine left to the clients, PostgreSQL and Redis.
The load client is kept cheap (orjson, nothing done per frame but reading it), so that on a
small machine it takes as little CPU from the server as it can.

    python benchmarks/load.py --tables 200 --seconds 30 --pace fast
    python benchmarks/load.py --tables 2000 --seconds 60 --pace human \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    python benchmarks/load.py --tables 3600 --seconds 60 --pace human --processes 2 \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres \\
        --redis-url redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MAX_TABLES = 5000


CGROUP_CPU = Path("/sys/fs/cgroup/cpu")


def _cap_cpu(pid: int, cores: float) -> Path:
    """Put a process (all its threads) in a cgroup of its own capped at ``cores``."""
    if not (CGROUP_CPU / "cpu.cfs_quota_us").exists():
        raise SystemExit(f"--cpu-quota needs the cgroup v1 cpu controller at {CGROUP_CPU}")
    group = CGROUP_CPU / f"paiju-load-{pid}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cpu.cfs_period_us").write_text("100000")
        (group / "cpu.cfs_quota_us").write_text(str(int(cores * 100_000)))
        (group / "cgroup.procs").write_text(str(pid))
    except OSError as err:
        raise SystemExit(f"--cpu-quota: cannot make {group} ({err}); run as root") from err
    return group


def _throttled(group: Path) -> tuple[int, float]:
    """Periods in which the group hit its quota, and the seconds it waited."""
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat["nr_throttled"]), int(stat["throttled_time"]) / 1e9


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def _cpu_of(name: str) -> dict[int, float]:
    """CPU seconds of every process whose command name is ``name`` (PostgreSQL's backends
    and helpers), by pid."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if stat[stat.index("(") + 1 : stat.rindex(")")] == name:
            fields = stat.rsplit(")", 1)[1].split()
            out[int(entry)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def _busy_seconds() -> float:
    """CPU seconds the whole machine has been busy (all cores; /proc/stat less idle)."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def _delta(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two :func:`_cpu_of` samples (a process started meanwhile: all of
    it)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def _steps(url: str) -> int:
    engine = sa.create_engine(url)
    with engine.connect() as c:
        n = int(c.execute(sa.text("SELECT count(*) FROM hand_actions")).scalar() or 0)
    engine.dispose()
    return n


def _accounts(url: str, n: int) -> list[str]:
    """N accounts with sessions, written straight into the database; their tokens."""
    from paiju.server.db import make_engine, make_sessions, migrate
    from paiju.server.ledger import new_account
    from paiju.server.sessions import Policy, open_session

    engine = make_engine(url)
    migrate(engine)
    tokens = []
    with make_sessions(engine).begin() as s:
        for i in range(n):
            # rich, though the stake follows the balance (§10's ladder), so a random player
            # may still lose it all in one hand: unseated for too few points, it goes home
            acc = new_account(s, f"load{i}", "!", 100_000_000)
            tokens.append(open_session(s, acc.id, time.time(), Policy()))
    engine.dispose()
    return tokens


def _client_process(
    urls: list[str],
    tokens: list[str],
    pace: str,
    seed: int,
    ready: Any,
    go: Any,
    stop: Any,
    out: Any,
) -> None:
    """One load-client process: its share of people, on one asyncio loop (uvloop's, as the
    server's, where installed)."""
    try:
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_clients(urls, tokens, pace, seed, ready, go, stop, out))


#: What a person sends, serialised once.
_JOIN = orjson.dumps({"type": "join", "room": "mazhan", "alone": True, "level": "easy"})
_READY = orjson.dumps({"type": "ready"})


async def _clients(
    urls: list[str],
    tokens: list[str],
    pace: str,
    seed: int,
    ready: Any,
    go: Any,
    stop: Any,
    out: Any,
) -> None:
    """The people of one client process. Kept cheap, so that on a shared machine the load
    client takes as little CPU from the server as it can: frames parsed with orjson, no timer
    per received frame, the start and end of the measured window learnt once (a thread waits
    on each multiprocessing event) instead of polled per frame, every person stopped by
    cancelling their task."""
    import websockets

    stats: dict[str, Any] = {"actions": 0, "hands": 0, "errors": 0, "codes": {}, "latency": []}
    latency: list[tuple[float, float]] = stats["latency"]
    codes: dict[str, int] = stats["codes"]
    live = [asyncio.Event() for _ in tokens]
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    clock = time.perf_counter
    human = pace == "human"
    window = {"counting": False}

    def count(code: str) -> None:
        codes[code] = codes.get(code, 0) + 1

    async def person(i: int, token: str) -> None:
        url = urls[i % len(urls)]
        # the action sent and not yet seen taken: (action, when sent)
        pending: list[Any] = [None, 0.0]
        broke = False
        task: asyncio.Task[None] | None = None
        async with websockets.connect(
            url, additional_headers={"Authorization": f"Bearer {token}"}, max_size=2**22,
            open_timeout=120, ping_interval=None, compression=None,
        ) as ws:  # fmt: skip

            async def act(delay: float, action: str, version: int) -> None:
                await asyncio.sleep(delay)
                await send_action(action, version)

            async def send_action(action: str, version: int) -> None:
                pending[0], pending[1] = action, clock()
                await ws.send(
                    orjson.dumps({"type": "action", "action": action, "version": version}),
                    text=True,
                )
                if window["counting"]:
                    stats["actions"] += 1

            await ws.send(_JOIN, text=True)
            while True:
                m = orjson.loads(await ws.recv(decode=False))
                kind = m["type"]
                if kind == "view":
                    if pending[0] is not None and m["your_action"] == pending[0]:
                        if window["counting"]:
                            latency.append((pending[1], clock() - pending[1]))
                        pending[0] = None
                    legal = m["view"]["legal"]
                    if legal and pending[0] is None:
                        if task is not None:
                            task.cancel()
                            task = None
                        action = rng.choice(legal)["action"]
                        if human:
                            task = loop.create_task(
                                act(rng.uniform(1.0, 3.0), action, m["version"])
                            )
                            task.add_done_callback(_quiet)
                        else:
                            await send_action(action, m["version"])
                elif kind == "seated" or kind == "settlement":
                    await ws.send(_READY, text=True)
                    if kind == "settlement" and window["counting"]:
                        stats["hands"] += 1
                elif kind == "hand_start":
                    live[i].set()
                elif kind == "unseated":
                    # unseated (the ready clock ran out under load, the table closed): a
                    # person sits down again, as a player would; counted, not an error
                    if window["counting"]:
                        count("unseated:" + m["why"])
                    if m["why"] == "too_few_points":  # a broke person goes home (its `ready`
                        broke = True  # after the settlement may answer not_seated)
                    else:
                        await ws.send(_JOIN, text=True)
                elif kind == "error":
                    if window["counting"] and not broke:
                        stats["errors"] += 1
                        count(m["code"])
                    pending[0] = None

    people = [asyncio.create_task(person(i, t)) for i, t in enumerate(tokens)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in live)), timeout=600)
    ready.put(sum(e.is_set() for e in live))
    await asyncio.to_thread(go.wait)
    window["counting"] = True
    await asyncio.to_thread(stop.wait)
    window["counting"] = False
    for p in people:
        p.cancel()
    done = await asyncio.gather(*people, return_exceptions=True)
    failures = [
        r
        for r in done
        if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)
    ]
    stats["failures"] = len(failures)
    out.put(stats)


def _quiet(task: asyncio.Task[None]) -> None:
    """A person's pending action cancelled or cut off by the end of the run: not news."""
    if not task.cancelled():
        task.exception()


def run(args: argparse.Namespace) -> dict[str, Any]:
    if not 1 <= args.tables <= MAX_TABLES:
        raise SystemExit(f"--tables must be 1–{MAX_TABLES}")
    cores = os.cpu_count() or 1
    if args.cpu_quota is not None and not 0.01 <= args.cpu_quota <= cores:
        raise SystemExit(f"--cpu-quota must be between 0.01 and {cores} cores")
    admin = None
    if args.postgres:
        name = f"paiju_load_{uuid.uuid4().hex[:8]}"
        admin = sa.create_engine(args.postgres, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(sa.text(f'CREATE DATABASE "{name}"'))
        url = args.postgres.rsplit("/", 1)[0] + f"/{name}"
    else:
        url = f"sqlite:///{tempfile.mkdtemp(prefix='paiju-load-')}/paiju.db"
    prefix = f"paiju-load-{os.getpid()}"
    servers: list[Any] = []
    groups: list[Path] = []
    try:
        tokens = _accounts(url, args.tables)
        from tests.server.harness import Server

        env = {
            "PAIJU_DATABASE_URL": url,
            "PAIJU_BOT_WAIT": "0",
            "PAIJU_BOT_DELAY": "1.0" if args.pace == "human" else "0",
            "PAIJU_CLAIM_PAUSE": "1.0" if args.pace == "human" else "0",
            "PAIJU_TURN_SECONDS": "30",
            # a load client plays as fast as its views come: no human's per-socket rate
            "PAIJU_WS_RATE": "1000",
            "PAIJU_WS_BURST": "1000",
            "PAIJU_READY_SECONDS": "120",
            "PAIJU_LOG_LEVEL": "WARNING",
        }
        if args.processes > 1:
            if not args.redis_url:
                raise SystemExit("several processes need --redis-url")
            env |= {"PAIJU_REDIS_URL": args.redis_url, "PAIJU_REDIS_PREFIX": prefix}
        servers = [Server(env).start() for _ in range(args.processes)]
        print("server pids:", *(s.proc.pid for s in servers), file=sys.stderr, flush=True)
        if args.cpu_quota:
            groups = [_cap_cpu(s.proc.pid, args.cpu_quota) for s in servers]
        urls = [f"ws://{s.base}/ws" for s in servers]
        ctx = mp.get_context("spawn")
        ready, out = ctx.Queue(), ctx.Queue()
        go, stop = ctx.Event(), ctx.Event()
        shares = [tokens[k :: args.clients] for k in range(args.clients)]
        procs = [
            ctx.Process(
                target=_client_process,
                args=(urls, share, args.pace, 1000 + k, ready, go, stop, out),
                daemon=True,
            )
            for k, share in enumerate(shares)
            if share
        ]
        for p in procs:
            p.start()
        held = sum(ready.get(timeout=900) for _ in procs)
        steps0 = _steps(url)
        cpu0 = [_cpu_seconds(s.proc.pid) for s in servers]
        throttled0 = [_throttled(g) for g in groups]
        client0 = [_cpu_seconds(p.pid) for p in procs if p.pid is not None]
        pg0, busy0 = _cpu_of("postgres"), _busy_seconds()
        t0 = time.perf_counter()
        go.set()
        threading.Event().wait(args.seconds)  # the measured window
        elapsed = time.perf_counter() - t0
        cpu = sum(_cpu_seconds(s.proc.pid) for s in servers) - sum(cpu0)
        throttled = [
            (n - n_before, t - t_before)
            for (n, t), (n_before, t_before) in zip(
                [_throttled(g) for g in groups], throttled0, strict=True
            )
        ]
        client_cpu = sum(_cpu_seconds(p.pid) for p in procs if p.pid is not None) - sum(client0)
        pg_cpu, busy = _delta(pg0, _cpu_of("postgres")), _busy_seconds() - busy0
        steps = _steps(url) - steps0
        load = os.getloadavg()
        stop.set()
        results = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
    finally:
        for s in servers:
            s.stop()
        for g in groups:
            with contextlib.suppress(OSError):  # empty once its process has gone
                g.rmdir()
        if args.processes > 1 and args.redis_url:
            import redis

            r = redis.Redis.from_url(args.redis_url)
            for key in r.scan_iter(f"{prefix}:*"):
                r.delete(key)
        if admin is not None:
            with admin.connect() as c:
                c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    if args.latencies:  # (sent, latency) pairs, the clock of time.perf_counter
        pairs = sorted(x for r in results for x in r["latency"])
        Path(args.latencies).write_text("".join(f"{a:.4f} {b:.5f}\n" for a, b in pairs))
    lat = sorted(x for r in results for _, x in r["latency"])
    codes: dict[str, int] = {}
    for r in results:
        for code, n in r["codes"].items():
            codes[code] = codes.get(code, 0) + n
    people = sum(r["actions"] for r in results)
    return {
        "tables_requested": args.tables,
        "tables_held": held,
        "seconds": elapsed,
        "pace": args.pace,
        "processes": args.processes,
        "database": "postgresql" if args.postgres else "sqlite",
        "hands": sum(r["hands"] for r in results),
        "player_actions": people,
        "player_actions_per_second": people / elapsed,
        "table_actions": steps,
        "table_actions_per_second": steps / elapsed,
        "server_cpu_seconds": cpu,
        "server_cpu_per_action_us": 1e6 * cpu / steps if steps else None,
        "client_cpu_seconds": client_cpu,
        "client_cpu_per_player_action_us": 1e6 * client_cpu / people if people else None,
        "postgres_cpu_seconds": pg_cpu,
        "machine_busy_cores": busy / elapsed,
        "latency_p50_ms": 1000 * statistics.median(lat) if lat else None,
        "latency_p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        "errors": sum(r["errors"] for r in results),
        "error_codes": codes,
        "client_failures": sum(r["failures"] for r in results),
        "load_average": load,
        "cpu_quota_cores": args.cpu_quota,
        "throttled_periods": [n for n, _ in throttled],
        "throttled_seconds": [t for _, t in throttled],
    }


def parser() -> argparse.ArgumentParser:
    """The command line (``run_all.py`` builds its runs' arguments with it too)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pace", choices=["human", "fast"], default="human")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--clients", type=int, default=3, help="load-client processes")
    parser.add_argument("--postgres", default=None, help="an admin URL: a database is made there")
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--latencies", default=None, help="write every (sent, latency) here")
    parser.add_argument(
        "--cpu-quota", type=float, default=None, help="cap each server process at this many cores"
    )
    return parser


def main() -> None:
    args = parser().parse_args()
    r = run(args)
    if args.json:
        print(json.dumps(r, indent=2))
        return

    def fmt(v: float | None) -> str:
        return "—" if v is None else f"{v:.1f}"

    print(
        f"{r['tables_held']}/{r['tables_requested']} tables, {r['database']}, "
        f"{r['processes']} process(es), {r['pace']} pace, {r['seconds']:.0f} s: "
        f"{r['table_actions_per_second']:.0f} table actions/s "
        f"({r['player_actions_per_second']:.0f} by people), {r['hands']} hands; "
        f"server CPU {fmt(r['server_cpu_per_action_us'])} µs per table action; "
        f"load clients {fmt(r['client_cpu_per_player_action_us'])} µs per player action, "
        f"PostgreSQL {r['postgres_cpu_seconds'] / r['seconds']:.2f} cores, machine "
        f"{r['machine_busy_cores']:.2f} of {os.cpu_count()} cores busy; "
        f"latency p50 {fmt(r['latency_p50_ms'])} ms, p99 {fmt(r['latency_p99_ms'])} ms; "
        f"{r['errors']} errors {r['error_codes']}, {r['client_failures']} client failures; "
        f"load {r['load_average'][0]:.1f}"
        + (
            f"; capped at {args.cpu_quota:g} cores each, throttled periods "
            f"{r['throttled_periods']} ({', '.join(f'{t:.1f}' for t in r['throttled_seconds'])} s)"
            if args.cpu_quota
            else ""
        )
    )


if __name__ == "__main__":
    main()
