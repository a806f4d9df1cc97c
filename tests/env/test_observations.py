"""Observations: kept up to date = read afresh; hidden information never shows; masks are the
engine's legal sets; the documented layouts are the real ones."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.env.table import Table
from paiju.madiao import rules as md
from paiju.madiao.env import obs as madiao_obs
from paiju.mazhan import rules as mz
from paiju.mazhan.env import lookahead
from paiju.mazhan.env import obs as mazhan_obs
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.tiles import ALL_TILES

ROOT = Path(__file__).resolve().parents[2]
_WHITE = 31


# --- playing with logs of what was public ---------------------------------------------------


class Log:
    """Who claimed each discard (Mazhan) and each seat's plays (Ma Diao), from the events."""

    def __init__(self) -> None:
        self.claimers: list[list[int]] = [[], [], [], []]
        self.plays: list[list[tuple[int, bool]]] = [[], [], [], []]

    def mazhan(self, before: mz.State, state: mz.State, events: list[mz.Event]) -> None:
        for e in events:
            seat = None if e.seat is None else e.seat.number - 1
            if e.kind == "discard":
                assert seat is not None
                self.claimers[seat].append(-1)
            elif e.kind in ("chi", "peng", "gang"):
                self.claimers[before.claim_from][-1] = seat  # type: ignore[assignment]
            elif e.kind == "hu" and e.detail == "discard":
                d = state.result.discarder.number - 1  # type: ignore[union-attr]
                self.claimers[d][-1] = seat  # type: ignore[assignment]

    def madiao(self, events: list[md.Event]) -> None:
        for e in events:
            if e.kind == "play":
                assert e.seat is not None and e.card is not None
                self.plays[e.seat.number - 1].append((e.card.index, e.detail != "mie"))


def walk(game: str, seed: int, steps: int | None = None) -> list[tuple[Any, Log, Any]]:
    """Random legal play from a seeded hand: (state, log, live encoder) after every step."""
    rules: Any = mz if game == "mazhan" else md
    enc: Any = (mazhan_obs.MazhanEncoder if game == "mazhan" else madiao_obs.MadiaoEncoder)()
    rng = random.Random(seed)
    state = rules.new_hand(rules.Ruleset(), seed)
    enc.reset(state)
    log = Log()
    out = [(state, log, enc)]
    while state.phase.value != "over" and (steps is None or len(out) <= steps):
        legal = rules.legal_actions(state)
        before = state
        state, events = rules.apply(state, legal[rng.randrange(len(legal))])
        enc.update(before, state, events)
        if game == "mazhan":
            log.mazhan(before, state, events)
        else:
            log.madiao(events)
        out.append((state, log, enc))
    return out


def fresh(game: str, state: Any, log: Log, me: int) -> np.ndarray:
    if game == "mazhan":
        enc: Any = mazhan_obs.MazhanEncoder()
        enc.reset(state, log.claimers)
    else:
        enc = madiao_obs.MadiaoEncoder()
        enc.reset(state, log.plays)
    out: np.ndarray = enc.encode(state, me).copy()
    return out


@pytest.mark.parametrize("game", ["mazhan", "madiao"])
@pytest.mark.parametrize("seed", range(12))
def test_observations_kept_up_to_date_equal_observations_read_afresh(game: str, seed: int) -> None:
    rules: Any = mz if game == "mazhan" else md
    enc: Any = (mazhan_obs.MazhanEncoder if game == "mazhan" else madiao_obs.MadiaoEncoder)()
    rng = random.Random(seed)
    state = rules.new_hand(rules.Ruleset(), seed)
    enc.reset(state)
    log = Log()
    look = random.Random(seed + 1)
    while True:
        for me in look.sample(range(4), look.randint(1, 4)):  # observers look at odd times
            np.testing.assert_array_equal(enc.encode(state, me), fresh(game, state, log, me))
        if state.phase.value == "over":
            break
        legal = rules.legal_actions(state)
        before = state
        state, events = rules.apply(state, legal[rng.randrange(len(legal))])
        enc.update(before, state, events)
        if game == "mazhan":
            log.mazhan(before, state, events)
        else:
            log.madiao(events)


