"""Positions (issue 15 item 7): a Ma Diao hand at any moment written down, read back equal,
played on to the same end; bad positions refused with errors that name the problem."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import InvalidPositionError
from paiju.madiao.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand

RULESETS = [
    Ruleset(),
    Ruleset(first_lead="first_dealt", deal_start="dealer", tu="q", chong_flow="dead"),
    Ruleset(first_lead="next", wrap_straights=False, capture_multiplier="off", tu="m"),
]


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**40), st.sampled_from(RULESETS))
def test_every_state_of_a_hand_round_trips(seed: int, ruleset: Ruleset) -> None:
    rng = random.Random(seed)
    s = new_hand(ruleset, seed)
    while True:
        text = s.to_position()
        back = State.from_position(text)
        assert back == s, text
        assert back.to_position() == text
        if s.phase is Phase.OVER:
            assert back.result is not None and s.result is not None
            assert back.result.to_json() == s.result.to_json()
            break
        legal = legal_actions_for(s, acting(s)[0])
        s = apply(s, legal[rng.randrange(len(legal))])[0]


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**40), st.integers(0, 31))
def test_a_replay_from_a_mid_hand_position_ends_as_the_original(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    s = new_hand(Ruleset(), seed)
    steps = []
    while s.phase is not Phase.OVER:
        legal = legal_actions_for(s, acting(s)[0])
        a = legal[rng.randrange(len(legal))]
        steps.append((s, a))
        s = apply(s, a)[0]
    t = State.from_position(steps[cut][0].to_position())
    for _, a in steps[cut:]:
        t = apply(t, a)[0]
    assert t == s


def _hand_after(plays: int, seed: int = 5) -> State:
    rng = random.Random(seed)
    s = new_hand(Ruleset(), seed)
    for _ in range(plays):
        legal = legal_actions_for(s, acting(s)[0])
        s = apply(s, legal[rng.randrange(len(legal))])[0]
    return s


def test_a_written_position_names_every_trick() -> None:
    s = _hand_after(6)
    text = s.to_position()
    fields = dict(w.split("=", 1) for w in text.split()[1:])
    assert fields["v"] == "6" and len(fields["tricks"].split("/")) == 1
    assert len(fields["trick"]) >= 3 and fields["trick"][0] == "ESWN"[s.leader]
    assert "rules" not in fields  # the default ruleset is not written


def _change(text: str, **fields: str) -> str:
    parts = dict(w.split("=", 1) for w in text.split()[1:])
    parts.update(fields)
    return "madiao " + " ".join(f"{k}={v}" for k, v in parts.items())


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"banker": "X"}, "banker: expected E, S, W or N"),
        ({"stock": "9m"}, "stock: the stock holds 8 cards"),
        ({"v": "7"}, "v: '7', but 6 cards have been played"),
        ({"rules": "tu:both"}, "rules: tu must be one of"),
        ({"rules": "colour:red"}, "is not option:value"),
        ({"trick": "Q9m"}, "is not a trick"),
        ({"hands": "-/-/-"}, "hands: expected four seats"),
    ],
)
def test_bad_positions_are_refused_with_a_clear_error(
    changes: dict[str, str], message: str
) -> None:
    with pytest.raises(InvalidPositionError) as info:
        State.from_position(_change(_hand_after(6).to_position(), **changes))
    assert info.value.code == "invalid_position" and message in str(info.value)


def test_cards_hand_sizes_leaders_and_captures_are_checked() -> None:
    s = _hand_after(6)
    text = s.to_position()
    fields = dict(w.split("=", 1) for w in text.split()[1:])
    hands = fields["hands"].split("/")
    # a card of the stock copied into a hand: 41 cards
    extra = fields["stock"][:2]
    with pytest.raises(InvalidPositionError, match="there 2 times"):
        State.from_position(_change(text, hands="/".join([hands[0] + extra, *hands[1:]])))
    # the first trick led by a seat that does not lead it
    first = fields["tricks"].split("/")[0]
    wrong = "ESWN"[("ESWN".index(first[0]) + 1) % 4] + first[1:]
    with pytest.raises(InvalidPositionError, match="trick 1 is led by"):
        State.from_position(_change(text, tricks=wrong))
    # a face-down card shown as a capture it is not
    mie = next(k for k in range(3, len(first), 3) if first[k] == "-") if "-" in first else None
    if mie is not None:
        bad = first[:mie] + "+" + first[mie + 1 :]
        with pytest.raises(InvalidPositionError, match="trick 1"):
            State.from_position(_change(text, tricks=bad))


def test_eight_tricks_are_a_finished_hand_with_its_settlement() -> None:
    s = _hand_after(32)
    assert s.phase is Phase.OVER
    back = State.from_position(s.to_position())
    assert back.phase is Phase.OVER and back.result == s.result
