"""The environments' API boundary: defaults, seeds, seats, actions and the PettingZoo edges
that a QA pass found wrong (each test failed before its fix)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import paiju.env  # noqa: F401  (registers the environments)
from paiju.env.single import PaijuSingleEnv
from paiju.madiao.env import madiao_v0
from paiju.madiao.env import obs as madiao_obs
from paiju.mazhan.env import mazhan_v0
from paiju.mazhan.env import obs as mazhan_obs

MODULES = [mazhan_v0, madiao_v0]
IDS = ["mazhan", "madiao"]
ENV_IDS = ["paiju/Mazhan-v0", "paiju/MaDiao-v0"]


# --- 1. each game's own default opponents ----------------------------------------------------


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gym_make_with_defaults_works_and_passes_check_env(env_id: str) -> None:
    env = gym.make(env_id)
    expected = "greedy" if env_id == "paiju/Mazhan-v0" else "heuristic"
    assert [b.name for b in env.unwrapped.opponents] == [expected] * 3  # type: ignore[attr-defined]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env's warnings are failures here
        warnings.filterwarnings("ignore", message=".*Box.*(low|high).*")  # -inf/inf bounds
        check_env(env.unwrapped, skip_render_check=False)


# --- 2. unseeded environments draw fresh entropy ---------------------------------------------


def test_unseeded_vector_envs_deal_different_hands() -> None:
    envs = gym.vector.SyncVectorEnv([lambda: gym.make("paiju/Mazhan-v0") for _ in range(4)])
    try:
        obs, _ = envs.reset()
        assert len({row.tobytes() for row in obs}) == 4
        again, _ = envs.reset(seed=5)  # seeded: deterministic as before
        other = gym.vector.SyncVectorEnv([lambda: gym.make("paiju/Mazhan-v0") for _ in range(4)])
        try:
            same, _ = other.reset(seed=5)
        finally:
            other.close()
        assert np.array_equal(again, same)
    finally:
        envs.close()


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_unseeded_aec_envs_differ_and_seeded_ones_agree(module: Any) -> None:
    hands = set()
    for _ in range(4):
        env = module.env()
        env.reset()
        hands.add(env.unwrapped.table.hand_seed)
    assert len(hands) == 4
    a, b = module.env(), module.env()
    a.reset(seed=9)
    b.reset(seed=9)
    a.reset()  # the next hand of the seeded sequence, in both
    b.reset()
    assert a.unwrapped.table.hand_seed == b.unwrapped.table.hand_seed


# --- 3 and 7. seeds: whole numbers ≥ 0, NumPy integers taken ---------------------------------


def _makers() -> list[Any]:
    return [
        lambda: mazhan_v0.env(),
        lambda: madiao_v0.parallel_env(),
        lambda: PaijuSingleEnv("mazhan"),
        lambda: gym.make("paiju/MaDiao-v0"),
    ]


@pytest.mark.parametrize("make", _makers(), ids=["aec", "parallel", "single", "gym.make"])
def test_a_negative_seed_is_refused(make: Any) -> None:
    with pytest.raises(ValueError, match="seed must be 0 or more, got -1"):
        make().reset(seed=-1)


@pytest.mark.parametrize("make", _makers(), ids=["aec", "parallel", "single", "gym.make"])
@pytest.mark.parametrize("seed", ["abc", 1.5, True])
def test_a_seed_that_is_not_an_integer_is_refused(make: Any, seed: Any) -> None:
    with pytest.raises(TypeError, match="seed must be a whole number"):
        make().reset(seed=seed)


def test_a_numpy_integer_seed_is_the_int() -> None:
    a, b = mazhan_v0.env(), mazhan_v0.env()
    a.reset(seed=np.int64(3))
    b.reset(seed=3)
    assert a.unwrapped.table.hand_seed == b.unwrapped.table.hand_seed
    s1, s2 = PaijuSingleEnv("madiao"), PaijuSingleEnv("madiao")
    o1, _ = s1.reset(seed=np.int64(3))
    o2, _ = s2.reset(seed=3)
    assert np.array_equal(o1, o2)


# --- 5 and 13. the Gym env's seat -------------------------------------------------------------


@pytest.mark.parametrize("seat", ["", "ES", "SW", "e", "rot", 0, None])
def test_a_seat_is_exactly_rotate_or_one_letter(seat: Any) -> None:
    with pytest.raises(ValueError, match="seat must be 'rotate' or one of E, S, W, N"):
        PaijuSingleEnv("mazhan", seat=seat)


def test_a_fixed_seat_in_a_match_is_refused() -> None:
    with pytest.raises(ValueError, match="seats follow the game's rules"):
        PaijuSingleEnv("mazhan", seat="S", match_hands=4)
    PaijuSingleEnv("mazhan", seat="rotate", match_hands=4).reset(seed=1)  # the default: fine


# --- 6. index_action with a seat letter -------------------------------------------------------


def test_index_action_takes_the_seat_letter_the_gym_env_gives() -> None:
    env = PaijuSingleEnv("mazhan", seat="S")
    env.reset(seed=1)
    assert str(mazhan_obs.index_action(5, env.seat)) == "S discard 6m"
    from paiju.madiao.seats import Seat

    assert madiao_obs.index_action(90, "W") is madiao_obs.index_action(90, Seat.W)
    with pytest.raises(ValueError, match="a seat is one of E, S, W, N"):
        mazhan_obs.index_action(5, "X")


# --- 7. action types --------------------------------------------------------------------------


@pytest.mark.parametrize("action", [1.7, "3", True, 2.0])
def test_an_action_that_is_not_an_integer_is_a_type_error(action: Any) -> None:
    aec = mazhan_v0.env()
    aec.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer index"):
        aec.step(action)
    par = madiao_v0.parallel_env()
    obs, _ = par.reset(seed=1)
    decider = next(a for a in par.agents if obs[a]["action_mask"].any())
    with pytest.raises(TypeError, match="an action is an integer index"):
        par.step({decider: action})
    single = PaijuSingleEnv("mazhan")
    single.reset(seed=1)
    with pytest.raises(TypeError, match="an action is an integer index"):
        single.step(action)


def test_a_numpy_integer_action_plays() -> None:
    env = mazhan_v0.env()
    env.reset(seed=1)
    obs, *_ = env.last()
    assert obs is not None
    legal = np.flatnonzero(obs["action_mask"])
    first = env.agent_selection
    env.step(legal[0])  # np.int64
    assert not any(env.terminations.values())  # played, not the illegal-action ending
    assert "illegal_action" not in env.infos[first]


@pytest.mark.parametrize("flag", ["rotate_seats", "hints", "copy_obs"])
def test_flags_must_be_booleans(flag: str) -> None:
    with pytest.raises(TypeError, match=f"{flag} must be True or False, got 'no'"):
        mazhan_v0.env(**{flag: "no"})


# --- 8. metadata ------------------------------------------------------------------------------


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_the_aec_env_does_not_claim_aec_to_parallel(module: Any) -> None:
    assert module.env().metadata["is_parallelizable"] is False


# --- 12. PettingZoo edges ---------------------------------------------------------------------


def test_last_before_reset_says_to_reset() -> None:
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        mazhan_v0.env().last()


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_stepping_after_every_agent_is_done_says_the_episode_is_over(module: Any) -> None:
    env = module.env()
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.agents == []
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step(None)
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.last()


def test_the_parallel_env_refuses_unknown_agents() -> None:
    env = mazhan_v0.parallel_env()
    obs, _ = env.reset(seed=4)
    decider = next(a for a in env.agents if obs[a]["action_mask"].any())
    action = int(np.flatnonzero(obs[decider]["action_mask"])[0])
    with pytest.raises(ValueError, match="unknown agent 'bob'"):
        env.step({decider: action, "bob": 3})
    env.step({decider: action})  # nothing was played: the step goes through now


# --- 13. slips of the caller, seats when reseeding, skipped hands ---------------------------------

SLIP = r"outside the action space|must act now"


@pytest.mark.parametrize("illegal", ["zero_sum", "offender", "raise"])
@pytest.mark.parametrize("action", [999, -1, 128, None])
def test_an_index_outside_the_space_or_none_from_the_actor_is_a_value_error(
    action: Any, illegal: str
) -> None:
    """Not a move, whatever ``illegal`` says: the episode goes on after the error."""
    aec = mazhan_v0.env(illegal=illegal)
    aec.reset(seed=1)
    with pytest.raises(ValueError, match=SLIP):
        aec.step(action)
    assert not any(aec.terminations.values())
    par = madiao_v0.parallel_env(illegal=illegal)
    obs, _ = par.reset(seed=1)
    decider = next(a for a in par.agents if obs[a]["action_mask"].any())
    with pytest.raises(ValueError, match=SLIP):
        par.step({decider: action})
    assert par.agents
    single = PaijuSingleEnv("mazhan", illegal=illegal)
    single.reset(seed=1)
    with pytest.raises(ValueError, match=SLIP):
        single.step(action)
    single.step(int(np.flatnonzero(single.action_masks())[0]))  # still playing


def test_the_parallel_env_before_reset_and_after_the_end_says_what_to_do() -> None:
    env = mazhan_v0.parallel_env()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before state"):
        env.state()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step"):
        env.step({})
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.agents:
        acts = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in obs.items()
            if o["action_mask"].any()
        }
        obs, *_ = env.step(acts)
    with pytest.raises(RuntimeError, match="the episode is over"):
        env.step({})


def test_the_parallel_env_takes_copy_obs() -> None:
    """``copy_obs=False``: the table's own buffers (one per seat), equal to the copies."""
    copied, shared = mazhan_v0.parallel_env(), mazhan_v0.parallel_env(copy_obs=False)
    a, _ = copied.reset(seed=5)
    b, _ = shared.reset(seed=5)
    for agent in a:
        np.testing.assert_array_equal(a[agent]["observation"], b[agent]["observation"])
    assert b["player_0"]["observation"] is not b["player_1"]["observation"]
    with pytest.raises(TypeError, match="copy_obs must be True or False"):
        mazhan_v0.parallel_env(copy_obs="no")


