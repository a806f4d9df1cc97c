"""The Game protocol, checked the same way for every game (a seeded-playout conformance test):
determinism, replay equality, only acting seats have legal actions, transfers equal the net,
the clock's action is legal, the match level passes the deal or the bank."""

from __future__ import annotations

import json
import random
from collections import defaultdict
from fractions import Fraction

import pytest

from paiju.bots.driver import play_hand, play_match
from paiju.bots.uniform import RandomBot
from paiju.errors import ReplayError
from paiju.games import Deal, game, replay
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.records import check_record

#: paiju's own games
GAMES = ("mazhan", "madiao")

SEEDS = range(12)


def playout(name: str, seed: int) -> tuple[list[object], list[str]]:
    """A random playout through the protocol only; states and the actions played."""
    g = game(name)
    rng = random.Random(seed)
    state = g.new_hand(g.default_ruleset(), seed, {})
    states = [state]
    actions: list[str] = []
    while not g.is_over(state):
        movers = g.acting(state)
        assert movers, "a live hand has someone to act"
        for seat in g.seats:
            legal = g.legal_actions(state, seat)
            assert bool(legal) == (seat in movers), f"{seat.value} legal={legal}"
        seat = movers[rng.randrange(len(movers))]
        timeout = g.timeout_action(state, seat)
        assert timeout in g.legal_actions(state, seat)
        action = rng.choice(g.legal_actions(state, seat))
        state, _ = g.apply(state, action)
        states.append(state)
        actions.append(str(action))
    return states, actions


@pytest.mark.parametrize("name", GAMES)
def test_playouts_are_deterministic_and_replay(name: str) -> None:
    g = game(name)
    for seed in SEEDS:
        states, actions = playout(name, seed)
        _again, actions2 = playout(name, seed)
        assert actions == actions2
        final = replay(g, g.default_ruleset(), seed, {}, actions)
        assert g.result_json(final) == g.result_json(states[-1])
        mid = len(actions) // 2
        resumed = replay(g, g.default_ruleset(), seed, {}, actions[mid:], start=states[mid])
        assert g.result_json(resumed) == g.result_json(final)


@pytest.mark.parametrize("name", GAMES)
def test_transfers_are_the_net_and_zero_sum(name: str) -> None:
    g = game(name)
    for seed in SEEDS:
        final = playout(name, seed)[0][-1]
        net: dict[int, Fraction] = defaultdict(Fraction)
        for t in g.transfers(final):
            assert t.units > 0 and t.payer != t.payee
            net[t.payer] -= t.units
            net[t.payee] += t.units
        outcomes = [g.outcome(final, i) for i in range(4)]
        assert [net[i] for i in range(4)] == [o.net for o in outcomes]
        assert sum(o.net for o in outcomes) == 0


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_hand_has_no_actions_and_its_result_is_json(name: str) -> None:
    g = game(name)
    final = playout(name, 3)[0][-1]
    assert g.acting(final) == ()
    assert all(g.legal_actions(final, s) == () for s in g.seats)
    json.dumps(g.result_json(final))
    with pytest.raises(ValueError):
        g.timeout_action(final, g.seats[0])


@pytest.mark.parametrize("name", GAMES)
def test_a_match_passes_the_deal(name: str) -> None:
    g = game(name)
    rng = random.Random(5)
    deal = g.first_deal(rng)
    assert sorted(deal.seating) == [0, 1, 2, 3]
    for hand in range(6):
        state = g.new_hand(g.default_ruleset(), rng.getrandbits(63), deal.setup)
        final = playout_from(name, state, hand)
        after = g.next_deal(deal, final)
        assert after.hand == deal.hand + 1
        assert sorted(after.seating) == [0, 1, 2, 3]
        deal = after


def playout_from(name: str, state: object, seed: int) -> object:
    g = game(name)
    rng = random.Random(seed)
    while not g.is_over(state):
        seat = g.acting(state)[0]
        state, _ = g.apply(state, rng.choice(g.legal_actions(state, seat)))
    return state


def test_mazhan_deal_passes_to_south_unless_east_wins() -> None:
    g = game("mazhan")
    seen = {True: 0, False: 0}
    for seed in range(40):
        final, _ = play_hand(g.default_ruleset(), [GreedyBot()] * 4, seed)
        kept = g.result_json(final)["winner"] == "E"
        after = g.next_deal(Deal(3, (2, 3, 0, 1)), final)
        assert after.seating == ((2, 3, 0, 1) if kept else (3, 0, 1, 2))
        seen[kept] += 1
    assert seen[True] and seen[False]


def test_madiao_bank_passes_to_the_next_seat() -> None:
    g = game("madiao")
    state = g.new_hand(g.default_ruleset(), 9, {"banker": "W"})
    final = playout_from("madiao", state, 1)
    assert g.next_deal(Deal(0, (0, 1, 2, 3)), final).setup == {"banker": "N"}


@pytest.mark.parametrize("name", GAMES)
def test_records_carry_their_format_and_chance(name: str) -> None:
    g = game(name)
    record = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=2, hands=2)[1].to_json()
    assert record["format"] == 2
    check_record(record)
    if name == "mazhan":
        assert len(record["chance"]["dice"]) == 2
        record["chance"] = {"dice": [7, 7]}
        with pytest.raises(ReplayError, match="chance"):
            check_record(record)


def test_a_format_1_madiao_record_still_replays() -> None:
    g = game("madiao")
    new = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=2, hands=1)[0].to_json()
    old = {k: v for k, v in new.items() if k not in ("format", "setup", "chance")}
    old["banker"] = new["setup"]["banker"]
    check_record(old)
    del old["banker"]
    with pytest.raises(ReplayError, match="banker"):
        check_record(old)


def test_an_unknown_record_format_is_refused_by_name() -> None:
    with pytest.raises(ReplayError, match="record format 3"):
        check_record({"format": 3, "game": "mazhan"})


def test_the_registry_refuses_unknown_games() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        game("go")
