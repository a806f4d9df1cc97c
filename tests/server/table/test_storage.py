"""The table's writes and the storage's answers (:mod:`paiju.server.table.storage`): a frame
waits for every write queued before it; storage that fails, or stalls for ``Timing.stall``,
pauses the table (its clocks stop, requests wait) until every write is durable; a write that
can never succeed frees the seat (``seat_taken``) or lets the table go (``fenced``)
(docs/deploy.md, docs/rules-decisions.md "Durable before shown")."""

from __future__ import annotations

from paiju.server.table import io
from tests.server.table.helpers import TIMING, bare, of, sends, stored_answers, timers

PAUSED = {"type": "paused", "why": "storage"}


def test_a_frame_waits_for_every_write_queued_before_it() -> None:
    m = bare()
    m.handle(io.Join(1, "ana", 10_000), 0.0)
    m.handle(io.Join(2, "bo", 10_000), 0.1)
    assert m.handle(io.Stored(2, 10_000), 0.2) == []  # bo's seat is durable, ana's is not
    out = m.handle(io.Stored(1, 10_000), 0.3)
    assert [f["type"] for f in sends(out, 1)] == ["seated", "table"]
    assert [f["type"] for f in sends(out, 2)] == ["seated", "table", "table"]
    assert {o.after for o in of(io.Send, out)} == {2}
    assert m.handle(io.Stored(1, 10_000), 0.4) == []  # an answer counts once


def test_a_write_unanswered_for_the_stall_time_pauses_the_table() -> None:
    m = bare()
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    assert timers(out, "stall") == [TIMING.stall]
    token = of(io.SetTimer, out)[0].token
    assert m.handle(io.TimerFired("stall", token), TIMING.stall) == [
        io.Send(1, PAUSED)  # not held: it depends on no write
    ]


def test_the_stall_clock_is_set_again_for_the_oldest_write_still_waiting() -> None:
    m = bare()
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    m.handle(io.Stored(1, 10_000), 1.0)
    m.handle(io.Join(2, "bo", 10_000), 1.5)  # the stall clock set at 0.0 still runs
    again = m.handle(io.TimerFired("stall", of(io.SetTimer, out)[0].token), TIMING.stall)
    assert timers(again, "stall") == [1.5] and not sends(again, 1)


def test_storage_trouble_pauses_the_table_and_requests_wait_until_it_is_back() -> None:
    m = bare()
    for acc, name in ((1, "ana"), (2, "bo")):
        stored_answers(m, m.handle(io.Join(acc, name, 10_000), 0.0), 0.1)
    left = m.handle(io.Leave(1), 1.0)
    (release,) = of(io.Store, left)
    assert release.write == io.ReleaseSeat(1, 1)
    paused = m.handle(io.Trouble(release.op, "connection refused"), 1.1)
    assert sends(paused, 2) == [PAUSED] and sends(paused, 1) == []
    assert io.CancelTimer("fill") in paused  # no clock runs: the bots do not come
    assert m.handle(io.Trouble(release.op, "again"), 1.2) == []  # paused once
    assert m.handle(io.Join(3, "cy", 10_000), 2.0) == []  # waits
    back = m.handle(io.Stored(release.op), 30.0)
    assert sends(back, 1) == [{"type": "unseated", "why": "left"}]  # held for its write
    assert sends(back, 2, "resumed") == [{"type": "resumed"}]
    assert [o.write for o in of(io.Store, back)] == [io.ClaimSeat(3, 1)]  # cy's join now


def test_a_seat_taken_elsewhere_frees_the_seat_here() -> None:
    m = bare()
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    failed = m.handle(io.Failed(of(io.Store, out)[0].op, "seat_taken"), 0.1)
    assert [f["code"] for f in sends(failed, 1)] == ["already_seated"]
    assert m.seats == [None, None, None, None]
    assert io.Changed() in failed and io.Empty() in failed


def test_a_fenced_write_lets_the_table_go_and_it_answers_nothing_more() -> None:
    m = bare()
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    stored_answers(m, out, 0.1)
    (tuoguan,) = of(io.Store, m.handle(io.Tuoguan(1, True), 1.0))
    lost = m.handle(io.Failed(tuoguan.op, "fenced"), 1.1)
    assert lost == [io.Lost()] and m.lost
    assert m.handle(io.Ready(1), 1.2) == [] and m.handle(io.Connect(1), 1.3) == []


def test_the_last_person_gone_and_written_the_table_is_empty() -> None:
    m = bare()
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    stored_answers(m, out, 0.1)
    left = m.handle(io.Leave(1), 1.0)
    assert io.Empty() not in left  # the seat's release is not durable yet
    assert io.Empty() in stored_answers(m, left, 1.1) and m.idle_and_empty
