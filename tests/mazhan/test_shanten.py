"""Shanten with ★: −1 exactly for complete hands, and one draw moves it by at most one."""

from __future__ import annotations

import gc
import hashlib
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import paiju.mazhan.bots  # noqa: F401  (registers the bots)
from paiju.bots.base import make_bot
from paiju.bots.driver import run_hand
from paiju.games import game
from paiju.mazhan import shanten as shanten_module
from paiju.mazhan.hand import is_complete_counts
from paiju.mazhan.shanten import (
    _BEST,
    _HONOR,
    _NUMBER,
    _READINGS,
    _combine,
    _readings_of,
    _suit_key,
    shanten,
    shanten_each_plus,
)
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


def _reference(counts: list[int], melds: int, wilds: int) -> int:
    """Shanten with every suit read by recursion (no shipped table, nothing kept)."""
    memo: dict[tuple[bytes, bool], Any] = {}
    key = bytes(counts)
    a = _readings_of(key[0:9], False, memo)
    b = _readings_of(key[9:18], False, memo)
    c = _readings_of(key[18:27], False, memo)
    d = _readings_of(key[27:34], True, memo)
    return max(-1, _combine(a, b, c, d, 5 - melds) - wilds)


def test_the_shipped_suit_tables_read_every_honour_suit_and_numbers_as_the_recursion() -> None:
    memo: dict[tuple[bytes, bool], Any] = {}
    for counts in itertools.product(range(5), repeat=7):
        number = _HONOR[_suit_key(counts)]
        if sum(counts) > 17:
            assert number == 255
        else:
            assert _READINGS[number] == _readings_of(bytes(counts), True, memo)
    rng = random.Random(40)
    for _ in range(20_000):
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        number = _NUMBER[_suit_key(counts)]
        if sum(counts) > 17:
            assert number == 255  # outside the tables: read by recursion
        else:
            assert _READINGS[number] == _readings_of(bytes(counts), False, memo)


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((1, 2, 4, 5, 7, 8, 13, 14, 16, 17)))
def test_shanten_equals_the_recursion_on_any_hand(seed: int, size: int) -> None:
    hand = random_hand(random.Random(seed), size, seed % 4 + 1)
    melds = (17 - size) // 3
    counts = list(hand.counts)
    assert shanten(counts, melds, hand.wilds) == _reference(counts, melds, hand.wilds)


def test_a_fifth_copy_is_read_by_recursion() -> None:
    counts = [5, 1, 1] + [0] * 31  # never in a real hand: outside the shipped tables
    assert shanten(counts, 3) == _reference(counts, 3, 0)


def test_the_kept_answers_are_bounded() -> None:
    rng = random.Random(3)
    for _ in range(3 * shanten_module._SUIT_SIZE // 1000):
        for _ in range(1000):
            counts = [0] * 34
            for _ in range(16):
                counts[rng.randrange(34)] += 1
            if max(counts) <= 4:
                shanten(counts, 0)
        assert all(len(t) <= shanten_module._BEST_SIZE for t in _BEST.values())
        assert len(shanten_module._COMBINED) <= shanten_module._COMBINE_SIZE
        assert len(shanten_module._NUMBER_SUITS) <= shanten_module._SUIT_SIZE


def test_the_strong_bot_plays_as_before_the_tables() -> None:
    # the actions of 12 seeded hands of four strong bots, as main played them before the
    # shanten tables were shipped and bounded (its digest then)
    digest = hashlib.sha256()
    g = game("mazhan")
    for seed in range(12):
        bots = [make_bot("mazhan", "strong") for _ in range(4)]
        state = g.new_hand(g.default_ruleset(), seed, g.first_deal(random.Random(seed)).setup)
        _, actions = run_hand(g, state, bots, seed)
        digest.update(" ".join(map(str, actions)).encode())
    assert digest.hexdigest()[:16] == "e4ca80f67902f004"


@settings(max_examples=1000, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((1, 4, 7, 10, 13, 16)))
def test_each_tile_added_in_turn_is_shanten_of_each_hand(seed: int, size: int) -> None:
    rng = random.Random(seed)
    hand = random_hand(rng, size, seed % 4 + 1)
    melds = (16 - size) // 3
    counts = list(hand.counts)
    faces = [f for f in range(34) if f != 31 and counts[f] < 4]
    rng.shuffle(faces)
    plus = [[*counts[:f], counts[f] + 1, *counts[f + 1 :]] for f in faces]
    expected = [shanten(c, melds, hand.wilds) for c in plus]
    assert shanten_each_plus(counts, faces, melds, hand.wilds) == expected


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_fifth_copy_or_an_overfull_suit_is_read_the_slow_way_alike(seed: int) -> None:
    """Faces the tables cannot take one more of (a fifth copy; a suit already at its most
    tiles) give what the slow reading of each hand gives."""
    rng = random.Random(seed)
    counts = [0] * 34
    for f in rng.sample(range(27), 3):
        counts[f] = 4
    suit = rng.randrange(3)
    while sum(counts[9 * suit : 9 * suit + 9]) < 17:
        f = 9 * suit + rng.randrange(9)
        counts[f] = min(4, counts[f] + 1)
    faces = [f for f in range(34) if f != 31]
    rng.shuffle(faces)
    plus = [[*counts[:f], counts[f] + 1, *counts[f + 1 :]] for f in faces]
    assert shanten_each_plus(counts, faces) == [shanten(c) for c in plus]


def test_the_shipped_table_is_whole_and_a_damaged_one_is_refused() -> None:
    """The package's table unpacks (its hash holds); cut short, one byte changed, or another
    file, it is refused rather than read wrong."""
    from importlib import resources

    module = shanten_module
    blob = resources.files("paiju.mazhan").joinpath("data", "shanten_suits.bin").read_bytes()
    assert module.unpack_suit_tables(blob) is not None
    flipped = bytearray(blob)
    flipped[len(flipped) // 2] ^= 0xFF
    for damaged in (blob[: len(blob) // 2], bytes(flipped), b"", b"PNG\r\n" + blob[5:]):
        assert module.unpack_suit_tables(damaged) is None


def test_a_missing_table_is_built_afresh_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """A broken install (the file gone, unreadable) warns and builds the tables: the answers
    are the same, only slower to start; it never fails the import."""
    from types import SimpleNamespace

    module = shanten_module

    class Gone:
        def joinpath(self, *_: str) -> Gone:
            return self

        def read_bytes(self) -> bytes:
            raise PermissionError("denied")

    built = (b"n", b"h", ())
    monkeypatch.setattr(module, "resources", SimpleNamespace(files=lambda _package: Gone()))
    monkeypatch.setattr(module, "build_suit_tables", lambda: built)
    with pytest.warns(RuntimeWarning, match="cannot be read .*PermissionError.*Reinstall"):
        assert module._tables.__wrapped__() == built


def test_a_face_outside_the_34_is_a_clear_error() -> None:
    c = [0] * 34
    for bad in ([34], [2, -1]):
        with pytest.raises(ValueError, match="a face is 0–33"):
            shanten_each_plus(c, bad)
    assert shanten_each_plus(c, []) == []