# --- hidden information -----------------------------------------------------------------------


def mazhan_variant(state: mz.State, me: int, rng: random.Random) -> mz.State:
    """The same hand as ``me`` may know it, everything else changed: the other seats'
    concealed tiles and the wall's unseen tiles shuffled among themselves, the faces of the
    others' concealed kongs, the others' options and answers in a claim window, the seed."""
    s = state.copy()
    others = [k for k in range(4) if k != me]
    pool = [f for k in others for f in range(34) for _ in range(s.hands[k][f])]
    wall = list(s.wall)
    slots = [i for i in range(s.head, s.tail) if wall[i] < 34 and wall[i] != _WHITE]
    pool += [wall[i] for i in slots]
    rng.shuffle(pool)
    for k in others:
        n = sum(s.hands[k])
        counts = [0] * 34
        for f in pool[:n]:
            counts[f] += 1
        del pool[:n]
        s.hands[k] = counts
    for i, f in zip(slots, pool, strict=True):
        wall[i] = f
    s.wall = tuple(wall)
    for k in others:
        s.melds[k] = [
            Meld(MeldKind.CKONG, (ALL_TILES[rng.randrange(27)],) * 4)
            if m.kind is MeldKind.CKONG
            else m
            for m in s.melds[k]
        ]
    if s.phase is mz.Phase.ACT and s.current != me:
        held = [f for f in range(34) if s.hands[s.current][f]]
        s.drawn = rng.choice(held) if held else -1
    s.options = {k: v for k, v in s.options.items() if k == me}
    s.decisions = {k: v for k, v in s.decisions.items() if k == me}
    s.version += rng.randrange(1, 9)
    s.seed ^= 0x5EED
    return s


def madiao_variant(state: md.State, me: int, log: Log, rng: random.Random) -> tuple[md.State, Log]:
    """The same hand as ``me`` may know it: the other hands, the stock under the 面張, the
    others' face-down cards (in the trick and before) shuffled among themselves."""
    s = state.copy()
    others = [k for k in range(4) if k != me]
    mine_down = {c for c, up in log.plays[me] if not up}
    pool = [c for k in others for c in s.hands[k]] + list(s.stock[:-1])
    down_slots = [i for i, (k, _c, up) in enumerate(s.trick) if k != me and not up]
    pool += [s.trick[i][1] for i in down_slots]
    out_slots = [i for i, c in enumerate(s.out_down) if c not in mine_down]
    pool += [s.out_down[i] for i in out_slots]
    rng.shuffle(pool)
    for k in others:
        n = len(s.hands[k])
        s.hands[k] = sorted(pool[:n])
        del pool[:n]
    s.stock = (*pool[:7], s.stock[-1])
    del pool[:7]
    for i in down_slots:
        k, _c, up = s.trick[i]
        s.trick[i] = (k, pool.pop(), up)
    for i in out_slots:
        s.out_down[i] = pool.pop()
    new = Log()
    new.plays = [list(p) for p in log.plays]
    new.plays[me] = list(log.plays[me])
    for k in others:  # the others' face-down cards are not known to me: any card will do
        new.plays[k] = [(c if up else rng.randrange(40), up) for c, up in log.plays[k]]
    s.deck = tuple(rng.sample(range(40), 40))
    s.seed ^= 0x5EED
    s.version += 3
    return s, new


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), me=st.integers(0, 3), salt=st.integers())
def test_mazhan_changing_what_a_seat_cannot_know_changes_nothing_it_sees(
    seed: int, cut: float, me: int, salt: int
) -> None:
    path = walk("mazhan", seed)
    state, log, _ = path[int(cut * (len(path) - 1))]
    variant = mazhan_variant(state, me, random.Random(salt))
    np.testing.assert_array_equal(
        fresh("mazhan", state, log, me), fresh("mazhan", variant, log, me)
    )
    np.testing.assert_array_equal(mazhan_obs.hints(state, me), mazhan_obs.hints(variant, me))
    np.testing.assert_array_equal(
        lookahead.lookahead_of_state(state, me), lookahead.lookahead_of_state(variant, me)
    )
    planes = mazhan_obs.MazhanEncoder(planes=True)
    planes.reset(state, log.claimers)
    a = planes.encode(state, me)
    planes.reset(variant, log.claimers)
    np.testing.assert_array_equal(a, planes.encode(variant, me))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), cut=st.floats(0, 1), me=st.integers(0, 3), salt=st.integers())
