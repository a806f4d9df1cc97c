"""Look-ahead features (``lookahead=True``): ``strong``'s own terms laid out by action index,
from the seat's view only; the documented layout is the real one; the environments, the
policy bot and (with the ``[rl]`` extra) the skip policy carry them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paiju.env.policy import observation_of_view
from paiju.env.single import PaijuSingleEnv
from paiju.env.table import Table
from paiju.mazhan import rules as mz
from paiju.mazhan.bots.strong import rank_actions, rate_actions
from paiju.mazhan.env import lookahead as la
from paiju.mazhan.env.obs import FLAT_SIZE, N_HINTS, MazhanEncoder, action_index
from paiju.mazhan.seats import SEATS
from paiju.mazhan.views import observe

ROOT = Path(__file__).resolve().parents[2]


def _states(seeds: range) -> list[mz.State]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = mz.new_hand(mz.Ruleset(), seed)
        while state.phase is not mz.Phase.OVER:
            out.append(state)
            legal = mz.legal_actions(state)
            state, _ = mz.apply(state, legal[rng.randrange(len(legal))])
    return out


def test_the_documented_layout_is_the_layout() -> None:
    table = la.LAYOUT.table()
    assert table in (la.__doc__ or "")
    assert table in (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    assert f"{la.N_LOOKAHEAD} values" in (la.__doc__ or "")


def test_the_features_are_strongs_terms_by_action_index() -> None:
    sh, ac, va, da, ra, rk = (la.LAYOUT[n].offset for n in la.LAYOUT._by_name)
    rated = 0
    for state in _states(range(4)):
        for seat in {a.seat for a in mz.legal_actions(state)}:
            view = observe(state, seat)
            out = la.lookahead(view)
            ratings = rate_actions(view, view.legal)
            touched = set()
            for r in ratings:
                i = action_index(r.action)
                touched.add(i)
                assert out[sh + i] == pytest.approx((r.shanten + 2) / 10)
                assert out[ac + i] == pytest.approx(r.accept / 40)
                assert out[va + i] == pytest.approx(r.value / 40)
                assert out[da + i] == pytest.approx(r.danger / 36)
            taken = {
                action_index(a)
                for a in view.legal
                if a.kind.value in ("hu", "shazhu", "angang", "jiagang")
            }
            for i in taken:  # strong always takes these: rated 1
                assert out[ra + i] == 1.0 and out[rk + i] >= 0.5
            untouched = [i for i in range(128) if i not in touched | taken]
            for base in (sh, ac, va, da, ra, rk):
                assert not out[base + np.array(untouched, dtype=int)].any()
            if ratings:
                rated += 1
                top = rank_actions(view, view.legal)[0]
                assert out[ra + action_index(top[1])] == 1.0  # strong's choice is marked 1
                if not taken:
                    assert out[rk + action_index(top[1])] == 1.0
                    ranks = out[rk + np.array(sorted(touched))]
                    assert ((ranks == 1.0) == (out[ra + np.array(sorted(touched))] == 1.0)).all()
                assert (out[ra + np.array(sorted(touched))] >= 0.01).all()
                if view.phase is not mz.Phase.ACT:  # ties go to the pass, then the first
                    assert (out[ra + np.array(sorted(touched))] == 1.0).sum() == 1
    assert rated > 100


def test_a_seat_with_nothing_to_decide_gets_zeros() -> None:
    state = mz.new_hand(mz.Ruleset(), 9)  # East to discard
    assert not la.lookahead_of_state(state, 2).any()
    assert la.lookahead_of_state(state, 0).any()


def test_the_table_appends_them_after_the_hints() -> None:
    table = Table("mazhan", hints=True, lookahead=True)
    table.reset(seed=4)
    assert table.obs_shape == (FLAT_SIZE + N_HINTS + la.N_LOOKAHEAD,)
    p = table.deciders()[0]
    obs = table.encode(p)
    seat = table.seat_of[p]
    np.testing.assert_array_equal(
        obs[FLAT_SIZE + N_HINTS :], la.lookahead_of_state(table.state, seat)
    )
    alone = Table("mazhan", lookahead=True)
    assert alone.obs_shape == (FLAT_SIZE + la.N_LOOKAHEAD,)
    with pytest.raises(ValueError, match="look-ahead"):
        Table("madiao", lookahead=True)
    with pytest.raises(ValueError, match="look-ahead"):
        Table("mazhan", planes=True, lookahead=True)


def test_the_single_agent_env_and_the_policy_bot_agree() -> None:
    """The observation a policy bot builds from a view is the environment's (but for who
    claimed each discard, which a view built by the bot's helper leaves at zero)."""
    env = PaijuSingleEnv("mazhan", opponents="greedy", hints=True, lookahead=True)
    obs, _ = env.reset(seed=5)
    assert env.observation_space.shape == obs.shape == (FLAT_SIZE + N_HINTS + la.N_LOOKAHEAD,)
    rng = random.Random(5)
    enc = MazhanEncoder()
    steps = 0
    done = False
    while not done:
        table = env.table
        seat = SEATS[table.seat_of[env.me]]
        legal = table.legal(env.me)
        built = observation_of_view("mazhan", observe(table.state, seat), enc, True, legal, True)
        np.testing.assert_array_equal(obs[FLAT_SIZE:], built[FLAT_SIZE:])
        obs, _r, done, _t, _i = env.step(rng.choice(legal))
        steps += 1
    assert steps > 5


def test_the_skip_policy_feeds_the_features_to_the_action_layer(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="needs the [rl] extra")
    import torch
    from sb3_contrib import MaskablePPO

    from paiju.env.features import ScaledFlat, SkipPolicy, lookahead_slice

    env = PaijuSingleEnv("mazhan", opponents="greedy", hints=True, lookahead=True)
    kwargs: dict[str, Any] = {
        "net_arch": [16],
        "features_extractor_class": ScaledFlat,
        "features_extractor_kwargs": {"game": "mazhan", "hints": True, "lookahead": True},
        "skip": lookahead_slice("mazhan"),
    }
    model = MaskablePPO(SkipPolicy, env, n_steps=32, batch_size=32, policy_kwargs=kwargs)
    head: Any = model.policy.action_net
    assert (head.hidden, head.channels, head.n_actions) == (16, 6, 128)
    path = tmp_path / "p.zip"
    model.save(str(path))
    loaded = MaskablePPO.load(str(path), device="cpu")
    obs, _ = env.reset(seed=1)
    with torch.no_grad():
        a = model.policy.obs_to_tensor(obs)[0]
        mine: Any = model.policy.get_distribution(a).distribution
        theirs: Any = loaded.policy.get_distribution(a).distribution
        np.testing.assert_allclose(mine.logits.numpy(), theirs.logits.numpy(), rtol=1e-6)
