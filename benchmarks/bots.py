"""The bots against each other, and how long the search bots think (issue 18).

    python benchmarks/bots.py arena mazhan expert,strong,strong,strong --hands 2000 --seed 2027
    python benchmarks/bots.py timing mazhan --hands 24 --budget-ms 200
    python benchmarks/bots.py write

``arena`` plays :func:`paiju.arena.arena` (duplicate deals, every bot in every seat) and
records its paired differences, the seed, the command, the wall time and the load average in
``benchmarks/bots.json`` (a ``version`` may be added there by hand, to tell apart runs of
different versions of a bot); ``timing`` plays hands with the game's search bot at the table's
time budget (``expert@200ms``) in one seat and ``strong``/``heuristic`` in the others, and
records each decision's wall time (p50, p99, max); ``write`` renders everything recorded
into the section "Bots" of ``benchmarks/RESULTS.md`` (and nothing else of that file).

One process, one core; run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from paiju.arena import arena, difference_lines
from paiju.bots.base import make_bot
from paiju.bots.driver import run_hand
from paiju.games import game

HERE = Path(__file__).resolve().parent
STORE = HERE / "bots.json"
RESULTS = HERE / "RESULTS.md"
BEGIN = "<!-- bots: written by benchmarks/bots.py write -->"
END = "<!-- bots: end -->"


def _load() -> dict[str, Any]:
    if STORE.exists():
        data: dict[str, Any] = json.loads(STORE.read_text())
        return data
    return {"arenas": [], "timings": []}


def _save(data: dict[str, Any]) -> None:
    STORE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def _loadavg() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def run_arena(name: str, bots: list[str], hands: int, seed: int) -> dict[str, Any]:
    """One arena, as recorded.

    >>> r = run_arena("madiao", ["heuristic", "random", "random", "random"], 4, 1)
    >>> r["lines"][0].startswith("heuristic − random")
    True
    """
    load_before = _loadavg()
    start = time.perf_counter()
    report = arena(name, hands, seed, bots)
    elapsed = time.perf_counter() - start
    return {
        "game": name,
        "bots": bots,
        "hands": report["hands"],
        "seed": seed,
        "command": f"paiju arena {name} --games {hands} --seed {seed} --bots {','.join(bots)}",
        "differences": report["differences"],
        "means": {b: r["mean_net"] for b, r in report["bots"].items()},
        "win_rates": {b: r["win_rate"] for b, r in report["bots"].items()},
        "lines": difference_lines(report),
        "seconds": elapsed,
        "load": [load_before, _loadavg()],
    }


class _Timed:
    """A bot whose every decision is timed (the same decisions, only measured)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.needs_view = True
        self.times: list[float] = []

    def act(self, view: Any, legal: Any, rng: random.Random) -> Any:
        start = time.perf_counter()
        action = self.bot.act(view, legal, rng)
        self.times.append(time.perf_counter() - start)
        return action


