"""Spectators (:mod:`paiju.server.table.spectate`, issue 36): public information only, one
public change behind; the seats see how many watch; watching changes nothing at the table.
Every frame is checked against the protocol's models by the simulator (a spectator's view
forbids any field a seat's view has and the public one has not: a hand, legal actions)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import orjson
import pytest

from paiju.games import game
from paiju.server.table import io, spectate
from tests.server.table.helpers import MADIAO, MAZHAN, TIMING, Table, alone_hand

WATCHER = 50


class Watched(Table):
    """A table that records, after every input, the public state the spectators would see
    if they were not one change behind (the view of a seat not answering a window)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.public: list[bytes] = []

    def feed(self, event: io.Input) -> None:
        super().feed(event)
        m = self.machine
        hand = m.hand
        if hand is None or hand.id is None or m.game.is_over(hand.state):
            return
        state = hand.settling if hand.pausing else hand.state
        now = spectate._public_json(m, state)
        assert now is not None
        if not self.public or self.public[-1] != now:
            self.public.append(now)


def watched_hand(room: Any = MAZHAN, seed: int = 1) -> Watched:
    t = Watched(room, alone=True, seed=seed)
    t.join(1, "ana")
    t.connected.add(WATCHER)
    t.feed(io.Watch(WATCHER))
    t.ready(1)
    t.run(1.0)
    return t


def views(t: Table, account: int = WATCHER) -> list[dict[str, Any]]:
    return [f["view"] for f in t.frames[account] if f["type"] == "watch_view"]


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_a_spectator_sees_each_public_state_once_the_next_has_come(room: Any) -> None:
    t = watched_hand(room, seed=3)
    assert t.kinds(WATCHER)[0] == "watching"
    t.play_until_over(1)
    shown = views(t)
    final = shown[-1]
    assert final["phase"] == "over" and final["result"] is not None
    public = [orjson.loads(p) for p in t.public]
    # every public state but the newest, in order, then the end at once
    assert shown[:-1] == public[:-1]
    assert len(shown) > 10


def test_the_seats_see_how_many_watch_and_the_spectator_no_code_nor_clock() -> None:
    t = Table(MAZHAN, code="ABCD2345")
    t.join(1, "ana")
    assert t.last(1, "table")["watchers"] == 0
    for k in (50, 51):
        t.connected.add(k)
        t.feed(io.Watch(k))
    assert t.last(1, "table")["watchers"] == 2
    seen = t.last(50, "watching")
    assert seen["watchers"] == 2 and "code" not in seen and "ready_seconds" not in seen
    assert "table" not in t.kinds(50)
    t.feed(io.Unwatch(50))
    assert t.last(50, "unwatched")["why"] == "left"
    assert t.last(1, "table")["watchers"] == 1


def test_a_seated_player_cannot_watch_their_own_table() -> None:
    t = alone_hand()
    t.feed(io.Watch(1))
    assert t.last(1, "error")["code"] == "already_seated"
    assert not t.machine.watchers


def test_a_spectator_coming_mid_hand_is_shown_the_state_before_the_newest() -> None:
    t = Watched(MAZHAN, alone=True, seed=5)
    t.join(1, "ana")
    t.ready(1)
    t.run(1.0)
    while len(t.public) < 12 and t.machine.phase == "live":
        if t.my_move(1, None):
            t.act(1, t.last_view(1)["view"]["legal"][-1]["action"])
        t.run(0.25)
    assert t.machine.phase == "live"
    t.connected.add(WATCHER)
    t.feed(io.Watch(WATCHER))
    assert views(t) == [orjson.loads(t.public[-2])]


def test_a_spectator_between_hands_sees_the_last_hands_end() -> None:
    t = watched_hand(seed=6)
    t.play_until_over(1)
    t.connected.add(51)
    t.feed(io.Watch(51))
    assert views(t, 51) == [views(t)[-1]]