def test_match_hands_true_is_not_a_match_of_one() -> None:
    with pytest.raises(ValueError, match="match_hands must be a whole number"):
        mazhan_v0.env(match_hands=True)


def test_the_illegal_penalty_defaults_to_the_games_own_scale() -> None:
    """Mazhan: the limit hand (400 胡); Ma Diao: 10 注 (a large hand is a few)."""
    assert mazhan_v0.env().reward_rules.illegal_reward == -400
    assert madiao_v0.env().reward_rules.illegal_reward == -10
    assert madiao_v0.parallel_env().reward_rules.illegal_reward == -10
    assert PaijuSingleEnv("madiao").reward_rules.illegal_reward == -10


def test_reseeding_every_episode_still_rotates_the_seats() -> None:
    """``reset(seed=S)`` starts the rotation at S mod 4, so ``reset(seed=episode)`` loops put
    the learner (and player_0) at every seat in turn: E, N, W, S."""
    single = PaijuSingleEnv("mazhan")
    seats = []
    for s in range(8):
        single.reset(seed=s)
        seats.append(single.seat)
    assert seats == list("ENWS" * 2)
    aec = mazhan_v0.env()
    dealers = []
    for s in range(4):
        aec.reset(seed=s)
        dealers.append(aec.agent_selection)  # East acts first
    assert dealers == ["player_0", "player_1", "player_2", "player_3"]


