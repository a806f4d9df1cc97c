"""Rules §4 and §6: complete hands with ★, decompositions and waits."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import InvalidHandError, NotationError
from paiju.mazhan.hand import (
    GroupKind,
    HandTiles,
    decompositions,
    is_complete,
    is_complete_counts,
    is_complete_keys,
    suit_keys,
    waiting_faces,
)
from paiju.mazhan.tables import build_tables, need_tables
from paiju.mazhan.tiles import PLAYABLE_FACES, Tile, parse_tiles
from tests.mazhan.reference import reference_complete

SIZES = (2, 5, 8, 11, 14, 17)


def random_hand(rng: random.Random, size: int, suits: int = 4) -> HandTiles:
    """Random tiles from a few suits (to meet complete hands often) and 0–3 ★."""
    wild = rng.choice(PLAYABLE_FACES)
    wilds = rng.randrange(min(3, size) + 1)
    chosen_suits = rng.sample(range(4), rng.randrange(1, suits + 1))
    pool = [t for t in PLAYABLE_FACES if t != wild and min(t.index // 9, 3) in chosen_suits]
    counts: Counter[Tile] = Counter()
    tiles: list[Tile] = [wild] * wilds
    while len(tiles) < size:
        t = rng.choice(pool)
        if counts[t] < 4:
            counts[t] += 1
            tiles.append(t)
    return HandTiles.parse(tiles, wild)


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(SIZES), st.integers(1, 4))
def test_table_check_agrees_with_a_plain_search(seed: int, size: int, suits: int) -> None:
    hand = random_hand(random.Random(seed), size, suits)
    expected = reference_complete(hand.counts, hand.wilds)
    assert is_complete_counts(hand.counts, hand.wilds) == expected
    assert bool(decompositions(hand)) == expected


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(SIZES))
def test_every_decomposition_uses_exactly_the_tiles(seed: int, size: int) -> None:
    hand = random_hand(random.Random(seed), size, 2)
    for d in decompositions(hand):
        naturals: Counter[int] = Counter()
        wilds = 0
        pairs = 0
        for g in d.groups:
            wilds += g.wilds
            pairs += g.kind is GroupKind.PAIR
            naturals.update(t.index for t in g.naturals)
            if g.kind is GroupKind.CHOW:
                assert g.face is not None and g.face.is_suited and g.face.rank <= 7
        assert pairs == 1
        assert wilds == hand.wilds
        assert naturals == Counter({i: c for i, c in enumerate(hand.counts) if c})


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((1, 4, 7, 10, 13, 16)))
def test_waits_are_exactly_the_faces_that_complete(seed: int, size: int) -> None:
    hand = random_hand(random.Random(seed), size, 2)
    waits = set(waiting_faces(hand))
    for face in PLAYABLE_FACES:
        counts = list(hand.counts)
        if face == hand.wild:
            ok = hand.wilds < 3 and reference_complete(tuple(counts), hand.wilds + 1)
        elif counts[face.index] == 4:
            ok = False
        else:
            counts[face.index] += 1
            ok = reference_complete(tuple(counts), hand.wilds)
        assert (face in waits) == ok, face


def test_shipped_tables_equal_a_fresh_build() -> None:
    number, honor = build_tables()
    tables = need_tables()
    assert tables.number == number
    assert tables.honor == honor


@pytest.mark.parametrize(
    ("tiles", "wild", "complete"),
    [
        ("123m456p789s111z22z", None, True),  # §6: chows, a pung and a pair
        ("11122233344466677z", None, True),  # all honours: pungs and a pair
        ("1133m2244p5566s77z", None, False),  # seven pairs is not a Mazhan hand (§6)
        ("19m19p19s123467z1m", None, False),  # nor thirteen orphans
        ("123456789m1234s9p", "9p", True),  # 123s and 4s★ as the pair
        ("1m1112223334446667z", "1m", True),  # a ★ as the pair partner of 7z
        ("1m1m1m", "1m", False),  # three ★ alone are a set, not a set and a pair
        ("1m1m1m22z", "1m", True),  # three ★ as a set
        ("1111m", "9s", False),
        ("11123m", None, True),
        ("13m9s", "9s", False),  # four tiles are never complete
        ("13m9s77z", "9s", True),  # 1m★3m and the pair
    ],
)
def test_complete_hands_with_wilds(tiles: str, wild: str | None, complete: bool) -> None:
    hand = HandTiles.parse(tiles, wild)
    assert is_complete(tiles, wild) == complete
    assert reference_complete(hand.counts, hand.wilds) == complete


def test_a_wild_may_read_as_a_fifth_copy() -> None:
    # four natural 1m and a ★: 111m + 1m★ as the pair (decided in docs/rules-decisions.md)
    assert is_complete("1111m9s", wild="9s")


def test_bad_hands_are_errors() -> None:
    with pytest.raises(InvalidHandError, match="bonus tile"):
        is_complete("5z123m")
    with pytest.raises(InvalidHandError, match="5 copies"):
        is_complete("11111m")
    with pytest.raises(InvalidHandError, match="only three"):
        is_complete("9s9s9s9s", wild="9s")
    with pytest.raises(InvalidHandError, match="at most 17"):
        is_complete("123456789m123456789p")
    with pytest.raises(NotationError):
        is_complete("12x")
    with pytest.raises(InvalidHandError, match="cannot be the wild"):
        is_complete("11m", wild="1h")


def test_single_waits_of_the_seed_example() -> None:
    # §7 example 1: only 2p completes 1p3p 678p 789p 2p2p
    assert [str(t) for t in waiting_faces("1p3p678p789p2p2p")] == ["2p"]
    # a pair wait (example 5)
    assert [str(t) for t in waiting_faces("111s555p7m")] == ["7m"]


def test_fast_paths_agree() -> None:
    hand = HandTiles.parse("234m567p99s111z", None)
    tiles = parse_tiles("234m567p99s111z")
    assert len(tiles) == 11
    assert is_complete_keys(*suit_keys(hand.counts), 0)
    assert is_complete_counts(hand.counts, 0)
