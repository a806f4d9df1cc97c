"""Hidden information by construction (Ma Diao §3): at every step of seeded hands, for every
seat, change everything that seat may not know (other hands, the stock's order below the
面張, the faces of other seats' face-down 滅 cards) and check that its view and the events it
receives do not change."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.games import game
from paiju.madiao.rules import (
    Action,
    Event,
    Phase,
    Ruleset,
    State,
    acting,
    apply,
    deal,
    events_json,
    legal_actions_for,
    new_hand,
)
from paiju.madiao.scoring import BAILAO
from paiju.madiao.seats import SEATS, Seat
from paiju.madiao.views import observe


def perturb(
    s: State, viewer: int, rng: random.Random, *, keep: frozenset[int] = frozenset()
) -> State:
    """A state ``viewer`` cannot tell from ``s``; seats in ``keep`` keep their hands."""
    t = s.copy()
    others = [o for o in range(4) if o != viewer]
    over = s.phase is Phase.OVER
    pool: list[int] = []
    if not over:
        for o in others:
            if o not in keep:
                pool += t.hands[o]
        pool += t.stock[:-1]
    # others' face-down cards, in finished tricks and in the trick being played
    down = [
        (n, k)
        for n, (_, plays) in enumerate(t.history)
        for k, (seat, card, up) in enumerate(plays)
        if not up and seat != viewer and not (over and card == BAILAO.index)
    ]
    down_now = [k for k, (seat, _, up) in enumerate(t.trick) if not up and seat != viewer]
    pool += [t.history[n][1][k][1] for n, k in down] + [t.trick[k][1] for k in down_now]
    rng.shuffle(pool)
    if not over:
        for o in others:
            if o not in keep:
                n = len(t.hands[o])
                t.hands[o], pool = sorted(pool[:n]), pool[n:]
        n = len(t.stock) - 1
        t.stock, pool = (*pool[:n], t.stock[-1]), pool[n:]
    history = [(lead, list(plays)) for lead, plays in t.history]
    for n, k in down:
        seat, _, up = history[n][1][k]
        history[n][1][k] = (seat, pool.pop(), up)
    for k in down_now:
        seat, _, up = t.trick[k]
        t.trick[k] = (seat, pool.pop(), up)
    t.history = [(lead, tuple(plays)) for lead, plays in history]
    t.out_down = [c for _, plays in t.history for _, c, up in plays if not up]
    played = [(seat, c) for _, plays in t.history for seat, c, _ in plays] + [
        (seat, c) for seat, c, _ in t.trick
    ]
    t.bailao_holder = next(
        (o for o in range(4) if BAILAO.index in t.hands[o]),
        next((seat for seat, c in played if c == BAILAO.index), -1),
    )
    return t


def seen(s: State, seat: Seat) -> dict[str, object]:
    return observe(s, seat).to_json()


def hand_steps(seed: int, rng: random.Random) -> Iterator[tuple[State, Action, State, list[Event]]]:
    s = new_hand(Ruleset(), seed)
    while s.phase is not Phase.OVER:
        legal = legal_actions_for(s, acting(s)[0])
        a = legal[rng.randrange(len(legal))]
        s2, events = apply(s, a)
        yield s, a, s2, events
        s = s2


def check_hand(seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    last = None
    for s, a, s2, events in hand_steps(seed, rng):
        last = s2
        actor = a.seat.number - 1
        for seat in SEATS:
            v = seat.number - 1
            before = seen(s, seat)
            assert seen(perturb(s, v, rng), seat) == before, (seed, str(a), seat)
            t = perturb(s, v, rng, keep=frozenset({actor}) - {v})
            t2, other_events = apply(t, a)
            if seen(t2, seat) == seen(s2, seat):
                assert events_json(other_events, seat) == events_json(events, seat)
            if v != actor and a.kind.value == "mie":  # another face-down card looks the same
                for b in legal_actions_for(s, a.seat):
                    if b.kind.value == "mie" and b != a:
                        b2, b_events = apply(s, b)
                        if s2.phase is not Phase.OVER:
                            assert seen(b2, seat) == seen(s2, seat)
                        assert events_json(b_events, seat)[0] == events_json(events, seat)[0]
            checked += 1
    # once over, the settlement's review (包賠) may tell who could have captured, as players
    # argue penalties after the hand: the last state is not perturbed
    assert last is not None and last.phase is Phase.OVER
    return checked


def test_the_deal_shows_each_seat_only_its_own_cards() -> None:
    for seed in range(100):
        _state, events = deal(Ruleset(), seed)
        for seat in SEATS:
            for e in events_json(events, seat):
                if e["kind"] == "deal":
                    assert (e["cards"] is None) == (e["seat"] != seat.value)
                    assert e["cards"] is None or len(e["cards"]) == 8


def test_a_face_down_card_shows_only_to_its_player_and_counts_for_everyone() -> None:
    s = new_hand(Ruleset(), 3)
    lead = legal_actions_for(s, acting(s)[0])[0]
    s, _ = apply(s, lead)
    follower = acting(s)[0]
    mie = next(a for a in legal_actions_for(s, follower) if a.kind.value == "mie")
    s, events = apply(s, mie)
    for seat in SEATS:
        view = seen(s, seat)
        play = view["trick"]["plays"][1]  # type: ignore[index]
        assert (play["card"] is None) == (seat is not follower)
        assert view["seats"][follower.value]["face_down"] == 1  # type: ignore[index]
        cards = view["seats"][follower.value]["face_down_cards"]  # type: ignore[index]
        assert cards == ([str(mie.card)] if seat is follower else None)
        assert (events_json(events, seat)[0]["card"] is None) == (seat is not follower)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_nothing_a_seat_may_not_know_changes_what_it_sees(seed: int) -> None:
    assert check_hand(seed) == 32 * 4


@pytest.mark.soak
@pytest.mark.timeout(3600)  # a long run by design
def test_nothing_a_seat_may_not_know_changes_what_it_sees_in_thousands_of_hands() -> None:
    for seed in range(3000):
        check_hand(seed)


def test_no_play_needs_the_claim_pause() -> None:
    """Ma Diao has no claims, so nothing in its rhythm tells who could claim: the claim
    pause's settling state (Mazhan §5, end) is never asked of it."""
    g = game("madiao")
    for seed in range(20):
        rng = random.Random(seed)
        for s, a, _, _ in hand_steps(seed, rng):
            for b in legal_actions_for(s, a.seat):
                assert g.settling(s, b) is None
