"""Ma Diao rules §0–§1: the notation, ranks, roles and flags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.errors import NotationError
from paiju.madiao.cards import ALL_CARDS, Card, Role, Suit, format_cards, parse_cards


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=40))
def test_format_then_parse_is_the_sorted_multiset(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert sorted(parse_cards(text)) == sorted(cards)
    assert format_cards(parse_cards(text)) == text


@given(st.sampled_from(ALL_CARDS))
def test_one_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card)) == card  # the repr is pasteable by design


def test_forty_cards_in_four_suits() -> None:
    sizes = {s: sum(1 for c in ALL_CARDS if c.suit is s) for s in Suit}
    assert sizes == {Suit.SHI: 11, Suit.WAN: 9, Suit.SUO: 9, Suit.WEN: 11}


def test_coins_run_the_other_way() -> None:
    order = [
        c.name_zh
        for c in sorted((c for c in ALL_CARDS if c.suit is Suit.WEN), key=lambda c: -c.rank)
    ]
    assert order[:4] == ["空沒文", "半文", "一文", "二文"] and order[-1] == "九文"


def test_roles_and_flags_of_section_1() -> None:
    def role(text: str) -> Role:
        return Card.parse(text).role

    assert [role(x) for x in ("wt", "qt", "bt", "9t", "5t", "3t", "2t")] == [
        Role.SHANG,
        Role.JIAN,
        Role.BAI,
        Role.DING,
        Role.QING,
        Role.FUJI,
        Role.JI,
    ]
    assert [role(x) for x in ("0c", "hc", "1c", "5c", "8c", "9c")] == [
        Role.SHANG,
        Role.JIAN,
        Role.DING,
        Role.QING,
        Role.FUJI,
        Role.JI,
    ]
    red = {str(c) for c in ALL_CARDS if c.is_red}
    assert red == {"wt", "qt", "bt", "9m", "8m", "9s", "8s", "0c", "hc"}
    stamped = {str(c) for c in ALL_CARDS if c.is_stamped}
    assert stamped == {"wt", "qt", "bt", "2t", "9m", "1m", "9s", "1s", "0c", "9c"}
    assert {str(c) for c in ALL_CARDS if c.is_fun} == {"2t", "1m", "1s", "9c"}
    assert Card.parse("9m").nicknames[0] == "九貫"


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("1t", 0, "not a face of 十字"),
        ("0m", 0, "not a face of 萬字"),
        ("9x", 1, "unknown suit letter"),
        ("98", 0, "lack a suit letter"),
        ("m", 0, "no faces before it"),
        ("98 7m", 2, "whitespace inside a group: faces '98'"),
        ("9m,8m", 2, "unexpected character"),
        ("wc", 0, "not a face of 文錢"),
    ],
)
def test_bad_notation(text: str, position: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert info.value.position == position and fragment in str(info.value)


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("9m" * 50_000 + "x", 100_000, "unknown suit letter 'x' in '…m9m9m"),
        ("9m" + "9" * 100_000, 2, "faces '9999999999"),
        ("9" * 100_000 + " 9m", 100_000, "whitespace inside a group: faces '999"),
    ],
)
def test_a_long_bad_string_is_quoted_short(text: str, position: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    message = str(info.value)
    assert len(message) < 250, message[:300]
    assert fragment in message and f"({len(text):,} characters)" in message
    assert f"at position {position}" in message
    assert info.value.text == text


def test_whitespace_may_separate_cards_and_groups_and_format_stays_canonical() -> None:
    from paiju.madiao.rules import Action

    assert format_cards(parse_cards(" 9m 8m\t2t  0c ")) == format_cards(parse_cards("98m2t0c"))
    assert [str(c) for c in parse_cards("9m 8m")] == ["9m", "8m"]
    assert str(Action.parse("  W  zhuo   wt ")) == "W zhuo wt"
    with pytest.raises(NotationError) as info:
        Action.parse("W zhuo w t")
    assert info.value.position == 8 and "whitespace inside a group" in str(info.value)
