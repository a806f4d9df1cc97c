"""The scorers' input problems: each bad input the forms can send gets its ``why`` key, the
field it points at and the values the browser words it with, and the browser has words for
every key in both languages (client/src/i18n: ``problems``).

Each case is an executable example of one problem: what a scorekeeper typed, and what the
page is told about it.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import InvalidHandError
from paiju.mazhan.record import EXAMPLE, PROBLEMS_MOST, FinishedHand
from paiju.server.errors import ServerError
from paiju.server.routes.scorer import calculate

ROOT = Path(__file__).resolve().parent.parent.parent


def _hand(**changes: Any) -> dict[str, Any]:
    """Rules §7's example 1 (South self-draws 2p, ★ = 9s) with fields changed; a seat's
    fields as ``E_concealed="..."`` or ``S_melds=[...]``."""
    hand = copy.deepcopy(EXAMPLE)
    for key, value in changes.items():
        seat, _, part = key.partition("_")
        if seat in {"E", "S", "W", "N"} and part in {"concealed", "melds", "bonus"}:
            hand["players"][seat][part] = value
        else:
            hand[key] = value
    return hand


def _swapped(**changes: Any) -> dict[str, Any]:
    """The example with East's and South's tiles swapped: the dealer East is the winner."""
    hand = _hand(winner="E", **changes)
    players = hand["players"]
    players["E"], players["S"] = EXAMPLE["players"]["S"], EXAMPLE["players"]["E"]
    return hand


#: (why, field, the hand, the params the page is told (a subset)).
MAZHAN: list[tuple[str, str, dict[str, Any], dict[str, object]]] = [
    (
        "notation_space",
        "players.E.melds[0]",
        _hand(E_melds=["pung 7 77z"]),
        {"digits": "7", "meld": "pung 7 77z", "position": 6},
    ),
    (
        "notation_letter",
        "players.S.melds[1]",
        _hand(S_melds=["pung 777z", "chow 12x"]),
        {"letter": "x", "meld": "chow 12x", "position": 7},
    ),
    ("notation_letter", "wild", _hand(wild="9x"), {"letter": "x", "position": 1}),
    ("notation_char", "wild", _hand(wild="9#"), {"char": "#"}),
    ("notation_no_digits", "wild", _hand(wild="s"), {"letter": "s", "position": 0}),
    ("notation_rank", "wild", _hand(wild="8z"), {"code": "8z", "top": 7}),
    ("notation_no_suit", "win_tile", _hand(win_tile="2"), {"digits": "2"}),
    ("no_tile", "wild", _hand(wild=""), {"n": 0}),
    ("one_tile", "win_tile", _hand(win_tile="22p"), {"n": 2}),
    (
        "concealed_bonus",
        "players.E.concealed",
        _hand(E_concealed="1123456789m12345s1h"),
        {"tile": "1h"},
    ),
    ("not_bonus", "players.S.bonus", _hand(S_bonus="1m"), {"tile": "1m"}),
    ("wild_bonus", "wild", _hand(wild="5z"), {"tile": "5z"}),
    (
        "meld_wild",
        "players.S.melds",
        _hand(S_melds=["pung 777z", "pung 999s"]),
        {"meld": "pung 999s", "tile": "9s"},
    ),
    ("meld_shape", "players.S.melds[0]", _hand(S_melds=["pung"]), {"meld": "pung"}),
    ("meld_kind", "players.S.melds[0]", _hand(S_melds=["peng 777z"]), {"kind": "peng"}),
    ("meld_bonus", "players.S.melds[0]", _hand(S_melds=["pung 111h"]), {}),
    ("meld_size", "players.S.melds[0]", _hand(S_melds=["pung 77z"]), {"size": 3, "n": 2}),
    ("meld_chow", "players.S.melds[0]", _hand(S_melds=["chow 135m"]), {}),
    ("meld_same", "players.S.melds[0]", _hand(S_melds=["pung 123m"]), {"kind": "pung"}),
    (
        "seat_size",
        "players.E",
        _hand(E_concealed="1123456789m12345s"),
        {"seat": "E", "size": 15, "expected": 16},
    ),
    (
        "wild_copies",
        "players.E.concealed",
        _hand(E_concealed="1123456789m12349999s"),
        {"n": 4, "tile": "9s", "seats": "E"},
    ),
    (
        "copies",
        "players.E.concealed",
        _hand(E_concealed="1111123456789m12345s"),
        {"n": 5, "tile": "1m", "limit": 4, "seats": "E"},
    ),
    (
        "first_turn_seat",
        "players.S.melds",
        _hand(dihu=True, win_by="discard", discarder="E"),
        {"seat": "S", "flag": "dihu"},
    ),
    ("first_turn_claim", "players.E.melds", _swapped(tianhu=True), {"meld": "pung 777z"}),
    (
        "dihu_kong",
        "players.E.melds",
        _hand(
            dihu=True,
            win_by="discard",
            discarder="E",
            E_concealed="1123456789m123s",
            E_melds=["ckong 4444s"],
        ),
        {"meld": "ckong 4444s"},
    ),
    ("tianhu_and_dihu", "tianhu", _hand(tianhu=True, dihu=True), {}),
    ("tianhu_dealer", "tianhu", _hand(tianhu=True), {}),
    ("tianhu_discard", "tianhu", _swapped(tianhu=True, win_by="discard", discarder="S"), {}),
    ("dihu_dealer", "dihu", _swapped(dihu=True), {}),
    ("dihu_first", "dihu", _hand(dihu=True), {}),
    ("replacement_kong", "win_by", _hand(win_by="kong_replacement"), {"seat": "S"}),
    ("discarder_required", "discarder", _hand(win_by="discard"), {"win_by": "discard"}),
    ("robbed_required", "discarder", _hand(win_by="robbed_kong"), {"win_by": "robbed_kong"}),
    ("discarder_self", "discarder", _hand(win_by="discard", discarder="S"), {"seat": "S"}),
    (
        "sha_zhu_stars",
        "win_by",
        _hand(win_by="sha_zhu", win_tile=None),
        {"seat": "S", "tile": "9s", "stars": 0},
    ),
    ("win_tile_required", "win_tile", _hand(win_tile=None), {"win_by": "self_draw"}),
    ("win_tile_missing", "win_tile", _hand(win_tile="9m"), {"seat": "S", "tile": "9m"}),
    (
        "win_tile_wild",
        "win_tile",
        _hand(win_by="discard", discarder="E", win_tile="9s", S_concealed="9s3p678p789p2p2p2p"),
        {"tile": "9s"},
    ),
    (
        "robbed_pung",
        "players.E.melds",
        _hand(win_by="robbed_kong", discarder="E"),
        {"seat": "E", "tile": "2p"},
    ),
    (
        "incomplete",
        "players.S.concealed",
        _hand(S_concealed="1p4p678p789p2p2p2p"),
        {"seat": "S"},
    ),
]

#: (why, field, the 開沖 input, params).
CHONG: list[tuple[str, str, dict[str, Any], dict[str, object]]] = [
    (
        "notation_face",
        "table",
        {"table": "1t", "draws": "9m"},
        {"code": "1t", "faces": "w q b 9–2"},
    ),
    ("notation_face", "draws", {"table": "9m", "draws": "xt"}, {"code": "xt", "letter": "t"}),
    ("table_twice", "table", {"table": "99m", "draws": "8m"}, {"card": "9m"}),
    ("drawn_on_table", "draws", {"table": "9m", "draws": "9m"}, {"card": "9m"}),
    ("drawn_twice", "draws", {"table": "9m", "draws": "88m"}, {"card": "8m"}),
    ("no_card", "captured", {"table": "qt", "draws": "9t", "captured": {"": "bt"}}, {"n": 0}),
    ("one_card", "captured", {"table": "qt", "draws": "9t", "captured": {"qtwt": "bt"}}, {"n": 2}),
    ("captor_not_top", "captured", {"table": "9m", "draws": "8m", "captured": {"qt": "bt"}}, {}),
    ("captive_not_top", "captured", {"table": "qt", "draws": "8m", "captured": {"qt": "9m"}}, {}),
    (
        "captive_elsewhere",
        "captured",
        {"table": "qtbt", "draws": "8m", "captured": {"qt": "bt"}},
        {"card": "bt"},
    ),
    (
        "captive_higher",
        "captured",
        {"table": "qt", "draws": "8m", "captured": {"qt": "wt"}},
        {"card": "wt", "captor": "qt"},
    ),
    ("table_too_many", "table", {"table": "987654321m", "draws": "9s"}, {"n": 9, "most": 8}),
    ("draws_too_many", "draws", {"table": "9m", "draws": "87654321m9s"}, {"n": 9, "most": 8}),
]


def _detail(score: Any, data: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(ServerError) as caught:
        score(data)
    assert caught.value.code == "invalid_hand"
    assert caught.value.detail is not None, caught.value.message
    return dict(caught.value.detail)


def score_hand(data: object) -> dict[str, Any]:
    return calculate("mazhan", "score", data)


def score_chong(data: object) -> dict[str, Any]:
    return calculate("madiao", "chong", data)


CASES = [(score_hand, *c) for c in MAZHAN] + [(score_chong, *c) for c in CHONG]


@pytest.mark.parametrize(
    ("score", "why", "field", "data", "params"),
    CASES,
    ids=[f"{c[0].__name__}-{c[1]}" for c in CASES],
)
def test_a_bad_input_says_what_is_wrong_and_where(
    score: Any, why: str, field: str, data: dict[str, Any], params: dict[str, object]
) -> None:
    """A hand for the Mazhan scorer or draws for the 開沖 one, each with one mistake."""
    detail = _detail(score, data)
    assert (detail["why"], detail["field"]) == (why, field)
    assert params.items() <= detail["params"].items()


def _client_problems(lang: str) -> set[str]:
    source = (ROOT / "client" / "src" / "i18n" / f"{lang}.ts").read_text("utf-8")
    block = source[source.index("  problems: {") :].split("\n  },", 1)[0]
    return set(re.findall(r"^    (\w+):", block, re.MULTILINE))


def test_the_page_has_words_for_every_problem_in_both_languages() -> None:
    """Every key the cases above raise, and every key written in the cores, is worded in the
    client's English and Chinese tables, and the tables word nothing else."""
    raised = {c[0] for c in MAZHAN + CHONG}
    written: set[str] = set()
    for path in (ROOT / "paiju").rglob("*.py"):
        written |= set(re.findall(r'\bwhy="(\w+)"', path.read_text("utf-8")))
    for lang in ("en", "zh"):
        worded = _client_problems(lang)
        assert written <= worded, (lang, sorted(written - worded))
        assert worded == raised | written, (lang, sorted(worded ^ (raised | written)))


