"""Scored hands per second: paiju's §7 scorer against `mahjong`'s ``estimate_hand_value``.

The rules differ, so the inputs cannot be the same hands; each library scores what its rules
score, and this says what is compared:

- ``paiju``: :func:`paiju.mazhan.scoring.score` on finished Mazhan hands with a winner, from
  seeded ``greedy`` play: **every seat** scored (the winner over every decomposition, ★
  reading and place of the winning tile; the others' melds, triplets and bonus tiles), and
  the payments settled;
- ``paiju, winner only``: the winner's score alone (what ``mahjong`` computes);
- ``mahjong``: ``HandCalculator.estimate_hand_value`` on complete closed 14-tile riichi
  hands, declared riichi so that each has a yaku and is scored in full (han, fu, cost).

Timing: :mod:`interleave` (alternating slices, median and minimum of the rounds).

    python benchmarks/scoring.py [--hands 2000] [--seconds 1] [--repeats 3] [--write]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interleave import fmt_rate, machine, race, ratio, write_section

from paiju.bots.driver import play_hand
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.record import FinishedHand
from paiju.mazhan.rules import Ruleset
from paiju.mazhan.scoring import score


def finished_hands(n: int, seed: int) -> list[FinishedHand]:
    """Finished hands with a winner, from seeded greedy play."""
    out: list[FinishedHand] = []
    k = seed
    while len(out) < n:
        state, _ = play_hand(Ruleset(), [GreedyBot()] * 4, k)
        k += 1
        if state.result is not None and state.result.winner is not None:
            out.append(state.result.finished)
    return out


def riichi_hands(n: int, seed: int) -> list[tuple[list[int], int]]:
    """Complete closed riichi hands (136-tile indices) with a winning tile."""
    rng = random.Random(seed)
    out: list[tuple[list[int], int]] = []
    while len(out) < n:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                for i in range(3):
                    counts[s + i] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        tiles = [f * 4 + c for f in range(34) for c in range(counts[f])]
        out.append((tiles, rng.choice(tiles)))
    return out


def _cycle(items: Sequence[Any], f: Callable[[Any], Any]) -> Callable[[float], float]:
    def run(seconds: float) -> float:
        done = 0
        end = time.perf_counter() + seconds
        while True:
            for x in items:
                f(x)
            done += len(items)
            if time.perf_counter() >= end:
                return done

    return run


def measure(
    hands: int = 2000, seed: int = 1, seconds: float = 1.0, repeats: int = 3
) -> dict[str, Any]:
    """Every figure of this benchmark (``paiju_per_second``, ``mahjong_per_second`` and
    ``ratio``, medians, are the keys ``run_all.py`` reads)."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    from paiju.mazhan.scoring import _score_winner

    ours = finished_hands(hands, seed)
    theirs = riichi_hands(hands, seed)
    config = HandConfig(is_riichi=True)  # every hand has a yaku, so every hand is scored
    estimate = HandCalculator.estimate_hand_value
    assert all(estimate(t, w, config=config).error is None for t, w in theirs[:200])
    r = race(
        {
            "paiju": _cycle(ours, score),
            "paiju_winner": _cycle(ours, lambda h: _score_winner(h, h.winner, h.players[h.winner])),
            "mahjong": _cycle(theirs, lambda tw: estimate(tw[0], tw[1], config=config)),
        },
        seconds,
        repeats,
    )
    r["hands"] = hands
    r["machine"] = machine()
    r["ratios"] = {
        key: {"median": ratio(r, key, "mahjong"), "min": ratio(r, key, "mahjong", "min")}
        for key in ("paiju", "paiju_winner")
    }
    r["paiju_per_second"] = r["rates"]["paiju"]["median"]
    r["mahjong_per_second"] = r["rates"]["mahjong"]["median"]
    r["ratio"] = r["ratios"]["paiju"]["median"]
    return r


def markdown(r: dict[str, Any]) -> list[str]:
    """This benchmark's section of ``benchmarks/RESULTS.md``."""
    lo, hi = r["load"]
    rates = r["rates"]
    lines = [
        "## Scored hands per second, against `mahjong` (`benchmarks/scoring.py`)",
        "",
        f"{r['machine']}; {r['hands']:,} hands each; slices of {r['seconds']:g} s "
        f"interleaved, {r['repeats']} rounds (load average {lo:.2f} before, {hi:.2f} after). "
        "paiju: finished Mazhan hands with a winner from seeded `greedy` play; mahjong: "
        "complete closed riichi hands declared riichi (each scored in full). Different "
        "rules, so not the same hands: each library scores what its rules score.",
        "",
        "| scorer | hands/s (median) | hands/s (min) | ratio to mahjong, median (min) |",
        "|---|---:|---:|---:|",
    ]
    for key, label in (
        ("paiju", "paiju `score`: every seat, every reading, payments"),
        ("paiju_winner", "paiju, the winner's score only"),
        ("mahjong", "mahjong `HandCalculator.estimate_hand_value` (the winner)"),
    ):
        x = rates[key]
        q = r["ratios"].get(key)
        cell = "" if q is None else f"**{q['median']:.2f}×** ({q['min']:.2f}×)"
        lines.append(f"| {label} | {fmt_rate(x['median'])} | {fmt_rate(x['min'])} | {cell} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    r = measure(args.hands, args.seed, args.seconds, args.repeats)
    lines = markdown(r)
    if args.write:
        write_section("scoring", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
