"""Run every benchmark and write today's figures into ``benchmarks/RESULTS.md`` (``make bench``).

Only this run's sections are replaced (``<!-- make_bench:start -->`` and each benchmark's
own); the rest of the file (the issues' before and after, the bots, the server) stays.

python benchmarks/run_all.py [--quick]
"""

from __future__ import annotations

import argparse
import datetime
import json
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
    m = 1e6
    w = r["win_check"]
    s = r["scoring"]
    sim = r["simulate"]
    env = r["env_steps"]
    lines = [
        f"## The last `make bench` ({r['date']}, {r['machine']})",
        "",
        "Every figure is measured in the same run as the peer library it is compared with; one",
        "core unless said otherwise. The sections of this run are one level down.",
        "",
        "## Complete-hand checks per call (`benchmarks/win_check.py`)",
        "",
        "The list columns: both libraries on the same 14-tile hands (no ★) as 34-count lists,",
        "paiju `is_complete_counts`, mahjong `Agari.is_agari`; the keys column: paiju alone on",
        "17-tile Mazhan hands with 0–3 ★ from its suit keys (the form the engine keeps). Medians",
        "of interleaved slices; every form and kind in the `win_check` section below.",
        "",
        "| hands | paiju, suit keys | paiju, 34-count list | mahjong | ratio (keys) "
        "| ratio (list) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind in win_check.KINDS:
        k = w["per_call"][kind]
        lines.append(
            f"| {kind} | {k['paiju_keys'] / m:.2f} M/s | {k['paiju_counts'] / m:.2f} M/s | "
            f"{k['mahjong'] / m:.2f} M/s | {k['ratio_keys']:.2f}× | {k['ratio_counts']:.2f}× |"
        )
    b = w["batch"]
    lines += [
        "",
        f"Batch check (NumPy, `paiju.mazhan.fast`), {b['hands']:,} random hands: "
        f"**{b['from_keys'] / m:.1f} M hands/s** from suit keys, "
        f"{b['from_counts'] / m:.1f} M hands/s from 34-count rows.",
        "",
        "## Scored hands per second (`benchmarks/scoring.py`)",
        "",
        "| scorer | hands/s |",
        "|---|---:|",
        f"| paiju `score` (every seat, every decomposition and ★ reading) | "
        f"{s['paiju_per_second']:,.0f} |",
        f"| mahjong `HandCalculator.estimate_hand_value` (the winner, riichi rules) | "
        f"{s['mahjong_per_second']:,.0f} |",
        f"| ratio | {s['ratio']:.2f}× |",
        "",
        "## Hands simulated per second (`benchmarks/simulate.py`)",
        "",
        "| engine and bots | hands/s | actions/s |",
        "|---|---:|---:|",
        f"| paiju Mazhan, random bots | {sim['paiju_random']['hands_per_second']:,.0f} | "
        f"{sim['paiju_random']['actions_per_second']:,.0f} |",
        f"| paiju Mazhan, greedy bots | {sim['paiju_greedy']['hands_per_second']:,.0f} | "
        f"{sim['paiju_greedy']['actions_per_second']:,.0f} |",
    ]
    rl = sim["rlcard_random"]
    if rl is not None:
        lines.append(f"| RLCard mahjong, random agents | {rl['hands_per_second']:,.0f} | |")
        lines.append(f"| ratio paiju/RLCard (random) | {sim['ratio_random_vs_rlcard']:.1f}× | |")
    lines += ["", *env_steps.markdown(env), "", *env_steps.ppo_markdown()]
    if r.get("load"):
        lines += [
            "",
            "## The table server under load (`benchmarks/load.py`)",
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
    lines += ["", "Raw figures:", "", "```json", json.dumps(r, indent=1), "```", ""]
    # this run's sections sit one level under its own heading
    return "\n".join(
        "#" + line if i and line.startswith("## ") else line for i, line in enumerate(lines)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test)")
    parser.add_argument("--no-load", action="store_true", help="skip the server load runs")
    args = parser.parse_args()
    q = args.quick
    r: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "machine": _machine(),
        "win_check": win_check.measure(2_000 if q else 20_000, 1 if q else 3, 1),
        "scoring": scoring.measure(200 if q else 2000, 1),
        "simulate": simulate.measure(
            seconds=0.5 if q else 2.0, seed=1, repeats=1 if q else 3, strong_hands=2 if q else 20
        ),
        "env_steps": env_steps.measure(0.5 if q else 2.0, 1),
        "load": [] if args.no_load else _load(q),
    }
    from interleave import write_section

    # the file keeps what earlier runs and the issues' before/after records wrote: this run
    # replaces only its own sections
    if not RESULTS.exists():
        RESULTS.write_text("# Performance record\n", encoding="utf-8")
    write_section("make_bench", render(r).splitlines())
    # each benchmark's own section, with its peers interleaved (see benchmarks/interleave.py)

    for name, module in (
        ("simulate", simulate),
        ("win_check", win_check),
        ("scoring", scoring),
    ):
        write_section(name, module.markdown(r[name]))
    print(RESULTS.read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