def test_a_hand_the_learner_never_decides_in_is_reported_not_lost() -> None:
    """From North, a 天胡 or 地胡 can end the hand before the learner's first decision: the
    next hand is dealt, and the learner's reward in the skipped one is in info["skipped"],
    equal to its net in that hand played by the same bots with the same chance."""
    import random

    from paiju.bots.driver import run_hand
    from paiju.games import game
    from paiju.mazhan.bots.greedy import GreedyBot

    g = game("mazhan")
    env = PaijuSingleEnv("mazhan", seat="N")
    found = []
    for seed in range(360, 380):
        _obs, info = env.reset(seed=seed)
        if "skipped" not in info:
            continue
        hand_seed = random.Random(seed).getrandbits(63)
        state, _ = run_hand(g, g.new_hand(g.default_ruleset(), hand_seed, {}), [GreedyBot()] * 4,
                            hand_seed)  # fmt: skip
        assert info["skipped"] == [float(g.outcome(state, 3).net) / 400]
        assert info["action_mask"].any()  # and the episode starts at a decision
        found.append(seed)
    assert found, "no hand ended before North's first decision in seeds 360–379"


def test_an_opponent_that_breaks_the_contract_is_named() -> None:
    with pytest.raises(TypeError, match=r"opponent '<lambda>' at seat .* returned 0"):
        PaijuSingleEnv("mazhan", opponents=lambda view, legal, rng: 0, seat="N").reset(seed=1)

    def illegal(view: Any, legal: Any, rng: Any) -> Any:
        from paiju.mazhan.actions import Action

        return Action.parse(f"{view.seat.value} pass")  # on its own turn

    with pytest.raises(ValueError, match=r"opponent 'illegal' at seat .* not legal now"):
        PaijuSingleEnv("mazhan", opponents=illegal, seat="N").reset(seed=1)


