"""The floor under any PettingZoo environment's step: the standard loop over an AEC
environment that does nothing, and the random policy's mask-to-index work.

``benchmarks/env_steps.py`` compares the standard loop over ``mazhan_v0`` with the raw engine
loop; this script measures what that loop costs before the environment does anything, so the
gap it leaves can be read against the 0.8× target (docs/env.md §7).

    python benchmarks/env_floor.py [--steps 300000] [--repeats 3]

Prints µs per step (min and median of the repeats) for the loop over a null environment with
four agents (``agent_iter``, ``last``, ``step`` bookkeeping, the rewards accumulated as
PettingZoo's own environments do) and for ``action_mask.nonzero()`` plus a random index.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.agent_selector import agent_selector

N_ACTIONS = 128
OBS_SIZE = 1264
LEGAL = 17  # a typical number of legal discards on a Mazhan turn


class NullEnv(AECEnv):  # type: ignore[misc]
    """Four agents taking turns; observations are one fixed buffer; nothing else happens."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "null_v0",
        "is_parallelizable": False,
        "render_modes": [],
    }

    def __init__(self) -> None:
        self.possible_agents = [f"player_{i}" for i in range(4)]
        mask = np.zeros(N_ACTIONS, np.int8)
        mask[:LEGAL] = 1
        self._obs = {"observation": np.zeros(OBS_SIZE, np.float32), "action_mask": mask}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Dict({})

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return spaces.Discrete(N_ACTIONS)

    def observe(self, agent: str) -> dict[str, Any]:
        return self._obs

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = agent_selector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: int | None) -> None:
        self._cumulative_rewards[self.agent_selection] = 0.0
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()


def loop_floor(steps: int) -> float:
    """µs per step of the standard loop over :class:`NullEnv` (the policy always plays 0)."""
    env = NullEnv()
    env.reset(seed=0)
    start = time.perf_counter()
    for _agent in env.agent_iter(steps):
        _obs, _reward, _term, _trunc, _info = env.last()
        env.step(0)
    return (time.perf_counter() - start) / steps * 1e6


def mask_floor(steps: int) -> float:
    """µs per step of the random policy's ``nonzero`` and index conversion."""
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[:LEGAL] = 1
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(steps):
        legal = mask.nonzero()[0]
        int(legal[rng.randrange(len(legal))])
    return (time.perf_counter() - start) / steps * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--steps", type=int, default=300_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    for name, fn in (("null AEC loop", loop_floor), ("mask → random index", mask_floor)):
        runs = [fn(args.steps) for _ in range(args.repeats)]
        print(
            f"{name}: min {min(runs):.2f} µs, median {statistics.median(runs):.2f} µs "
            f"per step ({args.repeats} × {args.steps:,} steps)"
        )
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
