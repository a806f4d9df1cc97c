"""Rules §7 and §8, rule by rule; and the invariants of every settlement."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import InvalidHandError
from paiju.mazhan.scoring import LIMIT, round_up, score_json
from tests.mazhan.builders import fill, random_finished_hand, seat


def win(
    wild: str,
    winner: str,
    tile: str,
    by: str,
    players: dict[str, Any],
    discarder: str | None = None,
    **flags: bool,
) -> dict[str, Any]:
    hand: dict[str, Any] = {
        "wild": wild,
        "winner": winner,
        "win_tile": tile,
        "win_by": by,
        "discarder": discarder,
        "players": players,
        **flags,
    }
    return score_json(fill(hand))


def names(items: list[dict[str, Any]]) -> list[str]:
    return [i["name"] for i in items]


def test_s7_rounding_jin_yi() -> None:
    assert [round_up(b) for b in (0, 2, 12, 14, 32)] == [0, 10, 20, 20, 40]


def test_s7_base_points_table() -> None:
    # exposed pung 2/4, concealed pung 4/8, exposed kong 8/16, concealed kong 16/32
    out = win(
        "9s",
        "S",
        "6s",
        "discard",
        {
            "S": seat("222m111p6s6s6s5m5m", ["pung 333p", "kong 8888s"]),
        },
        discarder="W",
    )
    s = out["players"]["S"]
    pts = {i["name"]: i["points"] for i in s["items"]}
    assert pts["碰 三筒"] == 2
    assert pts["明槓 八索"] == 8
    assert pts["手牌 二萬"] == 4
    assert pts["手牌 一筒"] == 8
    # 666s completed by the discard: scored as an exposed pung of a middle tile
    assert pts["碰 六索"] == 2


def test_s7_winning_discard_may_close_a_chow_to_keep_the_concealed_pung() -> None:
    # 5p5p5p + 6p7p + 5p? The 5p can close 567p and leave 555p concealed (4, not 2)
    out = win(
        "9s",
        "S",
        "5p",
        "discard",
        {
            "S": seat("5p5p5p6p7p5p123m456m789m11z"),
        },
        discarder="E",
    )
    s = out["players"]["S"]
    assert "手牌 五筒" in names(s["items"])
    assert "碰 五筒" not in names(s["items"])


def test_s7_pinghu_on_a_robbed_kong_counts_as_a_discard() -> None:
    out = win(
        "9p",
        "S",
        "5s",
        "robbed_kong",
        {
            "S": seat("123m456m234p678p34s5s8m8m"),
            "E": seat("1m9m1p9p1s9s1z2z3z4z7m6z6z", ["pung 555s"]),
        },
        discarder="E",
    )
    s = out["players"]["S"]
    assert s["hand"] == ["平胡"]
    assert s["value"] == 100


def test_s7_pinghu_needs_no_bonus_tile() -> None:
    out = win(
        "9p",
        "S",
        "5s",
        "discard",
        {
            "S": seat("123m456m234p678p34s5s8m8m", [], "1h"),
        },
        discarder="W",
    )
    s = out["players"]["S"]
    assert "平胡" not in s["hand"]
    assert s["value"] == (10 + 20) * 1  # flower 4 → 10, 胡頭


def test_s7_pinghu_is_not_a_single_wait() -> None:
    # 8m8m + 123m 456m 234p 678p + 3s5s waiting on 4s only: 獨張, so 胡頭
    out = win("9p", "S", "4s", "discard", {"S": seat("123m456m234p678p3s4s5s8m8m")}, discarder="W")
    s = out["players"]["S"]
    assert "平胡" not in s["hand"]
    assert "獨張" in names(s["items"])
    assert s["value"] == 30


def test_s7_pinghu_with_two_wilds_is_the_limit() -> None:
    out = win("9p", "S", "5s", "discard", {"S": seat("123m456m234p678p34s5s9p9p")}, discarder="W")
    s = out["players"]["S"]
    assert "平胡" in s["hand"]
    assert s["value"] == LIMIT


def test_s7_qingyise_is_the_limit() -> None:
    out = win("9s", "S", "9p", "discard", {"S": seat("123p234p456p678p78p9p9p9p")}, discarder="W")
    s = out["players"]["S"]
    assert "清一色" in s["hand"]
    assert s["value"] == LIMIT


def test_s7_a_hand_that_reads_as_a_limit_hand_is_reported_as_one() -> None:
    # five chows of 萬 and a ★★ pair won on a discard: read as 5m5m it is 清一色 (400); read
    # as 中中 it is 平胡 + 混一色 holding two ★ (400 too): the limit hand is what is reported
    out = win("9s", "S", "7m", "discard", {"S": seat("123m456m789m234m567m9s9s")}, discarder="W")
    s = out["players"]["S"]
    assert s["value"] == LIMIT
    assert s["hand"] == ["清一色", "平胡"]
    assert not any("z" in x.split(" ")[1] for x in s["sets"])  # every ★ read as 萬


def test_s7_all_honours_is_neither_flush_only_all_pungs() -> None:
    out = win("9s", "S", "4z", "self_draw", {"S": seat("111z333z444z666z77z222z")})
    s = out["players"]["S"]
    assert "混一色" not in s["hand"] and "清一色" not in s["hand"]
    assert "對對胡" in s["hand"]


def test_s7_hunyise_counts_the_wild_reading() -> None:
    # 123p 456p 789p 11z and 7z7z★: the ★ reads as 中 (honour) or 7p (one suit): both fine
    out = win("9s", "S", "2p", "self_draw", {"S": seat("123p456p789p11z77z9s345p")})
    s = out["players"]["S"]
    assert "混一色" in s["hand"]


def test_s7_four_tai_is_the_limit() -> None:
    # 中, 發, seat wind (South 2z) and 對對胡: 4 台
    out = win(
        "9s",
        "S",
        "3p",
        "discard",
        {
            "S": seat("777z666z222z3p3p3p888m11m"),
        },
        discarder="W",
    )
    s = out["players"]["S"]
    assert s["tai"] == 4
    assert "四台" in s["hand"]
    assert s["value"] == LIMIT


def test_s7_white_dragons_and_seat_flowers() -> None:
    out = win(
        "9s",
        "W",
        "4m",
        "discard",
        {
            "W": seat("123m456m789m234p678s55p", [], "5z5z5z3h3j"),
        },
        discarder="S",
    )
    w = out["players"]["W"]
    tai = {t["name"]: t["tai"] for t in w["tai_items"]}
    assert tai["白板 ×3"] == 1
    assert tai["菊（西位）"] == 1
    assert tai["秋（西位）"] == 1
    assert w["base"] == 20  # five bonus tiles × 4
    assert w["value"] == (20 + 20) * 8


def test_s7_four_whites_are_two_tai() -> None:
    out = win(
        "9s",
        "S",
        "3m",
        "discard",
        {"S": seat("123m456m789m234p678s55p", [], "5z5z5z5z")},
        discarder="W",
    )
    assert {t["name"]: t["tai"] for t in out["players"]["S"]["tai_items"]}["白板 ×4"] == 2


def test_s7_non_winner_counts_natural_triplets_and_ignores_wilds() -> None:
    out = win(
        "9s",
        "S",
        "3m",
        "discard",
        {
            "S": seat("123m456m789m234p678s55p"),
            "N": seat("444z9s9s1m5m9m1p5p9p1s5s2s2z6z", [], ""),  # 444z natural: North wind
            "E": seat("7z7z9s2m6m2p6p3s6s7s8s3z3z4m4p4s", [], "1h"),  # 7z7z+★: no pung for U
        },
        discarder="W",
    )
    n, e = out["players"]["N"], out["players"]["E"]
    assert (n["base"], n["tai"], n["value"]) == (8, 1, 20)
    assert e["base"] == 4 and e["tai"] == 1 and e["value"] == 20  # flower 1h matches East


def test_s7_single_wait_ignores_a_face_all_four_in_own_hand() -> None:
    # 2m3m waits on 1m and 4m, but all four 4m are the player's: only 1m → 獨張
    out = win(
        "9s",
        "S",
        "1m",
        "discard",
        {
            "S": seat("1m2m3m567p234s88s789p", ["kong 4444m"]),
        },
        discarder="W",
    )
    assert "獨張" in names(out["players"]["S"]["items"])


def test_s7_single_wait_when_the_tile_drawn_was_a_wild() -> None:
    # 16 tiles 123m 456m 789m 234p 555p + 1z: only 1z completes; the ★ drawn reads as 1z
    out = win("9s", "S", "9s", "self_draw", {"S": seat("123m456m789m234p555p1z9s")})
    s = out["players"]["S"]
    assert "獨張" in names(s["items"]) and "自摸" in names(s["items"])


def test_s7_wild_face_is_not_a_wait() -> None:
    # 123m 456m 789m 234p 55p ★ 1z: 1z and 5p complete it (the ★ is no wait): not single
    out = win("9s", "S", "1z", "self_draw", {"S": seat("123m456m789m234p55p9s1z1z")})
    assert "獨張" not in names(out["players"]["S"]["items"])


def test_s8_sha_zhu_is_the_limit_with_melds_and_bonus_only() -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "W",
            "win_by": "sha_zhu",
            "players": {
                "W": seat("9s9s9s1m4m7m2p5p8p3z4z", ["pung 777z", "chow 123s"], "2h"),
            },
        }
    )
    w = score_json(hand)["players"]["W"]
    assert w["value"] == LIMIT
    assert w["hand"] == ["殺豬"]
    assert names(w["items"]) == ["碰 中", "花 蘭"]


def test_s7_any_win_holding_three_wilds_is_the_limit() -> None:
    out = win("9s", "S", "2m", "discard", {"S": seat("123m456m789m2m2m9s9s9s234p")}, discarder="W")
    assert out["players"]["S"]["value"] == LIMIT
    assert "殺豬" in out["players"]["S"]["hand"]


def test_s7_tianhu_and_dihu() -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "E",
            "win_by": "self_draw",
            "tianhu": True,
            "players": {"E": seat("123m456m789m234p678s55p", [], "1h")},
        }
    )
    e = score_json(hand)["players"]["E"]
    assert e["value"] == LIMIT and e["hand"] == ["天胡"]
    assert names(e["items"]) == ["花 梅"]  # no 自摸/獨張 item
    out = win(
        "9s", "S", "5p", "discard", {"S": seat("123m456m789m234p678s55p")}, discarder="E", dihu=True
    )
    assert out["players"]["S"]["value"] == LIMIT
    assert out["net"]["E"] == -800


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tianhu": True}, "only the dealer"),
        ({"dihu": True}, r"dealer's \(E's\) first discard"),
        ({"winner": "Q"}, "expected"),
        ({"wild": "5z"}, "bonus tile"),
        ({"win_by": "ron"}, "win_by"),
        ({"discarder": "S"}, "own discard"),
        ({"win_tile": "1z"}, "not among"),
    ],
)
def test_contradictions_are_rejected(change: dict[str, Any], message: str) -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "S",
            "win_tile": "5p",
            "win_by": "discard",
            "discarder": "W",
            "players": {"S": seat("123m456m789m234p678s55p")},
        }
    )
    with pytest.raises(InvalidHandError, match=message):
        score_json({**hand, **change})


def test_impossible_tables_are_rejected() -> None:
    base = {"wild": "9s", "winner": "S", "win_tile": "5p", "win_by": "discard", "discarder": "W"}
    with pytest.raises(InvalidHandError, match="at most three ★"):
        score_json(
            fill(
                {
                    **base,
                    "players": {
                        "S": seat("123m456m789m234p678s55p"),
                        "W": seat("9s9s9s9s1m5m9m1p5p9p1s5s2s3z"),
                    },
                }
            )
        )
    with pytest.raises(InvalidHandError, match="never part of a meld"):
        score_json(fill({**base, "players": {"S": seat("123m456m234p678s55p", ["chow 789s"])}}))
    with pytest.raises(InvalidHandError, match="not complete"):
        score_json(fill({**base, "players": {"S": seat("123m456m789m235p678s55p")}}))
    with pytest.raises(InvalidHandError, match="holds 11 tiles"):
        score_json(fill({**base, "players": {"S": seat("123m456m789m55p")}}))
    with pytest.raises(InvalidHandError, match="copies of 1m"):
        score_json(
            fill(
                {
                    **base,
                    "players": {
                        "S": seat("123m456m789m234p678s55p"),
                        "W": seat("1111m", ["pung 111z", "pung 222z", "pung 333z", "pung 444z"]),
                    },
                }
            )
        )


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_settlement_is_zero_sum_and_capped(seed: int) -> None:
    out = score_json(random_finished_hand(random.Random(seed)))
    assert sum(out["net"].values()) == 0
    for p in out["players"].values():
        assert 0 <= p["value"] <= LIMIT
        assert p["base"] == sum(i["points"] for i in p["items"])
        assert p["rounded"] == round_up(p["base"])
        assert p["tai"] == sum(t["tai"] for t in p["tai_items"])
        if p["role"] != "winner":
            assert p["value"] == min(LIMIT, p["rounded"] * 2 ** p["tai"])
    net = dict.fromkeys(out["net"], 0)
    for pay in out["payments"]:
        assert pay["amount"] > 0
        net[pay["from"]] -= pay["amount"]
        net[pay["to"]] += pay["amount"]
    assert net == out["net"]
    if out["winner"] is None:
        assert out["payments"] == []


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_scoring_is_deterministic(seed: int) -> None:
    hand = random_finished_hand(random.Random(seed))
    assert score_json(hand) == score_json(hand)


def test_s8_sha_zhu_accepts_the_tile_just_drawn_and_ignores_it() -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "W",
            "win_by": "sha_zhu",
            "win_tile": "1m",
            "players": {
                "W": seat("9s9s9s1m4m7m2p5p8p3z4z", ["pung 777z", "chow 123s"], "2h"),
            },
        }
    )
    w = score_json(hand)["players"]["W"]
    assert w["value"] == LIMIT and "獨張" not in names(w["items"])
    with pytest.raises(InvalidHandError, match="not among"):
        score_json({**hand, "win_tile": "6m"})


# --- 天胡/地胡 that the seats contradict (§7, §11) -------------------------------------------

_DIHU = {"wild": "9s", "winner": "S", "win_tile": "7s", "win_by": "discard", "discarder": "E"}
_TIANHU = {"wild": "9s", "winner": "E", "win_by": "self_draw", "tianhu": True}


@pytest.mark.parametrize(
    ("players", "message"),
    [
        # the winner claimed or declared something before the dealer's first discard
        (
            {"S": seat("123m456m234p567s11z", ["chow 789m"])},
            r"dihu: players\.S\.melds holds 'chow 789m', but only the dealer \(E\) has had a turn",
        ),
        (
            {"S": seat("123m456m234p567s11z", ["ckong 8888m"])},
            r"players\.S\.melds holds 'ckong 8888m'",
        ),
        # the dealer declared a kong before the first discard: "no kong before it"
        (
            {
                "S": seat("123m456m789m234p567s11z"),
                "E": seat("1m2m3m4m5m6m7m8m9m1p2p3p4p", ["ckong 6666p"]),
            },
            r"players\.E\.melds holds 'ckong 6666p', but 地胡 needs no kong before",
        ),
        # another non-dealer has had no turn either
        (
            {
                "S": seat("123m456m789m234p567s11z"),
                "W": seat("1m2m3m4m5m6m7m8m9m1p2p3p4p", ["pung 666p"]),
            },
            r"players\.W\.melds holds 'pung 666p'",
        ),
    ],
)
def test_s11_a_dihu_that_the_seats_contradict_is_rejected(
    players: dict[str, Any], message: str
) -> None:
    hand = fill({**_DIHU, "dihu": True, "players": players})
    with pytest.raises(InvalidHandError, match=message):
        score_json(hand)
    score_json({**hand, "dihu": False})  # the same hand as an ordinary win is fine


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (
            {"E": seat("123m456m789m11z", ["pung 222s", "chow 345s"])},
            r"tianhu: players\.E\.melds holds 'pung 222s', but there is no discard to claim",
        ),
        (
            {"E": seat("123m456m234p567s11z", ["kong 6666p"])},
            r"players\.E\.melds holds 'kong 6666p'",
        ),
        (
            {
                "E": seat("123m456m789m234p567s11z"),
                "S": seat("1m2m3m4m5m6m7m8m9m1p3p4p5p", ["pung 222p"]),
            },
            r"players\.S\.melds holds 'pung 222p', but only the dealer \(E\) has had a turn",
        ),
    ],
)
def test_s11_a_tianhu_that_the_seats_contradict_is_rejected(
    players: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidHandError, match=message):
        score_json(fill({**_TIANHU, "players": players}))


def test_s7_tianhu_after_the_dealers_concealed_kong_is_accepted() -> None:
    # §3.6 and §5.2: the dealer may declare a concealed kong and act again; still before
    # the first discard
    for by, tile in (("kong_replacement", "3p"), ("self_draw", None)):
        hand = fill(
            {
                **_TIANHU,
                "win_by": by,
                "win_tile": tile,
                "players": {"E": seat("123m456m789m12p3p55s", ["ckong 6666p"])},
            }
        )
        assert score_json(hand)["players"]["E"]["value"] == LIMIT


def test_s11_a_kong_replacement_win_needs_a_kong_of_the_winner() -> None:
    hand = {"wild": "9s", "winner": "W", "win_tile": "3p", "win_by": "kong_replacement"}
    with pytest.raises(InvalidHandError, match=r"kong_replacement needs a kong of the winner's"):
        score_json(fill({**hand, "players": {"W": seat("123m456m789m12p3p55s678p")}}))
    for meld in ("kong 6666p", "ckong 6666p"):
        out = score_json(fill({**hand, "players": {"W": seat("123m456m789m12p3p55s", [meld])}}))
        assert out["players"]["W"]["role"] == "winner"
    # another seat's kong does not do
    with pytest.raises(InvalidHandError, match=r"kong_replacement"):
        score_json(
            fill(
                {
                    **hand,
                    "players": {
                        "W": seat("123m456m789m12p3p55s678p"),
                        "E": seat("1m2m3m4m5m7m8m9m1s2s3s4s4z", ["kong 6666z"]),
                    },
                }
            )
        )


def test_s7_a_kong_of_red_dragons_is_named_a_kong_in_its_tai() -> None:
    # worked example 5: North's concealed kong of 中
    out = win(
        "2p",
        "N",
        "7m",
        "self_draw",
        {"N": seat("1s1s1s5p5p5p7m7m", ["pung 444z", "kong 9999m", "ckong 7777z"])},
    )
    tai = {t["name"]: t["en"] for t in out["players"]["N"]["tai_items"]}
    assert tai["中"] == "red dragon kong"
    assert tai["北風"] == "seat wind pung (north wind)"
    other = win(
        "9s",
        "S",
        "5p",
        "discard",
        {"S": seat("123m456m789m5p5p", ["kong 6666z", "kong 2222z"])},
        discarder="W",
    )
    tai = {t["name"]: t["en"] for t in other["players"]["S"]["tai_items"]}
    assert tai == {"發": "green dragon kong", "南風": "seat wind kong (south wind)"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"winner": None, "win_tile": None, "win_by": None, "discarder": None, "players": []},
            "players: expected an object with the seats E, S, W, N, got an array",
        ),
        ({"winner": ["S"]}, 'winner: expected "E", "S", "W", "N" or null, got an array'),
        ({"tianhu": None}, "tianhu: expected true or false, got null"),
        ({"win_by": 3}, "win_by: expected one of .*, got a number"),
        ({"wild": {}}, "wild: expected a tile string like '123m45p', got an object"),
    ],
)
def test_s11_errors_name_json_kinds_not_python_types(change: dict[str, Any], message: str) -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "S",
            "win_tile": "5p",
            "win_by": "discard",
            "discarder": "W",
            "players": {"S": seat("123m456m789m234p678s55p")},
        }
    )
    with pytest.raises(InvalidHandError, match=message) as err:
        score_json({**hand, **change})
    assert not any(word in str(err.value) for word in ("NoneType", "list", "dict", "int"))


def test_s11_a_huge_bad_value_is_quoted_short() -> None:
    hand = fill(
        {
            "wild": "9s",
            "winner": "S",
            "win_tile": "5p",
            "win_by": "discard",
            "discarder": "W",
            "players": {"S": seat("123m456m789m234p678s55p")},
        }
    )
    for change in (
        {"winner": "S" * 100_000},
        {"wild": "1m" * 100_000},
        {"x" * 100_000: 1},
        {"players": {**hand["players"], "E": seat("1m" * 100_000 + "x")}},
        {"players": {**hand["players"], "E": seat("", ["pung " + "7" * 100_000 + "z"])}},
    ):
        with pytest.raises(InvalidHandError) as err:
            score_json({**hand, **change})
        assert len(str(err.value)) < 300, str(err.value)[:300]
        assert "00,0" in str(err.value)  # the length of what was cut
