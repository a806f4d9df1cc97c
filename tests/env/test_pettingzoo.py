"""The PettingZoo environments: API and seeding tests, rewards, illegal actions, matches,
the parallel form and the centralised state."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from paiju.madiao.env import madiao_v0
from paiju.mazhan.env import mazhan_v0

MODULES = [mazhan_v0, madiao_v0]
IDS = ["mazhan", "madiao"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module", MODULES, ids=IDS)
@pytest.mark.parametrize("obs", ["flat", "planes"])
def test_pettingzoo_api_test(module: Any, obs: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations, as in PettingZoo's classic envs
        api_test(module.env(obs=obs), num_cycles=300)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_pettingzoo_parallel_api_test(module: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(module.parallel_env(), num_cycles=1000)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_two_environments_with_one_seed_run_alike(module: Any) -> None:
    seed_test(module.env, num_cycles=300)
    parallel_seed_test(module.parallel_env, num_cycles=300)


def play(env: Any, seed: int) -> tuple[list[int], dict[str, float]]:
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


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_a_seeded_hand_is_the_same_and_zero_sum(module: Any) -> None:
    a, ra = play(module.env(), 5)
    b, rb = play(module.env(), 5)
    assert a == b and ra == rb
    assert abs(sum(ra.values())) < 1e-9


def test_rewards_are_the_engines_net_times_the_scale() -> None:
    env = mazhan_v0.env(reward_scale=0.25)
    for seed in range(30):
        _, totals = play(env, seed)
        state = env.unwrapped.state_
        net = state.result.to_json()["net"]
        table = env.unwrapped.table
        for p, agent in enumerate(env.possible_agents):
            seat = "ESWN"[table.seat_of[p]]
            assert totals[agent] == pytest.approx(net[seat] * 0.25)


def test_players_change_seats_from_hand_to_hand() -> None:
    env = mazhan_v0.env()
    env.reset(seed=3)
    east = []
    for _ in range(4):
        east.append(env.unwrapped.table.player_at[0])
        env.reset()
    assert sorted(east) == [0, 1, 2, 3]
    fixed = mazhan_v0.env(rotate_seats=False)
    fixed.reset(seed=3)
    fixed.reset()
    assert fixed.unwrapped.table.player_at[0] == 0


@pytest.mark.parametrize("illegal", ["zero_sum", "offender"])
def test_an_illegal_action_ends_the_hand_with_a_penalty(illegal: str) -> None:
    env = mazhan_v0.env(illegal=illegal)
    env.reset(seed=1)
    obs, *_ = env.last()
    assert obs is not None
    wrong = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = env.agent_selection
    env.step(wrong)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -400.0
    others = [env.rewards[a] for a in env.possible_agents if a != agent]
    if illegal == "zero_sum":
        assert others == pytest.approx([400 / 3] * 3)
        assert sum(env.rewards.values()) == pytest.approx(0.0)
    else:
        assert others == [0.0, 0.0, 0.0]


def test_an_illegal_action_can_raise() -> None:
    env = madiao_v0.env(illegal="raise")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        first = env.last()[0]
        assert first is not None
        env.step(119 if not first["action_mask"][119] else 0)


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="obs must be"):
        mazhan_v0.env(obs="pixels")
    with pytest.raises(ValueError, match="Mazhan only"):
        madiao_v0.env(shaping=0.1)
    with pytest.raises(ValueError, match="match_hands"):
        mazhan_v0.env(match_hands=0)
    with pytest.raises(RuntimeError, match="reset"):
        mazhan_v0.env().step(0)


def test_only_the_agent_to_act_has_a_mask() -> None:
    env = madiao_v0.env()
    env.reset(seed=2)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
@pytest.mark.parametrize("match_hands", [None, 3])
def test_the_standard_loop_shows_the_engines_legal_set_at_every_step(
    module: Any, match_hands: int | None
) -> None:
    """The mask is kept from step to step (cells cleared and set): at every step of the
    standard loop it is the engine's legal set of the agent to act, and nobody else's."""
    from paiju.madiao.env.obs import MadiaoEncoder

    env = module.env(match_hands=match_hands)
    table = env.table
    rng = np.random.default_rng(5)
    for episode in range(6):
        env.reset(seed=episode)
        for agent in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            if term or trunc:
                assert not obs["action_mask"].any()
                env.step(None)
                continue
            p = env.possible_agents.index(agent)
            seat = table.rules.seats[table.seat_of[p]]
            assert seat in table.spec.engine.acting(table.state)
            legal = table.rules.legal_actions(table.state, seat)
            expect = sorted(table.spec.action_index(a) for a in legal)
            assert obs["action_mask"].nonzero()[0].tolist() == expect
            for other in env.possible_agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            if module is madiao_v0 and match_hands is None:  # read afresh from the state
                fresh = MadiaoEncoder()
                fresh.reset(table.state)
                np.testing.assert_array_equal(
                    obs["observation"], fresh.encode(table.state, table.seat_of[p])
                )
            env.step(int(rng.choice(expect)))


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_a_match_keeps_scores_and_follows_the_seating_rules(module: Any) -> None:
    env = module.env(match_hands=6)
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    table = env.unwrapped.table
    totals = dict.fromkeys(env.possible_agents, 0.0)
    hands_seen = {0}
    dealers: list[tuple[int, Any]] = [(table.player_at[0], None)]
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        before = table.hand_no
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if table.hand_no != before:
            hands_seen.add(table.hand_no)
    assert hands_seen == set(range(6))
    assert sum(totals.values()) == pytest.approx(0.0)
    assert [totals[a] for a in env.possible_agents] == pytest.approx(table.scores)
    del dealers


def test_a_mazhan_dealer_keeps_the_deal_by_winning() -> None:
    from paiju.env.table import Table

    t = Table("mazhan", match_hands=300)  # random play: few wins
    t.reset(seed=4)
    rng = np.random.default_rng(4)
    kept = passed = 0
    while True:
        east = t.player_at[0]
        nets = None
        while nets is None:
            p = t.deciders()[0]
            nets = t.step(p, int(rng.choice(t.legal(p))))
        winner = t.state.result.winner
        if not t.next_hand(nets):
            break
        if winner is not None and winner.number == 1:
            assert t.player_at[0] == east and t.repeat > 0
            kept += 1
        else:
            assert t.player_at[0] == (east + 1) % 4 and t.repeat == 0
            passed += 1
    assert kept and passed


@pytest.mark.parametrize("game", IDS)
def test_the_observation_shows_the_match_scores(game: str) -> None:
    from paiju.env.table import Table

    t = Table(game, match_hands=3)
    t.reset(seed=12)
    rng = np.random.default_rng(12)
    lay = t.encoder.layout  # type: ignore[attr-defined]  # both games' encoders have one
    sc, hn = lay["scores"], lay["hand_no"]
    for hand in range(3):
        for player in range(4):
            obs = t.encode(player)
            me = t.seat_of[player]
            expect = [t.scores[t.player_at[(me + r) % 4]] / t.spec.net_scale for r in range(4)]
            assert obs[sc.offset : sc.stop].tolist() == pytest.approx(expect)
            assert obs[hn.offset] == hand
            assert obs[lay["hands_left"].offset] == 2 - hand
        nets = None
        while nets is None:
            p = t.deciders()[0]
            nets = t.step(p, int(rng.choice(t.legal(p))))
        t.next_hand(nets)
    assert sum(t.scores) == 0


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_state_is_every_seat_and_the_unseen(module: Any) -> None:
    env = module.env()
    env.reset(seed=6)
    s = env.state()
    assert s.shape == env.state_space.shape
    table = env.unwrapped.table
    per = env.observation_space("player_0")["observation"].shape[0]
    for seat in range(4):
        np.testing.assert_array_equal(
            s[seat * per : (seat + 1) * per], table.encoder.encode(table.state, seat)
        )


def test_the_parallel_env_takes_every_claim_at_once() -> None:
    env = mazhan_v0.parallel_env()
    rng = np.random.default_rng(2)
    windows = 0
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            deciders = [a for a in env.agents if obs[a]["action_mask"].any()]
            if len(deciders) > 1:
                windows += 1
                assert env.table.state.phase.value in ("claim", "rob")
            actions = {
                a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) if a in deciders else 0
                for a in env.agents
            }
            obs, rewards, terms, _, _ = env.step(actions)
            if all(terms.values()):
                assert sum(rewards.values()) == pytest.approx(0.0)
    assert windows > 0
    with pytest.raises(ValueError, match="no action"):
        env.reset(seed=1)
        env.step({})


def test_parallel_to_aec_of_the_parallel_env_runs() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        aec = parallel_to_aec(madiao_v0.parallel_env())
        aec.reset(seed=1)
        steps = 0
        for _agent in aec.agent_iter(200):
            obs, _r, term, trunc, _ = aec.last()
            if term or trunc:
                aec.step(None)
                continue
            mask = obs["action_mask"]
            aec.step(int(np.flatnonzero(mask)[0]) if mask.any() else 0)
            steps += 1
        assert steps > 0


def test_shaping_adds_up_to_the_first_potential() -> None:
    """Potential-based: over a hand the shaping terms of each agent sum to −Φ(first turn)
    (γ = 1), whatever was played."""
    plain = mazhan_v0.env()
    shaped = mazhan_v0.env(shaping=0.1)
    for seed in range(5):
        _, r0 = play(plain, seed)
        shaped.reset(seed=seed)
        firsts: dict[str, float] = {}
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(shaped.possible_agents, 0.0)
        for agent in shaped.agent_iter():
            obs, reward, term, trunc, _ = shaped.last()
            totals[agent] += reward
            if term or trunc:
                shaped.step(None)
                continue
            if agent not in firsts:
                firsts[agent] = shaped.unwrapped._phi[shaped.possible_agents.index(agent)]
            assert obs is not None
            shaped.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for agent in shaped.possible_agents:
            assert totals[agent] == pytest.approx(r0[agent] - firsts.get(agent, 0.0))


def test_the_example_loop_runs() -> None:
    for game in ("mazhan", "madiao"):
        proc = subprocess.run(
            [sys.executable, "examples/rl_random_loop.py", game, "1"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("hand 0:")


def test_hints_ride_along_in_every_environment() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(mazhan_v0.env(hints=True), num_cycles=100)
        parallel_api_test(mazhan_v0.parallel_env(hints=True), num_cycles=100)
    env = mazhan_v0.env(hints=True)
    env.reset(seed=1)
    assert env.state().shape == env.state_space.shape
    with pytest.raises(ValueError, match="Mazhan's flat"):
        madiao_v0.env(hints=True)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_spaces_share_their_arrays_but_not_their_samplers(module: Any) -> None:
    a, b = module.env(), module.env()
    box_a = a.observation_space("player_0")["observation"]
    box_b = b.observation_space("player_1")["observation"]
    assert box_a is not box_b and box_a.low is box_b.low  # one set of arrays per shape
    assert not box_a.high.flags.writeable  # a space is not to be changed
    assert a.state_space.low is b.state_space.low
    a.action_space("player_0").seed(3)
    b.action_space("player_0").seed(3)
    mask = np.ones(a.table.spec.n_actions, dtype=np.int8)
    drawn = [(a.action_space("player_0").sample(mask), b.action_space("player_0").sample(mask))]
    drawn += [(a.action_space("player_0").sample(mask), b.action_space("player_0").sample(mask))]
    assert all(x == y for x, y in drawn)  # each env's sampler is its own


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_observations_are_new_arrays_unless_asked_not_to_copy(module: Any) -> None:
    env = module.env()
    env.reset(seed=4)
    first = env.last()[0]["observation"]
    again = env.observe(env.agent_selection)["observation"]
    assert first is not again and np.array_equal(first, again)
    kept = module.env(copy_obs=False)
    kept.reset(seed=4)
    own = kept.last()[0]["observation"]
    assert own is kept.last()[0]["observation"] and np.array_equal(own, first)


def test_one_more_mazhan_env_holds_at_most_24_kb() -> None:
    proc = subprocess.run(
        [sys.executable, "benchmarks/env_memory.py", "--one", "mazhan_v0", "--n", "40",
         "--steps", "8"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=True,
    )  # fmt: skip
    per_env = json.loads(proc.stdout.strip().splitlines()[-1])["tracemalloc_per_env"]
    assert per_env <= 24_000  # the bound, in SI kilobytes
