"""The worked examples of rules §7, each a test by name (../shared/rules/mazhan.md)."""

from __future__ import annotations

from typing import Any

from paiju.mazhan.record import EXAMPLE
from paiju.mazhan.scoring import score_json


def seat(concealed: str, melds: list[str] | None = None, bonus: str = "") -> dict[str, Any]:
    return {"concealed": concealed, "melds": melds or [], "bonus": bonus}


def test_example_1_seed_example_south_self_draws_2p() -> None:
    out = score_json(EXAMPLE)
    s = out["players"]["S"]
    assert (s["base"], s["rounded"], s["tai"], s["value"]) == (14, 20, 3, 320)
    assert s["hand"] == ["混一色"]
    points = {i["name"]: i["points"] for i in s["items"]}
    assert points == {"碰 中": 4, "碰 五筒": 2, "季 夏": 4, "自摸": 2, "獨張": 2}
    assert sorted(t["name"] for t in s["tai_items"]) == sorted(["中", "夏（南位）", "混一色"])
    for other in "EWN":
        assert out["players"][other]["value"] == 0
    assert out["net"] == {"E": -640, "S": 1280, "W": -320, "N": -320}


def test_example_2_seed_example_non_winner_west() -> None:
    hand = {
        "wild": "1m",
        "winner": None,
        "players": {
            "E": seat("234567m234567p6788s"),
            "S": seat("345678m345678s1122p"),
            "W": seat("2468m135p", ["kong 7777z", "pung 333z", "pung 999s"], "2h4h"),
            "N": seat("5678m235678p2345s14z"),
        },
    }
    out = score_json(hand)
    w = out["players"]["W"]
    assert (w["base"], w["rounded"], w["tai"], w["value"]) == (32, 40, 2, 160)
    assert sorted(t["name"] for t in w["tai_items"]) == ["中", "西風"]
    assert out["net"] == {"E": 0, "S": 0, "W": 0, "N": 0}


EXAMPLE_3: dict[str, Any] = {
    "wild": "9p",
    "winner": "E",
    "win_tile": "8s",
    "win_by": "discard",
    "discarder": "N",
    "players": {
        "E": seat("345p678p234s77m67s8s", ["chow 234m"]),
        "S": seat("159m12p159s234z67z", ["pung 111z"]),
        "W": seat("2468m35p2468s2z3z4z", ["pung 333m"], "1h"),
        "N": seat("1m5m6m7m4p5p6p7p1s3s5s7s1z2z6z7z"),
    },
}


def test_example_3_pinghu_dealer_wins_on_a_discard() -> None:
    out = score_json(EXAMPLE_3)
    e = out["players"]["E"]
    assert e["value"] == 100
    assert e["hand"] == ["平胡"]
    assert out["players"]["S"]["value"] == 10
    assert out["players"]["W"]["value"] == 10
    assert out["players"]["W"]["base"] == 6
    assert out["players"]["N"]["value"] == 0
    assert out["net"] == {"E": 600, "S": -190, "W": -190, "N": -220}


def test_example_4_same_hand_self_drawn_is_not_pinghu() -> None:
    hand = {**EXAMPLE_3, "win_by": "self_draw", "discarder": None}
    out = score_json(hand)
    e = out["players"]["E"]
    assert (e["base"], e["rounded"], e["tai"], e["value"]) == (2, 10, 0, 30)
    assert e["hand"] == []
    assert out["net"] == {"E": 180, "S": -50, "W": -50, "N": -80}


def test_example_5_capped_north_self_draws_7m() -> None:
    hand = {
        "wild": "2p",
        "winner": "N",
        "win_tile": "7m",
        "win_by": "self_draw",
        "players": {
            "E": seat("1234568m13469p3567s", [], "2h3h"),
            "S": seat("123456m3468p234589s"),
            "W": seat("456789s4568m33p1236z"),
            "N": seat("1s1s1s5p5p5p7m7m", ["pung 444z", "kong 9999m", "ckong 7777z"]),
        },
    }
    out = score_json(hand)
    n = out["players"]["N"]
    assert (n["base"], n["rounded"], n["tai"]) == (68, 70, 3)
    assert n["uncapped"] == 720
    assert n["value"] == 400
    assert n["capped"] is True
    assert sorted(t["name"] for t in n["tai_items"]) == sorted(["北風", "中", "對對胡"])
    assert {i["name"]: i["points"] for i in n["items"]}["獨張"] == 2
    assert out["players"]["E"]["value"] == 10
    assert out["net"] == {"E": -760, "S": -420, "W": -420, "N": 1600}
