"""The PettingZoo loop against the raw engine loop in CPU time, in short alternating slices.

``benchmarks/env_steps.py`` gives wall-clock rates of every contender; on a shared machine
its ratio moves by ±0.1 from run to run. This script measures one game's two loops only, the
same ones (``env_steps.raw_loop``'s engine loop: ``legal_actions_for`` → a random choice →
``apply``; the standard PettingZoo loop: ``agent_iter``, ``env.last()``, a random index of
the ``action_mask``, ``env.step``), each for a fixed number of steps in turn, timed with
``time.process_time``; the slices alternate (raw first in even rounds, the environment first
in odd ones) and the figure is the median of the per-round ratios (raw CPU time / the
environment's, per step), which a change of load touches alike on both sides.

    python benchmarks/env_paired.py madiao [--rounds 40] [--steps 3000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from env_steps import aec_hand

from paiju.madiao.env import madiao_v0
from paiju.mazhan.env import mazhan_v0


def raw_loop(game: str, seed: int) -> Callable[[int], float]:
    """The engine alone: CPU seconds for ``n`` steps."""
    if game == "mazhan":
        from paiju.mazhan import rules
    else:
        from paiju.madiao import rules  # type: ignore[no-redef]
    rng = random.Random(seed)
    ruleset = rules.Ruleset()
    box = [rules.new_hand(ruleset, seed)]
    acting, legal_for, apply = rules.acting, rules.legal_actions_for, rules.apply

    def run(n: int) -> float:
        state = box[0]
        steps = 0
        start = time.process_time()
        while steps < n:
            if state.phase.value == "over":
                state = rules.new_hand(ruleset, rng.getrandbits(63))
            legal = legal_for(state, acting(state)[0])
            state, _ = apply(state, legal[rng.randrange(len(legal))])
            steps += 1
        box[0] = state
        return time.process_time() - start

    return run


def aec_loop(game: str, seed: int) -> Callable[[int], float]:
    """The standard PettingZoo loop (whole hands: at least ``n`` steps); CPU seconds per
    ``n`` steps."""
    env = (mazhan_v0 if game == "mazhan" else madiao_v0).env()
    env.reset(seed=seed)
    rng = random.Random(seed)

    def run(n: int) -> float:
        steps = 0
        start = time.process_time()
        while steps < n:
            steps += aec_hand(env, rng)
        return (time.process_time() - start) * n / steps

    return run


def measure(game: str, rounds: int, steps: int, seed: int = 1) -> dict[str, float]:
    """The median paired ratio, its range, and the median µs per step of each loop.

    >>> r = measure("madiao", rounds=2, steps=50)
    >>> sorted(r)
    ['aec_us', 'load_after', 'load_before', 'ratio_max', 'ratio_median', 'ratio_min', 'raw_us']
    """
    raw, aec = raw_loop(game, seed), aec_loop(game, seed)
    raw(max(1, steps // 5))  # warm up
    aec(max(1, steps // 5))
    load_before = os.getloadavg()[0]
    ratios, raw_us, aec_us = [], [], []
    for i in range(rounds):
        if i % 2:
            t_aec = aec(steps)
            t_raw = raw(steps)
        else:
            t_raw = raw(steps)
            t_aec = aec(steps)
        ratios.append(t_raw / t_aec)
        raw_us.append(t_raw / steps * 1e6)
        aec_us.append(t_aec / steps * 1e6)
    return {
        "ratio_median": statistics.median(ratios),
        "ratio_min": min(ratios),
        "ratio_max": max(ratios),
        "raw_us": statistics.median(raw_us),
        "aec_us": statistics.median(aec_us),
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", choices=["mazhan", "madiao"])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = measure(args.game, args.rounds, args.steps, args.seed)
    print(
        f"{args.game}: PettingZoo loop / raw loop (CPU time) {r['ratio_median']:.3f}× "
        f"(rounds {r['ratio_min']:.3f}–{r['ratio_max']:.3f}); raw {r['raw_us']:.1f} µs, "
        f"PettingZoo {r['aec_us']:.1f} µs a step; {args.rounds} rounds of {args.steps:,} "
        f"steps; load {r['load_before']:.2f} → {r['load_after']:.2f}"
    )


if __name__ == "__main__":
    main()
