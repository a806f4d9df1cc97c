"""Sampled worlds put the seat at the same decision, and read nothing but the seat's view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju.mazhan.actions import Action
from paiju.mazhan.bots.expert import ExpertBot
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.bots.worlds import WorldError, sample_world, unseen_tiles
from paiju.mazhan.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand
from paiju.mazhan.seats import Seat
from paiju.mazhan.tiles import ALL_TILES, Tile, parse_tiles
from paiju.mazhan.views import observe
from paiju.mazhan.wall import FULL_SET


def _decisions(seeds: range) -> list[tuple[State, Seat]]:
    """Every (state, seat to decide) of greedy hands on these seeds."""
    out = []
    for seed in seeds:
        state = new_hand(Ruleset(), seed)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            for seat in acting(state):
                out.append((state, seat))
            seat = acting(state)[0]
            state, _ = apply(
                state, GreedyBot().act(observe(state, seat), state_legal(state, seat), rng)
            )
    return out


def state_legal(state: State, seat: Seat) -> tuple[Action, ...]:
    return legal_actions_for(state, seat)


def test_worlds_give_the_same_legal_actions_and_keep_every_seen_tile() -> None:
    phases: Counter[Phase] = Counter()
    for k, (state, seat) in enumerate(_decisions(range(12))):
        view = observe(state, seat)
        world = sample_world(view, random.Random(k))
        assert legal_actions_for(world, seat) == view.legal
        assert world.phase is state.phase
        State.from_position(world.to_position())  # 144 tiles, sizes, claims: all checked
        again = observe(world, seat)
        assert again.hand == view.hand and again.discards == view.discards
        assert again.table_melds == view.table_melds and again.bonus == view.bonus
        assert again.wall_left == view.wall_left and again.hand_sizes == view.hand_sizes
        phases[state.phase] += 1
    assert phases[Phase.ACT] > 100 and phases[Phase.CLAIM] > 20


def _rob_position() -> str:
    """East adds 5s to its pung; South can rob it (搶槓), West and North cannot."""
    hands = [
        "5s123p789p234m99m67s",
        "123m456m789m123p55p46s",
        "111s222s333s666z77z18p",
        "999s888s444p66p2z2z3z3z4z",
    ]
    melds = ["p555s<N5s", "-", "-", "-"]
    rivers = ["-", "-", "-", "5s>E"]
    used: Counter[int] = Counter()
    for h in hands:
        used.update(t.index for t in parse_tiles(h))
    used.update([Tile.parse("5s").index] * 3)
    used[Tile.parse("1z").index] += 1  # the indicator
    left = Counter(FULL_SET) - used
    wall = "".join(str(ALL_TILES[f]) for f in sorted(left.elements()))
    return (
        f"mazhan v=30 rob=E:5s wild=1z aside=- dice=3,4 dead=11 hands={'/'.join(hands)} "
        f"melds={'/'.join(melds)} bonus=-/-/-/- rivers={'/'.join(rivers)} wall={wall}"
    )


def test_a_rob_window_keeps_the_added_tile_in_the_declarers_hand() -> None:
    real = State.from_position(_rob_position())
    assert real.phase is Phase.ROB
    view = observe(real, Seat.S)
    assert [a.kind.value for a in view.legal] == ["hu", "pass"]
    five_s = Tile.parse("5s").index
    assert unseen_tiles(view)[five_s] == 0  # the 4th 5s is the one being added
    for k in range(30):
        world = sample_world(view, random.Random(k))
        assert world.phase is Phase.ROB and world.hands[0][five_s] == 1
        assert legal_actions_for(world, Seat.S) == view.legal
    assert ExpertBot(nodes=200).act(view, view.legal, random.Random(0)).kind.value == "hu"


def test_worlds_and_decisions_depend_only_on_the_view() -> None:
    """Two states that differ only where the seat cannot look give the same decisions."""
    for k, (state, seat) in enumerate(_decisions(range(3, 5))[5::9]):
        view = observe(state, seat)
        other = sample_world(view, random.Random(1000 + k))  # other hands, another wall
        if state.phase is Phase.ACT:
            hidden = [h for i, h in enumerate(state.hands) if i != seat.number - 1]
            assert hidden != [h for i, h in enumerate(other.hands) if i != seat.number - 1]
        assert observe(other, seat) == view
        bot = ExpertBot(nodes=300)
        a = bot.act(view, view.legal, random.Random(k))
        b = bot.act(observe(other, seat), legal_actions_for(other, seat), random.Random(k))
        assert a == b
        w1 = sample_world(view, random.Random(k))
        w2 = sample_world(observe(other, seat), random.Random(k))
        assert w1 == w2


def test_an_inconsistent_view_is_refused() -> None:
    view = observe(new_hand(Ruleset(), 4), Seat.S)
    bad = type(view)(**{**{f: getattr(view, f) for f in view.__dataclass_fields__}, "wall_left": 3})
    with pytest.raises(WorldError, match="the wall would hold"):
        sample_world(bad, random.Random(0))
    over = State.from_position(_rob_position())
    over, _ = apply(over, legal_actions_for(over, Seat.S)[0])
    with pytest.raises(ValueError, match="over"):
        sample_world(observe(over, Seat.S), random.Random(0))
