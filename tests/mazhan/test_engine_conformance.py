"""Seeded playouts: the invariants of every hand, step by step (rules §2–§9)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots.driver import bot_rng, play_match
from paiju.bots.uniform import RandomBot
from paiju.errors import NotYourTurnError
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand
from paiju.mazhan.seats import SEATS
from paiju.mazhan.views import observe
from paiju.mazhan.wall import FULL_SET
from paiju.records import check_record


def tiles_in_play(s: State) -> Counter[int]:
    c: Counter[int] = Counter()
    c.update(s.wall[s.head : s.tail])
    c.update(s.set_aside)
    c[s.indicator] += 1
    for i in range(4):
        c.update({f: n for f, n in enumerate(s.hands[i]) if n})
        for m in s.melds[i]:
            c.update(t.index for t in m.tiles)
        c.update(s.bonus[i])
        c.update(t for t, by in zip(s.discards[i], s.claimed_by[i], strict=True) if by < 0)
    return c


def check_invariants(s: State) -> None:
    assert tiles_in_play(s) == Counter(FULL_SET), "the 144 tiles are not all accounted for"
    stars = sum(h[s.wild] for h in s.hands)
    assert stars <= 3
    for i in range(4):
        for m in s.melds[i]:
            assert s.wild not in [t.index for t in m.tiles]
        assert s.wild not in s.discards[i]
        size = sum(s.hands[i]) + 3 * len(s.melds[i])
        turn = (s.phase is Phase.ACT and s.current == i) or (
            s.phase is Phase.ROB and s.claim_from == i  # the added kong's tile is still held
        )
        assert size == (17 if turn else 16) or s.phase is Phase.OVER
    movers = set(acting(s))
    for seat in SEATS:
        if seat not in movers:
            assert legal_actions_for(s, seat) == ()


def playout(seed: int, bots: list[RandomBot | GreedyBot]) -> tuple[State, list[Action]]:
    s = new_hand(Ruleset(), seed)
    rngs = [bot_rng(seed, seat) for seat in SEATS]
    actions: list[Action] = []
    check_invariants(s)
    while s.phase is not Phase.OVER:
        seat = acting(s)[0]
        others = [o for o in SEATS if o not in acting(s)]
        if others:
            with pytest.raises(NotYourTurnError):
                apply(s, Action(others[0], ActionKind.PASS))
        view = observe(s, seat)
        a = bots[seat.number - 1].act(view, view.legal, rngs[seat.number - 1])
        s, _ = apply(s, a)
        actions.append(a)
        check_invariants(s)
    assert s.result is not None
    assert sum(s.result.settlement.net.values()) == 0
    return s, actions


@pytest.mark.parametrize("kind", ["random", "greedy"])
def test_playouts_keep_every_invariant(kind: str) -> None:
    _playouts(kind, 500 if kind == "random" else 400)


@pytest.mark.soak
def test_many_more_random_playouts_keep_every_invariant() -> None:
    """The same check over 5,000 random hands (``--soak``: about two minutes)."""
    _playouts("random", 5000)


def _playouts(kind: str, hands: int) -> None:
    """Play ``hands`` seeded hands with four ``kind`` bots, checking every invariant after
    every action; the hands end every way they can."""
    bot = RandomBot() if kind == "random" else GreedyBot()
    outcomes: Counter[str] = Counter()
    for seed in range(hands):
        s, _actions = playout(seed, [bot] * 4)
        assert s.result is not None
        outcomes["draw" if s.result.winner is None else s.result.win_by.value] += 1  # type: ignore[union-attr]
    assert outcomes["draw"] < hands
    if kind == "greedy":
        assert outcomes["self_draw"] and outcomes["discard"]


def test_views_never_show_another_seats_tiles_or_the_wall() -> None:
    rng = random.Random(0)
    for seed in range(60):
        s = new_hand(Ruleset(), seed)
        while s.phase is not Phase.OVER:
            for seat in SEATS:
                v = observe(s, seat).to_json()
                own = v["hand"] + ([v["drawn"]] if v["drawn"] else [])
                assert sorted(own) == sorted(str(t) for t in s.concealed(seat))
                assert "wall" not in v and "acting" not in v
                text = json.dumps(v)
                for other in SEATS:
                    if other is not seat and v["result"] is None:
                        hidden = json.dumps([str(t) for t in s.concealed(other)])
                        assert hidden not in text or len(hidden) <= 12
                assert v["drawn"] is None or seat.number - 1 == s.current
            seat = acting(s)[0]
            legal = legal_actions_for(s, seat)
            s, _ = apply(s, legal[rng.randrange(len(legal))])


def test_same_seed_same_match_and_records_replay() -> None:
    a = play_match(Ruleset(), [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()], 5, 30)
    b = play_match(Ruleset(), [GreedyBot(), RandomBot(), GreedyBot(), RandomBot()], 5, 30)
    assert [r.to_json() for r in a] == [r.to_json() for r in b]
    for r in a:
        check_record(json.loads(json.dumps(r.to_json())))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**63 - 1), st.sampled_from(["random", "greedy"]))
def test_a_replay_reproduces_the_game(seed: int, kind: str) -> None:
    bot = RandomBot() if kind == "random" else GreedyBot()
    record = play_match(Ruleset(), [bot] * 4, seed, 1)[0].to_json()
    state = check_record(record)
    assert state.result is not None and state.result.to_json() == record["result"]
