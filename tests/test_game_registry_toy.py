"""A game is one folder and one registration (issue 37): the toy game of
:mod:`tests.toygame`, defined only under ``tests/``, registers itself with the games, the
bots and the environments, and then plays through the simulator, the arena, records and
their replay, written positions, the rooms, and the PettingZoo and Gymnasium environments,
without a line of ``paiju/`` naming it."""

from __future__ import annotations

import io
import json
import random
import subprocess
import warnings
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import paiju.bots.registry as bot_registry
import paiju.env.registry as env_registry
from paiju.bots.base import BOTS, make_bot
from paiju.games import game, names, registration

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    """The toy game registered for a test (:func:`tests.toygame.registered`)."""
    from tests.toygame import registered

    with registered():
        yield


def test_the_toy_game_is_registered_everywhere() -> None:
    assert names() == ("mazhan", "madiao", "toy")
    assert registration("toy").title == "High card"
    assert game("toy").default_bot == "first"
    assert sorted(bot_registry.bots_of("toy").factories) == ["first", "random"]
    assert env_registry.spec_of("toy").n_actions == 8
    assert sorted(BOTS["toy"]) == ["first", "random"]


def test_bots_by_name_and_time_budget() -> None:
    assert make_bot("toy", "random").name == "random"
    assert make_bot("toy", "first@100ms").seconds == 0.1  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown toy bot 'expert'"):
        make_bot("toy", "expert")
    with pytest.raises(ValueError, match="takes no time budget"):
        make_bot("toy", "random@100ms")


def test_simulate_and_its_summary() -> None:
    from paiju.explain import _summary_tables
    from paiju.simulate import parse_bots, simulate

    assert parse_bots("toy", None) == ["first"] * 4
    out = io.StringIO()
    s = simulate("toy", games=6, seed=2, bot_names=["first", "random"] * 2, out=out)
    assert s["hands"] == 6 and s["actions_per_hand"] == 8.0
    assert sum(s["best_by_seat"].values()) == 6
    assert abs(sum(p["mean_net"] for p in s["players"])) < 1e-9  # zero-sum
    assert len(out.getvalue().splitlines()) == 6
    assert _summary_tables(s) is not None


def test_the_arena() -> None:
    from paiju.arena import arena, difference_lines

    r = arena("toy", 8, 1, ["first", "random", "random", "random"])
    assert r["unit"] == "點/hand"
    assert set(r["bots"]) == {"first", "random"}
    assert difference_lines(r)


def test_records_replay(tmp_path: Path) -> None:
    from paiju.records import check_record, read_record, replay_file
    from paiju.simulate import simulate

    out = io.StringIO()
    simulate("toy", games=5, seed=7, bot_names=["random"], out=out)
    lines = out.getvalue().splitlines()
    assert replay_file(lines) == (5, [])
    record = json.loads(lines[0])
    assert record["game"] == "toy" and len(record["actions"]) == 8
    assert game("toy").is_over(check_record(record))
    g, _ruleset, _seed, setup, actions = read_record(record)
    assert g.name == "toy" and setup == {} and actions == record["actions"]
    bad = {**record, "result": {**record["result"], "best": "Q"}}
    with pytest.raises(Exception, match="the result differs"):
        check_record(bad)


def test_positions() -> None:
    from paiju.positions import legal_of, position_after, read_position
    from paiju.simulate import simulate

    out = io.StringIO()
    simulate("toy", games=1, seed=3, bot_names=["random"], out=out)
    record = json.loads(out.getvalue())
    for n in range(len(record["actions"]) + 1):
        text = position_after(record, n)
        assert text.startswith("toy v=") and read_position(text).to_position() == text
        legal = legal_of(text)
        assert (record["actions"][n] in legal) if n < len(record["actions"]) else legal == []
    with pytest.raises(Exception, match="mazhan or madiao or toy"):
        read_position("chess x")


def test_the_rooms_and_levels() -> None:
    from paiju.server.rooms import LEVELS, ROOMS, bot_for

    assert list(ROOMS) == ["mazhan", "mazhan-vip", "madiao", "toy"]
    assert ROOMS["toy"].to_json() == {
        "name": "toy",
        "game": "toy",
        "title": "High card · room",
        "min_balance": 10,
        "seats": 4,
        "escape_multiple": 5,
        "bots": True,
        "level": "normal",
    }
    assert bot_for("toy", "hard") == "first@100ms" and LEVELS["toy"]["easy"] == "random"
    for level in ("easy", "normal", "hard"):
        assert make_bot("toy", bot_for("toy", level))


def test_pettingzoo_api_tests() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    from paiju.env.base import PaijuAECEnv
    from paiju.env.parallel import PaijuParallelEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(PaijuAECEnv("toy"), num_cycles=200)
        api_test(PaijuAECEnv("toy", obs="planes", match_hands=3), num_cycles=200)
        parallel_api_test(PaijuParallelEnv("toy"), num_cycles=200)


def test_gymnasium_check_env() -> None:
    import gymnasium as gym
    from gymnasium.utils.env_checker import check_env

    from paiju.env.single import DEFAULT_OPPONENTS, PaijuSingleEnv

    assert DEFAULT_OPPONENTS["toy"] == "first"
    env_id = "toygame/HighCard-v0"  # as paiju registers its own (paiju.ENVS)
    gym.register(env_id, entry_point="paiju.env.single:PaijuSingleEnv", kwargs={"game": "toy"})
    try:
        for obs in ("flat", "planes"):
            made = gym.make(env_id, obs=obs, opponents="random")
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                warnings.filterwarnings("ignore", message=".*Box.*(low|high).*")
                check_env(made.unwrapped, skip_render_check=False)
    finally:
        del gym.registry[env_id]
    env = PaijuSingleEnv("toy")  # its default opponents
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(20):
        done = False
        while not done:
            _obs, r, done, _trunc, _info = env.step(
                int(rng.choice(np.flatnonzero(env.action_masks())))
            )
            total += r
        env.reset()
    assert np.isfinite(total)


def test_a_policy_reads_a_view_as_the_environment_does() -> None:
    from paiju.env.policy import PolicyBot, observation_of_view
    from paiju.env.table import Table
    from tests.toygame.env import ToyEncoder

    t = Table("toy")
    t.reset(seed=5)
    g = game("toy")
    for _ in range(3):
        player = t.deciders()[0]
        seat = g.seats[t.seat_of[player]]
        view = g.observe(t.state, seat)
        want = np.array(t.encode(player))
        assert np.array_equal(observation_of_view("toy", view, ToyEncoder()), want)
        t.step(player, t.legal(player)[0])

    class First:
        def predict(self, obs, action_masks, deterministic):  # type: ignore[no-untyped-def]
            return int(np.flatnonzero(action_masks)[-1]), None

    state = g.new_hand(g.default_ruleset(), 1, {})
    view = g.observe(state, g.seats[0])
    bot = PolicyBot(First(), "toy")
    assert bot.act(view, view.legal, random.Random(0)) == max(view.legal, key=lambda a: a.card)


def test_the_extras_the_toy_lacks_are_refused() -> None:
    from paiju.env.base import RewardRules
    from paiju.env.table import Table

    with pytest.raises(ValueError, match="hints exist for Mazhan's flat observation only"):
        Table("toy", hints=True)
    with pytest.raises(ValueError, match="exists for Mazhan only"):
        RewardRules("toy", shaping=0.1)


def test_no_line_of_paiju_names_the_toy_game() -> None:
    found = subprocess.run(
        ["grep", "-rnIwE", "toy|High card|toygame", str(ROOT / "paiju"), "--include=*.py"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert found.stdout == ""