def test_the_detail_is_sent_over_http() -> None:
    from fastapi.testclient import TestClient

    from paiju.server.app import create_app
    from paiju.server.config import Settings

    app = create_app(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
    with TestClient(app) as client:
        answer = client.post("/api/score", json=_hand(wild="9x"))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "invalid_hand"
    assert error["message"].startswith("wild: unknown suit letter 'x'")
    assert error["detail"] == {
        "why": "notation_letter",
        "field": "wild",
        "params": {"letter": "x", "text": "9x", "position": 1},
    }


# Every problem at once: a scorekeeper who typed four seats' tiles fixes them in one pass.


def _problems(data: object) -> list[tuple[str, str]]:
    """What ``FinishedHand.read`` finds: each problem's ``why`` (or ``-`` when it has none)
    and the field its message names first."""
    hand, problems = FinishedHand.read(data)
    assert (hand is None) == bool(problems)
    return [(p.why or "-", str(p).split(": ", 1)[0]) for p in problems]


def test_every_field_that_cannot_be_read_is_named_in_the_forms_order() -> None:
    hand = _hand(win_by="ron", S_melds=["pung 777z", "pong 555p"], N_bonus="1m", wild="9x")
    assert _problems(hand) == [
        ("notation_letter", "wild"),
        ("-", "win_by"),
        ("meld_kind", "players.S.melds[1]"),
        ("not_bonus", "players.N.bonus"),
    ]
    with pytest.raises(InvalidHandError, match=r"^wild: unknown suit letter 'x'"):
        FinishedHand.from_json(hand)


def test_the_seats_that_read_are_counted_beside_a_field_that_does_not() -> None:
    hand = _hand(
        S_melds=["pung 777z", "pong 555p"],
        E_concealed="1123456789m12345s",
        N_concealed="15678s23456p99p44z6z",
    )
    assert _problems(hand) == [
        ("meld_kind", "players.S.melds[1]"),
        ("seat_size", "players.E"),
        ("seat_size", "players.N"),
    ]


def test_every_seats_count_and_every_surplus_tile_but_not_the_win_until_they_are_fixed() -> None:
    # East holds five 1m and five 2m (West a sixth 2m) and a tile too many, and South is a
    # tile short: four problems; South's hand is then also incomplete, which is not said
    # until the counts are right
    hand = _hand(E_concealed="11111222223456789m", S_concealed="1p3p678p789p2p2p")
    assert _problems(hand) == [
        ("copies", "5 copies of 1m (一萬) at the table"),
        ("copies", "6 copies of 2m (二萬) at the table"),
        ("seat_size", "players.E"),
        ("seat_size", "players.S"),
    ]
    hand = _hand(S_concealed="1p3p678p789p2p2p4p")
    assert _problems(hand) == [("incomplete", "players.S")]


def test_one_hand_names_at_most_a_screenful_of_problems() -> None:
    hand = _hand(S_melds=[f"pung {i}x" for i in range(40)])
    _, problems = FinishedHand.read(hand)
    assert len(problems) == PROBLEMS_MOST


_FIELD_VALUES = st.sampled_from(
    ["9s", "9x", "5z", "", "1m1m", 7, None, True, "E", "S", "Q", "discard", "self_draw"]
)
_TILE_EDITS = st.sampled_from(["", "1m", "9x", "5z", "1h", "0p", "9s", "7z7z", "1m2m3m"])
_MELDS = st.sampled_from(["pung 777z", "chow 123m", "pong 555p", "kong 1111m", "pung 9s9s9s", 3])


@st.composite
def _typed_hands(draw: st.DrawFn) -> dict[str, Any]:
    """The example with a few of a scorekeeper's slips: a field retyped, tiles dropped or
    added, a meld added or dropped."""
    hand = copy.deepcopy(EXAMPLE)
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["field", "tiles", "meld"]))
        if kind == "field":
            name = draw(st.sampled_from(["wild", "winner", "win_tile", "win_by", "discarder"]))
            hand[name] = draw(_FIELD_VALUES)
            continue
        seat = hand["players"][draw(st.sampled_from("ESWN"))]
        if kind == "meld":
            melds = list(seat.get("melds", []))
            drop = draw(st.booleans())
            if melds and drop:
                melds.pop(draw(st.integers(0, len(melds) - 1)))
            else:
                melds.append(draw(_MELDS))
            seat["melds"] = melds
            continue
        part = draw(st.sampled_from(["concealed", "bonus"]))
        text = seat.get(part, "")
        cut_some = draw(st.booleans())
        if text and cut_some:
            cut = draw(st.integers(0, len(text) - 1))
            text = text[:cut] + text[cut + 2 :]
        else:
            text += draw(_TILE_EDITS)
        seat[part] = text
    return hand


