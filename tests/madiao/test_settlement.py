"""Ma Diao rules §3.4–§3.5 and §4.8: the 吊 table row by row, bonuses, zero-sum."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.games import game
from paiju.madiao.cards import ALL_CARDS, parse_cards
from paiju.madiao.scoring import diao, diao_name, settle
from paiju.madiao.seats import SEATS, Seat

H = Fraction(1, 2)
DIAO_TABLE = [
    ((8, 0, 0, 0), (3, -1, -1, -1), "獨吊"),
    ((7, 1, 0, 0), (3, -1, -1, -1), "獨吊"),
    ((6, 1, 1, 0), (3, -1, -1, -1), "獨吊"),
    ((5, 1, 1, 1), (3, -1, -1, -1), "獨吊"),
    ((6, 2, 0, 0), (2, 0, -1, -1), "獨吊"),
    ((5, 2, 1, 0), (2, 0, -1, -1), "獨吊"),
    ((4, 2, 1, 1), (2, 0, -1, -1), "獨吊"),
    ((4, 2, 2, 0), (1, 0, 0, -1), "獨吊"),
    ((3, 2, 2, 1), (1, 0, 0, -1), "獨吊"),
    ((4, 3, 1, 0), (1, 1, -1, -1), "各吊"),
    ((5, 3, 0, 0), (1, 1, -1, -1), "各吊"),
    ((4, 4, 0, 0), (1, 1, -1, -1), "各吊"),
    ((3, 3, 1, 1), (1, 1, -1, -1), "各吊"),
    ((3, 3, 2, 0), (H, H, 0, -1), "合吊"),
    ((2, 2, 2, 2), (0, 0, 0, 0), "四和氣"),
]


@pytest.mark.parametrize(
    ("tricks", "values", "name"), DIAO_TABLE, ids=["-".join(map(str, t)) for t, _, _ in DIAO_TABLE]
)
def test_diao_table_row(tricks: tuple[int, ...], values: tuple[Fraction, ...], name: str) -> None:
    for perm in set(itertools.permutations(range(4))):
        t = [tricks[p] for p in perm]
        assert diao(t) == [Fraction(values[p]) for p in perm]
    assert diao_name(tricks) == name


def test_every_split_of_eight_tricks_is_zero_sum() -> None:
    for t in itertools.product(range(9), repeat=4):
        if sum(t) == 8:
            assert sum(diao(t)) == 0


def test_bonuses_need_zhengben_and_bailao_cases() -> None:
    table = [parse_cards("9m1m"), parse_cards("8s"), parse_cards("bt5m"), parse_cards("3c")]
    s = settle(Seat.E, [2, 1, 4, 1], table, Seat.W, {})
    names = {seat.value: [b.name for b in s.seats[seat].bonuses] for seat in SEATS}
    assert names["E"] == ["賞上桌 九萬", "極上桌 一萬"]
    assert names["S"] == []  # 肩 上桌 but not 正本
    assert names["W"] == ["大活百"]
    s = settle(
        Seat.E,
        [2, 1, 4, 1],
        [parse_cards("9m1m"), parse_cards("8s"), parse_cards("5m4m"), parse_cards("3c")],
        Seat.W,
        {},
    )
    assert [b.name for b in s.seats[Seat.W].bonuses] == ["小活百"]
    s = settle(Seat.E, [2, 1, 4, 1], table, Seat.S, {})
    assert [b.name for b in s.seats[Seat.S].bonuses] == ["死百"]


def test_banker_against_each_sanjia_and_qiaomen() -> None:
    # W (a 散家) has 大活百 = 3: the banker pays 3 (less the banker's own bonus), and 敲門:
    # S and N pay W 1 each
    table = [[], [], parse_cards("bt5m"), []]
    s = settle(Seat.E, [2, 2, 2, 2], table, Seat.W, {Seat.E: 1})
    net = {k.value: v for k, v in s.net.items()}
    assert net == {"E": Fraction(0 + 1 * 3 - 3), "S": -1 - 1, "W": 3 - 1 + 2, "N": -1 - 1}
    assert sum(s.net.values()) == 0
    assert [(a.value, b.value, z) for a, b, z in s.qiaomen] == [("S", "W", 1), ("N", "W", 1)]


SPLITS = [list(t) for t in itertools.product(range(9), repeat=4) if sum(t) == 8]


@given(
    st.sampled_from(SPLITS),
    st.permutations(list(range(40))),
    st.sampled_from(SEATS),
    st.lists(st.integers(0, 40), min_size=4, max_size=4),
)
def test_settlement_is_always_zero_sum(
    tricks: list[int], deck: list[int], banker: Seat, chong: list[int]
) -> None:
    table = []
    k = 0
    for t in tricks:
        table.append([ALL_CARDS[c] for c in deck[k : k + t]])
        k += t
    holder = SEATS[deck.index(8) % 4]
    s = settle(banker, tricks, table, holder, dict(zip(SEATS, chong, strict=True)))
    assert sum(s.net.values()) == 0


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[1-9][tmsc]|[wqb]t|hc|0c)(?![A-Za-z0-9])")


def test_a_settlement_names_its_cards_in_english_in_its_english_lines() -> None:
    # a player reading the English settlement meets "Empty Coin", never the code "0c"
    g = game("madiao")
    checked = 0
    for seed in range(60):
        state = g.new_hand(g.default_ruleset(), seed, {})
        rng = random.Random(seed)
        while not g.is_over(state):
            seat = g.acting(state)[0]
            state, _ = g.apply(state, rng.choice(g.legal_actions(state, seat)))
        result = g.observe(state, g.seats[0]).to_json()["result"]
        english = [b["en"] for s in result["seats"].values() for b in s["bonuses"]]
        english += [p["en"] for p in result["penalties"]]
        for text in english:
            assert not CARD_CODE.search(text), text
            checked += 1
    assert checked > 20


def test_a_bonus_for_a_card_on_the_table_names_it_and_its_role() -> None:
    assert ALL_CARDS[39].name_en == "Empty Coin" and str(ALL_CARDS[39]) == "0c"
    assert {c.name_en for c in ALL_CARDS} >= {"Myriad Myriads", "1 String", "Half Coin"}
    assert len({c.name_en for c in ALL_CARDS}) == 40