def test_the_gym_env_says_the_last_hands_net_at_the_end() -> None:
    """In a match, ``net`` is the last hand's (the engine's net for the learner's seat in
    the final state) and ``score`` the match's."""
    env = PaijuSingleEnv("mazhan", match_hands=3)
    env.reset(seed=2)
    done, info = False, dict[str, Any]()
    while not done:
        _o, _r, done, _t, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    table = env.table
    last = table.rules.nets(table.state)[table.seat_of[env.me]]
    assert info["net"] == last
    assert info["score"] == table.scores[env.me]
    with pytest.raises(RuntimeError, match=r"the episode is over: call reset\(\)"):
        env.step(0)


@pytest.mark.parametrize("module", MODULES, ids=IDS)
def test_render_modes_ansi_and_human_pass_pettingzoos_render_test(
    module: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from pettingzoo.test import render_test

    render_test(lambda render_mode=None: module.env(render_mode=render_mode))
    env = module.env(render_mode="human")
    env.reset(seed=1)
    assert env.render() is None
    assert capsys.readouterr().out.strip()  # printed the table
    text = module.parallel_env(render_mode="ansi")
    text.reset(seed=1)
    assert isinstance(text.render(), str)
    with pytest.raises(ValueError, match="render_mode must be None, 'ansi' or 'human'"):
        module.env(render_mode="rgb_array")


def test_a_slip_of_one_claimant_plays_nobodys_action() -> None:
    """In a claim window with two claimants, a mistyped action of the second is refused
    before the first's is played: the step is undone as a whole and can be sent again."""
    env = mazhan_v0.parallel_env()
    rng = np.random.default_rng(0)
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        while env.agents:
            deciders = [a for a in env.agents if obs[a]["action_mask"].any()]
            acts = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in deciders}
            if len(deciders) >= 2:
                slip = {**acts, deciders[1]: 999}
                with pytest.raises(ValueError, match="outside the action space"):
                    env.step(slip)
                assert env.table.deciders() == [int(a[-1]) for a in deciders]
                env.step(acts)  # the same step, sent right, plays
                return
            obs, *_ = env.step(acts)
    pytest.fail("no claim window with two claimants in 40 hands")


def test_a_match_hand_lost_before_the_learners_first_decision_counts() -> None:
    """In a match, a hand that ends before the learner's first decision belongs to the
    episode: its reward comes with the first step's, so the rewards sum to the score."""
    for seed in range(100, 140):
        env = PaijuSingleEnv("mazhan", match_hands=4)
        env.reset(seed=seed)
        total, done, info = 0.0, False, dict[str, Any]()
        while not done:
            _o, r, done, _t, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
            total += r
        assert total == pytest.approx(info["score"] / 400)