@given(_typed_hands())
@settings(max_examples=300, deadline=None)
def test_the_first_problem_is_what_the_scorer_raises_and_a_clean_hand_has_none(
    hand: dict[str, Any],
) -> None:
    """``read`` and ``from_json`` agree: no problems exactly when the hand scores, and the
    first problem is the one raised; every problem is said once, each names a field or the
    tiles it counts."""
    read, problems = FinishedHand.read(hand)
    try:
        scored = FinishedHand.from_json(hand)
    except InvalidHandError as err:
        assert read is None and problems
        assert (str(problems[0]), problems[0].detail()) == (str(err), err.detail())
    else:
        assert problems == [] and read == scored
    said = [str(p) for p in problems]
    assert len(said) == len(set(said))
    assert len(problems) <= PROBLEMS_MOST


def test_every_problem_is_sent_over_http() -> None:
    from fastapi.testclient import TestClient

    from paiju.server.app import create_app
    from paiju.server.config import Settings

    app = create_app(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
    hand = _hand(wild="9x", E_concealed="1123456789m12345s")
    with TestClient(app) as client:
        answer = client.post("/api/score", json=hand)
        one = client.post("/api/score", json=_hand(E_concealed="1123456789m12345s"))
    error = answer.json()["error"]
    assert [p["message"].split(":")[0] for p in error["problems"]] == ["wild", "players.E"]
    assert error["problems"][0] == {"message": error["message"], "detail": error["detail"]}
    assert error["problems"][1]["detail"]["why"] == "seat_size"
    # one problem: the list holds it alone, the same as the message
    assert len(one.json()["error"]["problems"]) == 1
