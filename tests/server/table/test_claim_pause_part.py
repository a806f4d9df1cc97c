"""The claim pause (:mod:`paiju.server.table.claim_pause`; Mazhan §5 end): after every
discard each seat that cannot claim sees the discard done and a window open to nobody, with
no clock, for exactly ``Timing.claim_pause``; bots answer within it; nobody's turn starts
before it is over; a storage pause ends it; a hand that ends on a discard shows its end
after it (docs/rules-decisions.md, "The claim pause at the table").

(Named ``_part`` beside ``tests/server/test_claim_pause.py``, the pause's properties over
whole hands.)"""

from __future__ import annotations

from typing import Any

import pytest

from paiju.server.table import Timing, claim_pause, io
from tests.server.table.helpers import TIMING, Table, action_text, alone_hand, sends, timers


def _pause_frame(t: Table) -> dict[str, Any] | None:
    """ana's last frame when it is the pause after a bot's discard, else None."""
    frame = t.frames[1][-1]
    if frame["type"] != "view" or frame["view"]["legal"] or not claim_pause.holding(t.machine):
        return None
    discards = [e for e in frame["events"] if e["kind"] == "discard" and e["seat"] != "E"]
    return frame if discards else None


def pause_after_a_bots_discard(seed: int = 5, **kw: Any) -> tuple[Table, dict[str, Any]]:
    """A hand of ana's, run on until a bot's discard she cannot claim: the pause holds."""
    t = alone_hand(seed=seed, **kw)
    for _ in range(20_000):
        frame = _pause_frame(t)
        if frame is not None:
            return t, frame
        if t.my_move(1, None):
            t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
        else:
            t.run(0.01)
    raise AssertionError("no pause came")


def your_discard(seed: int = 5, **kw: Any) -> tuple[Table, list[io.Output]]:
    """ana's first discard, and what the machine did at once."""
    t = alone_hand(seed=seed, **kw)
    t.until(1)
    mark = t.mark()
    t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
    return t, t.since(mark)


def test_a_seat_that_cannot_claim_sees_a_window_open_to_nobody_and_no_clock() -> None:
    t, frame = pause_after_a_bots_discard()
    view = frame["view"]
    assert view["phase"] == "claim" and view["window"]["kind"] == "claim"
    assert view["turn"] is None and frame["clock"] is None
    hand = t.machine.hand
    assert hand is not None and hand.turns == {}  # nobody's turn, no clock
    assert "turn" not in t.machine._tokens and "bot" not in t.machine._tokens


def test_what_follows_the_discard_comes_after_exactly_the_pause() -> None:
    t, out = your_discard()
    assert timers(out, "settle") == [TIMING.claim_pause]
    shown = len(t.frames[1])
    t.run(TIMING.claim_pause - 0.01)
    assert len(t.frames[1]) == shown  # the bots have answered; nothing is shown yet
    t.run(0.02)
    assert t.frames[1][shown:] and t.frames[1][shown]["type"] == "view"
    assert t.times[1][shown] == pytest.approx(t.now - 0.01)
    hand = t.machine.hand
    assert hand is not None and not hand.pausing


def test_bots_answer_a_window_within_the_pause() -> None:
    _, out = your_discard()
    bot = timers(out, "bot")  # a bot may claim ana's discard: it answers early in the pause
    assert len(bot) == 1 and 0.1 * TIMING.claim_pause <= bot[0] <= 0.3 * TIMING.claim_pause


def test_during_the_pause_an_action_is_out_of_turn_whoever_is_next() -> None:
    t, frame = pause_after_a_bots_discard()
    hand = t.machine.hand
    assert hand is not None
    mine = t.machine.game.legal_actions(hand.state, t.machine.game.seats[0])
    action = str(mine[0]) if mine else "E discard 1m"
    t.act(1, action, frame["version"])
    assert t.frames[1][-1]["code"] == "not_your_turn"


def test_no_pause_at_all_when_it_is_set_to_nothing() -> None:
    timing = Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.3, claim_pause=0)
    t, out = your_discard(timing=timing)
    assert timers(out, "settle") == []
    hand = t.machine.hand
    assert hand is not None and not hand.pausing and not claim_pause.holding(t.machine)


def test_a_storage_pause_ends_the_claim_pause() -> None:
    timing = Timing(turn=15, ready=20, bot_wait=10, bot_delay=0.3, claim_pause=5, stall=2)
    t = alone_hand(seed=5, timing=timing)
    t.until(1)
    t.stall_storage()
    t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
    t.run(timing.stall + 0.01)
    assert t.last(1, "paused")["why"] == "storage"
    mark = t.mark()
    t.restore_storage()
    hand = t.machine.hand
    assert hand is not None and not hand.pausing
    assert timers(t.since(mark), "settle") == []
    kinds = [f["type"] for f in sends(t.since(mark), 1)]
    assert kinds[kinds.index("resumed") + 1 :] == ["view"]  # the table as it is after the pause


def test_an_escape_asked_as_the_hand_ends_on_a_discard_is_a_free_leave() -> None:
    t = alone_hand(seed=1)
    t.feed(io.Tuoguan(1, True))
    while t.machine.hand is not None and not claim_pause.ending(t.machine):
        t.run(0.05)
    assert claim_pause.ending(t.machine)  # over, its end held for the pause
    t.leave(1, escape=True)
    assert t.machine.seat_of(1) is not None and "settlement" not in t.kinds(1)
    t.run(TIMING.claim_pause)
    assert t.kinds(1)[-4:] == ["view", "settlement", "table", "unseated"]
    assert t.last(1, "unseated")["why"] == "left"
    assert not [w for w in t.durable if isinstance(w, io.AbortHand)]


def test_a_plain_leave_as_the_hand_ends_on_a_discard_is_hand_live() -> None:
    t = alone_hand(seed=1)
    t.feed(io.Tuoguan(1, True))
    while t.machine.hand is not None and not claim_pause.ending(t.machine):
        t.run(0.05)
    t.leave(1)
    assert t.frames[1][-1]["code"] == "hand_live"
