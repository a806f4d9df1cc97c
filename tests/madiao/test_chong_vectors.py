"""Ma Diao rules §4: every test vector of §4.9 by name, and the §6 clarifications."""

from __future__ import annotations

import pytest

from paiju.errors import InvalidHandError
from paiju.madiao.cards import Card, parse_cards
from paiju.madiao.chong import Group, base_roles, chong_points, parse_chong_input, score_sequence
from paiju.madiao.rules import run_chong

# (table, draws, points per draw) in suit 貫 = WAN (m) and 十字 (t), as §4.9 lists them.
VECTORS = {
    "T1": ("9m", "87654321m", [2, 2, 2, 2, 2, 2, 2, 3]),
    "T2": ("9m", "76854m", [1, 1, 2, 2, 2]),
    "T3": ("9m", "12345678m", [3, 2, 2, 2, 2, 2, 2, 2]),
    "T4": ("9m", "23145m", [1, 1, 3, 2, 2]),
    "T5": ("8m", "97654321m", [3, 2, 2, 2, 2, 2, 2, 3]),
    "T6": ("8m", "7m", [0]),
    "T7": ("8m", "91234567m", [3, 3, 2, 2, 2, 2, 2, 2]),
    "T8": ("8m", "923145m", [3, 1, 1, 3, 2, 2]),
    "T9": ("1m", "98765432m", [3, 2, 2, 2, 2, 2, 2, 2]),
    "T10": ("1m", "23456789m", [2, 2, 2, 2, 2, 2, 2, 3]),
    "T11": ("98m", "1257m", [5, 4, 2, 4]),
    "T12": ("91m", "8253m", [4, 4, 2, 4]),
    "T13": ("981m", "7253m", [6, 6, 3, 6]),
    "T14": ("987m", "1632m", [7, 6, 3, 6]),
    "T15": ("98765m", "3124m", [5, 11, 10, 10]),
    "T16": ("976m", "815m", [8, 7, 6]),
    "X1": ("bt", "2937t", [5, 2, 2, 1]),
    "X2": ("9t", "8t", [0]),
    "X3": ("9t", "b826t", [5, 2, 2, 1]),
    "X4": ("2t", "q396t", [5, 2, 2, 1]),
}
TOTALS = {
    "T1": 17,
    "T2": 8,
    "T3": 17,
    "T4": 9,
    "T5": 18,
    "T6": 0,
    "T7": 18,
    "T8": 12,
    "T9": 17,
    "T10": 17,
    "T11": 15,
    "T12": 14,
    "T13": 21,
    "T14": 22,
    "T15": 36,
    "T16": 21,
    "X1": 10,
    "X2": 0,
    "X3": 10,
    "X4": 10,
}


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_vector(name: str) -> None:
    table, draws, points = VECTORS[name]
    assert score_sequence(table, draws) == points
    assert sum(points) == TOTALS[name]


def test_vector_X5_a_top_card_that_captured_bailao_counts_twice() -> None:
    assert score_sequence("qt", "29t", captured={"qt": "bt"}) == [10, 4]


def test_the_same_vectors_in_the_other_ordinary_suits() -> None:
    # 索 runs like 萬; 文錢 has eleven cards, top to bottom 0 h 1 … 9
    assert score_sequence("9s", "87654321s") == [2, 2, 2, 2, 2, 2, 2, 3]
    assert score_sequence("0c", "h123456789c") == [2] * 9 + [3]
    assert score_sequence("hc", "0c9c") == [3, 3]


def test_clarification_a_two_card_jian_ling() -> None:
    # 9 and 7, missing 8: drawing 8 scores 2 (9, row 3) + 3 (7 below 8, row 4)
    assert score_sequence("97m", "8m") == [5]


def test_clarification_ninety_beside_bailao_is_active_at_once() -> None:
    # 百老 → 2 for 九十 (always), 九十 → 2 for 二十
    assert score_sequence("b9t", "2t") == [5 + 2]
    assert score_sequence("b9t", "wt") == [2]  # top vs top 2; 九十 does not 沖 紅萬


def test_clarification_ershi_scores_five_for_each_top_card() -> None:
    assert score_sequence("2t", "wqbt") == [5, 5, 5]


def test_clarification_the_capture_multiplier_applies_to_top_versus_top() -> None:
    assert score_sequence("wt", "bt", captured={"wt": "qt"}) == [4]


def test_a_disconnected_card_is_never_rescored_when_the_gap_fills() -> None:
    g = Group.parse("9m")
    assert [g.take(c) for c in parse_cards("76m")] == [1, 1]
    assert g.take(Card.parse("8m")) == 2  # the 7 and 6 keep their 1 each


def test_a_zero_is_duan_chong_and_the_card_is_not_kept() -> None:
    g = Group.parse("8m")
    assert g.take(Card.parse("7m")) == 0 and g.chonged == []


def test_flow_T6_under_choice_a_passes_the_card_to_the_next_player_who_can_score_it() -> None:
    groups = [Group.parse("8m"), Group.parse("3s"), Group.parse("9m"), Group.parse("")]
    draws = run_chong(parse_cards("7m2s"), 0, groups, "offer")
    first, second = draws
    assert (first.drawer.value, first.scorer and first.scorer.value, first.points) == ("E", "W", 1)
    assert second.drawer.value == "W"  # the claimer draws next
    dead = run_chong(parse_cards("7m"), 0, groups[:1] + [Group.parse("")] * 3, "offer")
    assert dead[0].scorer is None
    b = run_chong(
        parse_cards("7m3m"),
        0,
        [Group.parse("8m"), Group.parse(""), Group.parse("9m"), Group.parse("")],
        "dead",
    )
    assert b[0].scorer is None and b[1].drawer.value == "S"  # CHOICE B: the turn passes


def test_shengdai_promotes_by_the_mian_card() -> None:
    roles = base_roles().shengdai(Card.parse("9m"))  # 賞 面張: 八萬 acts as 賞
    assert chong_points(Card.parse("1m"), parse_cards("8m"), [], roles=roles) == 3
    roles = base_roles().shengdai(Card.parse("1m"))  # 極 面張: 二萬 acts as 極
    assert chong_points(Card.parse("9m"), parse_cards("2m"), [], roles=roles) == 3
    roles = base_roles().shengdai(Card.parse("bt"))  # 九十 leads at once as top group
    assert chong_points(Card.parse("2t"), parse_cards("9t"), [], roles=roles) == 5


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": "9x", "draws": "1m"}, "table: unknown suit letter"),
        ({"table": "9m9m", "draws": "1m"}, "appears twice"),
        ({"table": "9m", "draws": "9m"}, "already on the table"),
        ({"table": "9m", "draws": "1m1m"}, "drawn twice"),
        ({"table": "bt", "captured": {"bt": "qt"}, "draws": "2t"}, "cannot capture the higher"),
        ({"table": "qt", "captured": {"qt": "9t"}, "draws": "2t"}, "not a 十字 top card"),
        ({"table": "qt", "captured": {"wt": "bt"}, "draws": "2t"}, "on the table"),
        ({"table": "qt", "captured": {"qt": "bt"}, "draws": "bt"}, "appears elsewhere"),
        ({"table": "9m"}, "missing field 'draws'"),
        ({"table": 9, "draws": "1m"}, "table: expected a card string"),
        ({"table": "9m", "draws": "1m", "x": 1}, "unknown field"),
    ],
)
def test_bad_input_is_a_clear_error(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidHandError, match=message):
        parse_chong_input(data)
