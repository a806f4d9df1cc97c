"""The engine's fast paths against the slow ones they replace.

- the suit keys the engine keeps per seat equal the keys computed afresh from the hands;
- a seat the claim check skips as far from a win (``least_need``) wins on no tile, by the
  plain recursive search;
- the claim and self-draw checks on kept keys equal the recursive search;
- ``apply`` stays pure to its callers although states share lists (copy-on-write);
- the inlined shuffle draws what ``random.shuffle`` draws;
- a settlement read lazily equals the one computed as the hand ends;
- a fork (the next state's start) holds every field of the state it comes from, and the
  discards offered are every face held but the ★;
- the shortfall after each discard, the unchanged suits reckoned once, equals
  :func:`~paiju.mazhan.hand.shortfall` of the hand less that tile.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.mazhan import rules
from paiju.mazhan.actions import Action
from paiju.mazhan.hand import least_need
from paiju.mazhan.rules import (
    Phase,
    Ruleset,
    State,
    acting,
    apply,
    legal_actions_for,
    new_hand,
)
from paiju.mazhan.seats import SEATS
from paiju.mazhan.wall import FULL_SET, shuffled_wall
from tests.mazhan.reference import reference_complete
from tests.mazhan.test_hand import SIZES, random_hand


def _natural(state: State, seat: int) -> tuple[int, ...]:
    h = list(state.hands[seat])
    h[state.wild] = 0
    return tuple(h)


def _need(keys: list[int], b: int) -> int:
    """:func:`~paiju.mazhan.hand.least_need` of the seat whose suit keys start at ``b``."""
    return least_need(keys[b], keys[b + 1], keys[b + 2], keys[b + 3])


def _play(seed: int, check: object) -> State:
    """A random hand, ``check(state)`` called on every state."""
    rng = random.Random(seed)
    state = new_hand(Ruleset(), seed)
    while state.phase is not Phase.OVER:
        assert callable(check)
        check(state)
        seat = acting(state)[rng.randrange(len(acting(state)))]
        legal = legal_actions_for(state, seat)
        state, _ = apply(state, legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_kept_keys_and_win_checks_equal_the_slow_search(seed: int) -> None:
    def check(state: State) -> None:
        keys = rules._keys_of(state)
        assert keys == rules._natural_keys(state.hands, state.wild)
        for seat in range(4):
            if state._known & (1 << seat):
                # the cached "near" bit is exactly what a fresh bound gives (always up for
                # a seat holding three ★: checked on every discard)
                w = state.hands[seat][state.wild]
                near = w == 3 or _need(keys, 4 * seat) <= w + 1
                assert bool(state._near & (1 << seat)) == near
        if state.phase is Phase.CLAIM:
            f = state.claim_tile
            for o, opts in state.options.items():
                counts = list(_natural(state, o))
                counts[f] += 1
                wins = reference_complete(tuple(counts), state.hands[o][state.wild])
                assert any(a.kind.value == "hu" for a in opts) == wins
        if state.phase is Phase.ACT and state.drew:
            c = state.current
            wins = reference_complete(_natural(state, c), state.hands[c][state.wild])
            legal = legal_actions_for(state, SEATS[c])
            assert any(a.kind.value == "hu" for a in legal) == wins

    _play(seed, check)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(SIZES), st.integers(1, 4))
def test_a_seat_skipped_as_far_wins_on_no_tile(seed: int, size: int, suits: int) -> None:
    hand = random_hand(random.Random(seed), size - 1, suits)  # 3n + 1 tiles
    if hand.wilds == 3:
        return  # never skipped
    keys = rules._natural_keys([list(hand.counts)], _empty_face(hand.counts))
    far = _need(keys, 0) > hand.wilds + 1
    if far:
        for f in range(34):
            counts = list(hand.counts)
            if counts[f] == 4:
                continue
            counts[f] += 1
            assert not reference_complete(tuple(counts), hand.wilds), f


def _empty_face(counts: tuple[int, ...]) -> int:
    """A face the hand does not hold, to stand as the wild face for the keys (the ★ are
    counted apart already)."""
    return next(f for f in range(34) if counts[f] == 0)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_apply_never_changes_the_state_it_is_given(seed: int) -> None:
    seen: list[tuple[State, str]] = []

    def check(state: State) -> None:
        seen.append((state, state.to_position()))

    _play(seed, check)
    for state, position in seen:
        assert state.to_position() == position


def test_copy_is_deep_and_its_changes_are_seen_by_the_engine() -> None:
    s = new_hand(Ruleset(), seed=5)
    legal_actions_for(s, SEATS[0])  # caches made on the original
    t = s.copy()
    assert all(a is not b for a, b in zip(s.hands, t.hands, strict=True))
    assert t == s
    # a test may change a copy's hand before applying: the engine must see the change
    face = next(f for f in range(34) if t.hands[0][f] and f != t.wild)
    other = next(f for f in range(34) if f not in (face, t.wild) and t.hands[0][f] < 4)
    t.hands[0][face] -= 1
    t.hands[0][other] += 1
    legal = legal_actions_for(t, SEATS[0])
    assert rules._keys_of(t) == rules._natural_keys(t.hands, t.wild)
    assert any(a.tile is not None and a.tile.index == other for a in legal)


def _plain_claims(state: State, c: int, f: int) -> dict[int, list[str]]:
    """The claims on ``c``'s discard ``f`` read plainly from the counts after it (§6): a win
    by the slow search, a kong on three held, a pung on two, a chow for the next seat of two
    held natural tiles, each claim but the win leaving a natural tile to discard."""
    out: dict[int, list[str]] = {}
    for k in (1, 2, 3):
        o = (c + k) % 4
        h, w = state.hands[o], state.hands[o][state.wild]
        counts = list(_natural(state, o))
        counts[f] += 1
        opts = ["hu"] if reference_complete(tuple(counts), w) else []
        spare = sum(h) - 2 - w
        if h[f] == 3:
            opts.append("gang")
        if h[f] >= 2 and spare >= 1:
            opts.append("peng")
        if k == 1 and f < 27 and spare >= 1:
            for base in range(f - f % 9, f - f % 9 + 7):
                others = [t for t in (base, base + 1, base + 2) if t != f]
                if len(others) == 2 and all(h[t] and t != state.wild for t in others):
                    opts.append(f"chi{base}")
        if opts:
            out[o] = [*opts, "pass"]
    return out


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_claims_on_every_discard_are_the_rules_plain_reading(seed: int) -> None:
    def name(a: Action) -> str:
        return f"chi{a.tile.index}" if a.kind.value == "chi" and a.tile else a.kind.value

    rng = random.Random(seed)
    state = new_hand(Ruleset(), seed)
    while state.phase is not Phase.OVER:
        seat = acting(state)[0]
        legal = legal_actions_for(state, seat)
        action = legal[rng.randrange(len(legal))]
        before = state
        state, _ = apply(state, action)
        if before.phase is Phase.ACT and action.kind.value == "discard" and action.tile:
            after = before.copy()  # the hand less the discard, as the claimers see it
            after.hands[before.current][action.tile.index] -= 1
            want = _plain_claims(after, before.current, action.tile.index)
            got = state.options if state.phase is Phase.CLAIM else {}
            assert {o: [name(a) for a in opts] for o, opts in got.items()} == want


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_a_fork_holds_every_field_of_its_state(seed: int) -> None:
    fresh = {"version", "hands", "_act", "_keys", "_owned"}

    def check(state: State) -> None:
        legal_actions_for(state, acting(state)[0])  # the caches a fork must not carry over
        fork = state._fork()
        for f in fields(State):
            if f.name not in fresh:
                assert getattr(fork, f.name) is getattr(state, f.name), f.name
        assert fork.version == state.version + 1
        assert fork.hands == state.hands and fork.hands is not state.hands
        assert fork._keys == rules._natural_keys(state.hands, state.wild)
        assert fork._act is None and fork._owned == 0

    _play(seed, check)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_discards_offered_are_every_face_held_but_the_wild(seed: int) -> None:
    def check(state: State) -> None:
        if state.phase is Phase.ACT:
            seat = SEATS[state.current]
            h = state.hands[state.current]
            offered = [
                a.tile.index
                for a in legal_actions_for(state, seat)
                if a.tile and a.kind.value == "discard"
            ]
            assert offered == [f for f in range(34) if h[f] and f != state.wild]

    _play(seed, check)


def test_the_inlined_shuffle_draws_what_random_shuffle_draws() -> None:
    for seed in [*range(300), 2**70 + 5, -3]:
        rng = random.Random(seed)
        tiles = list(FULL_SET)
        rng.shuffle(tiles)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        assert shuffled_wall(seed) == (tuple(tiles), dice)


def test_a_lazy_settlement_equals_an_eager_one() -> None:
    rules.check_every_hand(False)
    try:
        lazy = [_play(seed, lambda s: None) for seed in range(30)]
    finally:
        rules.check_every_hand(True)
    for seed, state in enumerate(lazy):
        assert state.result is not None
        assert not state.result._settled  # nobody read it yet
        eager = _play(seed, lambda s: None)
        assert eager.result is not None and eager.result._settled
        assert state.result.settlement == eager.result.settlement
        assert state == eager


def _reachable(root: object, limit: int = 20000) -> list[object]:
    """Every object reachable from ``root`` (modules, types and functions left out)."""
    import gc
    import types

    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, types.FunctionType)):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def test_what_views_share_holds_nothing_a_seat_may_not_see() -> None:
    from paiju.mazhan.melds import MeldKind
    from paiju.mazhan.views import observe

    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        state = new_hand(Ruleset(), seed)
        while state.phase is not Phase.OVER and checked < 30:
            seat = acting(state)[0]
            legal = legal_actions_for(state, seat)
            kong = [a for a in legal if a.kind.value == "angang"]
            state, _ = apply(state, kong[0] if kong else legal[rng.randrange(len(legal))])
            holders = [k for k in range(4) if any(m.kind is MeldKind.CKONG for m in state.melds[k])]
            if not holders or state.phase is Phase.OVER:
                continue
            checked += 1
            for viewer in SEATS:
                view = observe(state, viewer)
                reach = _reachable(view)
                assert not any(isinstance(o, State) for o in reach)
                for k in holders:
                    seen = view.table_melds[SEATS[k]]
                    face_down = [m for m in seen if m.kind is MeldKind.CKONG and m.tiles is None]
                    if k == viewer.number - 1:
                        assert not face_down
                    else:
                        assert face_down
                        block = view.to_json()["seats"][SEATS[k].value]
                        assert any(
                            m["kind"] == "ckong" and m["tiles"] is None for m in block["melds"]
                        )
    assert checked >= 10


def test_the_scorer_ranks_every_reading_as_the_full_evaluation_does() -> None:
    from paiju.bots.driver import play_hand
    from paiju.bots.uniform import RandomBot
    from paiju.mazhan import scoring
    from paiju.mazhan.bots.greedy import GreedyBot
    from paiju.mazhan.hand import HandTiles, decompositions

    checked = 0
    for seed in range(120):
        bots = [GreedyBot()] * 4 if seed % 2 else [RandomBot()] * 4
        state, _ = play_hand(Ruleset(), bots, seed)
        r = state.result
        assert r is not None
        if r.winner is None or r.win_by is None or r.win_by.value == "sha_zhu" or r.tianhu:
            continue
        hand = r.finished
        seat = r.winner
        sh = hand.players[seat]
        stars = sum(1 for t in sh.concealed if t == hand.wild)
        for single in (False, True):
            fixed = scoring._Fixed(hand, seat, sh, single)
            for d in decompositions(HandTiles.parse(sh.concealed, hand.wild)):
                for groups in scoring._readings_of_free_groups(d, seat):
                    assert scoring._win_placements(hand, groups) == _placements(hand, groups)
                    for won_pung in scoring._win_placements(hand, groups):
                        full = scoring._evaluate(hand, seat, sh, groups, won_pung, single, stars)
                        slow = (
                            full.value,
                            full.rule == "limit",
                            full.uncapped,
                            full.tai,
                            full.base,
                        )
                        assert fixed.key(groups, won_pung, stars) == slow
                        checked += 1
    assert checked > 50


def _placements(hand: Any, groups: Any) -> list[bool]:
    """The winning tile's places, read from each group's natural tiles (the slow way)."""
    from paiju.mazhan.hand import GroupKind

    tile = hand.win_tile
    if hand.win_by is None or not hand.win_by.is_discard_like or tile is None:
        return [False]
    in_pung = any(g.kind is GroupKind.PUNG and tile in g.naturals for g in groups)
    elsewhere = any(g.kind is not GroupKind.PUNG and tile in g.naturals for g in groups)
    return [p for p, ok in ((True, in_pung), (False, elsewhere)) if ok]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 4), st.integers(0, 3))
def test_shanten_pruned_equals_every_reading_combined(seed: int, melds: int, wilds: int) -> None:
    from paiju.mazhan import shanten as sh

    rng = random.Random(seed)
    counts = [0] * 34
    pool = [f for f in range(34) if f != 31 for _ in range(4)]
    for f in rng.sample(pool, max(1, 14 - 3 * melds - wilds + rng.randrange(2))):
        counts[f] += 1
    spans = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))
    options = [sh._readings_of(bytes(counts[lo:hi]), honor, {}) for lo, hi, honor in spans]
    need = 5 - melds
    best = 99
    for a in options[0]:
        for b in options[1]:
            for c in options[2]:
                for d in options[3]:
                    m = a[0] + b[0] + c[0] + d[0]
                    head = min(1, a[2] + b[2] + c[2] + d[2])
                    t = min(a[1] + b[1] + c[1] + d[1], max(0, need - m))
                    best = min(best, 2 * (need - m) - t - head)
    assert sh.shanten(counts, melds, wilds) == max(-1, best - wilds)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.integers(0, 4))
def test_shortfall_after_each_discard_equals_the_shortfall_of_the_rest(
    counts: list[int], wilds: int
) -> None:
    from paiju.mazhan.hand import shortfall, shortfall_after_each

    after = shortfall_after_each(counts, wilds)
    for i in range(34):
        if counts[i]:
            less = [*counts[:i], counts[i] - 1, *counts[i + 1 :]]
            assert after[i] == shortfall(less, wilds)
        else:
            assert after[i] is None


def test_the_readings_cache_stays_bounded_and_changes_no_answer(monkeypatch: Any) -> None:
    """With a tiny bound the cache keeps dropping readings; every decomposition still equals
    the one made from an empty cache, and the cache never holds more than its bound."""
    from paiju.mazhan import hand as hand_module

    rng = random.Random(40)
    hands = [random_hand(rng, size) for size in (14, 17) for _ in range(300)]
    expected = []
    for h in hands:
        hand_module.clear_readings_cache()
        expected.append(hand_module._decomposition_groups(h.counts, h.wilds))
    monkeypatch.setattr(hand_module, "READINGS_CACHE_SIZE", 16)
    hand_module.clear_readings_cache()
    complete = fullest = 0
    for h, want in zip(hands, expected, strict=True):
        got = hand_module._decomposition_groups(h.counts, h.wilds)
        assert got == want
        held = len(hand_module._READINGS_BY_KEY)
        assert held <= 16
        fullest = max(fullest, held)
        complete += bool(got)
    assert fullest == 16 and complete >= 10  # the cache filled, and was trimmed, many times
    hand_module.clear_readings_cache()
