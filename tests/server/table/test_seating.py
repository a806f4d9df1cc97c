"""Who sits at the table (:mod:`paiju.server.table.seating`): a seat's claim written before
anything is shown, the refusals, confirming the next hand, leaving (free between hands, an
escape only when the player says so), sockets closing, 托管 written as it changes, and the
bots taking the empty seats (docs/rules-decisions.md, "Hands and confirmations")."""

from __future__ import annotations

from paiju.server.table import io
from tests.server.table.helpers import (
    TIMING,
    Table,
    alone_hand,
    bare,
    of,
    player,
    sends,
    stored_answers,
    timers,
)


def test_a_join_writes_the_seat_first_and_shows_it_once_durable() -> None:
    m = bare()
    out = m.handle(io.Join(7, "ana", 10_000), 0.0)
    assert [o.write for o in of(io.Store, out)] == [io.ClaimSeat(7, 1)]
    assert of(io.Send, out) == [] and of(io.Changed, out) == [io.Changed()]
    assert m.seats[0] is not None and m.seats[0].claiming
    assert m.handle(io.Ready(7), 0.5) == []  # confirming a seat not yet durable: nothing
    shown = stored_answers(m, out, 1.0)
    assert [f["type"] for f in sends(shown, 7)] == ["seated", "table"]
    assert sends(shown, 7, "seated")[0]["seat"] == "E"
    assert timers(shown, "fill") == [TIMING.bot_wait]  # a public table's bots are coming


def test_a_join_is_refused_at_a_full_table_and_below_the_rooms_minimum() -> None:
    m = bare()
    for acc in (1, 2, 3, 4):
        m.handle(io.Join(acc, f"p{acc}", 10_000), 0.0)
    full = m.handle(io.Join(5, "eve", 10_000), 0.0)
    assert [f["code"] for f in sends(full, 5)] == ["table_full"] and not of(io.Store, full)
    poor = bare().handle(io.Join(5, "eve", 799), 0.0)
    assert [f["code"] for f in sends(poor, 5)] == ["too_few_points"] and not of(io.Store, poor)


def test_a_second_join_of_a_seated_account_reconnects_it_without_a_new_claim() -> None:
    t = Table()
    t.join(1, "ana")
    mark = t.mark()
    t.join(1, "ana")
    assert of(io.Store, t.since(mark)) == []
    assert [f["type"] for f in sends(t.since(mark), 1)] == ["seated", "table"]


def test_leaving_between_hands_is_free_and_the_last_person_takes_the_bots_along() -> None:
    t = Table()
    t.join(1, "ana")
    t.run(TIMING.bot_wait)
    assert all(p is not None for p in t.machine.seats)
    mark = t.mark()
    t.leave(1)
    assert [o.write for o in of(io.Store, t.since(mark))] == [io.ReleaseSeat(1, 1)]
    assert sends(t.since(mark), 1, "unseated") == [{"type": "unseated", "why": "left"}]
    assert t.machine.seats == [None, None, None, None] and t.empty
    assert t.ledger.balances[1] == 10_000


def test_a_leave_during_a_hand_that_does_not_say_escape_is_refused() -> None:
    t = alone_hand(seed=2)
    mark = t.mark()
    t.leave(1)
    error = sends(t.since(mark), 1, "error")
    assert [e["code"] for e in error] == ["escape_unconfirmed"]
    assert "(4000 points)" in error[0]["message"]
    assert of(io.Store, t.since(mark)) == [] and t.machine.phase == "live"


def test_a_socket_closed_holds_the_seat_for_the_ready_clock_or_the_disconnect_clock() -> None:
    t = Table()
    t.join(1, "ana")
    mark = t.mark()
    t.disconnect(1)  # between hands
    assert timers(t.since(mark), "away:1") == [TIMING.ready]
    t.connect(1)
    assert t.seat(1).connected
    live = alone_hand(seed=5)
    mark = live.mark()
    live.disconnect(1)  # in a hand
    assert timers(live.since(mark), "away:1") == [TIMING.disconnect]
    assert live.machine.table_json()["seats"]["E"]["connected"] is False


def test_the_time_away_is_one_allowance_per_hand() -> None:
    t = alone_hand(seed=5)
    t.disconnect(1)
    t.run(100.0)
    t.connect(1)
    mark = t.mark()
    t.disconnect(1)
    assert timers(t.since(mark), "away:1") == [TIMING.disconnect - 100.0]


def test_tuoguan_is_written_when_it_changes_and_switching_it_off_clears_the_timeouts() -> None:
    t = alone_hand(seed=3)
    t.until(1)
    t.run(TIMING.turn + 0.01)
    assert t.seat(1).timeouts == 1
    mark = t.mark()
    t.feed(io.Tuoguan(1, True))
    t.feed(io.Tuoguan(1, True))  # no change: nothing written
    tuoguan = [o.write for o in of(io.Store, t.since(mark)) if isinstance(o.write, io.SetTuoguan)]
    assert tuoguan == [io.SetTuoguan(1, 1, True)]
    assert t.last(1, "table")["seats"]["E"]["tuoguan"] is True
    t.feed(io.Tuoguan(1, False))
    assert t.seat(1).timeouts == 0 and t.ledger.tuoguan == set()


def test_bots_fill_a_public_table_after_the_wait_and_a_private_one_only_when_asked() -> None:
    public = Table()
    public.join(1, "ana")
    public.run(TIMING.bot_wait - 0.01)
    assert public.machine.seats[1:] == [None, None, None]
    public.run(0.02)
    names = [p.name for p in public.machine.seats if p is not None and p.bot is not None]
    assert names == ["夏雨（中級）", "秋月（中級）", "冬雪（中級）"]
    friends = Table(code="ABC234")
    friends.join(1, "ana")
    friends.run(600.0)
    assert friends.machine.seats[1:] == [None, None, None]
    friends.feed(io.Fill(1))
    assert all(p is not None and p.confirmed for p in friends.machine.seats[1:])
    assert player(friends.machine, 1).confirmed is False  # ana has not confirmed yet
