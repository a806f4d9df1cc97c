"""Hidden information, for spectators (issue 36; rules, end of Mazhan §5): at every step of
seeded hands, change everything a seat may not know, for each seat in turn and for two at
once (so every hand, the wall's or stock's order, concealed kongs' and face-down cards'
faces, who may claim and what they decided all change), and check that the spectators'
view (:func:`paiju.server.table.spectate.public_json`, what the table sends them) does not
change. The claim pause's view (what a seat not answering a window is shown) looks the same
to a spectator as the window it stands for, whether or not a seat may claim."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games import Game, game
from paiju.server.table.spectate import public_json
from tests.madiao import test_hidden_information as madiao_hidden
from tests.mazhan import test_hidden_information as mazhan_hidden

MAZHAN = game("mazhan")
MADIAO = game("madiao")


def check(g: Game[Any, Any, Any, Any], hidden: ModuleType, seed: int) -> int:
    """Every step of the seeded hand of ``g``: the spectators' view unchanged by what each
    seat hides (``hidden``: the game's hidden-information test module, its steps and its
    perturbations), and the claim pause the same to them as the window it stands for."""
    rng = random.Random(seed)
    checked = 0
    for s, a, s2, _events in hidden.hand_steps(seed, rng):
        seen = public_json(g, s)
        assert seen is not None and b'"hand"' not in seen and b'"legal"' not in seen
        for v in range(4):
            other = hidden.perturb(s, v, rng)
            assert public_json(g, other) == seen, (seed, str(a), v)
            if v == 0:  # every seat's hidden tiles or cards at once
                both = hidden.perturb(other, 2, rng)
                assert public_json(g, both) == seen, (seed, str(a), v)
        pause = g.settling(s, a)
        if pause is not None and s2.phase.value in ("claim", "rob"):
            # the pause after a discard (what a seat that cannot claim is shown), and the
            # window a claimer answers meanwhile: the same to a spectator
            assert public_json(g, pause[0]) == public_json(g, s2), (seed, str(a))
        checked += 1
    return checked


def check_mazhan(seed: int) -> int:
    return check(MAZHAN, mazhan_hidden, seed)


def check_madiao(seed: int) -> int:
    return check(MADIAO, madiao_hidden, seed)


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_nothing_any_seat_hides_changes_what_a_mazhan_spectator_sees(seed: int) -> None:
    assert check_mazhan(seed) > 0


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_nothing_any_seat_hides_changes_what_a_ma_diao_spectator_sees(seed: int) -> None:
    assert check_madiao(seed) > 0
