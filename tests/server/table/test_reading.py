"""The ready clock is fair to a reader (issue 36): after a settlement a person's ready clock
starts only once their page says it has shown the settlement whole (``settlement_shown``),
or ``Timing.reading`` after the settlement reached them if it never says so; a settlement
that has not reached them starts nothing (a clock runs only on a frame that was delivered).
"""

from __future__ import annotations

from paiju.server.table import io
from tests.server.table.helpers import MADIAO, TIMING, Table, alone_hand, sends, timers


def settled(room: object = None, seed: int = 1, hold: bool = True) -> Table:
    """A hand of ana and three bots played to its settlement; with ``hold`` the settlement's
    ack is kept (:meth:`Table.deliver` says when it reaches ana)."""
    t = alone_hand(seed=seed) if room is None else alone_hand(MADIAO, seed=seed)
    if hold:
        t.hold_settlement.add(1)
    t.play_until_over(1)
    assert t.machine.phase == "idle" and "settlement" in t.kinds(1)
    return t


def test_the_ready_clock_waits_for_the_page_to_show_the_settlement() -> None:
    t = settled()
    settlement = t.last(1, "settlement")
    assert settlement["ready_seconds"] == TIMING.ready
    assert settlement["reading_seconds"] == TIMING.reading
    assert t.last(1, "table")["ready_seconds"] is None  # no clock runs while one reads
    t.deliver(1)
    t.run(TIMING.reading - 1.0)  # an 8-s reveal, a slow reader: still seated
    assert "unseated" not in t.kinds(1) and t.machine.seat_of(1) is not None
    mark = t.mark()
    t.feed(io.SettlementShown(1))
    assert timers(t.since(mark), "ready:1") == [TIMING.ready]
    assert sends(t.since(mark), 1, "table")[-1]["ready_seconds"] == TIMING.ready
    t.run(TIMING.ready - 0.1)
    assert "unseated" not in t.kinds(1)
    t.run(0.2)
    assert t.last(1, "unseated")["why"] == "not_ready"


def test_a_page_that_never_says_it_is_bounded_by_the_reading_time() -> None:
    t = settled(seed=2)
    t.run(500.0)  # the settlement never reaches the page: nothing runs out
    assert t.machine.seat_of(1) is not None
    t.deliver(1)
    t.run(TIMING.reading + TIMING.ready - 0.1)
    assert t.machine.seat_of(1) is not None
    t.run(0.2)
    assert t.last(1, "unseated")["why"] == "not_ready"


def test_confirming_while_reading_starts_the_next_hand() -> None:
    t = settled(seed=3, hold=False)
    t.ready(1)
    t.run(1.0)
    assert t.machine.phase == "live" and not t.machine._reading
    assert "read:1" not in t.machine._tokens
    mark = t.mark()
    t.feed(io.SettlementShown(1))  # late, during the hand: nothing, and no error
    assert sends(t.since(mark), 1) == [] and timers(t.since(mark), "ready:1") == []


def test_saying_it_twice_starts_the_clock_once() -> None:
    t = settled(seed=4, hold=False)
    t.feed(io.SettlementShown(1))
    t.run(5.0)
    mark = t.mark()
    t.feed(io.SettlementShown(1))
    assert t.since(mark) == []
    t.run(TIMING.ready - 5.0 + 0.1)
    assert t.last(1, "unseated")["why"] == "not_ready"


def test_ma_diao_waits_for_its_reveal_too() -> None:
    t = settled(MADIAO, seed=5)
    t.deliver(1)
    t.run(9.0)  # the 開沖 reveal takes about 8 s
    t.feed(io.SettlementShown(1))
    t.run(TIMING.ready - 0.1)
    assert t.machine.seat_of(1) is not None
    t.ready(1)
    t.run(1.0)
    assert t.machine.phase == "live"


def test_a_page_back_on_the_settlement_is_sent_it_again_to_acknowledge() -> None:
    t = settled(seed=6)
    t.disconnect(1)  # the settlement never reached the page
    t.connect(1)
    assert t.kinds(1).count("settlement") == 2
    assert 1 in t.acks  # the settlement, sent again, asks to be acknowledged
    t.deliver(1)
    assert "read:1" in t.machine._tokens


def test_a_storage_pause_stops_the_reading_bound_and_resuming_starts_it_afresh() -> None:
    t = settled(seed=7)
    t.deliver(1)
    t.run(TIMING.reading - 2.0)
    t.fail_storage()
    t.feed(io.Tuoguan(1, True))  # a write, refused: the table pauses
    t.run(60.0)
    assert t.machine._paused and t.machine.seat_of(1) is not None
    t.restore_storage()
    t.run(TIMING.reading - 0.1)
    assert t.machine.seat_of(1) is not None and 1 in t.machine._reading


def test_a_tuoguan_seat_reads_nothing_its_clock_starts_at_once() -> None:
    t = alone_hand(seed=8)
    t.feed(io.Tuoguan(1, True))
    for _ in range(4000):
        if t.machine.phase == "idle":
            break
        t.run(0.5)
    assert t.machine.phase == "idle" and 1 not in t.machine._reading
    assert abs(t.last(1, "table")["ready_seconds"] - TIMING.ready) < 1e-6
