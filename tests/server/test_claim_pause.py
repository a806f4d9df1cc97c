"""The claim pause at the table (Mazhan §5, end): a seat must not learn from the table's rhythm
that someone can claim. After every discard each seat that cannot claim is shown the same
thing for the same time, whether or not another seat can claim it: the discard done and a
window open to nobody, no clock, and after exactly the pause (bots answer within it,
whatever they hold and whatever their pace on their own turns) what followed. Only a
person's long deliberation shows, as at a real table.

The frames themselves are the core's business (``tests/mazhan/test_claim_pause.py``: the
pause's view is the window's view for a seat without options); here the table's timing and
its refusals are checked, on the table machine with its fake clock.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.server.rooms import ROOMS
from paiju.server.table import Timing, claim_pause, io
from tests.server.machine_sim import Sim, _action_text

MAZHAN = ROOMS["mazhan"]
PAUSE = 1.0
TIMING = Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.4, claim_pause=PAUSE)


def _discarded(frame: dict[str, Any]) -> bool:
    return frame["type"] == "view" and any(e["kind"] == "discard" for e in frame["events"])


class Watched(Sim):
    """A :class:`Sim` that notes, after every event, whether a claim window is open to a
    bot (a seat the person does not play): ``bot_could_claim`` holds the times at which a
    pause began with a window open to a bot. The test may look; no seat may."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.bot_could_claim: set[float] = set()

    def feed(self, event: io.Input) -> None:
        super().feed(event)
        m, hand = self.machine, self.machine.hand
        if hand is None or not hand.pausing or not claim_pause.window_open(m):
            return
        for s in m._movers():
            p = m.seats[s]
            if (
                p is not None
                and p.account is None
                and m.game.is_prompt(hand.state, m.game.seats[s])
            ):
                self.bot_could_claim.add(self.now)


def play(seed: int, timing: Timing = TIMING) -> Watched:
    """A hand of a person with three bots; the person answers every frame at once (a
    discard: the last legal one; a claim prompt: pass)."""
    sim = Watched(MAZHAN, alone=True, seed=seed, timing=timing)
    sim.join(1, "ana")
    sim.ready(1)
    sim.run(1.0)
    while sim.machine.phase != "idle" and sim.now < 4000:
        view = sim.last_view(1) if any(f["type"] == "view" for f in sim.frames[1]) else None
        if view is not None and view["view"]["legal"] and sim.my_turn(1):
            legal = view["view"]["legal"]
            passes = [a for a in legal if _action_text(a).endswith(" pass")]
            before = len(sim.frames[1])
            sim.act(1, _action_text((passes or legal)[-1]), view["version"])
            if sim.frames[1][before:] and sim.frames[1][-1]["type"] != "error":
                continue
        sim.run(0.05)
    return sim


def check_pauses(sim: Watched, pause: float = PAUSE) -> tuple[int, int]:
    """Every discard the person could not claim was followed by the pause and then, after
    exactly the pause, by what followed, whether or not a bot could claim it; how many a
    bot could claim, how many no bot could."""
    frames, times = sim.frames[1], sim.times[1]
    windows = quiet = 0
    for k, frame in enumerate(frames):
        if not _discarded(frame) or frame["view"]["legal"]:
            continue  # not a discard, or one this seat may claim: it is prompted
        # the pause: the discard done, a window open to nobody, nobody's clock
        view = frame["view"]
        assert view["phase"] == "claim" and view["window"]["kind"] == "claim"
        assert view["turn"] is None and frame["clock"] is None
        later = [(t, f) for t, f in zip(times[k + 1 :], frames[k + 1 :], strict=True)]
        nxt = next(((t, f) for t, f in later if f["type"] in ("view", "settlement")), None)
        if nxt is None or nxt[1]["type"] == "settlement":
            continue  # the hand ended on it (every hand is shown then)
        # what followed comes after exactly the pause, and nothing comes before it
        assert abs(nxt[0] - (times[k] + pause)) < 1e-6, (times[k], nxt[0], nxt[1]["events"])
        between = [f["type"] for t, f in later if t < nxt[0]]
        assert not between, between
        # could a bot claim it? (the test may look; the seat may not)
        could = times[k] in sim.bot_could_claim
        windows += could
        quiet += not could
    return windows, quiet


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    bot_delay=st.sampled_from([0.05, 0.4, 1.0, 3.0, 20.0]),
    pause=st.sampled_from([0.5, 1.0, 2.0]),
)
def test_after_every_discard_a_seat_that_cannot_claim_waits_the_same(
    seed: int, bot_delay: float, pause: float
) -> None:
    """Whatever the bots' pace (their think times on their own turns, slow or quick, a
    long tail) and the pause, the next frame after a discard the person cannot claim comes
    exactly the pause later, whether or not a bot could claim it."""
    timing = Timing(turn=15, ready=20, bot_wait=10, bot_delay=bot_delay, claim_pause=pause)
    _windows, quiet = check_pauses(play(seed, timing), pause)
    assert quiet > 0


