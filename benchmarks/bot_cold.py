"""The strong Mazhan bot from the first hand of a fresh process: per-decision CPU time.

Each round is a new Python process (nothing imported, nothing cached): it times the import
of the game and its bots, then plays ``--hands`` hands with ``strong`` in all four seats
(deals and bots' chances from ``--seed`` + the round, as :func:`paiju.bots.driver.run_hand`
plays them) and times every decision with ``time.process_time`` (CPU, so other processes'
load counts less than on a wall clock). A decision is a call of the bot's ``act`` with more
than one legal action (a forced pass or draw is not one). Printed: the import's CPU time,
p50/p99/max per decision over every round (p99 only from 1,000 decisions or more), the
first hand of each process apart, and, after the last hand, the process's resident set,
the shanten tables' entries and, in one more process with ``tracemalloc`` on (not timed),
the memory Python holds after the hands, and its peak.

    python benchmarks/bot_cold.py [--rounds 3] [--hands 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's paiju, not an installed one

#: the fewest decisions a p99 is given from
MIN_P99 = 1000


def play(hands: int, seed: int, trace: bool = False) -> dict[str, Any]:
    """One fresh process's run (call it in a new process): the import's CPU seconds, each
    decision's CPU seconds as ``(hand, seconds)``, the resident set after the hands and the
    shanten tables' entries (with ``trace``: the bytes Python holds, now and at the peak).

    >>> r = play(1, 5)
    >>> r["import_s"] >= 0, all(h == 0 for h, _ in r["decisions"]), r["decisions"] != []
    (True, True, True)
    """
    if trace:
        import tracemalloc

        tracemalloc.start()
    start = time.process_time()
    import random

    import paiju.mazhan.bots  # noqa: F401  (registers the bots)
    from paiju.bots.base import make_bot
    from paiju.bots.driver import bot_rng
    from paiju.games import game

    imported = time.process_time() - start
    g = game("mazhan")
    bots = [make_bot("mazhan", "strong") for _ in range(4)]
    ruleset = g.default_ruleset()
    decisions: list[tuple[int, float]] = []
    for h in range(hands):
        hand_seed = seed * 1000 + h
        state = g.new_hand(ruleset, hand_seed, g.first_deal(random.Random(hand_seed)).setup)
        rngs = [bot_rng(hand_seed, s) for s in g.seats]
        while not g.is_over(state):
            seat = g.acting(state)[0]
            i = seat.number - 1
            legal = g.legal_actions(state, seat)
            view = g.observe(state, seat)
            t0 = time.process_time()
            action = bots[i].act(view, legal, rngs[i])
            spent = time.process_time() - t0
            if len(legal) > 1:
                decisions.append((h, spent))
            state, _events = g.apply(state, action)
    out: dict[str, Any] = {"import_s": imported, "decisions": decisions}
    with open("/proc/self/statm") as f:
        out["rss_mb"] = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    from paiju.mazhan import shanten

    out["entries"] = {
        "best": sum(len(t) for t in shanten._BEST.values()),
        "combined": len(shanten._COMBINED) if hasattr(shanten, "_COMBINED") else None,
        "suits": len(getattr(shanten, "_NUMBER_SUITS", ()))
        + len(getattr(shanten, "_HONOUR_SUITS", ())),
    }
    if trace:
        import gc

        gc.collect()
        now, peak = tracemalloc.get_traced_memory()
        out["traced_mb"] = now / 2**20
        out["traced_peak_mb"] = peak / 2**20
    return out


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    p99 = f"p99 {_pct(ms, 0.99):.2f} ms" if len(ms) >= MIN_P99 else f"p99 — (< {MIN_P99:,})"
    return f"| {name} | {len(ms):,} | {statistics.median(ms):.2f} ms | {p99} | {max(ms):.2f} ms |"


def _child(hands: int, seed: int, trace: bool) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--one", "--hands", str(hands), "--seed", str(seed)]
    cmd += ["--trace"] if trace else []
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes (≥ 1)")
    parser.add_argument("--hands", type=int, default=10, help="hands per process")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(play(args.hands, args.seed, args.trace)))
        return
    if args.rounds < 1 or args.hands < 1:
        parser.error("--rounds and --hands must be 1 or more")
    load = os.getloadavg()[0]
    runs = [_child(args.hands, args.seed + r, False) for r in range(args.rounds)]
    traced = _child(args.hands, args.seed, True)
    every = [s for run in runs for _h, s in run["decisions"]]
    first = [s for run in runs for h, s in run["decisions"] if h == 0]
    later = [s for run in runs for h, s in run["decisions"] if h > 0]
    first_hand = [sum(s for h, s in run["decisions"] if h == 0) for run in runs]
    print(
        f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC: {args.rounds} fresh processes "
        f"× {args.hands} hands, strong ×4, seeds {args.seed}…{args.seed + args.rounds - 1}"
    )
    print("| decisions | n | p50 | p99 | max |")
    print("|---|---|---|---|---|")
    print(_line("every hand", every))
    print(_line("first hand", first))
    if later:
        print(_line("hands 2 on", later))
    imports = [run["import_s"] * 1000 for run in runs]
    print(
        f"first hand's decisions in all: {', '.join(f'{t * 1000:.0f}' for t in first_hand)} ms; "
        f"import (CPU): {', '.join(f'{t:.0f}' for t in imports)} ms"
    )
    rss = ", ".join(f"{r['rss_mb']:.0f}" for r in runs)
    print(
        f"after {args.hands} hands: RSS {rss} MB; "
        f"Python-held {traced['traced_mb']:.1f} MB (peak {traced['traced_peak_mb']:.1f} MB); "
        f"shanten entries {runs[-1]['entries']}"
    )
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