def test_madiao_changing_what_a_seat_cannot_know_changes_nothing_it_sees(
    seed: int, cut: float, me: int, salt: int
) -> None:
    path = walk("madiao", seed)
    state, log, _ = path[int(cut * (len(path) - 1))]
    variant, vlog = madiao_variant(state, me, log, random.Random(salt))
    np.testing.assert_array_equal(
        fresh("madiao", state, log, me), fresh("madiao", variant, vlog, me)
    )


def test_a_claim_window_tells_no_seat_who_may_claim() -> None:
    """In a window every seat sees the window (a player at a real table sees the pause and
    the tile: docs/views.md), and no seat's observation depends on which other seats may
    claim: neither a seat that may claim nor one that waits, nor the discarder."""
    for seed in range(60):
        path = walk("mazhan", seed)
        for state, log, _ in path:
            if state.phase is not mz.Phase.CLAIM or len(state.options) < 2:
                continue
            me = min(state.options)
            alone = state.copy()
            alone.options = {me: state.options[me]}
            other = max(state.options)
            other_alone = state.copy()
            other_alone.options = {other: state.options[other]}
            waiter = next(k for k in range(4) if k not in state.options and k != state.claim_from)
            ph = mazhan_obs.MazhanEncoder().layout["phase"]
            for seat in (me, waiter, state.claim_from):
                seen = fresh("mazhan", state, log, seat)
                np.testing.assert_array_equal(seen, fresh("mazhan", alone, log, seat))
                np.testing.assert_array_equal(seen, fresh("mazhan", other_alone, log, seat))
                assert seen[ph.offset : ph.stop].any(), f"seat {seat} is not shown the window"
            return
    pytest.fail("no claim window with two claimants in 60 hands")


def test_a_seat_sees_its_own_face_down_cards_and_only_its_own() -> None:
    path = walk("madiao", 7)
    state, log, enc = path[-1]
    own = enc.layout["own_down"]
    for me in range(4):
        downs = sorted(c for c, up in log.plays[me] if not up)
        seen = np.flatnonzero(enc.encode(state, me)[own.offset : own.stop]).tolist()
        assert seen == downs


def test_another_seats_concealed_kong_shows_as_a_kong_without_its_face() -> None:
    state = mz.new_hand(mz.Ruleset(), 1)
    state.melds[2] = [Meld(MeldKind.CKONG, (ALL_TILES[4],) * 4)]
    enc = mazhan_obs.MazhanEncoder()
    enc.reset(state)
    lay = enc.layout
    west = enc.encode(state, 2).copy()
    east = enc.encode(state, 0).copy()
    assert west[lay["own_ckongs"].offset + 4] == 1
    assert east[lay["s2_ckongs"].offset] == 1  # West is East's opposite seat
    assert not east[lay["own_ckongs"].offset : lay["own_ckongs"].stop].any()
    assert east[lay["s2_kongs"].offset + 4] == 0


