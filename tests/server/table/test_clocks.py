"""The table's clocks (:mod:`paiju.server.table.clocks`): a turn's clock starts when the
frame offering it is shown (:class:`~paiju.server.table.io.Delivered`); a timeout counts
only for a turn shown to a player who is there; a player the table cannot reach waits up
to ``Timing.disconnect`` uncounted; the disconnect and ready clocks
(docs/rules-decisions.md, "A person is charged only for a turn they were shown")."""

from __future__ import annotations

from paiju.server.table import io
from tests.server.table.helpers import TIMING, Table, alone_hand, of, sends, timers


def test_a_turn_clock_starts_when_its_frame_is_shown_not_when_it_is_made() -> None:
    t = alone_hand(seed=4, hold=True)
    t.until(1)
    offered = t.last_view(1)
    assert offered["clock"] == {"seat": "E", "seconds": 15, "left": 15}
    mark = t.mark()
    t.run(100.0)  # the frame never reaches ana: the hand waits, no clock runs
    assert timers(t.since(mark), "turn") == []
    assert t.my_move(1) and t.seat(1).timeouts == 0
    mark = t.mark()
    t.deliver(1)
    assert timers(t.since(mark), "turn") == [TIMING.turn]
    t.run(TIMING.turn - 0.1)
    assert t.seat(1).timeouts == 0
    t.run(0.2)  # a full clock from the moment it was shown
    assert t.seat(1).timeouts == 1 and not t.my_move(1, None)


def test_an_answer_naming_another_frame_starts_no_clock() -> None:
    t = alone_hand(seed=4, hold=True)
    t.until(1)
    ack, _ = t.acks[1]
    assert t.machine.handle(io.Delivered(1, ack + 1), t.now) == []
    assert t.machine.handle(io.Delivered(2, ack), t.now) == []  # nobody's seat
    hand = t.machine.hand
    assert hand is not None and hand.turns[0].deadline is None


def test_a_timer_replaced_or_cancelled_does_nothing() -> None:
    t = alone_hand(seed=4)
    t.until(1)
    token = t.machine._tokens["turn"]
    assert t.machine.handle(io.TimerFired("turn", token - 1), t.now + 60) == []
    assert t.machine.handle(io.TimerFired("nothing", token), t.now + 60) == []
    assert t.seat(1).timeouts == 0 and t.my_move(1)


def test_a_missed_discard_is_played_and_counted_the_fourth_in_a_row_escapes() -> None:
    t = alone_hand(seed=3)
    counts = [0]
    while t.machine.hand is not None:  # ana never acts
        t.run(0.5)
        if t.machine.hand is not None and t.seat(1).timeouts != counts[-1]:
            counts.append(t.seat(1).timeouts)
    assert counts == [0, 1, 2, 3]
    abort = of(io.Store, t.outputs)[-2].write  # the abort, then the seat's release
    assert isinstance(abort, io.AbortHand) and abort.reason["why"] == "timeouts"
    assert t.last(1, "unseated")["why"] == "escape"


def test_a_missed_claim_prompt_is_passed_and_not_counted() -> None:
    t = alone_hand(seed=1)
    t.until(1, prompt=True)
    assert t.last_view(1)["clock"]["seat"] is None  # a window's clock is the seat's own
    mark = t.mark()
    t.run(TIMING.turn + 0.01)
    steps = [o.write.action for o in of(io.Store, t.since(mark)) if isinstance(o.write, io.Step)]
    assert steps[0] == "E pass" and t.seat(1).timeouts == 0


def test_a_player_the_table_cannot_reach_waits_up_to_the_disconnect_clock_uncounted() -> None:
    t = alone_hand(seed=4, hold=True)
    t.until(1)
    cut = t.now
    mark = t.mark()
    t.unreachable.add(1)
    t.feed(io.Unreached(1))
    assert timers(t.since(mark), "reach:1") == [TIMING.disconnect]
    assert of(io.Store, t.since(mark)) == []
    t.run(TIMING.disconnect - 1)
    assert t.my_move(1) and t.seat(1).timeouts == 0  # still waiting for them
    mark = t.mark()
    t.run(1.0)  # long enough: the turn's clock runs now, uncounted
    assert timers(t.since(mark), "turn") == [TIMING.turn]
    t.run(TIMING.turn + 0.01)
    assert t.now - cut > TIMING.disconnect + TIMING.turn
    assert not t.my_move(1) and t.seat(1).timeouts == 0 and not t.escapes


def test_a_player_away_from_a_live_hand_escapes_when_the_disconnect_clock_ends() -> None:
    t = alone_hand(seed=5)
    mark = t.mark()
    t.disconnect(1)
    assert timers(t.since(mark), "away:1") == [TIMING.disconnect]
    t.run(TIMING.disconnect - 0.5)
    assert t.machine.seat_of(1) is not None and t.seat(1).timeouts == 0  # played, uncounted
    t.run(1.0)
    abort = [w for w in t.durable if isinstance(w, io.AbortHand)]
    assert [a.reason["why"] for a in abort] == ["disconnected"]
    assert t.machine.seat_of(1) is None


def test_between_hands_the_ready_clock_unseats_for_free() -> None:
    t = Table()
    t.join(1, "ana")
    t.run(TIMING.bot_wait)  # the bots sit: four at the table, the ready clock runs
    assert timers(t.outputs, "ready:1") == [TIMING.ready]
    balance = t.ledger.balances[1]
    t.run(TIMING.ready - 0.01)
    assert t.machine.seat_of(1) == 0
    mark = t.mark()
    t.run(0.02)
    assert sends(t.since(mark), 1, "unseated") == [{"type": "unseated", "why": "not_ready"}]
    writes = [o.write for o in of(io.Store, t.since(mark))]
    assert writes == [io.ReleaseSeat(1, 1)] and t.ledger.balances[1] == balance