def test_discards_claimable_and_not_both_happen_and_look_alike() -> None:
    """The property above is not empty: over a few hands, bots could claim some of the
    discards the person could not, and the pause before each looks as it does before the
    others."""
    counts = [check_pauses(play(seed)) for seed in (1, 2, 3)]
    assert sum(w for w, _ in counts) > 0 and sum(q for _, q in counts) > 0


def test_the_pause_holds_the_next_turn_and_refuses_moves_until_it_is_over() -> None:
    """During the pause the next seat has no turn yet: an action is refused as any action
    out of turn is, and a hint too."""
    sim = Sim(MAZHAN, alone=True, seed=5, timing=TIMING)
    sim.join(1, "ana")
    sim.ready(1)
    sim.run(1.0)
    for _ in range(4000):
        frame = sim.frames[1][-1]
        if _discarded(frame) and not frame["view"]["legal"] and claim_pause.holding(sim.machine):
            break
        view = sim.last_view(1)
        if view["view"]["legal"] and sim.my_turn(1):
            sim.act(1, _action_text(view["view"]["legal"][-1]), view["version"])
        else:
            sim.run(0.01)
    assert claim_pause.holding(sim.machine)
    pause = sim.last_view(1)
    hand = sim.machine.hand
    assert hand is not None
    seat = sim.machine.game.seats[sim.machine.seat_of(1) or 0]
    mine = sim.machine.game.legal_actions(hand.state, seat)
    sim.act(1, str(mine[0]) if mine else f"{seat.value} discard 1m", pause["version"])
    assert sim.frames[1][-1]["code"] == "not_your_turn"
    sim.feed(io.Hint(1, pause["version"]))
    assert sim.frames[1][-1]["code"] == "not_your_turn"


def first_answers(seeds: range) -> dict[bool, set[tuple[tuple[str, tuple[str, ...]], ...]]]:
    """Four people at a table, each passing every claim prompt at once: what a claimer is
    sent right after its pass, by whether another seat was also answering the window."""
    out: dict[bool, set[tuple[tuple[str, tuple[str, ...]], ...]]] = {True: set(), False: set()}
    for seed in seeds:
        sim = Sim(MAZHAN, seed=seed, timing=TIMING)
        for acc in (1, 2, 3, 4):
            sim.join(acc, f"p{acc}")
        for acc in (1, 2, 3, 4):
            sim.ready(acc)
        sim.run(0.01)
        m = sim.machine
        for _ in range(400):
            if m.phase != "live" or m.hand is None:
                break
            movers = m._movers()
            if claim_pause.holding(m) or not movers:
                sim.run(PAUSE)
                continue
            prompted = [s for s in movers if m.game.is_prompt(m.hand.state, m.game.seats[s])]
            seat = (prompted or movers)[0]
            player = m.seats[seat]
            assert player is not None and player.account is not None
            acc = player.account
            legal = [_action_text(a) for a in sim.last_view(acc)["view"]["legal"]]
            if prompted:
                before = len(sim.frames[acc])
                sim.act(acc, next(a for a in legal if a.endswith(" pass")))
                got = tuple(
                    (f["type"], tuple(e["kind"] for e in f.get("events", [])))
                    for f in sim.frames[acc][before:]
                )
                out[len(prompted) > 1].add(got)
            else:
                sim.act(acc, legal[-1])
    return out


def test_a_claimers_pass_looks_the_same_whether_or_not_another_seat_can_claim() -> None:
    """Nothing comes back at once to a claimer's pass (its own answer included): had it
    come only while another seat was still answering, the pass would tell that another
    could claim."""
    seen = first_answers(range(1, 13))
    assert seen[True] and seen[False]  # both happened
    assert seen[True] == seen[False]
