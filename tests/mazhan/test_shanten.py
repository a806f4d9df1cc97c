"""Shanten with ★: −1 exactly for complete hands, and one draw moves it by at most one."""

from __future__ import annotations

import gc
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.mazhan.hand import is_complete_counts
from paiju.mazhan.shanten import _BEST, shanten
from tests.mazhan.test_hand import random_hand


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((2, 5, 8, 11, 14, 17)), st.integers(1, 4))
def test_minus_one_exactly_when_complete(seed: int, size: int, suits: int) -> None:
    hand = random_hand(random.Random(seed), size, suits)
    melds = (17 - size) // 3
    assert (shanten(hand.counts, melds, hand.wilds) == -1) == is_complete_counts(
        hand.counts, hand.wilds
    )


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((1, 4, 7, 10, 13, 16)))
def test_one_draw_changes_shanten_by_at_most_one(seed: int, size: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng, size, 2)
    melds = (16 - size) // 3
    before = shanten(hand.counts, melds, hand.wilds)
    counts = list(hand.counts)
    face = rng.choice([i for i in range(34) if i != 31 and counts[i] < 4])
    counts[face] += 1
    after = shanten(counts, melds, hand.wilds)
    assert before - 1 <= after <= before


def test_bad_counts_get_a_clear_error() -> None:
    with pytest.raises(ValueError, match="34 faces"):
        shanten([1, 1, 1])
    with pytest.raises(ValueError):
        shanten([-1] + [0] * 33)


def test_the_cache_is_out_of_the_collectors_walks() -> None:
    # a server's bots ask about tens of thousands of new hands a second: the kept answers
    # must not be objects the garbage collector walks (paiju.mazhan.shanten._BEST)
    rng = random.Random(7)
    for _ in range(200):
        counts = [0] * 34
        for _ in range(14):
            counts[rng.randrange(34)] += 1
        shanten(counts, 1)
    assert _BEST[4]
    assert not any(gc.is_tracked(table) for table in _BEST.values())
