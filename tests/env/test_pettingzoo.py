"""The PettingZoo environments: the API test, seeding, illegal actions, a whole hand."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from paiju.env import madiao_v0, mazhan_v0

MODULES = [mazhan_v0, madiao_v0]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoo_api_test(module: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations, as in PettingZoo's classic envs
        api_test(module.env(), num_cycles=1000)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_two_environments_with_one_seed_run_alike(module: Any) -> None:
    seed_test(module.env, num_cycles=500)


def play(module: Any, seed: int) -> tuple[list[int], dict[str, float]]:
    env = module.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        env.step(action)
    return actions, totals


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_a_seeded_hand_is_the_same_and_zero_sum(module: Any) -> None:
    a, ra = play(module, 5)
    b, rb = play(module, 5)
    assert a == b and ra == rb
    assert abs(sum(ra.values())) < 1e-9


def test_an_illegal_action_ends_the_hand_with_a_penalty() -> None:
    env = mazhan_v0.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -400.0


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = madiao_v0.env()
    env.reset(seed=2)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


def test_the_example_loop_runs() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for game in ("mazhan", "madiao"):
        proc = subprocess.run(
            [sys.executable, "examples/rl_random_loop.py", game, "1"],
            capture_output=True,
            text=True,
            cwd=root,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("hand 0:")