def run_timing(name: str, hands: int, budget_ms: int, seed: int) -> dict[str, Any]:
    """Decision times of ``expert@BUDGETms`` against the game's ``normal`` bot.

    >>> r = run_timing("madiao", 1, 50, 3)
    >>> r["decisions"] > 0 and r["p50_ms"] <= r["max_ms"]
    True
    """
    g = game(name)
    peer = "strong" if name == "mazhan" else "heuristic"
    timed = _Timed(make_bot(name, f"expert@{budget_ms}ms"))
    load_before = _loadavg()
    rng = random.Random(seed)
    for k in range(hands):
        hand_seed = rng.getrandbits(63)
        seated: list[Any] = [make_bot(name, peer) for _ in range(4)]
        seated[k % 4] = timed
        setup = {} if name == "mazhan" else {"banker": "ESWN"[k % 4]}
        run_hand(g, g.new_hand(g.default_ruleset(), hand_seed, setup), seated, hand_seed)
    t = sorted(timed.times)
    n = len(t)
    return {
        "game": name,
        "hands": hands,
        "seed": seed,
        "budget_ms": budget_ms,
        "decisions": n,
        "p50_ms": 1000 * t[n // 2],
        "p99_ms": 1000 * t[min(n - 1, int(n * 0.99))],
        "max_ms": 1000 * t[-1],
        "load": [load_before, _loadavg()],
        "command": f"python benchmarks/bots.py timing {name} --hands {hands} "
        f"--budget-ms {budget_ms} --seed {seed}",
    }


def render(data: dict[str, Any]) -> str:
    """The "Bots" section of RESULTS.md.

    >>> "## Bots" in render({"arenas": [], "timings": []})
    True
    """
    lines = [
        BEGIN,
        "## Bots (`benchmarks/bots.py`)",
        "",
        "Arena: duplicate deals (each deal played four times, the bots rotated through the "
        "seats); a paired difference is, per deal, the mean net of bot A's seats minus bot "
        "B's, with its 95% interval over deals (`paiju/stats.py`). Search bots at their "
        "arena node budget (reproducible per seed). Load = 1-minute load average before/after "
        "on the shared 2-core machine.",
        "",
        "| game | bots | version | hands | seed | paired difference (95% interval) | wall time "
        "| load |",
        "|---|---|---|---:|---:|---|---:|---|",
    ]
    for a in data["arenas"]:
        diff = "<br>".join(a["lines"])
        lines.append(
            f"| {a['game']} | {','.join(a['bots'])} | {a.get('version', '')} | {a['hands']} | "
            f"{a['seed']} | {diff} | {a['seconds'] / 60:.1f} min | "
            f"{a['load'][0]:.1f}/{a['load'][1]:.1f} |"
        )
    lines += [
        "",
        "Commands: " + "; ".join(f"`{a['command']}`" for a in data["arenas"]),
        "",
        "Decision time of `expert@BUDGETms` at the table (one seat; the others `strong` or "
        "`heuristic`), every decision of every hand:",
        "",
        "| game | version | budget | hands | decisions | p50 | p99 | max | load |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for t in data["timings"]:
        lines.append(
            f"| {t['game']} | {t.get('version', '')} | {t['budget_ms']} ms | {t['hands']} | "
            f"{t['decisions']} | "
            f"{t['p50_ms']:.1f} ms | {t['p99_ms']:.1f} ms | {t['max_ms']:.1f} ms | "
            f"{t['load'][0]:.1f}/{t['load'][1]:.1f} |"
        )
    lines += ["", "Commands: " + "; ".join(f"`{t['command']}`" for t in data["timings"]), END]
    return "\n".join(lines) + "\n"


def write(data: dict[str, Any]) -> None:
    """Replace (or append) the "Bots" section of RESULTS.md, leaving the rest as it is."""
    text = RESULTS.read_text() if RESULTS.exists() else ""
    section = render(data)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
        text = head + section.rstrip("\n") + tail
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("arena")
    a.add_argument("game", choices=["mazhan", "madiao"])
    a.add_argument("bots")
    a.add_argument("--hands", type=int, default=2000)
    a.add_argument("--seed", type=int, required=True)
    t = sub.add_parser("timing")
    t.add_argument("game", choices=["mazhan", "madiao"])
    t.add_argument("--hands", type=int, default=24)
    t.add_argument("--budget-ms", type=int, default=200)
    t.add_argument("--seed", type=int, default=1)
    sub.add_parser("write")
    args = parser.parse_args(argv)
    # the store is read after the run, so that runs in parallel processes all keep theirs
    if args.command == "arena":
        r = run_arena(args.game, args.bots.split(","), args.hands, args.seed)
        data = _load()
        data["arenas"].append(r)
        _save(data)
        print("\n".join(r["lines"]), f"({r['seconds'] / 60:.1f} min, load {r['load']})")
    elif args.command == "timing":
        r = run_timing(args.game, args.hands, args.budget_ms, args.seed)
        data = _load()
        data["timings"].append(r)
        _save(data)
        print(json.dumps(r, indent=1))
    else:
        write(_load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
