"""Hidden information by construction (rules, end of §5; issue 13): at every step of seeded
hands, for every seat, change everything that seat may not know (other hands, the wall's
order, the face of another seat's concealed kong, who else may claim and what they decided)
and check that its view and the events it receives do not change."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.rules import (
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
    seat_version,
)
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES
from paiju.mazhan.views import observe


def _bonus(f: int) -> bool:
    return f >= 34 or f == 31


def perturb(
    s: State,
    viewer: int,
    rng: random.Random,
    *,
    keep: frozenset[int] = frozenset(),
    window: bool = True,
) -> State:
    """A state ``viewer`` cannot tell from ``s``: the tiles it cannot see (other hands, the
    live wall, another seat's concealed kongs) dealt again at random, the wall reordered,
    and (with ``window``) the claim window's other seats given other options and decisions.
    Seats in ``keep`` keep their hands (an actor whose action needs its tiles)."""
    t = s.copy()
    live = list(t.wall[t.head : t.tail])
    if s.phase is Phase.OVER:  # every hand is laid down; only the wall is still unseen
        rng.shuffle(live)
        t.wall = t.wall[: t.head] + tuple(live) + t.wall[t.tail :]
        return t
    others = [o for o in range(4) if o != viewer and o not in keep]
    fixed = {o: [0] * 34 for o in others}
    if s.phase is Phase.ROB and s.claim_from in others:  # the added tile is public
        fixed[s.claim_from][s.claim_tile] += 1
    pool: list[int] = []
    for o in others:
        for f in range(34):
            pool += [f] * (t.hands[o][f] - fixed[o][f])
    slots = [k for k, f in enumerate(live) if not _bonus(f)]
    pool += [live[k] for k in slots]
    rng.shuffle(pool)
    # another seat's concealed kongs: swap a face for four unseen copies of another face
    for o in others:
        for k, meld in enumerate(t.melds[o]):
            if meld.kind is not MeldKind.CKONG:
                continue
            faces = [f for f in set(pool) if pool.count(f) == 4 and f != t.wild]
            if not faces or rng.random() < 0.3:
                continue
            new = rng.choice(sorted(faces))
            pool = [f for f in pool if f != new] + [meld.face.index] * 4
            rng.shuffle(pool)
            t.melds[o][k] = Meld(MeldKind.CKONG, (ALL_TILES[new],) * 4)
    for o in others:
        n = sum(t.hands[o]) - sum(fixed[o])
        hand = fixed[o][:]
        for f in pool[:n]:
            hand[f] += 1
        pool = pool[n:]
        t.hands[o] = hand
    for k, f in zip(slots, pool, strict=True):
        live[k] = f
    rng.shuffle(live)  # the wall's order (bonus tiles included) is unseen too
    t.wall = t.wall[: t.head] + tuple(live) + t.wall[t.tail :]
    if t.phase is Phase.ACT and t.current in others and t.drawn >= 0:
        held = [f for f in range(34) if t.hands[t.current][f]]
        t.drawn = rng.choice(held)  # another seat's drawn tile is unseen
    if window and t.phase in (Phase.CLAIM, Phase.ROB):
        _perturb_window(t, viewer, others, rng)
    t._act = None
    return t


def _perturb_window(t: State, viewer: int, others: list[int], rng: random.Random) -> None:
    """Other seats in or out of the window, undecided or decided, with other options."""
    options = {o: a for o, a in t.options.items() if o == viewer}
    decisions = {o: a for o, a in t.decisions.items() if o == viewer}
    for o in others:
        if o == t.claim_from:
            continue
        seat = SEATS[o]
        mode = rng.randrange(4)
        kinds = (
            [ActionKind.HU]
            if t.phase is Phase.ROB
            else rng.sample([ActionKind.HU, ActionKind.PENG, ActionKind.GANG], 2)
        )
        claims = tuple(Action(seat, k) for k in kinds)
        if mode == 1:
            options[o] = (*claims, Action(seat, ActionKind.PASS))
        elif mode == 2:
            decisions[o] = Action(seat, ActionKind.PASS)
        elif mode == 3:
            decisions[o] = claims[0]
    if not options:  # the window is open: someone must still be deciding
        o = next(o for o in others if o != t.claim_from)
        decisions.pop(o, None)
        options[o] = (Action(SEATS[o], ActionKind.PASS),)
    t.options = options
    t.decisions = decisions
    t.version = t.window_version + len(decisions)


def seen(s: State, seat: Seat) -> dict[str, Any]:
    return observe(s, seat).to_json()


def hand_steps(seed: int, rng: random.Random) -> Iterator[tuple[State, Action, State, list[Event]]]:
    """Every step of a hand played with random legal actions."""
    s = new_hand(Ruleset(), seed)
    while s.phase is not Phase.OVER:
        movers = acting(s)
        mover = movers[rng.randrange(len(movers))]
        legal = legal_actions_for(s, mover)
        a = legal[rng.randrange(len(legal))]
        s2, events = apply(s, a)
        yield s, a, s2, events
        s = s2


def check_hand(seed: int) -> int:
    """Check one hand; the number of (step, seat) pairs checked."""
    rng = random.Random(seed)
    checked = 0
    last = None
    for s, a, s2, events in hand_steps(seed, rng):
        last = s2
        actor = a.seat.number - 1
        for seat in SEATS:
            v = seat.number - 1
            before = seen(s, seat)
            # the view: nothing the seat may not know shows
            assert seen(perturb(s, v, rng), seat) == before, (seed, str(a), seat)
            assert before["version"] == seat_version(s, seat)
            mine = events_json(events, seat)
            # a private decision inside a window: the others see nothing change at all
            if s.phase is not Phase.ACT and s2.phase is s.phase and v != actor:
                assert mine == [] and seen(s2, seat) == before
            # the events: the same, when the seat's view after the step is the same
            keep = frozenset({actor, *s.options, *s.decisions}) - {v}
            t = perturb(s, v, rng, keep=keep, window=False)
            t2, other_events = apply(t, a)
            if seen(t2, seat) == seen(s2, seat):
                assert events_json(other_events, seat) == mine, (seed, str(a), seat)
            if s.phase is not Phase.ACT and s2.phase is not s.phase:
                _check_window_close(s, a, s2, events, seat)
            if v != actor and a.kind is ActionKind.ANGANG:  # another face looks the same
                for b in legal_actions_for(s, a.seat):
                    if b.kind is ActionKind.ANGANG and b != a:
                        _, b_events = apply(s, b)
                        assert events_json(b_events, seat)[0] == mine[0]
            checked += 1
    assert last is not None
    for seat in SEATS:  # the end: only the wall's order stays unseen
        assert seen(perturb(last, seat.number - 1, rng), seat) == seen(last, seat)
    return checked


def _check_window_close(s: State, a: Action, s2: State, events: list[Event], seat: Seat) -> None:
    """Other seats' losing claims, turned into passes, change nothing this seat sees."""
    t = s.copy()
    won = {e.seat for e in events if e.kind in ("chi", "peng", "gang", "hu")}
    for o, d in s.decisions.items():
        if SEATS[o] is not seat and SEATS[o] not in won and d.kind is not ActionKind.PASS:
            t.decisions[o] = Action(SEATS[o], ActionKind.PASS)
    t2, other_events = apply(t, a)
    assert seen(t2, seat) == seen(s2, seat)
    assert events_json(other_events, seat) == events_json(events, seat)


def test_the_deal_shows_each_seat_only_its_own_tiles() -> None:
    for seed in range(200):
        state, events = deal(Ruleset(), seed)
        assert events[0].kind == "deal" and events[0].dice == state.dice
        for seat in SEATS:
            for e in events_json(events, seat):
                if e["kind"] in ("dealt", "draw"):
                    assert (e["tiles"] is None) == (e["seat"] != seat.value)
            mine = [e for e in events_json(events, seat) if e["kind"] == "dealt"]
            assert len(mine) == 4


def test_a_concealed_kong_is_face_down_to_the_others_until_the_hand_ends() -> None:
    from tests.mazhan.engine_helpers import custom_state

    s = custom_state({"E": "5555m123p456p789p333s1z"}, wall="1z")
    s2, events = apply(s, Action.parse("E angang 5m"))
    for seat in SEATS:
        view = seen(s2, seat)
        meld = view["seats"]["E"]["melds"][0]
        assert meld["kind"] == "ckong"
        assert (meld["tiles"] is None) == (seat is not Seat.E)
        kong = next(e for e in events_json(events, seat) if e["kind"] == "angang")
        assert (kong["tiles"] is None) == (seat is not Seat.E)
        assert view["seats"]["E"]["hand_size"] == 14
    end, _ = apply(s2, Action.parse("E hu"))
    for seat in SEATS:
        view = seen(end, seat)
        face_up = {"kind": "ckong", "tiles": ["5m"] * 4, "claimed": None, "from": None}
        assert view["seats"]["E"]["melds"] == [face_up]
        assert view["result"]["hands"]["E"]["melds"] == [face_up]


def test_in_a_claim_window_a_seat_sees_only_its_own_options_and_then_the_winner() -> None:
    from tests.mazhan.engine_helpers import custom_state, play

    s = custom_state(
        {
            "E": "4m9m147p258p147s1234z67z",
            "S": "3m5m147p258s1234z67z9m9p",
            "W": "4m4m147p258s1234z67z9m9p",
        }
    )
    s = play(s, "E discard 4m")
    views = {seat: seen(s, seat) for seat in SEATS}
    assert views[Seat.S]["my_turn"] and views[Seat.W]["my_turn"]
    assert not views[Seat.N]["my_turn"] and views[Seat.N]["legal"] == []
    assert {a["action"] for a in views[Seat.S]["legal"]} == {"S chi 345m", "S pass"}
    for v in views.values():
        assert "acting" not in v and v["window"] == {"kind": "claim", "tile": "4m", "from": "E"}
    s2, events = apply(s, Action.parse("S chi 345m"))
    for seat in (Seat.E, Seat.W, Seat.N):
        assert events_json(events, seat) == [] and seen(s2, seat) == views[seat]
    assert events_json(events, Seat.S) == [
        {"kind": "decision", "seat": "S", "tiles": ["3m", "4m", "5m"], "detail": "chi"}
    ]
    s3, events = apply(s2, Action.parse("W peng"))
    lost = [e for e in events_json(events, Seat.S) if e["kind"] == "claim_lost"]
    assert lost == [{"kind": "claim_lost", "seat": "S", "tiles": [], "detail": "W peng"}]
    for seat in (Seat.E, Seat.N):
        assert [e["kind"] for e in events_json(events, seat)] == ["peng"]
    # three actions; each seat's version counts the discard and the winning claim, and
    # South's its own lost claim too, never another seat's answer
    assert s3.version == 3
    versions = {seat.value: seen(s3, seat)["version"] for seat in SEATS}
    assert versions == {"E": 2, "S": 3, "W": 2, "N": 2}


@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_nothing_a_seat_may_not_know_changes_what_it_sees(seed: int) -> None:
    assert check_hand(seed) > 0


@pytest.mark.soak
@pytest.mark.timeout(3600)  # a long run by design
def test_nothing_a_seat_may_not_know_changes_what_it_sees_in_thousands_of_hands() -> None:
    for seed in range(3000):
        check_hand(seed)
