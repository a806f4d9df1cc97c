"""No player pays for the house's faults (docs/security.md, "A person is charged only for a
turn they were shown"), on the table machine alone: a turn's clock starts when the frame
offering it reaches the player; storage that stalls pauses the table as storage that fails
does; a player the table cannot reach has no clock running; 托管 is written with the hand.

Every :class:`~tests.server.machine_sim.Sim` checks after each input that a timeout or an
escape for timeouts comes exactly one turn clock after a frame that offered a turn reached
its player; these tests drive the faults through it.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.server.rooms import ROOMS, Room
from paiju.server.table import Timing, io, restore
from tests.server.machine_sim import Sim, _action_text

MAZHAN = ROOMS["mazhan"]
MADIAO = ROOMS["madiao"]


def alone_hand(room: Room = MAZHAN, seed: int = 1, timing: Timing | None = None) -> Sim:
    sim = Sim(room, alone=True, seed=seed, timing=timing)
    sim.join(1, "ana")
    sim.ready(1)
    sim.run(1.0)
    assert sim.machine.phase == "live"
    return sim


def wait_for_my_turn(sim: Sim, account: int = 1, prompt: bool = False) -> None:
    """Let time pass (bots play) until the person may act, a discard unless ``prompt``."""
    for _ in range(2000):
        view = sim.last_view(account) if sim.frames[account] else None
        if sim.my_turn(account) and view is not None and (view["clock"]["seat"] is None) == prompt:
            return
        if sim.my_turn(account):
            sim.act(account, _action_text(view["view"]["legal"][-1]))  # type: ignore[index]
        else:
            sim.run(0.25)
    raise AssertionError("the person's turn never came")


def timeouts_of(sim: Sim, account: int = 1) -> int:
    seat = sim.machine.seat_of(account)
    assert seat is not None
    p = sim.machine.seats[seat]
    assert p is not None
    return p.timeouts


def test_a_write_that_stalls_pauses_the_table_and_no_clock_runs() -> None:
    sim = alone_hand(seed=6)
    wait_for_my_turn(sim)
    sim.stall_storage()
    sim.act(1, _action_text(sim.last_view(1)["view"]["legal"][-1]))
    sim.run(sim.timing.stall + 0.01)  # the step waits unanswered: after Timing.stall, paused
    assert sim.last(1, "paused")["why"] == "storage"
    shown = len(sim.frames[1])
    sim.run(20 * sim.timing.turn)  # far longer than four turn clocks
    assert len(sim.frames[1]) == shown  # nothing shown, nothing charged
    assert not sim.escapes and timeouts_of(sim) == 0
    sim.restore_storage()
    assert "resumed" in sim.kinds(1)[shown:]
    view = sim.last_view(1)  # the table again, each clock full from this frame
    assert view["clock"] is None or view["clock"]["left"] == sim.timing.turn
    sim.play_until_over(1)
    assert sim.last(1, "settlement")
    assert sim.ledger.total() == sim.ledger.issued


def test_a_turn_frame_held_for_its_write_starts_its_clock_when_shown() -> None:
    """Slower storage, not yet a stall: the turn's frame waits for its write, and the clock
    starts when the frame goes out, not when the state was made."""
    sim = alone_hand(seed=4, timing=Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.3, stall=9))
    wait_for_my_turn(sim)
    sim.stall_storage()
    view = sim.last_view(1)
    sim.act(1, _action_text(view["view"]["legal"][-1]))
    for _ in range(400):  # the bots play on while the writes wait; this turn's frame is held
        if sim.machine.hand is not None and 0 in sim.machine._movers():
            break
        sim.run(0.05)
    seat = sim.machine.seat_of(1)
    assert sim.machine.hand is not None and seat in sim.machine._movers()
    made = sim.now
    sim.run(sim.timing.stall * 0.5)  # under the stall: not paused, the frame still held
    assert "paused" not in sim.kinds(1)
    sim.restore_storage()
    delivered = sim.now
    assert delivered > made
    offered = sim.last_view(1)
    assert offered["view"]["legal"] and offered["clock"]["left"] == sim.timing.turn
    sim.run(sim.timing.turn - 0.01)  # a full clock from the frame, not from the state
    assert timeouts_of(sim) == 0
    sim.run(0.02)
    assert offered["clock"]["seat"] is None or timeouts_of(sim) == 1


def test_a_player_the_table_cannot_reach_is_charged_nothing_however_long() -> None:
    """Their socket is on a process this one cannot reach (the cluster's Redis is away): the
    hand waits at their turn; when they are reached again they get the table, then a full
    clock."""
    sim = alone_hand(seed=4)
    wait_for_my_turn(sim)
    view = sim.last_view(1)
    sim.act(1, _action_text(view["view"]["legal"][-1]))
    sim.unreachable.add(1)
    sim.run(10 * sim.timing.turn)
    seat = sim.machine.seat_of(1)
    assert sim.machine.hand is not None and seat in sim.machine._movers()  # it waits for them
    assert timeouts_of(sim) == 0 and not sim.escapes
    sim.unreachable.discard(1)
    sim.connect(1)  # reached again: the cluster asks the table for their view
    back = sim.last_view(1)
    assert back["view"]["legal"] and back["clock"]["left"] == sim.timing.turn
    assert back["catch_up"]


def test_a_turn_not_shown_before_its_player_left_runs_out_uncounted() -> None:
    sim = alone_hand(seed=4)
    wait_for_my_turn(sim)
    view = sim.last_view(1)
    sim.act(1, _action_text(view["view"]["legal"][-1]))
    sim.unreachable.add(1)
    for _ in range(400):
        if sim.machine.hand is not None and sim.machine.seat_of(1) in sim.machine._movers():
            break
        sim.run(0.1)
    sim.disconnect(1)  # never shown, then gone: played for at the clock, never counted
    sim.unreachable.discard(1)
    sim.run(4 * sim.timing.turn + 1)
    assert timeouts_of(sim) == 0 and not sim.escapes


def test_tuoguan_is_written_and_a_rebuilt_hand_plays_on_for_the_player() -> None:
    sim = alone_hand(seed=6)
    sim.feed(io.Tuoguan(1, True))
    assert 1 in sim.ledger.tuoguan
    hand = sim.machine.hand
    assert hand is not None and hand.id is not None
    start = sim.ledger.hands[hand.id]["start"]
    actions = [w.action for w in sim.durable if isinstance(w, io.Step) and w.hand == hand.id]
    machine, outputs = restore(
        sim.machine.id, MAZHAN, sim.timing, random.Random(1), hand_id=hand.id,
        hand_no=1, seed=start.seed, stake=start.stake, setup=start.setup, seats=start.seats,
        actions=actions, balances={1: sim.ledger.balances[1]}, now=sim.now,
        tuoguan={1},
    )  # fmt: skip
    seat = machine.seat_of(1)
    assert seat is not None and machine.seats[seat].tuoguan  # type: ignore[union-attr]
    sim.machine = machine
    sim.handle(outputs)
    sim.connect(1)
    assert sim.last(1, "table")["seats"]["ESWN"[seat]]["tuoguan"]
    sim.run(3000.0)  # played for: the hand ends with no escape
    assert not sim.escapes
    assert sim.last(1, "settlement")
    sim.feed(io.Tuoguan(1, False))
    assert 1 not in sim.ledger.tuoguan


FAULTS = ["act", "wait", "stall", "unstall", "outage", "recover", "lose", "reach",
          "disconnect", "connect", "tuoguan", "ready", "cutoff", "resend"]  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=st.lists(
        st.tuples(st.sampled_from(FAULTS), st.sampled_from([1, 2]), st.integers(0, 40)),
        min_size=10,
        max_size=60,
    ),
    seed=st.integers(0, 2**32),
    room=st.sampled_from([MAZHAN, MADIAO]),
)
def test_no_escape_or_timeout_is_ever_charged_for_a_turn_not_shown(
    script: list[tuple[str, int, int]], seed: int, room: Room
) -> None:
    """Random play with the house failing in every way it can: storage failing and stalling,
    sockets the table cannot reach, players leaving and coming back. The simulator checks
    every charge against the frames shown (:meth:`Sim._check_charges`); the money adds up."""
    sim = Sim(room, seed=seed, timing=Timing(turn=5, ready=30, bot_wait=1, bot_delay=0.3))
    rng = random.Random(seed)
    for acc in (1, 2):
        sim.join(acc, f"p{acc}")
    for kind, acc, x in script:
        if kind == "act" and sim.machine.seat_of(acc) is not None and sim.my_turn(acc):
            view = sim.last_view(acc)
            sim.act(acc, _action_text(rng.choice(view["view"]["legal"])), view["version"])
        elif kind == "wait":
            sim.run(float(x))
        elif kind == "stall":
            sim.stall_storage()
        elif kind == "unstall" or kind == "recover":
            sim.restore_storage()
        elif kind == "outage":
            sim.fail_storage()
        elif kind == "lose":
            sim.unreachable.add(acc)
        elif kind == "reach" and acc in sim.unreachable:
            sim.unreachable.discard(acc)
            if acc in sim.connected:
                sim.connect(acc)
        elif kind == "disconnect" and acc in sim.connected:
            sim.disconnect(acc)
        elif kind == "connect" and acc not in sim.connected:
            sim.connect(acc)
        elif kind == "tuoguan" and sim.machine.seat_of(acc) is not None:
            sim.feed(io.Tuoguan(acc, x % 2 == 0))
        elif kind == "ready" and sim.machine.seat_of(acc) is not None:
            sim.ready(acc)
        elif kind == "cutoff":  # the cluster: their process does not answer
            sim.unreachable.add(acc)
            sim.feed(io.Unreached(acc))
        elif kind == "resend":  # the cluster: a frame may have been lost, send it again
            sim.feed(io.Resend(acc))
    # the house well again and everyone back: the table never stands still, the hand ends
    sim.restore_storage()
    for acc in (1, 2):  # back, and reached again (the cluster asks the table anew)
        if acc not in sim.connected or acc in sim.unreachable:
            sim.unreachable.discard(acc)
            sim.connect(acc)
    sim.run(4000.0)
    assert sim.machine.hand is None, "the table stands still"
    assert sim.ledger.total() == sim.ledger.issued
    for p in sim.machine.seats:
        if p is not None and p.account is not None:
            assert p.balance == sim.ledger.balances[p.account]
            assert p.tuoguan == (p.account in sim.ledger.tuoguan)


def test_storage_is_written_only_once_per_change_of_tuoguan() -> None:
    sim = alone_hand(seed=2)
    sim.feed(io.Tuoguan(1, True))
    sim.feed(io.Tuoguan(1, True))
    sim.feed(io.Tuoguan(1, False))
    written = [w for w in sim.durable if isinstance(w, io.SetTuoguan)]
    assert [w.on for w in written] == [True, False]


def test_an_escape_is_charged_when_it_is_decided_however_slow_its_write() -> None:
    """Three timeouts, then the storage slows (not yet a stall): the fourth timeout's escape
    comes one clock after its turn was shown, though its write lands later."""
    sim = alone_hand(seed=4, timing=Timing(turn=5, ready=20, bot_wait=10, bot_delay=0.3, stall=30))
    for _ in range(4000):
        seat = sim.machine.seat_of(1)
        hand = sim.machine.hand
        turn = None if hand is None or seat is None else hand.turns.get(seat)
        if timeouts_of(sim) == 3 and turn is not None and turn.counted and not turn.key[1]:
            break  # the fourth turn has been shown: its clock runs
        sim.run(0.05)
    sim.stall_storage()
    sim.run(10.0)  # the escape is charged in here; its write waits
    sim.restore_storage()
    assert [why for _, _, why in sim.escapes] == ["timeouts"]


def test_a_player_cut_off_is_waited_for_then_played_for_and_never_charged() -> None:
    """Their socket's process does not answer (the cluster says so: unreached): their turn
    waits with no clock, for as long as a player may be away; then their turns run out,
    uncounted; no disconnect clock runs, so it is never an escape. Shown a turn again, they
    are reached, and that turn's clock is theirs."""
    sim = alone_hand(seed=4)
    wait_for_my_turn(sim)
    sim.act(1, _action_text(sim.last_view(1)["view"]["legal"][-1]))
    sim.unreachable.add(1)
    sim.run(2 * sim.timing.turn)  # their next turn came: not shown, no clock
    seat = sim.machine.seat_of(1)
    steps = sim.machine.hand.seq  # type: ignore[union-attr]
    sim.feed(io.Unreached(1))
    sim.run(sim.timing.disconnect - 1)  # the table waits for them, however many clocks
    assert sim.machine.hand is not None and seat in sim.machine._movers()
    assert sim.machine.hand.seq == steps and not sim.escapes and timeouts_of(sim) == 0
    sim.run(sim.timing.turn * 6)  # past the allowance: their turns run out, uncounted
    assert sim.machine.hand is None or sim.machine.hand.seq > steps
    assert not sim.escapes and (sim.machine.seat_of(1) is None or timeouts_of(sim) == 0)
    sim.unreachable.discard(1)
    sim.connect(1)  # back: from the next turn shown, their clock counts again
    assert not sim.escapes


def test_a_player_cut_off_long_is_reached_again_by_the_next_turn_shown() -> None:
    """Found by a review: after a cut longer than the allowance, a turn's clock ran at once
    and its frame asked no acknowledgement, so the player stayed "cut off" for good: their
    timeouts never counted again, and a second fault was played through without a wait.
    Now the turn offered to a player cut off always asks it; shown, its clock is whole and
    theirs, and a second fault waits again."""
    sim = alone_hand(seed=4)
    wait_for_my_turn(sim)
    sim.unreachable.add(1)
    sim.feed(io.Unreached(1))
    sim.run(sim.timing.disconnect + 1)  # a three-minute outage: played for, uncounted
    sim.unreachable.discard(1)
    sim.feed(io.Resend(1))  # the cluster: their process answers again
    wait_for_my_turn(sim)
    player = sim.machine.seats[sim.machine.seat_of(1) or 0]
    assert player is not None and player.reached
    assert sim.last_view(1)["clock"]["left"] == sim.timing.turn
    steps = sim.machine.hand.seq  # type: ignore[union-attr]
    sim.unreachable.add(1)
    sim.feed(io.Unreached(1))  # a second, short fault: their turn waits again
    sim.run(sim.timing.turn * 3)
    assert sim.machine.hand is not None and sim.machine.hand.seq == steps
    assert not sim.escapes and timeouts_of(sim) == 0


def test_a_timeout_counted_just_before_the_house_found_the_player_cut_off_is_undone() -> None:
    """The cluster takes a few seconds to find a player cut off (Timing.cut_off_window): a
    turn that ran out in that time is not theirs; an older timeout stays theirs."""
    sim = alone_hand(seed=4)
    wait_for_my_turn(sim)
    sim.run(sim.timing.turn + 0.5)  # a real timeout: they were there and shown the turn
    assert timeouts_of(sim) == 1
    wait_for_my_turn(sim)
    sim.unreachable.add(1)  # cut now; the turn shown just before runs out
    sim.run(sim.timing.turn + 0.5)
    assert timeouts_of(sim) == 2
    sim.run(sim.timing.cut_off_window - 1.0)
    sim.feed(io.Unreached(1))  # found cut off: the last count was the house's
    assert timeouts_of(sim) == 1 and not sim.escapes


def test_the_timeouts_of_an_outage_the_players_process_reports_are_taken_back() -> None:
    """Found by an attack: a process whose Redis connection was silently lost for a few
    seconds was never found stale by the table's (it renewed its key in time), while the
    player's answers were lost: three timeouts then an escape at a 3-s clock. Subscribed
    again, the process says how long it was away; the timeouts counted in that time go."""
    sim = alone_hand(seed=4, timing=Timing(turn=3.0, bot_delay=0.3))
    for _ in range(2):  # their turns run out, answers lost on the way
        wait_for_my_turn(sim)
        sim.run(sim.timing.turn + 0.5)
    assert timeouts_of(sim) == 2
    sim.feed(io.Unreached(1, window=sim.timing.turn * 6))  # "I was away this long"
    sim.feed(io.Connect(1))
    assert timeouts_of(sim) == 0 and not sim.escapes
