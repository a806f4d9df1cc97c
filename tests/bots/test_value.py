"""The expert's value model: what a hand heads for, by the rules' scoring."""

from __future__ import annotations

import pytest

from paiju.mazhan.bots.value import HandValue, stake_doublings


def test_a_pure_suit_is_the_cap() -> None:
    assert HandValue.parse("123456789m123m11m").expected() == pytest.approx(400.0)


def test_each_tile_off_the_suit_lowers_the_flush_chance() -> None:
    values = [
        HandValue.parse(h, bonus="1h").expected()
        for h in ("123456789m1234m", "123456789m123m1p", "123456789m12m1p9p", "12345678m12m1p9p5s")
    ]
    assert values == sorted(values, reverse=True)
    assert values[0] > 2 * values[-1]


def test_sure_points_and_tai_follow_the_rules() -> None:
    # rules §7 example 2: West, [7z7z7z7z] (16), [3z3z3z] (4), [9s9s9s] (4), 2h and 4h (8)
    hand = HandValue.parse(
        "", bonus="2h4h", seat_number=3, melds=["kong 7777z", "pung 333z", "pung 999s"]
    )
    assert hand.sure_base() == 32
    assert hand.sure_tai() == 2


def test_a_pair_of_dragons_is_worth_more_with_copies_unseen() -> None:
    few = HandValue.parse("123m456p789s23s77z", bonus="1h")
    few.unseen = [4] * 34
    few.unseen[33] = 0
    many = HandValue.parse("123m456p789s23s77z", bonus="1h")
    assert many.expected() > few.expected()


def test_four_tai_is_the_cap() -> None:
    hand = HandValue.parse(
        "123m456p", seat_number=1, bonus="1h1j", melds=["pung 777z", "pung 666z"]
    )
    assert hand.sure_tai() == 4
    assert hand.expected() == pytest.approx(400.0)


def test_the_stake_grows_with_the_value_and_is_nought_at_a_plain_win() -> None:
    assert stake_doublings(30.0, dealer=True) == pytest.approx(0.0)
    assert stake_doublings(30.0, dealer=False) < stake_doublings(60.0, dealer=False)
    assert stake_doublings(60.0, dealer=False) < stake_doublings(400.0, dealer=False)


def test_a_non_winner_is_paid_by_its_melds_triplets_and_bonus_tiles() -> None:
    # rules §7 example 2: West's U is 160
    hand = HandValue.parse(
        "1m2m", bonus="2h4h", seat_number=3, melds=["kong 7777z", "pung 333z", "pung 999s"]
    )
    assert hand.as_loser() == 160
    assert HandValue.parse("123m456p").as_loser() == 0
    assert HandValue.parse("111m456p").as_loser() == 10  # a concealed triplet of 1m: 8
