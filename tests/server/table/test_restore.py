"""Rebuilding a table whose hand was live when its process stopped
(:mod:`paiju.server.table.restore`): the seats from the hand's record, the state and every
seat's log by replaying its action log, each person away with the disconnect clock's grace,
托管 as they left it (docs/deploy.md, restarts and fail-overs)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.errors import ReplayError
from paiju.server.rooms import Room
from paiju.server.table import TableMachine, Timing, io, restore
from tests.server.table.helpers import MADIAO, MAZHAN, TIMING, Table, alone_hand, timers

#: a slow turn clock: the hand outlasts the player's absence (their turns are played)
SLOW = Timing(turn=60, ready=20, bot_wait=10, bot_delay=0.3)


def rebuilt(
    t: Table, actions: list[str] | None = None, **kw: Any
) -> tuple[TableMachine, list[io.Output]]:
    """``t``'s live hand rebuilt from what its storage holds (or from ``actions``)."""
    hand = t.machine.hand
    assert hand is not None and hand.id is not None
    start: io.StartHand = t.ledger.hands[hand.id]["start"]
    if actions is None:
        actions = [w.action for w in t.durable if isinstance(w, io.Step) and w.hand == hand.id]
    return restore(
        start.table, t.machine.room, t.timing, random.Random(0), hand_id=hand.id,
        hand_no=start.hand_no, seed=start.seed, stake=start.stake, setup=start.setup,
        seats=start.seats, actions=actions, balances=dict(t.ledger.balances), now=t.now, **kw,
    )  # fmt: skip


def taken_over(t: Table, **kw: Any) -> None:
    """Another process takes ``t``'s table over: its machine is the rebuilt one."""
    t.machine, outputs = rebuilt(t, **kw)
    t.handle(outputs)


@pytest.mark.parametrize("room", [MAZHAN, MADIAO], ids=["mazhan", "madiao"])
def test_the_state_and_every_seats_log_are_rebuilt_from_the_action_log(room: Room) -> None:
    t = alone_hand(room, seed=12)
    t.run(TIMING.turn + 5.0)
    m, _ = rebuilt(t)
    old = t.machine.hand
    assert m.hand is not None and old is not None
    assert m.hand.seq == old.seq > 0 and m.hand.state.version == old.state.version
    for seat in m.game.seats:
        assert m.game.observe(m.hand.state, seat) == t.machine.game.observe(old.state, seat)
    assert m.hand.logs == old.logs
    assert m.phase == "live" and m.hands_started == 1


def test_each_person_is_away_with_the_disconnect_clocks_grace() -> None:
    t = alone_hand(seed=12)
    m, out = rebuilt(t)
    ana = m.seats[0]
    assert ana is not None and ana.account == 1 and not ana.connected and ana.confirmed
    assert ana.balance == t.ledger.balances[1] == 10_000 - 10
    assert timers(out, "away:1") == [TIMING.disconnect] and io.Changed() in out
    assert [p.bot for p in m.seats[1:] if p is not None] == ["strong"] * 3


def test_the_fee_of_the_hand_is_known_again_for_its_settlement() -> None:
    t = alone_hand(seed=12)
    m, _ = rebuilt(t)
    assert m.hand is not None
    assert m.hand.start_balances == {1: 10_000} and m.hand.fee_moves == [(1, "__house__", 10)]


def test_a_player_back_within_the_grace_plays_on_and_one_who_is_not_escapes() -> None:
    t = alone_hand(seed=12, timing=SLOW)
    t.run(3.0)
    t.connected.discard(1)  # the socket went with the old process
    taken_over(t)
    t.run(SLOW.disconnect - 1)
    assert t.machine.hand is not None
    t.connect(1)
    assert t.last_view(1)["catch_up"] is True and t.machine.seat_of(1) == 0
    gone = alone_hand(seed=12, timing=SLOW)
    gone.run(3.0)
    gone.connected.discard(1)
    taken_over(gone)
    gone.run(SLOW.disconnect + 0.01)
    aborts = [w for w in gone.durable if isinstance(w, io.AbortHand)]
    assert [a.reason["why"] for a in aborts] == ["disconnected"]


def test_tuoguan_is_as_the_player_left_it() -> None:
    t = alone_hand(seed=4)
    t.feed(io.Tuoguan(1, True))
    t.connected.discard(1)
    taken_over(t, tuoguan=t.ledger.tuoguan)
    ana = t.machine.seats[0]
    assert ana is not None and ana.tuoguan and t.machine.table_json()["seats"]["E"]["tuoguan"]
    since, steps = t.now, len(t.durable)
    while not any(isinstance(w, io.Step) and w.action[0] == "E" for w in t.durable[steps:]):
        t.run(0.05)
    assert t.now - since < TIMING.turn  # played by 托管, not by the clock
    assert ana.timeouts == 0 and not t.escapes


def test_a_log_that_does_not_replay_is_refused() -> None:
    t = alone_hand(seed=12)
    with pytest.raises(ReplayError):
        rebuilt(t, actions=["E discard 1m", "E discard 1m", "E discard 1m"])
