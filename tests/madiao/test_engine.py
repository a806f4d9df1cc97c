"""Ma Diao rules §2–§4 through the engine: the deal, tricks, 開沖 and seeded playouts."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots.base import Bot
from paiju.bots.driver import bot_rng, play_match
from paiju.bots.uniform import RandomBot
from paiju.errors import GameOverError, IllegalActionError, NotYourTurnError
from paiju.madiao.bots.heuristic import HeuristicBot
from paiju.madiao.cards import ALL_CARDS, Card
from paiju.madiao.rules import (
    Action,
    ActionKind,
    Phase,
    Ruleset,
    State,
    acting,
    apply,
    first_banker,
    legal_actions_for,
    legal_codes,
    new_hand,
)
from paiju.madiao.seats import SEATS, Seat
from paiju.madiao.views import observe
from paiju.records import check_record


def cards_in_play(s: State) -> Counter[int]:
    c: Counter[int] = Counter()
    for h in s.hands:
        c.update(h)
    for t in s.table:
        c.update(t)
    c.update(card for _, card, _ in s.trick)
    c.update(s.out_up)
    c.update(s.out_down)
    c.update(s.stock)
    return c


def test_s2_deal_eight_each_from_the_banker_and_eight_in_the_stock() -> None:
    for seed in range(100):
        s = new_hand(Ruleset(), seed)
        assert [len(h) for h in s.hands] == [8, 8, 8, 8] and len(s.stock) == 8
        assert s.banker == first_banker(s.mian) == (s.mian.rank - 1) % 4
        assert sorted(s.hands[s.banker]) == sorted(s.deck[:8])  # the banker is dealt first
        assert s.leader == s.banker
        assert new_hand(Ruleset(first_lead="next"), seed).leader == (s.banker + 1) % 4


def test_s3_capture_must_beat_the_best_face_up_card_and_nobody_must_follow() -> None:
    s = new_hand(Ruleset(), 7, banker=Seat.E)
    lead = next(a for a in legal_actions_for(s, Seat.E))
    s, _ = apply(s, lead)
    legal = legal_actions_for(s, Seat.S)
    hand = [ALL_CARDS[c] for c in s.hands[1]]
    assert {a.card for a in legal if a.kind is ActionKind.MIE} == set(hand)
    for a in legal:
        if a.kind is ActionKind.ZHUO:
            assert a.card.suit is lead.card.suit and a.card.rank > lead.card.rank
    not_higher = [c for c in hand if c.suit is not lead.card.suit or c.rank < lead.card.rank]
    if not_higher:
        with pytest.raises(IllegalActionError):
            apply(s, Action(Seat.S, ActionKind.ZHUO, not_higher[0]))
    with pytest.raises(NotYourTurnError):
        apply(s, Action(Seat.W, ActionKind.MIE, ALL_CARDS[s.hands[2][0]]))


@pytest.mark.parametrize("seed", range(40))
def test_legal_codes_are_the_legal_actions_in_order(seed: int) -> None:
    rng = random.Random(seed)
    s = new_hand(Ruleset(), seed)
    while s.phase is not Phase.OVER:
        legal = legal_actions_for(s, acting(s)[0])
        codes = [{"fa": 0, "zhuo": 1, "mie": 2}[a.kind.value] * 40 + a.card.index for a in legal]
        assert list(legal_codes(s)) == codes
        s, _ = apply(s, legal[rng.randrange(len(legal))])
    assert legal_codes(s) == ()


@pytest.mark.parametrize("seed", range(20))
def test_a_checked_play_gives_the_same_state_and_events(seed: int) -> None:
    rng = random.Random(seed)
    s = new_hand(Ruleset(), seed)
    while s.phase is not Phase.OVER:
        legal = legal_actions_for(s, acting(s)[0])
        action = legal[rng.randrange(len(legal))]
        t, events = apply(s, action)
        u, events_u = apply(s, action, checked=True)
        assert t == u and events == events_u and t.result == u.result
        s = t
    with pytest.raises(GameOverError):
        apply(s, legal[0], checked=True)


def test_s3_only_the_winning_card_goes_to_the_table() -> None:
    s = new_hand(Ruleset(), 11, banker=Seat.E)
    hands = [[ALL_CARDS[c] for c in h] for h in s.hands]
    s, _ = apply(s, Action(Seat.E, ActionKind.FA, hands[0][0]))
    for seat in (Seat.S, Seat.W, Seat.N):
        s, _ = apply(s, legal_actions_for(s, seat)[0])
    winner = next(i for i in range(4) if s.tricks_won[i])
    assert sum(len(t) for t in s.table) == 1 and len(s.table[winner]) == 1
    assert s.leader == winner and acting(s) == (SEATS[winner],)
    assert len(s.out_up) + len(s.out_down) == 3


def test_s3_5_top_cards_captured_face_up_are_recorded_for_twins() -> None:
    for seed in range(3000):
        rec = play_match(Ruleset(), [RandomBot()] * 4, seed, 1)[0]
        s = new_hand(Ruleset(), rec.seed, banker=Seat(rec.setup["banker"]))
        for text in rec.actions:
            s, _ = apply(s, Action.parse(text))
        if s.captured:
            top, others = next(iter(s.captured.items()))
            assert ALL_CARDS[top].is_top
            assert all(ALL_CARDS[o].is_top and o < top for o in others)
            return
    pytest.fail("no capture of a top card by a top card in 3000 random hands")


def playout(seed: int, kind: str) -> State:
    bot = RandomBot() if kind == "random" else HeuristicBot()
    s = new_hand(Ruleset(), seed)
    rngs = [bot_rng(seed, seat) for seat in SEATS]
    tricks = 0
    while s.phase is not Phase.OVER:
        assert cards_in_play(s) == Counter(range(40))
        seat = acting(s)[0]
        for other in SEATS:
            if other is not seat:
                assert legal_actions_for(s, other) == ()
        view = observe(s, seat)
        assert "".join(str(c) for c in view.hand) == "".join(
            str(ALL_CARDS[c]) for c in s.hands[seat.number - 1]
        )
        for who, card, up in view.trick:
            assert card is not None or (not up and who is not seat)
        s, events = apply(s, bot.act(view, view.legal, rngs[seat.number - 1]))
        tricks += sum(1 for e in events if e.kind == "trick")
    assert tricks == 8 and sum(s.tricks_won) == 8
    assert s.result is not None
    assert len(s.result.chong) == 8
    assert sum(s.result.settlement.net.values()) == 0
    return s


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_playouts_keep_every_invariant(kind: str) -> None:
    for seed in range(600 if kind == "random" else 300):
        playout(seed, kind)


def _strings(x: object) -> set[str]:
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        return set().union(*(_strings(v) for v in x.values()))
    if isinstance(x, list):
        return set().union(*(_strings(v) for v in x))
    return set()


def test_views_hide_other_hands_and_the_stock() -> None:
    for seed in range(20):
        s = new_hand(Ruleset(), seed)
        for seat in SEATS:
            shown = _strings(observe(s, seat).to_json())
            own = {str(ALL_CARDS[c]) for c in s.hands[seat.number - 1]}
            hidden = {str(ALL_CARDS[c]) for c in range(40)} - own - {str(s.mian)}
            assert not shown & hidden
            assert observe(s, seat).mian == s.mian


def test_same_seed_same_match_and_records_replay() -> None:
    bots: list[Bot] = [HeuristicBot(), RandomBot(), HeuristicBot(), RandomBot()]
    a = play_match(Ruleset(), bots, 21, 8)
    b = play_match(Ruleset(), bots, 21, 8)
    assert [r.to_json() for r in a] == [r.to_json() for r in b]
    bankers = [r.setup["banker"] for r in a]
    assert all(SEATS["ESWN".index(x)].next.value == y for x, y in itertools.pairwise(bankers))
    for r in a:
        check_record(json.loads(json.dumps(r.to_json())))


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**63 - 1), st.sampled_from(["random", "heuristic"]))
def test_a_replay_reproduces_the_game(seed: int, kind: str) -> None:
    bot = RandomBot() if kind == "random" else HeuristicBot()
    record = play_match(Ruleset(), [bot] * 4, seed, 1)[0].to_json()
    assert check_record(record).result.to_json() == record["result"]


def test_chong_runs_after_the_last_trick_from_its_winner() -> None:
    rng = random.Random(0)
    s = new_hand(Ruleset(), 5)
    while s.phase is not Phase.OVER:
        legal = legal_actions_for(s, acting(s)[0])
        s, _ = apply(s, legal[rng.randrange(len(legal))])
    assert s.result is not None
    assert s.result.chong[0].drawer is SEATS[s.leader]
    assert [d.card for d in s.result.chong] == [ALL_CARDS[c] for c in s.stock]
    assert s.result.chong[-1].card == s.mian
    assert isinstance(s.mian, Card)
