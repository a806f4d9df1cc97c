"""The integer/array encoding (paiju.fast.encoding): round trips on hands from real play."""

from __future__ import annotations

import random

import numpy as np
import pytest

from paiju.errors import InvalidHandError
from paiju.fast.batch import is_complete_counts_batch
from paiju.fast.encoding import (
    actions_to_codes,
    arrays_to_hands,
    codes_to_actions,
    encode_states,
    hands_to_arrays,
    split_wilds,
)
from paiju.mazhan.hand import is_complete_counts
from paiju.mazhan.rules import (
    Phase,
    Ruleset,
    State,
    acting,
    apply,
    legal_actions,
    legal_actions_for,
    new_hand,
)
from paiju.mazhan.tiles import ALL_TILES, format_tiles


def _states(seeds: range) -> list[State]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = new_hand(Ruleset(), seed)
        out.append(s)
        while s.phase is not Phase.OVER:
            legal = legal_actions_for(s, acting(s)[0])
            s, _ = apply(s, legal[rng.randrange(len(legal))])
            out.append(s)
    return out


def test_states_hands_and_actions_round_trip() -> None:
    states = _states(range(6))
    arrays = encode_states(states)
    for i, s in enumerate(states):
        assert arrays["hands"][i].tolist() == s.hands
        assert arrays["wall_left"][i] == s.tail - s.head
        for k in range(4):
            n = len(s.discards[k])
            assert arrays["rivers"][i, k, :n].tolist() == s.discards[k]
            assert (arrays["rivers"][i, k, n:] == -1).all()
            assert arrays["claimed"][i, k, :n].tolist() == s.claimed_by[k]
            assert [tuple(m) for m in arrays["melds"][i, k] if m[0] >= 0] == [
                (["chow", "pung", "kong", "ckong"].index(m.kind.value), m.tiles[0].index)
                for m in s.melds[k]
            ]
            assert int(arrays["bonus"][i, k].sum()) == len(s.bonus[k])
        # the engine's rows, ★ split off, check as the engine's hands do
        naturals, wilds = split_wilds(arrays["hands"][i], s.wild)
        for k in range(4):
            assert naturals[k].tolist() == [
                0 if f == s.wild else c for f, c in enumerate(s.hands[k])
            ]
            assert wilds[k] == s.hands[k][s.wild]
        got = is_complete_counts_batch(naturals, wilds).tolist()
        assert got == [is_complete_counts(naturals[k].tolist(), int(wilds[k])) for k in range(4)]
        legal = legal_actions(s)
        codes, seats = actions_to_codes(legal)
        assert codes_to_actions(codes, seats) == legal


def test_hands_round_trip_through_strings_and_tiles() -> None:
    rng = random.Random(3)
    wild = ALL_TILES[22]
    hands = []
    for _ in range(200):
        pool = [f for f in range(34) if f != 31 for _ in range(3 if f == 22 else 4)]
        hands.append(
            format_tiles(sorted(ALL_TILES[f] for f in rng.sample(pool, rng.randrange(1, 18))))
        )
    counts, wilds = hands_to_arrays(hands, wild=wild)
    again = arrays_to_hands(counts, wilds, wild=wild)
    c2, w2 = hands_to_arrays(again, wild=wild)
    assert np.array_equal(counts, c2) and np.array_equal(wilds, w2)


def test_bad_input_is_named() -> None:
    with pytest.raises(InvalidHandError, match="bonus tile"):
        hands_to_arrays(["123m5z"])
    with pytest.raises(ValueError, match="34"):
        arrays_to_hands([[0] * 33], [0])
    with pytest.raises(ValueError, match="no wild face"):
        arrays_to_hands([[0] * 34], [1])
    with pytest.raises(ValueError, match="0–127"):
        codes_to_actions([128], [0])
    with pytest.raises(ValueError, match="seat"):
        codes_to_actions([1], [4])
