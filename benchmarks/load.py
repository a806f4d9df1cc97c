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
the machine was (``--latencies FILE`` writes every measured action's send time and latency),
and the p99 of each 30 s of the window (a drift shows there).

By default every person joins at once, so every table's hands, turns and clocks start
together: the first seconds of the window measure that synchronised start (a burst no room
sees). ``--ramp S`` spreads the people's arrivals evenly over ``S`` seconds, as a room fills
over time; the window still starts once every table is live. ``--settle S`` waits ``S``
seconds more before the window: while a room grows, the cyclic garbage collector walks each
million objects the heap has grown by, a pause of the event loop of 0.5–1.3 s at 2,000
tables (``paiju.server.app.GC_THRESHOLDS``), and the last one comes as the last tables
arrive; after it the heap holds steady and none comes (a room's growth, not its steady
state). Either way the run's JSON says both, so a figure states what it measured.

``--cpu-quota C`` caps each server process at ``C`` cores (a cgroup v1 ``cpu`` group of its
own, CFS quota; Linux, as root): on a machine with fewer cores than servers plus load
clients, this is how the scaling from one process to two is measured: one process at ``C``
against two at ``C`` each, the rest of the machine left to the clients, PostgreSQL and Redis.
The load client is kept cheap (orjson, nothing done per frame but reading it), so that on a
small machine it takes as little CPU from the server as it can. The server's CPU is given per
table action (the bots' moves included) and per person's action (the load clients' own).

``--rolling-restart`` (two processes, PostgreSQL and Redis) plays ``--seconds``, then sends
each server in turn SIGTERM (``PAIJU_DRAIN_SECONDS`` = ``--drain-seconds``), watches its drain
(``/api/ready``, its playing tables on ``/metrics`` every second) until it exits, starts a new
one on its port and waits until it is ready; the people whose sockets close connect again to
the next server, as the page does. The load plays on until every hand live at a SIGTERM has
ended; then it reports the hands started, finished and lost, the escapes charged, the
reconnects the players saw (a socket lost in mid-hand), split by their hand's fate: ended in
the drain (must be none) or live at the drain's bound (handed over), the exit codes, the
drains' lengths and the ledger summed (``paiju admin check``).

``--no-metrics`` runs the servers with prometheus-client's updates made no-ops (what the
instrumentation costs: interleave runs with and without it); ``--scrape-every S`` scrapes
every server's ``/metrics`` every ``S`` seconds during the window and reports how long a
scrape takes.

    python benchmarks/load.py --tables 200 --seconds 30 --pace fast
    python benchmarks/load.py --tables 2000 --seconds 60 --pace human \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    python benchmarks/load.py --tables 2000 --seconds 240 --pace human --ramp 120 --settle 30 \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres
    python benchmarks/load.py --tables 3600 --seconds 60 --pace human --processes 2 \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres \\
        --redis-url redis://127.0.0.1:6379/0
    python benchmarks/load.py --tables 200 --seconds 60 --pace human --processes 2 \\
        --postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres \\
        --redis-url redis://127.0.0.1:6379/0 --rolling-restart --drain-seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing as mp
import os
import random
import signal
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


#: the bearer token of the servers' /metrics (loopback only, the benchmark's own servers)
METRICS_TOKEN = "load-benchmark-metrics-token"


def _scrape(base: str) -> tuple[float, int, dict[str, float]]:
    """Scrape one server's /metrics: the seconds it took, its size in bytes, and its
    unlabelled samples and ``paiju_tables`` by state (``paiju_tables:playing``, …)."""
    import httpx

    began = time.perf_counter()
    r = httpx.get(
        f"http://{base}/metrics", headers={"authorization": f"Bearer {METRICS_TOKEN}"}, timeout=30
    )
    took = time.perf_counter() - began
    r.raise_for_status()
    samples: dict[str, float] = {}
    for line in r.text.splitlines():
        if line.startswith("#") or " " not in line:
            continue
        name, value = line.rsplit(" ", 1)
        if name.startswith('paiju_tables{state="'):
            name = "paiju_tables:" + name[len('paiju_tables{state="') : -2]
        samples[name] = float(value)
    return took, len(r.content), samples


class _Scraper(threading.Thread):
    """Scrapes every server's /metrics every ``every`` seconds (as Prometheus would) until
    stopped; what each scrape took."""

    def __init__(self, bases: list[str], every: float) -> None:
        super().__init__(daemon=True)
        self.bases, self.every = bases, every
        self.halt = threading.Event()
        self.took: list[float] = []
        self.sizes: list[int] = []
        self.tables: list[float] = []

    def run(self) -> None:
        while not self.halt.wait(self.every):
            for base in self.bases:
                took, size, samples = _scrape(base)
                self.took.append(took)
                self.sizes.append(size)
                self.tables.append(sum(v for k, v in samples.items() if k.startswith("paiju_t")))


def _serve_without_metrics(argv: list[str]) -> int:
    """``paiju`` with prometheus-client's updates made no-ops (every counter, histogram and
    gauge of the process): the server as it would run with no instrumentation, for
    measuring what the instrumentation costs (``--no-metrics``)."""
    from prometheus_client import metrics as pm

    def nothing(self: Any, *args: Any, **kwargs: Any) -> None:
        return None

    pm.Counter.inc = nothing  # type: ignore[method-assign]
    pm.Histogram.observe = nothing  # type: ignore[method-assign]
    pm.Gauge.inc = pm.Gauge.dec = pm.Gauge.set = nothing  # type: ignore[method-assign]
    pm.MetricWrapperBase.labels = lambda self, *a, **k: self  # type: ignore[method-assign]
    from paiju.cli import main

    return main(argv)


def _ready(base: str) -> bool:
    """Whether ``/api/ready`` answers 200."""
    import httpx

    try:
        return httpx.get(f"http://{base}/api/ready", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def _hand_rows(url: str, columns: str, ids: list[int]) -> list[Any]:
    """``columns`` of these hands (none asked: no query)."""
    if not ids:
        return []
    engine = sa.create_engine(url)
    q = sa.text(f"SELECT {columns} FROM hands WHERE id IN :ids")
    q = q.bindparams(sa.bindparam("ids", expanding=True))  # an expanding IN: SQLite has no ANY()
    with engine.connect() as c:
        rows = c.execute(q, {"ids": list(ids)}).all()
    engine.dispose()
    return list(rows)


def _writers(url: str, ids: list[int]) -> dict[int, tuple[str, str | None]]:
    """These hands' status and writer (the process that started a hand, then the one that
    closed it), by id."""
    return {int(h): (str(st), w) for h, st, w in _hand_rows(url, "id, status, writer", ids)}


def _hands(url: str, ids: list[int] | None = None, since: int = 0) -> dict[int, str]:
    """Hands by id and status: these ``ids``, or every hand after ``since``."""
    if ids is not None:
        return {int(h): str(st) for h, st in _hand_rows(url, "id, status", ids)}
    engine = sa.create_engine(url)
    with engine.connect() as c:
        rows = c.execute(sa.text("SELECT id, status FROM hands WHERE id > :n"), {"n": since}).all()
    engine.dispose()
    return {int(h): str(st) for h, st in rows}


def _live_at(url: str, tables: set[int]) -> list[int]:
    """The live hands of these tables."""
    engine = sa.create_engine(url)
    with engine.connect() as c:
        rows = c.execute(sa.text("SELECT id, table_id FROM hands WHERE status = 'live'")).all()
    engine.dispose()
    return sorted(int(h) for h, t in rows if int(t) in tables)


def _last_ids(url: str) -> tuple[int, int]:
    """The newest hand's id and the newest ledger entry's id."""
    engine = sa.create_engine(url)
    with engine.connect() as c:
        hand = int(c.execute(sa.text("SELECT coalesce(max(id), 0) FROM hands")).scalar() or 0)
        entry = int(c.execute(sa.text("SELECT coalesce(max(id), 0) FROM ledger")).scalar() or 0)
    engine.dispose()
    return hand, entry


def _escapes(url: str, since_entry: int) -> int:
    """Escape penalties charged in the ledger after entry ``since_entry``."""
    engine = sa.create_engine(url)
    with engine.connect() as c:
        q = sa.text("SELECT count(*) FROM ledger WHERE id > :n AND reason = 'escape'")
        n = int(c.execute(q, {"n": since_entry}).scalar() or 0)
    engine.dispose()
    return n


def _restart_each(
    servers: list[Any], make: Any, url: str, redis_url: str, prefix: str, bound: float
) -> list[dict[str, Any]]:
    """The rolling restart: each server in turn is sent SIGTERM, its drain watched (its
    playing tables scraped every second) until it exits, and a new one started on its port
    and waited for until ready, before the next. What happened to each."""
    import httpx
    import redis

    leases = redis.Redis.from_url(redis_url, decode_responses=True)
    report = []
    tick = threading.Event()
    for n, server in enumerate(servers):
        name = "AB"[n] if n < 2 else str(n)
        pid = httpx.get(f"http://{server.base}/api/ready", timeout=10).json()["process"]

        def owned(pid: str = pid) -> set[int]:
            return {
                int(key.rsplit(":", 1)[1])
                for key in leases.scan_iter(f"{prefix}:lease:*", count=1000)
                if leases.get(key) == pid
            }

        tables = owned()
        live = set(_live_at(url, tables))
        started = {h: w for h, (_, w) in _writers(url, sorted(live)).items()}
        playing = [(0.0, _scrape(server.base)[2].get("paiju_tables:playing", -1.0))]
        began, sigterm_at = time.perf_counter(), time.time()
        server.proc.send_signal(signal.SIGTERM)
        not_ready = None
        while server.proc.poll() is None:
            at = time.perf_counter() - began
            if not_ready is None and not _ready(server.base):
                not_ready = at
                # and the hands that were starting as the drain began (seated a moment
                # before, their start not yet written): live at the SIGTERM too
                tick.wait(1.0)
                tables |= owned()
                live |= set(_live_at(url, tables))
                more = _writers(url, sorted(live - set(started)))
                started |= {h: w for h, (_, w) in more.items()}
            with contextlib.suppress(httpx.HTTPError):
                playing.append((at, _scrape(server.base)[2].get("paiju_tables:playing", -1.0)))
            tick.wait(1.0)
        took, exit_at = time.perf_counter() - began, time.time()
        code = server.proc.wait()
        # ended in the drain: closed by the draining process itself (a hand handed over may
        # have ended on the next owner by now); its writer is the one that started its hands
        still = _writers(url, sorted(live))
        mine = collections.Counter(w for w in started.values() if w).most_common(1)
        writer = mine[0][0] if mine else None
        ended = sorted(h for h, (st, w) in still.items() if st != "live" and w == writer)
        handed = sorted(set(still) - set(ended))
        began = time.perf_counter()
        servers[n] = make(server.port)
        while not _ready(servers[n].base):
            tick.wait(0.2)
        idle = [at for at, count in playing if count == 0]
        report.append({
            "process": name, "tables": len(tables), "live_at_sigterm": sorted(live),
            "ended_in_drain": ended, "handed_over": handed, "exit_code": code,
            "sigterm_to_exit_s": took, "not_ready_after_s": not_ready,
            "no_hand_playing_after_s": idle[0] if idle else None, "bound_s": bound,
            "playing": playing, "restart_to_ready_s": time.perf_counter() - began,
            "sigterm_at": sigterm_at, "exit_at": exit_at,
        })  # fmt: skip
        print(
            f"{name}: exit {code} after {took:.1f} s (bound {bound:g} s), {len(live)} hands live "
            f"at SIGTERM: {len(ended)} ended in the drain, {len(handed)} handed over",
            file=sys.stderr, flush=True,
        )  # fmt: skip
    return report


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
    rolling: bool = False,
    starts: list[float] | None = None,
) -> None:
    """One load-client process: its share of people, on one asyncio loop (uvloop's, as the
    server's, where installed)."""
    try:
        import uvloop

        factory: Any = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(_clients(urls, tokens, pace, seed, ready, go, stop, out, rolling, starts))


#: What a person sends, serialised once.
_JOIN = orjson.dumps({"type": "join", "room": "mazhan", "alone": True, "level": "easy"})
_READY = orjson.dumps({"type": "ready"})


#: errors that say a table is between processes: the action is sent again in a moment
_MOVING = ("table_moving", "unavailable")


async def _clients(
    urls: list[str],
    tokens: list[str],
    pace: str,
    seed: int,
    ready: Any,
    go: Any,
    stop: Any,
    out: Any,
    rolling: bool = False,
    starts: list[float] | None = None,
) -> None:
    """The people of one client process. Kept cheap, so that on a shared machine the load
    client takes as little CPU from the server as it can: frames parsed with orjson, no timer
    per received frame, the start and end of the measured window learnt once (a thread waits
    on each multiprocessing event) instead of polled per frame, every person stopped by
    cancelling their task.

    With ``rolling`` (a rolling restart), a person whose socket closes connects again, as the
    page does, to the next server (a load balancer sends them to one that stays), and what
    they saw is counted: a socket lost while their hand was live (a reconnect they see: the
    hand is noted, to be told apart later by its log), a socket lost between hands (a move),
    a ``draining`` frame in a hand and that hand's settlement on the same socket.

    ``starts``: how many seconds after the start each person arrives (``--ramp``; none: all
    at once)."""
    import websockets

    stats: dict[str, Any] = {
        "actions": 0, "hands": 0, "errors": 0, "codes": {}, "latency": [],
        # the rolling restart's counts (below)
        "cut_hands": [], "moves": 0, "resumed": 0, "never_seen_again": 0,
        "drained_in_hand": 0, "drained_between": 0, "settled_in_drain": 0,
        "escapes_seen": 0, "people_cut": 0, "people_moved": 0, "connect_failures": 0,
    }  # fmt: skip
    latency: list[tuple[float, float]] = stats["latency"]
    codes: dict[str, int] = stats["codes"]
    live = [asyncio.Event() for _ in tokens]
    states: list[dict[str, Any]] = [
        {"hand": None, "cut": None, "was_cut": False, "moved": False} for _ in tokens
    ]
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    clock = time.perf_counter
    human = pace == "human"
    window = {"counting": False}

    def count(code: str) -> None:
        codes[code] = codes.get(code, 0) + 1

    async def person(i: int, token: str) -> None:
        k = i % len(urls)  # the server this person's socket goes to
        if starts is not None and starts[i] > 0:
            await asyncio.sleep(starts[i])
        # across sockets: the hand live for this person (None between hands), and the hand
        # live when their last socket was lost (None once it is seen again, or given up)
        me = states[i]
        while True:
            try:
                ws = await websockets.connect(
                    urls[k], additional_headers={"Authorization": f"Bearer {token}"},
                    max_size=2**22, open_timeout=120, ping_interval=None, compression=None,
                )  # fmt: skip
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                if not rolling:
                    raise
                stats["connect_failures"] += 1  # that server is down: the next one
                k = (k + 1) % len(urls)
                await asyncio.sleep(0.25)
                continue
            try:
                async with ws:
                    await play(ws, me, i)
            except websockets.ConnectionClosed:
                if not rolling:
                    raise
            if me["hand"] is not None:  # cut in mid-hand: a reconnect the player sees
                stats["cut_hands"].append((me["hand"], time.time()))
                me["cut"], me["was_cut"] = me["hand"], True
            else:
                stats["moves"] += 1
                me["moved"] = True
            k = (k + 1) % len(urls)

    async def play(ws: Any, me: dict[str, Any], i: int) -> None:
        # the action sent and not yet seen taken: (action, when sent, its message)
        pending: list[Any] = [None, 0.0, b""]
        broke = False
        task: asyncio.Task[None] | None = None
        drain_hand: int | None = None  # the hand live when this socket heard ``draining``
        back = False  # back at a seat (``hello``): the next hand may wait for our ``ready``

        async def act(delay: float, action: str, version: int) -> None:
            await asyncio.sleep(delay)
            await send_action(action, version)

        async def send_action(action: str, version: int) -> None:
            message = orjson.dumps({"type": "action", "action": action, "version": version})
            pending[0], pending[1], pending[2] = action, clock(), message
            await ws.send(message, text=True)
            if window["counting"]:
                stats["actions"] += 1

        async def again(message: bytes, delay: float, pended: bool = True) -> None:
            await asyncio.sleep(delay)
            if not pended or pending[2] is message:  # not answered by a view meanwhile
                await ws.send(message, text=True)

        def resumed(hand: int) -> None:
            if me["cut"] == hand:
                stats["resumed"] += 1
                me["cut"] = None

        if not rolling:
            await ws.send(_JOIN, text=True)
        while True:
            m = orjson.loads(await ws.recv(decode=False))
            kind = m["type"]
            if kind == "view":
                if pending[0] is not None and m["your_action"] == pending[0]:
                    if window["counting"]:
                        latency.append((pending[1], clock() - pending[1]))
                    pending[0] = None
                view = m["view"]
                if rolling and view["phase"] != "over":
                    me["hand"] = m["hand"]
                    resumed(m["hand"])
                legal = view["legal"]
                if legal and pending[0] is None:
                    if task is not None:
                        task.cancel()
                        task = None
                    action = rng.choice(legal)["action"]
                    if human:
                        task = loop.create_task(act(rng.uniform(1.0, 3.0), action, m["version"]))
                        task.add_done_callback(_quiet)
                    else:
                        await send_action(action, m["version"])
            elif kind == "seated" or kind == "settlement":
                if not (rolling and kind == "seated" and me["hand"] is not None):
                    await ws.send(_READY, text=True)  # (back at a live hand: nothing to confirm)
                if kind == "settlement":
                    if window["counting"]:
                        stats["hands"] += 1
                    if rolling:
                        resumed(m["hand"])
                        if m["hand"] == me["hand"]:
                            me["hand"] = None
                        if drain_hand == m["hand"]:  # its hand ended on the draining server
                            stats["settled_in_drain"] += 1
                            drain_hand = None
            elif kind == "hand_start":
                live[i].set()
                if rolling:
                    resumed(m["hand"])  # (sent again to a player back at their hand)
                    if me["cut"] is not None:  # the cut hand was never shown again
                        stats["never_seen_again"] += 1
                        me["cut"] = None
                    me["hand"] = m["hand"]
            elif kind == "unseated":
                # unseated (the ready clock ran out under load, the table closed): a
                # person sits down again, as a player would; counted, not an error
                if window["counting"]:
                    count("unseated:" + m["why"])
                me["hand"] = None
                back = False  # seated afresh below: ``seated`` is confirmed, not ``table``
                if m["why"] == "too_few_points":  # a broke person goes home (its `ready`
                    broke = True  # after the settlement may answer not_seated)
                else:
                    await ws.send(_JOIN, text=True)
            elif kind == "error":
                code = m["code"]
                if window["counting"] and not broke:
                    stats["errors"] += 1
                    count(code)
                if rolling and code in _MOVING and pending[0] is not None:
                    loop.create_task(again(pending[2], 0.3)).add_done_callback(_quiet)
                    continue
                if rolling and code == "draining":  # a join refused: go to another server
                    return
                if rolling and code == "join_in_progress":
                    loop.create_task(again(_JOIN, 1.0, False)).add_done_callback(_quiet)
                pending[0] = None
            elif not rolling:
                continue
            elif kind == "hello":
                back = m["seated"]
                if not back:  # a first socket, or back and the table is gone
                    await ws.send(_JOIN, text=True)
            elif kind == "table":
                if back and m.get("ready_seconds") and not m["live"]:  # back between hands
                    back = False
                    await ws.send(_READY, text=True)
            elif kind == "escape":
                stats["escapes_seen"] += 1
                me["hand"] = None
            elif kind == "draining":
                if me["hand"] is not None:
                    stats["drained_in_hand"] += 1
                    drain_hand = me["hand"]
                else:
                    stats["drained_between"] += 1

    people = [asyncio.create_task(person(i, t)) for i, t in enumerate(tokens)]
    with contextlib.suppress(TimeoutError):
        ramp = max(starts, default=0.0) if starts is not None else 0.0
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in live)), timeout=600 + ramp)
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
    stats["people_cut"] = sum(st["was_cut"] for st in states)
    stats["people_moved"] = sum(st["moved"] for st in states)
    out.put(stats)


