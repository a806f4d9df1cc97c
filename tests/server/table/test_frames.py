"""What the players are sent (:mod:`paiju.server.table.frames`): the seat, the table's
seating, a hand's start (the balance after the fee), each seat's view with its clock, its
version, its own events only, and the hand's whole log to a returning page."""

from __future__ import annotations

from paiju.server.table import frames, io
from tests.server.table.helpers import TIMING, Table, action_text, alone_hand, sends


def test_a_seated_player_is_told_the_seat_and_the_table() -> None:
    t = Table(code="ABC234")
    t.join(1, "ana")
    assert t.frames[1][0] == {
        "type": "seated", "table": 1, "room": "mazhan", "game": "mazhan", "seat": "E",
    }  # fmt: skip
    table = t.frames[1][1]
    assert table["type"] == "table" and table["live"] is False and table["hand_no"] == 0
    assert table["code"] == "ABC234" and table["ready_seconds"] is None
    assert table["seats"] == {
        "E": {"name": "ana", "bot": False, "level": None, "ready": False, "tuoguan": False,
              "connected": True, "points": 10_000},
        "S": None, "W": None, "N": None,
    }  # fmt: skip


def test_the_table_shows_bots_without_points_and_the_ready_clock_once_four_sit() -> None:
    t = Table()
    t.join(1, "ana")
    t.run(TIMING.bot_wait)
    table = t.last(1, "table")
    assert table["ready_seconds"] == TIMING.ready
    assert table["seats"]["N"] == {
        "name": "冬雪（中級）", "bot": True, "level": "normal", "ready": True, "tuoguan": False,
        "connected": True, "points": None,
    }  # fmt: skip
    t.run(5.0)
    t.feed(io.Resend(1))
    assert t.last(1, "table")["ready_seconds"] == TIMING.ready - 5.0


def test_a_hand_starts_on_screen_with_the_balance_the_fee_left() -> None:
    t = alone_hand(seed=4)
    start = t.last(1, "hand_start")
    assert start == {
        "type": "hand_start", "balance": 10_000 - 10, "hand": 101, "stake": 10, "fee": 10,
        "seat": "E", "room": "mazhan", "game": "mazhan", "dealer": "E",
    }  # fmt: skip
    assert t.last(1, "table")["live"] is True and t.last(1, "table")["hand_no"] == 1


def test_a_view_shows_the_seats_own_tiles_and_not_the_others() -> None:
    t = alone_hand(seed=4)
    first = next(f for f in t.frames[1] if f["type"] == "view")
    dealt = {e["seat"]: e["tiles"] for e in first["events"] if e["kind"] == "dealt"}
    assert len(dealt["E"]) == 17 and dealt["S"] is dealt["W"] is dealt["N"] is None
    assert first["version"] == 0 and first["hand"] == 101 and first["catch_up"] is False


def test_a_turns_clock_counts_down_from_the_moment_it_was_shown() -> None:
    t = alone_hand(seed=4, hold=True)
    t.until(1)
    assert t.last_view(1)["clock"] == {"seat": "E", "seconds": 15, "left": 15}
    t.run(5.0)
    t.feed(io.Resend(1))  # not shown yet: all of it left
    assert t.last_view(1)["clock"]["left"] == 15
    t.deliver(1)
    t.run(5.0)
    t.feed(io.Resend(1))
    assert t.last_view(1)["clock"]["left"] == 10.0


def test_another_persons_turn_is_public_and_their_claim_prompt_is_not() -> None:
    t = Table(seed=2)
    t.join(1, "ana")
    t.join(2, "bo")  # bo sits South
    t.ready(1)
    t.ready(2)
    t.feed(io.Tuoguan(1, True))  # ana's seat is played for her; she is shown the table
    t.run(TIMING.bot_wait)
    t.until(2)
    assert t.last_view(1)["clock"] == {"seat": "S", "seconds": 15, "left": 15}
    t.until(2, prompt=True)
    assert t.last_view(2)["clock"]["seat"] is None
    assert t.last_view(1)["clock"] is None


def test_your_own_action_comes_back_in_the_next_view() -> None:
    t = alone_hand(seed=4)
    t.until(1)
    action = action_text(t.last_view(1)["view"]["legal"][-1])
    t.act(1, action)
    view = t.last_view(1)
    assert view["your_action"] == action
    assert [e["kind"] for e in view["events"]][:1] == ["discard"]


def test_a_page_that_comes_back_gets_the_whole_log_and_an_absent_one_gets_no_view() -> None:
    t = alone_hand(seed=4)
    shown = [e for f in t.frames[1] if f["type"] == "view" for e in f["events"]]
    mark = t.mark()
    t.disconnect(1)
    t.run(30.0)  # the bots play on; ana's turns are played for her
    assert sends(t.since(mark), 1, "view") == []
    t.connect(1)
    back = t.last_view(1)
    assert back["catch_up"] is True and back["events"][: len(shown)] == shown
    assert len(back["events"]) > len(shown)


def test_moves_are_named_for_the_players() -> None:
    names: dict[int | str, str] = {7: "ana", "__house__": "house"}
    assert frames.moves_json([(7, 8, 3)], "hand", names) == [
        {"from": "ana", "to": "?", "amount": 3, "reason": "hand"}
    ]
