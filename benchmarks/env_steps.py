"""Environment steps per second: paiju's PettingZoo AEC environments with uniformly random
legal actions, and, in the same run, riichienv (a Rust core) with its random agents.

A paiju step is one agent's action; a riichienv step is one call of ``step`` with the actions
of every player that must act (usually one).

    python benchmarks/env_steps.py [--seconds 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from paiju.env import madiao_v0, mazhan_v0


def paiju_rate(module: Any, seconds: float, seed: int) -> dict[str, float]:
    env = module.raw_env()
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if all(env.terminations.values()):
            env.reset()
            hands += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = mask.nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_second": steps / elapsed, "hands_per_second": hands / elapsed}


def riichienv_rate(seconds: float, seed: int) -> dict[str, float] | None:
    try:
        import riichienv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    env = riichienv.RiichiEnv(seed=seed)
    agents = [RandomAgent(seed=seed + i) for i in range(4)]
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
            steps += 1
        hands += 1
    elapsed = time.perf_counter() - start
    return {"steps_per_second": steps / elapsed, "hands_per_second": hands / elapsed}


def measure(seconds: float, seed: int) -> dict[str, Any]:
    """Every figure of this benchmark (used by ``make bench``)."""
    return {
        "paiju_mazhan_v0": paiju_rate(mazhan_v0, seconds, seed),
        "paiju_madiao_v0": paiju_rate(madiao_v0, seconds, seed),
        "riichienv": riichienv_rate(seconds, seed),
    }


def report(r: dict[str, Any]) -> str:
    lines = ["environment steps per second (random legal actions, one core)"]
    for key in ("paiju_mazhan_v0", "paiju_madiao_v0", "riichienv"):
        x = r[key]
        if x is None:
            lines.append(f"  {key:<18} not installed")
        else:
            lines.append(
                f"  {key:<18}{x['steps_per_second']:>10,.0f} steps/s"
                f"{x['hands_per_second']:>8,.0f} hands/s"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = measure(args.seconds, args.seed)
    print(json.dumps(r, indent=2) if args.json else report(r))


if __name__ == "__main__":
    main()
