"""Rules §1: the tile notation, strict parsing, canonical format, names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.errors import NotationError
from paiju.mazhan.tiles import (
    ALL_TILES,
    BONUS_TILES,
    PLAYABLE_FACES,
    Tile,
    format_tiles,
    parse_tiles,
)

tiles_lists = st.lists(st.sampled_from(ALL_TILES), max_size=40)


@given(tiles_lists)
def test_format_then_parse_is_the_sorted_multiset(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == sorted(tiles)


@given(tiles_lists)
def test_format_is_canonical(tiles: list[Tile]) -> None:
    text = format_tiles(tiles)
    assert format_tiles(parse_tiles(text)) == text


@given(st.sampled_from(ALL_TILES))
def test_one_tile_round_trips_through_str_and_repr(tile: Tile) -> None:
    assert Tile.parse(str(tile)) == tile
    assert eval(repr(tile)) == tile  # the repr is pasteable by design


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("123m456", 4, "lack a suit letter"),
        ("8z", 0, "8z is not a tile"),
        ("0m", 0, "0m is not a tile"),
        ("5h", 0, "5h is not a tile"),
        ("x", 0, "unknown suit letter 'x'"),
        ("12x", 2, "unknown suit letter 'x'"),
        ("m", 0, "no digits before it"),
        ("12 3m", 2, "whitespace inside a group: digits '12'"),
        ("1m 2", 3, "lack a suit letter"),
        ("1m,2m", 2, "unexpected character ','"),
        ("19m0p", 3, "0p is not a tile"),
    ],
)
def test_bad_notation_quotes_input_and_position(text: str, position: int, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert info.value.position == position
    assert info.value.text == text
    assert fragment in str(info.value)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("1m" * 1_000_000 + "x", 2_000_000, "unknown suit letter 'x' in '…m1m1m"),
        ("x" + "1m" * 1_000_000, 0, "unknown suit letter 'x' in 'x1m1m1m"),
        ("1m" + "1" * 1_000_000, 2, "digits '1111111111"),
        ("1" * 1_000_000 + " 1m", 1_000_000, "whitespace inside a group: digits '111"),
    ],
)
def test_a_long_bad_string_is_quoted_short(text: str, position: int, fragment: str) -> None:
    # the error of a 2 MB tile string is one short line: the part around the fault, cut
    # with "…", and the length
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    message = str(info.value)
    assert len(message) < 250, message[:300]
    assert fragment in message and f"({len(text):,} characters)" in message
    assert f"at position {position}" in message
    assert info.value.text == text and info.value.position == position


def test_counts_of_the_144_tiles() -> None:
    assert len(PLAYABLE_FACES) == 33
    assert sorted(str(t) for t in BONUS_TILES) == sorted(
        ["5z", "1h", "2h", "3h", "4h", "1j", "2j", "3j", "4j"]
    )
    total = 4 * len(PLAYABLE_FACES) + 4 + 8  # 白 ×4, flowers and seasons ×1
    assert total == 144


def test_terminal_and_honour_split() -> None:
    terminals = [t for t in PLAYABLE_FACES if t.is_terminal_or_honor]
    assert format_tiles(terminals) == "19m19p19s123467z"


def test_names() -> None:
    assert [t.name_zh for t in parse_tiles("1m9p5s1234567z")] == [
        "一萬",
        "九筒",
        "五索",
        "東",
        "南",
        "西",
        "北",
        "白",
        "發",
        "中",
    ]
    assert [t.name_zh for t in parse_tiles("1234h1234j")] == list("梅蘭菊竹春夏秋冬")
    assert Tile.parse("3h").name_en == "chrysanthemum (flower 3)"


def test_whitespace_may_separate_tiles_and_groups_and_format_stays_canonical() -> None:
    for text in ("123m 456p 789s", " 123m\t456p\n789s ", "1m 2m 3m 456p 7s8s 9s"):
        assert format_tiles(parse_tiles(text)) == "123m456p789s"
    assert parse_tiles("") == parse_tiles("   ") == []


def test_whitespace_in_melds_and_actions() -> None:
    from paiju.mazhan.actions import Action
    from paiju.mazhan.melds import Meld

    assert str(Meld.parse("pung   7z 7z 7z")) == "pung 777z"
    assert str(Action.parse("  S   chi  3m 4m 5m ")) == "S chi 345m"
    assert str(Action.parse("E discard\t5m")) == "E discard 5m"
    with pytest.raises(NotationError) as info:
        Action.parse("S chi 3 45m")
    assert info.value.position == 7 and "whitespace inside a group" in str(info.value)
