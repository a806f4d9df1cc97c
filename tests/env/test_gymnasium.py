"""The Gymnasium single-agent environments: registration, ``check_env``, opponents, seeding,
rewards and the vector-environment recipe."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import paiju.env  # noqa: F401  (registers the environments)
from paiju.env.single import PaijuSingleEnv

GAMES = [("paiju/Mazhan-v0", "mazhan"), ("paiju/MaDiao-v0", "madiao")]


@pytest.mark.parametrize(("env_id", "game"), GAMES)
@pytest.mark.parametrize("obs", ["flat", "planes"])
def test_check_env_passes(env_id: str, game: str, obs: str) -> None:
    env = gym.make(env_id, obs=obs, opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        warnings.filterwarnings("ignore", message=".*Box.*(low|high).*")  # -inf/inf bounds
        check_env(env.unwrapped, skip_render_check=False)


def run(env: Any, seed: int, hands: int) -> tuple[list[int], list[float]]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions: list[int] = []
    rewards: list[float] = []
    for _ in range(hands):
        done = False
        while not done:
            assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
            a = int(rng.choice(np.flatnonzero(env.action_masks())))
            actions.append(a)
            obs, r, done, _trunc, info = env.step(a)
            rewards.append(r)
            assert env.observation_space.contains(obs)
        obs, info = env.reset()
    return actions, rewards


@pytest.mark.parametrize(("env_id", "game"), GAMES)
def test_a_seeded_run_repeats_exactly(env_id: str, game: str) -> None:
    opp = "greedy" if game == "mazhan" else "heuristic"
    a = run(gym.make(env_id, opponents=opp).unwrapped, 3, 5)
    b = run(gym.make(env_id, opponents=opp).unwrapped, 3, 5)
    assert a == b


def test_the_reward_is_the_learners_net_over_400() -> None:
    env = PaijuSingleEnv("mazhan", opponents="greedy")
    for seed in range(8):
        env.reset(seed=seed)
        total = 0.0
        done = False
        while not done:
            _, r, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            total += r
        net = env.table.state.result.to_json()["net"][env.seat]
        assert total == pytest.approx(net / 400)


def test_the_seat_rotates_or_stays() -> None:
    env = PaijuSingleEnv("mazhan", opponents="random")
    seats = []
    env.reset(seed=1)
    for _ in range(4):
        seats.append(env.seat)
        env.reset()
    assert sorted(seats) == ["E", "N", "S", "W"]
    west = PaijuSingleEnv("mazhan", opponents="random", seat="W")
    west.reset(seed=1)
    west.reset()
    assert west.seat == "W"


def test_opponents_can_be_names_bots_or_callables() -> None:
    calls: list[int] = []

    def first_legal(view: Any, legal: Any, rng: random.Random) -> Any:
        calls.append(1)
        return legal[0]

    from paiju.mazhan.bots.greedy import GreedyBot

    env = PaijuSingleEnv("mazhan", opponents=[first_legal, GreedyBot(), "random"], seat="N")
    env.reset(seed=2)
    assert calls  # North plays after the others have
    with pytest.raises(ValueError, match="one opponent or three"):
        PaijuSingleEnv("mazhan", opponents=["random", "random"])
    with pytest.raises(ValueError, match="unknown mazhan bot"):
        PaijuSingleEnv("mazhan", opponents="clever")
    with pytest.raises(ValueError, match="seat must be"):
        PaijuSingleEnv("mazhan", seat="X")


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = PaijuSingleEnv("madiao", opponents="random")
    env.reset(seed=4)
    wrong = int(np.flatnonzero(~env.action_masks())[0])
    _, r, done, _, info = env.step(wrong)
    assert done and r == pytest.approx(-1.0) and info["illegal_action"] == wrong
    strict = PaijuSingleEnv("madiao", opponents="random", illegal="raise")
    strict.reset(seed=4)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(wrong)


def test_a_match_episode_spans_its_hands() -> None:
    env = PaijuSingleEnv("mazhan", opponents="greedy", match_hands=4)
    env.reset(seed=5)
    total = 0.0
    done = False
    while not done:
        _, r, done, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        total += r
    assert env.table.hand_no == 3
    assert total == pytest.approx(info["score"] / 400)


def test_shaping_adds_the_potential_difference_only() -> None:
    plain = PaijuSingleEnv("mazhan", opponents="greedy", seat="S")
    shaped = PaijuSingleEnv("mazhan", opponents="greedy", seat="S", shaping=0.1, shaping_gamma=1)
    for seed in range(4):
        plain.reset(seed=seed)
        shaped.reset(seed=seed)
        first = shaped._phi
        totals = [0.0, 0.0]
        done = False
        while not done:
            a = int(np.flatnonzero(plain.action_masks())[-1])
            _, r0, done, _, _ = plain.step(a)
            _, r1, done1, _, _ = shaped.step(a)
            assert done == done1
            totals[0] += r0
            totals[1] += r1
        assert totals[1] == pytest.approx(totals[0] - first)


def _make() -> Any:
    return gym.make("paiju/Mazhan-v0", opponents="greedy")


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_the_vector_env_recipe_works(kind: str) -> None:
    vec_cls = gym.vector.SyncVectorEnv if kind == "sync" else gym.vector.AsyncVectorEnv
    envs = vec_cls([_make for _ in range(2)])
    try:
        obs, infos = envs.reset(seed=7)
        assert obs.shape == (2, 1264)
        finished = 0
        for _ in range(60):
            masks = infos["action_mask"].astype(bool)
            # after an episode ends the next step resets that env (its action is ignored)
            actions = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in masks])
            obs, _rewards, terms, _truncs, infos = envs.step(actions)
            finished += int(terms.sum())
        assert finished > 0  # episodes ended and the vector env reset them by itself
    finally:
        envs.close()
