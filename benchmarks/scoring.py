"""Scored hands per second: paiju's §7 scorer on finished Mazhan hands (every seat scored,
every decomposition and ★ reading tried) and, in the same run, the `mahjong` library's
``HandCalculator.estimate_hand_value`` on complete riichi hands declared riichi, so that each
has a yaku and is scored in full (the winner only; the same job under other rules).

    python benchmarks/scoring.py [--hands 2000] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from paiju.bots.driver import play_hand
from paiju.bots.simple import GreedyBot
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


def measure(hands: int, seed: int) -> dict[str, Any]:
    """Every figure of this benchmark (used by ``make bench``)."""
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    ours = finished_hands(hands, seed)
    start = time.perf_counter()
    for h in ours:
        score(h)
    paiju_rate = hands / (time.perf_counter() - start)
    theirs = riichi_hands(hands, seed)
    config = HandConfig(is_riichi=True)  # every hand has a yaku, so every hand is scored
    start = time.perf_counter()
    for tiles, win in theirs:
        HandCalculator.estimate_hand_value(tiles, win, config=config)
    mahjong_rate = hands / (time.perf_counter() - start)
    return {
        "hands": hands,
        "paiju_per_second": paiju_rate,
        "mahjong_per_second": mahjong_rate,
        "ratio": paiju_rate / mahjong_rate,
    }


def report(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"scored hands per second ({r['hands']} hands)",
            f"  paiju mazhan score (4 seats)      {r['paiju_per_second']:>9.0f}",
            f"  mahjong estimate_hand_value       {r['mahjong_per_second']:>9.0f}",
            f"  ratio paiju/mahjong: {r['ratio']:.1f}x",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = measure(args.hands, args.seed)
    print(json.dumps(r, indent=2) if args.json else report(r))


if __name__ == "__main__":
    main()