def frames_without_watchers(t: Table, account: int) -> list[tuple[float, dict[str, Any]]]:
    """The account's frames and when each came; the seating without its count of
    spectators, once for each change (a spectator coming or going sends the seating)."""
    out: list[tuple[float, dict[str, Any]]] = []
    seating: dict[str, Any] | None = None
    for when, frame in zip(t.times[account], t.frames[account], strict=True):
        if frame["type"] == "table":
            frame = {k: v for k, v in frame.items() if k not in ("watchers", "ready_seconds")}
            if frame == seating:
                continue
            seating = frame
        out.append((when, frame))
    return out


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_watching_changes_nothing_at_the_table(room: Any) -> None:
    """The same seed with and without spectators (coming and going during the hand): the
    person is sent the same frames at the same times (the count of spectators apart), the
    same timers are set, and the hand ends the same."""
    runs = []
    for watch in (False, True):
        t = Table(room, alone=True, seed=11, timing=TIMING)
        t.join(1, "ana")
        t.ready(1)
        for step in range(400):
            if watch and step % 37 == 0:
                t.connected.add(WATCHER + step)
                t.feed(io.Watch(WATCHER + step))
            if watch and step % 37 == 20:
                t.feed(io.Unwatch(WATCHER + step - 20))
            if t.machine.phase == "live" and t.my_move(1, None):
                legal = t.last_view(1)["view"]["legal"]
                t.act(1, legal[-1]["action"])
            t.run(0.5)
        timers = [(o.key, o.delay) for o in t.outputs if isinstance(o, io.SetTimer)]
        runs.append((frames_without_watchers(t, 1), timers, dict(t.ledger.balances)))
    assert runs[0] == runs[1]


def _alike_run(g: Any, seed: int) -> tuple[Any, list[Any]] | None:
    """Random play of one deal until a claim window that two or more seats may answer; then
    all but the last answer without changing the public state (a pass): the public state
    before the window opened, and the window's states that look alike to spectators."""
    rng = random.Random(seed)
    state, _ = g.deal(g.default_ruleset(), seed, g.first_deal(random.Random(seed)).setup)
    before = state
    while not g.is_over(state):
        acting = [s for s in g.seats if g.legal_actions(state, s)]
        if len(acting) >= 2:
            run = [state]
            seen = spectate.public_json(g, state)
            for seat in acting[:-1]:
                quiet = [
                    nxt
                    for a in g.legal_actions(run[-1], seat)
                    for nxt in [g.apply(run[-1], a)[0]]
                    if spectate.public_json(g, nxt) == seen
                ]
                if not quiet:
                    break
                run.append(quiet[0])
            return before, run
        seat = rng.choice(acting)
        before = state
        state, _ = g.apply(state, rng.choice(g.legal_actions(state, seat)))
    return None


def test_the_states_kept_outlast_the_longest_run_of_alike_states() -> None:
    """A spectator who comes is shown the public state before the newest: it is among the
    :data:`~paiju.server.table.spectate.KEPT` states kept, however many private answers
    came after the last public change. A window's answers make a run of states that look
    alike (one per answering seat but the last, from the window itself), and a pause may add
    the settling state: that run and the change before it fit in what is kept, and the
    catch-up finds the change before it even at the longest run the kept states allow."""
    g = game(MAZHAN.game)
    found = [r for seed in range(1, 40) if (r := _alike_run(g, seed)) is not None]
    longest = max(len(run) for _, run in found)
    assert longest >= 2  # a window answered by two seats: a run of two alike
    # at most three seats answer a window: a run of three, and the pause's settling state
    assert spectate.KEPT > 3 + 1
    before, run = max(found, key=lambda r: len(r[1]))
    m: Any = SimpleNamespace(_spectate=spectate.Public(), game=g)
    pad = [run[-1]] * (spectate.KEPT - 1 - len(run))  # as long a run as can be kept
    m._spectate.states.extend([before, *run, *pad])
    spectate._catch_up(m)
    assert m._spectate.newest == spectate.public_json(g, run[-1])
    assert m._spectate.delayed == spectate.public_json(g, before) != m._spectate.newest
    m._spectate.states.append(run[-1])  # one more alike: the change before falls out
    m._spectate.newest = m._spectate.delayed = None
    spectate._catch_up(m)
    assert m._spectate.delayed is None