# --- masks and actions ------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["mazhan", "madiao"])
def test_the_mask_is_the_engines_legal_set_at_every_step(game: str) -> None:
    rules: Any = mz if game == "mazhan" else md
    table = Table(game)
    rng = random.Random(3)
    table.reset(seed=3)
    for _ in range(150):
        while True:
            deciders = table.deciders()
            state = table.state
            acting = {s.number - 1 for s in rules.acting(state)}
            assert {table.seat_of[p] for p in deciders} == acting
            for p in range(4):
                seat = table.rules.seats[table.seat_of[p]]
                legal = rules.legal_actions_for(state, seat)
                expect = sorted(table.spec.action_index(a) for a in legal)
                assert sorted(table.legal(p)) == expect
                assert len(set(expect)) == len(expect)  # one index per action
            p = deciders[0]
            nets = table.step(p, rng.choice(table.legal(p)))
            if nets is not None:
                assert sum(nets) == 0
                break
        table.reset()


def test_action_tables_round_trip() -> None:
    from paiju.madiao.seats import SEATS as MD
    from paiju.mazhan.seats import SEATS as MZ

    for i in range(mazhan_obs.N_ACTIONS):
        for seat in MZ:
            assert mazhan_obs.action_index(mazhan_obs.index_action(i, seat)) == i
    for i in range(madiao_obs.N_ACTIONS):
        assert madiao_obs.action_index(madiao_obs.index_action(i, MD[1])) == i
    with pytest.raises(ValueError, match="0–127"):
        mazhan_obs.index_action(128, MZ[0])


# --- the documented layouts ----------------------------------------------------------------------


@pytest.mark.parametrize("module", [mazhan_obs, madiao_obs], ids=["mazhan", "madiao"])
def test_the_documented_layout_is_the_layout(module: Any) -> None:
    # the docstring shows seat 0's block once (the others repeat it), docs/env.md every one
    block = module.LAYOUT["s1_" + module.LAYOUT.sections[-1].name[3:]].stop
    block -= module.LAYOUT["s0_" + module.LAYOUT.sections[-1].name[3:]].stop
    assert module.LAYOUT.table(omit=("s1_", "s2_", "s3_")) in (module.__doc__ or "")
    assert f"({block}\nvalues each: ``s{{r}}_x`` lies at the offset of ``s0_x`` + {block} ×" in (
        module.__doc__ or ""
    )
    table = module.LAYOUT.table()
    assert table in (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    assert f"{module.FLAT_SIZE} values" in (module.__doc__ or "")
    assert f"[{module.PLANES.channels}, " in (module.__doc__ or "")


@pytest.mark.parametrize("game", ["mazhan", "madiao"])
def test_planes_hold_what_the_flat_vector_holds(game: str) -> None:
    path = walk(game, 11)
    state, log, _ = path[len(path) // 2]
    if game == "mazhan":
        flat_enc: Any = mazhan_obs.MazhanEncoder()
        plane_enc: Any = mazhan_obs.MazhanEncoder(planes=True)
        flat_enc.reset(state, log.claimers)
        plane_enc.reset(state, log.claimers)
    else:
        flat_enc = madiao_obs.MadiaoEncoder()
        plane_enc = madiao_obs.MadiaoEncoder(planes=True)
        flat_enc.reset(state, log.plays)
        plane_enc.reset(state, log.plays)
    flat = flat_enc.encode(state, 1)
    planes = plane_enc.encode(state, 1)
    lay = flat_enc.layout
    hand = lay["hand"]
    if game == "mazhan":
        assert planes[0].sum() == flat[hand.offset : hand.stop].sum()  # thermometer of counts
        assert (planes[0].sum(axis=1) == flat[hand.offset : hand.stop]).all()
        seq = lay["s1_seq"]
        n = int((flat[seq.offset : seq.stop] > 0).sum())
        assert int((planes[mazhan_obs.PLANES.extra_start + 2] > 0).sum()) == n  # seat 1
    else:
        assert planes[0].sum() == flat[hand.offset : hand.stop].sum()
