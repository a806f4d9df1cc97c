"""Run every peer benchmark and write today's figures into ``benchmarks/RESULTS.md``
(``make bench``).

Each benchmark writes its own section (``<!-- win_check:start -->``, ``scoring``,
``simulate``, ``env_steps``), with its command, date and load; this run's header and the
server's load runs go to ``<!-- make_bench:start -->``. The rest of the file (the bots, the
ladder, the withdrawn figures) stays.

    python benchmarks/run_all.py [--quick] [--no-load]
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import env_steps
import load
import scoring
import simulate
import win_check

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _load(quick: bool) -> list[dict[str, Any]]:
    """The server at the fast and the human pace on SQLite, then, if PostgreSQL and Redis
    run, on PostgreSQL with one process and with two (each run makes and drops its own
    database)."""
    seconds = "10" if quick else "30"
    fast, human = ("10", "20") if quick else ("200", "500")
    runs = [["--tables", fast, "--pace", "fast"], ["--tables", human, "--pace", "human"]]
    pg = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    try:
        import sqlalchemy as sa

        admin = sa.create_engine(pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as c:
            c.execute(sa.text("SELECT 1"))
        admin.dispose()
    except Exception as err:  # no PostgreSQL here: SQLite figures only
        print(f"PostgreSQL load runs skipped: {err}", file=sys.stderr)
    else:
        runs += [
            ["--tables", fast, "--pace", "fast", "--postgres", pg],
            ["--tables", human, "--pace", "human", "--postgres", pg],
            ["--tables", fast, "--pace", "fast", "--postgres", pg, "--processes", "2",
             "--redis-url", "redis://127.0.0.1:6379/0"],
        ]  # fmt: skip
    return [load.run(load.parser().parse_args([*a, "--seconds", seconds])) for a in runs]


def render(r: dict[str, Any]) -> str:
    """The ``make_bench`` section: when, where, and the server's load runs."""
    lines = [
        f"## The last `make bench` ({r['date']}, {r['machine']})",
        "",
        f"`{r['command']}`. Every ratio against a peer is measured in the same run, "
        "interleaved, per round (see `benchmarks/README.md`); each benchmark's figures are in "
        "its own section below, with its load.",
    ]
    if r.get("load"):
        lines += [
            "",
            "### The table server under load (`benchmarks/load.py`)",
            "",
            "`paiju serve` on loopback (one process, or two sharing PostgreSQL and Redis); each",
            "load client is one person at a table of their own with three `easy` bots, playing",
            "random legal actions as soon as a view comes (*fast*) or 1–3 s after it (*human*;",
            "bots 1 s). Server CPU: the server processes' user+system time over the window, per",
            "table action (bots' included). Latency: from sending an action to the view that",
            "shows it taken. The load clients, the database and Redis share the same cores.",
            "",
            "| tables | pace | database | processes | held | table actions/s "
            "| CPU per action | p50 | p99 | errors |",
            "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|",
        ]

        def ms(v: float | None) -> str:
            return "—" if v is None else f"{v:,.0f} ms"

        for x in r["load"]:
            cpu = x["server_cpu_per_action_us"]
            lines.append(
                f"| {x['tables_requested']} | {x['pace']} | {x['database']} | "
                f"{x['processes']} | {x['tables_held']} | "
                f"{x['table_actions_per_second']:,.0f} | "
                f"{'—' if cpu is None else f'{cpu:,.0f} µs'} | {ms(x['latency_p50_ms'])} | "
                f"{ms(x['latency_p99_ms'])} | {x['errors']} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test)")
    parser.add_argument("--no-load", action="store_true", help="skip the server load runs")
    args = parser.parse_args()
    q = args.quick
    start_load = os.getloadavg()[0]
    r: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "machine": _machine(),
        "command": "python benchmarks/run_all.py " + " ".join(sys.argv[1:]),
        "win_check": win_check.measure(2_000 if q else 20_000, 1 if q else 3, 1),
        "scoring": scoring.measure(
            100 if q else 400, 1, repeats=2 if q else 5, warm=200 if q else 2000
        ),
        "simulate": simulate.measure(
            seconds=0.3 if q else 1.0, seed=1, repeats=2 if q else 10, strong_hands=2 if q else 50
        ),
        "env_steps": env_steps.measure(0.3 if q else 1.0, 1, 2 if q else 5),
        "load": [] if args.no_load else _load(q),
    }
    from interleave import write_section

    if not RESULTS.exists():
        RESULTS.write_text("# Performance record\n", encoding="utf-8")
    write_section("make_bench", render(r).splitlines())
    stamp = f"Measured by `make bench` on {r['date']} (load average {start_load:.2f} at its start)."
    for name, module in (
        ("win_check", win_check),
        ("scoring", scoring),
        ("simulate", simulate),
        ("env_steps", env_steps),
    ):
        write_section(name, [*module.markdown(r[name]), "", stamp])
    print(RESULTS.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
