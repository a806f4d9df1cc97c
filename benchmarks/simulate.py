"""Hands simulated per second: paiju's Mazhan engine with random and greedy bots, and, in
the same run, RLCard's mahjong environment with random agents (when RLCard is installed).

    python benchmarks/simulate.py [--hands 2000] [--rlcard-seconds 10] [--json]

Everything runs in this one process, on one core.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from paiju.bots.driver import play_hand
from paiju.bots.simple import GreedyBot, RandomBot
from paiju.mazhan.rules import Ruleset


def paiju_rate(bot_name: str, hands: int, seed: int) -> dict[str, float]:
    bot = RandomBot() if bot_name == "random" else GreedyBot()
    ruleset = Ruleset()
    actions = 0
    start = time.perf_counter()
    for k in range(hands):
        _state, acts = play_hand(ruleset, [bot] * 4, seed + k)
        actions += len(acts)
    elapsed = time.perf_counter() - start
    return {
        "hands": hands,
        "hands_per_second": hands / elapsed,
        "actions_per_second": actions / elapsed,
    }


def rlcard_rate(seconds: float, seed: int) -> dict[str, float] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.run(is_training=False)
        hands += 1
    elapsed = time.perf_counter() - start
    return {"hands": hands, "hands_per_second": hands / elapsed}


def measure(hands: int, rlcard_seconds: float, seed: int) -> dict[str, Any]:
    """Every figure of this benchmark (used by ``make bench``)."""
    random_bots = paiju_rate("random", hands, seed)
    greedy_bots = paiju_rate("greedy", max(1, hands // 4), seed)
    rl = rlcard_rate(rlcard_seconds, seed)
    out: dict[str, Any] = {
        "paiju_random": random_bots,
        "paiju_greedy": greedy_bots,
        "rlcard_random": rl,
    }
    if rl is not None:
        out["ratio_random_vs_rlcard"] = random_bots["hands_per_second"] / rl["hands_per_second"]
    return out


def report(r: dict[str, Any]) -> str:
    lines = ["hands simulated per second (one core)"]
    for key, label in (
        ("paiju_random", "paiju, random bots"),
        ("paiju_greedy", "paiju, greedy bots"),
    ):
        x = r[key]
        lines.append(
            f"  {label:<28}{x['hands_per_second']:>9.0f} hands/s"
            f"  ({x['actions_per_second']:,.0f} actions/s, {x['hands']} hands)"
        )
    rl = r["rlcard_random"]
    if rl is None:
        lines.append("  RLCard mahjong, random agents: not installed")
    else:
        lines.append(
            f"  {'RLCard mahjong, random agents':<28}{rl['hands_per_second']:>9.0f}"
            f" hands/s  ({rl['hands']} hands)"
        )
        lines.append(f"  ratio paiju/RLCard (random): {r['ratio_random_vs_rlcard']:.1f}x")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rlcard-seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = measure(args.hands, args.rlcard_seconds, args.seed)
    print(json.dumps(r, indent=2) if args.json else report(r))


if __name__ == "__main__":
    main()
