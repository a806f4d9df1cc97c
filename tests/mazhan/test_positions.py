"""Positions (issue 15 item 7): a Mazhan hand at any moment written down, read back equal,
played on to the same end; bad positions refused with errors that name the problem."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.errors import InvalidPositionError
from paiju.mazhan.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand


def random_hand(seed: int) -> list[State]:
    """Every state of one hand played with random legal actions (all seats in a window)."""
    rng = random.Random(seed)
    states = [new_hand(Ruleset(dead_wall=rng.choice([0, 11, 30])), seed)]
    while states[-1].phase is not Phase.OVER:
        s = states[-1]
        movers = acting(s)
        legal = legal_actions_for(s, movers[rng.randrange(len(movers))])
        states.append(apply(s, legal[rng.randrange(len(legal))])[0])
    return states


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**40))
def test_every_state_of_a_hand_round_trips(seed: int) -> None:
    for s in random_hand(seed):
        text = s.to_position()
        back = State.from_position(text)
        assert back == s, text
        assert back.to_position() == text
        assert State.from_position(" \t".join(text.split())) == s  # any whitespace


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**40), st.integers(0, 1000))
def test_a_replay_from_a_mid_hand_position_ends_as_the_original(seed: int, cut: int) -> None:
    rng = random.Random(seed)
    s = new_hand(Ruleset(), seed)
    actions = []
    while s.phase is not Phase.OVER:
        movers = acting(s)
        legal = legal_actions_for(s, movers[rng.randrange(len(movers))])
        a = legal[rng.randrange(len(legal))]
        actions.append((s, a))
        s = apply(s, a)[0]
    k = cut % len(actions)
    t = State.from_position(actions[k][0].to_position())
    for _, a in actions[k:]:
        t = apply(t, a)[0]
    assert t == s
    assert t.result is not None and s.result is not None
    assert t.result.to_json() == s.result.to_json()


def _position(**changes: str) -> str:
    """A known position (seed 1 after its dealer's first discard), with fields changed."""
    s = new_hand(Ruleset(), 1)
    s = apply(s, legal_actions_for(s, acting(s)[0])[-1])[0]
    fields = dict(w.split("=", 1) for w in s.to_position().split()[1:])
    fields.update(changes)
    return "mazhan " + " ".join(f"{k}={v}" for k, v in fields.items() if v != "")


def test_a_known_position_reads() -> None:
    text = _position()
    s = State.from_position(text)
    assert s.version == 1 and s.to_position() == text
    assert s.phase is Phase.CLAIM  # (the bad positions below add act= to this window)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"v": "x"}, "v: expected a whole number"),
        ({"dead": "-5"}, "dead: expected a whole number"),
        ({"dead": "99"}, "dead_wall must be an integer 0–60"),
        ({"wild": "5z"}, "wild: 5z is a bonus tile"),
        ({"dice": "7,1"}, "dice: expected two dice"),
        ({"hands": "1m/2m/3m"}, "hands: expected four seats"),
        ({"act": "E", "draw": "deal"}, "only one of act, claim, rob, over"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"wall": "-"}, "tiles:"),
        ({"aside": "1m"}, "aside: 1m is not a bonus tile"),
        ({"melds": "p777z/-/-/-"}, "names where it came from"),
        ({"melds": "x777z/-/-/-"}, "must start with c, p, k or a"),
        ({"rivers": "5z/-/-/-"}, "is a bonus tile"),
    ],
)
def test_bad_positions_are_refused_with_a_clear_error(
    changes: dict[str, str], message: str
) -> None:
    text = _position(**changes)
    with pytest.raises(InvalidPositionError) as info:
        State.from_position(text)
    assert info.value.code == "invalid_position"
    assert message in str(info.value)


def test_conservation_hand_sizes_and_phase_are_checked() -> None:
    s = new_hand(Ruleset(), 2)
    text = s.to_position()
    fields = dict(w.split("=", 1) for w in text.split()[1:])
    hands = fields["hands"].split("/")
    wall = fields["wall"]
    # a tile moved from the wall into South's hand: 17 tiles where 16 are due
    moved = " ".join(f"{k}={v}" for k, v in {
        **fields, "hands": "/".join([hands[0], hands[1] + wall[:2], *hands[2:]]),
        "wall": wall[2:]}.items())  # fmt: skip
    with pytest.raises(InvalidPositionError, match=r"hands\.S: holds 17 tiles"):
        State.from_position("mazhan " + moved)
    # a tile dropped from the wall: not conserved
    with pytest.raises(InvalidPositionError, match="missing"):
        State.from_position(text.replace(f"wall={wall}", f"wall={wall[2:]}"))
    # East has not discarded, so it has no claim window to open
    with pytest.raises(InvalidPositionError, match="must be the last tile of E's river"):
        State.from_position(text.replace("act=E draw=deal", "claim=E:1m"))


def test_a_pending_claim_window_is_written_with_the_answers_given() -> None:
    for seed in range(400):
        s = new_hand(Ruleset(), seed)
        rng = random.Random(seed)
        while s.phase is not Phase.OVER and not (s.phase is Phase.CLAIM and s.decisions):
            movers = acting(s)
            legal = legal_actions_for(s, movers[rng.randrange(len(movers))])
            s = apply(s, legal[rng.randrange(len(legal))])[0]
        if s.phase is Phase.CLAIM:
            break
    text = s.to_position()
    assert "claim=" in text and "decided=" in text
    back = State.from_position(text)
    assert back.options == s.options and back.decisions == s.decisions
    assert back.window_version == s.window_version
    everyone = text.replace("decided=", "x=").split()
    everyone = [w for w in everyone if not w.startswith("x=")]
    answered = {o: d for o, d in s.decisions.items()}
    assert answered  # the window names who answered; dropping them re-opens their options
    assert State.from_position(" ".join(everyone)).options.keys() >= s.options.keys()
