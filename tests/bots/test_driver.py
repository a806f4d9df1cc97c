"""paiju.bots.driver: match seeds are whole numbers ≥ 0."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from paiju.bots.driver import check_seed, iter_match, play_hand, play_match, run_hand
from paiju.bots.uniform import RandomBot
from paiju.games import game
from paiju.mazhan.rules import Ruleset

BOTS = [RandomBot()] * 4


@pytest.mark.parametrize("seed", [-1, -5])
def test_a_negative_seed_is_refused_not_folded_onto_its_positive_twin(seed: int) -> None:
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        play_match(Ruleset(), BOTS, seed=seed)
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        next(iter_match(Ruleset(), BOTS, seed, 1))
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        play_hand(Ruleset(), BOTS, seed=seed)
    g = game("mazhan")
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        run_hand(g, g.new_hand(g.default_ruleset(), 1, {}), BOTS, seed)


@pytest.mark.parametrize("seed", ["abc", 1.5, 2.0, True, None])
def test_a_seed_that_is_not_an_integer_is_a_type_error(seed: Any) -> None:
    with pytest.raises(TypeError, match="seed must be a whole number"):
        play_match(Ruleset(), BOTS, seed=seed)
    with pytest.raises(TypeError, match="seed must be a whole number"):
        play_hand(Ruleset(), BOTS, seed=seed)


def test_a_numpy_integer_seed_is_the_same_as_the_int() -> None:
    assert check_seed(np.int64(3)) == 3 and type(check_seed(np.uint32(3))) is int
    assert play_match(Ruleset(), BOTS, seed=np.int64(3), hands=2) == play_match(
        Ruleset(), BOTS, seed=3, hands=2
    )