def _quiet(task: asyncio.Task[None]) -> None:
    """A person's pending action cancelled or cut off by the end of the run: not news."""
    if not task.cancelled():
        task.exception()


def run(args: argparse.Namespace) -> dict[str, Any]:
    if not 1 <= args.tables <= MAX_TABLES:
        raise SystemExit(f"--tables must be 1–{MAX_TABLES}")
    if not 0 <= args.ramp <= 3600:
        raise SystemExit("--ramp must be 0–3600 seconds")
    if not 0 <= args.settle <= 3600:
        raise SystemExit("--settle must be 0–3600 seconds")
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
    rolling: list[dict[str, Any]] = []
    scraper: _Scraper | None = None
    books: dict[str, Any] | None = None
    if args.rolling_restart and not (args.postgres and args.redis_url and args.processes >= 2):
        raise SystemExit("--rolling-restart needs --postgres, --redis-url and --processes 2")
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
            "PAIJU_METRICS_TOKEN": METRICS_TOKEN,
            "PAIJU_DRAIN_SECONDS": str(args.drain_seconds if args.rolling_restart else 0),
        }
        if args.processes > 1:
            if not args.redis_url:
                raise SystemExit("several processes need --redis-url")
            env |= {"PAIJU_REDIS_URL": args.redis_url, "PAIJU_REDIS_PREFIX": prefix}
        program = [sys.executable, __file__, "--serve-without-metrics"] if args.no_metrics else None

        def make(port: int | None = None) -> Any:
            return Server(env, port=port, program=program).start()

        servers = [make() for _ in range(args.processes)]
        print("server pids:", *(s.proc.pid for s in servers), file=sys.stderr, flush=True)
        if args.cpu_quota:
            groups = [_cap_cpu(s.proc.pid, args.cpu_quota) for s in servers]
        urls = [f"ws://{s.base}/ws" for s in servers]
        ctx = mp.get_context("spawn")
        ready, out = ctx.Queue(), ctx.Queue()
        go, stop = ctx.Event(), ctx.Event()
        shares = [tokens[k :: args.clients] for k in range(args.clients)]
        # person n (of all) arrives n/N of the ramp after the start: evenly, whatever the
        # client process
        arrivals = [args.ramp * n / len(tokens) for n in range(len(tokens))]
        procs = [
            ctx.Process(
                target=_client_process,
                args=(urls, share, args.pace, 1000 + k, ready, go, stop, out, args.rolling_restart),
                kwargs={"starts": arrivals[k :: args.clients] if args.ramp else None},
                daemon=True,
            )
            for k, share in enumerate(shares)
            if share
        ]
        for p in procs:
            p.start()
        held = sum(ready.get(timeout=900 + args.ramp) for _ in procs)
        threading.Event().wait(args.settle)  # the tables play on, not measured
        steps0 = _steps(url)
        cpu0 = [_cpu_seconds(s.proc.pid) for s in servers]
        throttled0 = [_throttled(g) for g in groups]
        client0 = [_cpu_seconds(p.pid) for p in procs if p.pid is not None]
        pg0, busy0 = _cpu_of("postgres"), _busy_seconds()
        first_hand, first_entry = _last_ids(url)
        if args.scrape_every:
            scraper = _Scraper([s.base for s in servers], args.scrape_every)
            scraper.start()
        t0, t0_unix = time.perf_counter(), time.time()
        go.set()
        threading.Event().wait(args.seconds)  # the measured window
        if args.rolling_restart:
            rolling = _restart_each(servers, make, url, args.redis_url, prefix, args.drain_seconds)
            # the load plays on until every hand live at a SIGTERM has ended
            watched = [h for r in rolling for h in r["live_at_sigterm"]]
            end = time.perf_counter() + 600
            while time.perf_counter() < end:
                if "live" not in _hands(url, watched).values():
                    break
                threading.Event().wait(1.0)
        elapsed = time.perf_counter() - t0
        if scraper is not None:
            scraper.halt.set()
            scraper.join()
        cpu = (
            None
            if args.rolling_restart  # its processes came and went
            else sum(_cpu_seconds(s.proc.pid) for s in servers) - sum(cpu0)
        )
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
        # before the clients go: a client that leaves a live hand is not the server's escape
        escapes = _escapes(url, first_entry)
        hands = _hands(url, since=first_hand)
        watched_status = _hands(url, [h for r in rolling for h in r["live_at_sigterm"]])
        stop.set()
        results = [out.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        odd = _odd_cuts(url, results, rolling) if args.rolling_restart else []
    finally:
        for s in servers:
            if s.proc is not None and s.proc.poll() is None:
                s.proc.send_signal(signal.SIGINT)  # at once, no drain
            s.stop()
        if servers and args.rolling_restart:
            from paiju.server.admin import run_cli

            books = run_cli("check", {}, url)[1]
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
    by_30s: list[list[float]] = [[] for _ in range(max(1, int(elapsed // 30)))]
    for r in results:
        for sent, x in r["latency"]:
            by_30s[min(len(by_30s) - 1, max(0, int((sent - t0) // 30)))].append(x)
    codes: dict[str, int] = {}
    for r in results:
        for code, n in r["codes"].items():
            codes[code] = codes.get(code, 0) + n
    people = sum(r["actions"] for r in results)
    extra: dict[str, Any] = {}
    if args.rolling_restart:
        extra = _rolling_summary(args, rolling, results, hands, watched_status, escapes, books, odd)
    if scraper is not None:
        took = sorted(scraper.took)
        extra |= {
            "scrapes": len(took),
            "scrape_p50_ms": 1000 * statistics.median(took) if took else None,
            "scrape_max_ms": 1000 * took[-1] if took else None,
            "scrape_bytes": max(scraper.sizes, default=0),
            "scraped_tables_max": max(scraper.tables, default=0),
        }
    return extra | {
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
        "server_cpu_per_action_us": 1e6 * cpu / steps if steps and cpu is not None else None,
        # the people's own actions (the load clients'), the bots' left out
        "server_cpu_per_player_action_us": (
            1e6 * cpu / people if people and cpu is not None else None
        ),
        "metrics": "off" if args.no_metrics else "on",
        "client_cpu_seconds": client_cpu,
        "client_cpu_per_player_action_us": 1e6 * client_cpu / people if people else None,
        "postgres_cpu_seconds": pg_cpu,
        "machine_busy_cores": busy / elapsed,
        "latency_p50_ms": 1000 * statistics.median(lat) if lat else None,
        "latency_p99_ms": 1000 * lat[int(0.99 * (len(lat) - 1))] if lat else None,
        # each 30 s of the window by the action's send time (the last one takes the rest)
        "latency_p99_ms_per_30s": [_p99_ms(xs) for xs in by_30s],
        "ramp_seconds": args.ramp,
        "settle_seconds": args.settle,
        "window_started_at": t0_unix,  # (Unix time: set against the database's log)
        "errors": sum(r["errors"] for r in results),
        "error_codes": codes,
        "client_failures": sum(r["failures"] for r in results),
        "load_average": load,
        "cpu_quota_cores": args.cpu_quota,
        "throttled_periods": [n for n, _ in throttled],
        "throttled_seconds": [t for _, t in throttled],
    }


def _p99_ms(xs: list[float]) -> float | None:
    """The p99 of these latencies (seconds), in milliseconds."""
    xs = sorted(xs)
    return 1000 * xs[int(0.99 * (len(xs) - 1))] if xs else None


#: seconds after a server's exit within which its players' sockets are seen lost
CUT_SLACK = 10.0


def _rolling_summary(
    args: argparse.Namespace,
    rolling: list[dict[str, Any]],
    results: list[dict[str, Any]],
    hands: dict[int, str],
    watched: dict[int, str],
    escapes: int,
    books: dict[str, Any] | None,
    odd: list[dict[str, Any]],
) -> dict[str, Any]:
    """What a rolling restart did to the hands and their players. Each table has one
    person, so a hand live at a SIGTERM is one player's: it ``ended in the drain`` (on the
    draining server) or was ``handed over`` (live when the server exited). A socket lost
    while its player's hand was live is a reconnect the player saw; by the hand's fate it is
    a player of a hand that finished in the drain (must be none) or of one live at the
    drain's bound."""
    ended = {h for r in rolling for h in r["ended_in_drain"]}
    handed = {h for r in rolling for h in r["handed_over"]}
    cuts = [tuple(c) for r in results for c in r["cut_hands"]]
    people = args.tables
    finished_cut = bound_cut = 0
    for hand, at in cuts:  # by the restart it fell in (a hand handed over may drain again)
        during = [r for r in rolling if r["sigterm_at"] <= at <= r["exit_at"] + CUT_SLACK]
        finished_cut += any(hand in r["ended_in_drain"] for r in during)
        bound_cut += any(hand in r["handed_over"] for r in during)

    def share(n: int) -> float:
        return 100.0 * n / float(people)

    total = {k: sum(r[k] for r in results) for k in (
        "moves", "resumed", "never_seen_again", "drained_in_hand", "drained_between",
        "settled_in_drain", "escapes_seen", "people_cut", "people_moved", "connect_failures",
    )}  # fmt: skip
    return {
        "drain_seconds": args.drain_seconds,
        "restarts": [
            {k: v for k, v in r.items() if k != "playing"}
            | {
                "live_at_sigterm": len(r["live_at_sigterm"]),
                "ended_in_drain": len(r["ended_in_drain"]),
                "handed_over": len(r["handed_over"]),
                "playing_every_second": [int(c) for _, c in r["playing"]],
            }
            for r in rolling
        ],
        "hands_started": len(hands),
        "hands_by_status": {st: list(hands.values()).count(st) for st in set(hands.values())},
        "hands_live_at_a_sigterm": len(watched),
        "hands_lost": sum(st != "done" for st in watched.values()),
        "escapes_charged": escapes,
        "reconnects_seen": len(cuts),
        "reconnects_finished_hand_players": finished_cut,
        "reconnects_finished_hand_players_pct": share(finished_cut),
        "reconnects_live_at_bound_players": bound_cut,
        "reconnects_live_at_bound_players_pct": share(bound_cut),
        "reconnects_other": len(cuts) - finished_cut - bound_cut,
        "players_hand_ended_in_drain": len(ended),
        "players_hand_live_at_bound": len(handed),
        "moves_between_hands": total["moves"],
        "people_moved_pct": share(total["people_moved"]),
        "people_cut_pct": share(total["people_cut"]),
        "client_counts": total,
        "books": books,
        "odd_cuts": odd,
    }


def _odd_cuts(
    url: str, results: list[dict[str, Any]], rolling: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The reconnects seen that were not of a hand handed over, for finding out why: the
    hand, its status, when the socket was lost and when its last action was written (both
    from the nearest SIGTERM before, seconds), that server's exit, and the writers of its
    actions (more than one: it moved)."""
    odd = [
        (hand, at)
        for r in results
        for hand, at in r["cut_hands"]
        if not any(
            hand in x["handed_over"] and x["sigterm_at"] <= at <= x["exit_at"] + CUT_SLACK
            for x in rolling
        )
    ]
    engine = sa.create_engine(url)
    out = []
    with engine.connect() as c:
        for hand, at in odd:
            row = c.execute(
                sa.text(
                    "SELECT h.status, extract(epoch FROM max(a.created_at)), "
                    "count(DISTINCT a.writer) FROM hands h LEFT JOIN hand_actions a "
                    "ON a.hand_id = h.id WHERE h.id = :h GROUP BY h.status"
                ),
                {"h": hand},
            ).one()
            before = [r for r in rolling if r["sigterm_at"] <= at] or rolling[:1]
            r = before[-1]
            out.append({
                "hand": hand, "status": row[0], "restart": r["process"],
                "cut_s": at - r["sigterm_at"], "exit_s": r["exit_at"] - r["sigterm_at"],
                "last_action_s": float(row[1]) - r["sigterm_at"] if row[1] else None,
                "writers": int(row[2]),
            })  # fmt: skip
    engine.dispose()
    return out


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
    parser.add_argument(
        "--rolling-restart",
        action="store_true",
        help="after --seconds, drain and restart each server in turn (needs --processes 2, "
        "--postgres and --redis-url), then play on until the hands live at each SIGTERM end",
    )
    parser.add_argument(
        "--drain-seconds", type=float, default=30.0, help="PAIJU_DRAIN_SECONDS, rolling restart"
    )
    parser.add_argument(
        "--no-metrics", action="store_true", help="servers with the metrics' updates made no-ops"
    )
    parser.add_argument(
        "--scrape-every", type=float, default=None, help="scrape each server's /metrics this often"
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="spread the people's arrivals over this many seconds (default: all at once)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=0.0,
        help="wait this many seconds after every table is live before the window (default 0)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--latencies", default=None, help="write every (sent, latency) here")
    parser.add_argument(
        "--cpu-quota", type=float, default=None, help="cap each server process at this many cores"
    )
    return parser


def main() -> None:
    if sys.argv[1:2] == ["--serve-without-metrics"]:  # a server of --no-metrics
        raise SystemExit(_serve_without_metrics(sys.argv[2:]))
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
        f"server CPU {fmt(r['server_cpu_per_action_us'])} µs per table action, "
        f"{fmt(r['server_cpu_per_player_action_us'])} µs per person's action"
        f"{' (metrics off)' if args.no_metrics else ''}; "
        f"load clients {fmt(r['client_cpu_per_player_action_us'])} µs per player action, "
        f"PostgreSQL {r['postgres_cpu_seconds'] / r['seconds']:.2f} cores, machine "
        f"{r['machine_busy_cores']:.2f} of {os.cpu_count()} cores busy; "
        f"latency p50 {fmt(r['latency_p50_ms'])} ms, p99 {fmt(r['latency_p99_ms'])} ms "
        f"(per 30 s: {', '.join(fmt(x) for x in r['latency_p99_ms_per_30s'])}); "
        f"{r['errors']} errors {r['error_codes']}, {r['client_failures']} client failures; "
        f"load {r['load_average'][0]:.1f}"
        + (
            f"; capped at {args.cpu_quota:g} cores each, throttled periods "
            f"{r['throttled_periods']} ({', '.join(f'{t:.1f}' for t in r['throttled_seconds'])} s)"
            if args.cpu_quota
            else ""
        )
        + (
            f"; /metrics scraped {r['scrapes']} times: p50 {fmt(r['scrape_p50_ms'])} ms, "
            f"max {fmt(r['scrape_max_ms'])} ms, {r['scrape_bytes']} bytes"
            if args.scrape_every
            else ""
        )
    )
    if args.rolling_restart:
        for x in r["restarts"]:
            print(
                f"  {x['process']}: {x['tables']} tables, {x['live_at_sigterm']} hands live at "
                f"SIGTERM: {x['ended_in_drain']} ended in the drain, {x['handed_over']} handed "
                f"over; exit {x['exit_code']} {x['sigterm_to_exit_s']:.1f} s after SIGTERM "
                f"(bound {x['bound_s']:g} s; no hand playing after "
                f"{fmt(x['no_hand_playing_after_s'])} s); ready again "
                f"{x['restart_to_ready_s']:.1f} s after"
            )
        print(
            f"  hands: {r['hands_started']} started {r['hands_by_status']}, "
            f"{r['hands_live_at_a_sigterm']} live at a SIGTERM, {r['hands_lost']} lost; "
            f"{r['escapes_charged']} escapes charged; reconnects seen "
            f"{r['reconnects_seen']}: {r['reconnects_finished_hand_players']} of players "
            f"whose hand ended in the drain ({r['reconnects_finished_hand_players_pct']:.1f}% "
            f"of players), {r['reconnects_live_at_bound_players']} of players whose hand was "
            f"live at the bound ({r['reconnects_live_at_bound_players_pct']:.1f}%), "
            f"{r['reconnects_other']} other; {r['moves_between_hands']} sockets moved between "
            f"hands ({r['people_moved_pct']:.0f}% of players); books {r['books']}"
        )
        for x in r["odd_cuts"]:
            print(f"  a reconnect not of a hand handed over: {x}")


if __name__ == "__main__":
    main()
