"""A saved policy as a bot: the observation it builds from a view is the environment's, it
plays legal actions, and (with the ``[rl]`` extra) a trained MaskablePPO saves, loads and
plays a hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paiju.bots.driver import run_hand
from paiju.bots.uniform import RandomBot
from paiju.env.policy import PolicyBot, observation_of_view, save_metadata
from paiju.games import game
from paiju.madiao import rules as md
from paiju.madiao.env.obs import MadiaoEncoder
from paiju.madiao.views import observe as md_observe
from paiju.mazhan import rules as mz
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.env.obs import MazhanEncoder
from paiju.mazhan.views import observe as mz_observe


class Last:
    """A stand-in model: the last legal index."""

    def predict(self, obs: Any, action_masks: Any, deterministic: bool) -> tuple[int, None]:
        assert obs.dtype == np.float32 and deterministic
        return int(np.flatnonzero(action_masks)[-1]), None


class Blind:
    """A model that ignores the mask."""

    def predict(self, obs: Any, action_masks: Any, deterministic: bool) -> tuple[int, None]:
        return 127, None


@pytest.mark.parametrize("name", ["mazhan", "madiao"])
def test_the_view_gives_the_environments_observation(name: str) -> None:
    """At every decision of six random hands, every seat's observation built from its view
    equals the environment's, cell for cell: a policy plays at the table (the arena, the
    server) on what it trained on."""
    rules: Any = mz if name == "mazhan" else md
    observe = mz_observe if name == "mazhan" else md_observe
    enc: Any = MazhanEncoder() if name == "mazhan" else MadiaoEncoder()
    other: Any = MazhanEncoder() if name == "mazhan" else MadiaoEncoder()
    seats = game(name).seats
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.new_hand(rules.Ruleset(), seed)
        enc.reset(state)
        while state.phase.value != "over":
            for me in range(4):
                live = enc.encode(state, me)
                built = observation_of_view(name, observe(state, seats[me]), other)
                np.testing.assert_array_equal(live, built)  # every cell, public or own
            legal = rules.legal_actions(state)
            before = state
            state, events = rules.apply(state, legal[rng.randrange(len(legal))])
            enc.update(before, state, events)


def test_a_view_with_another_seats_concealed_kong_gives_an_observation() -> None:
    """Another seat's concealed kong lies face down in the view (no tiles): the observation
    built from it is the environment's (it used to fail on the missing tiles)."""
    from paiju.mazhan.melds import MeldKind
    from paiju.mazhan.seats import SEATS

    rng = random.Random(1)
    state = mz.new_hand(mz.Ruleset(), 1)
    enc = MazhanEncoder()
    enc.reset(state)
    while not any(m.kind is MeldKind.CKONG for k in range(4) for m in state.melds[k]):
        legal = mz.legal_actions(state)
        kongs = [a for a in legal if a.kind.value == "angang"]  # declare one when possible
        before = state
        state, events = mz.apply(state, kongs[0] if kongs else legal[rng.randrange(len(legal))])
        enc.update(before, state, events)
    for me in range(4):
        built = observation_of_view("mazhan", mz_observe(state, SEATS[me]), MazhanEncoder())
        np.testing.assert_array_equal(built, enc.encode(state, me))


@pytest.mark.parametrize("name", ["mazhan", "madiao"])
def test_a_policy_bot_plays_whole_hands(name: str) -> None:
    g = game(name)
    bots: list[Any] = [PolicyBot(Last(), name), RandomBot(), RandomBot(), RandomBot()]
    state, actions = run_hand(g, g.new_hand(g.default_ruleset(), 3, {}), bots, 3)
    assert state.phase.value == "over" and actions


def test_a_model_that_ignores_the_mask_still_plays_legally() -> None:
    g = game("mazhan")
    bots: list[Any] = [PolicyBot(Blind(), "mazhan"), GreedyBot(), GreedyBot(), GreedyBot()]
    state, _ = run_hand(g, g.new_hand(g.default_ruleset(), 4, {}), bots, 4)
    assert state.phase.value == "over"
    with pytest.raises(ValueError, match="needs the seat's view"):
        PolicyBot(Last(), "mazhan").act(None, [], random.Random(0))


def test_loading_refuses_what_is_not_a_saved_policy(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no saved policy"):
        PolicyBot.load(tmp_path / "nothing.zip")
    path = tmp_path / "p.zip"
    path.write_bytes(b"")
    save_metadata(path, "madiao", "flat")
    with pytest.raises(ValueError, match="plays madiao, not mazhan"):
        PolicyBot.load(path, game="mazhan")


def test_a_trained_policy_saves_loads_and_plays(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="needs the [rl] extra")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import paiju.env  # noqa: F401

    env = gym.make("paiju/MaDiao-v0", opponents="random").unwrapped
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    path = tmp_path / "policy.zip"
    model.save(str(path))
    save_metadata(path, "madiao", "flat")
    bot = PolicyBot.load(path)
    assert bot.game == "madiao" and bot.name == f"policy:{path}"
    g = game("madiao")
    bots: list[Any] = [bot, RandomBot(), RandomBot(), RandomBot()]
    state, _ = run_hand(g, g.new_hand(g.default_ruleset(), 1, {}), bots, 1)
    assert state.phase.value == "over"


def test_the_arena_seats_a_saved_policy(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="needs the [rl] extra")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import paiju.env  # noqa: F401
    from paiju.arena import arena

    env = gym.make("paiju/MaDiao-v0", opponents="random").unwrapped
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=1, device="cpu")
    path = tmp_path / "p.zip"
    model.save(str(path))
    save_metadata(path, "madiao", "flat")
    name = f"policy:{path}"
    report = arena("madiao", 4, 3, [name, "random", "random", "random"])
    assert report["bots"][name]["hands"] == 4
    with pytest.raises(ValueError, match="no saved policy"):
        arena("madiao", 4, 3, ["policy:/nowhere.zip", "random", "random", "random"])
