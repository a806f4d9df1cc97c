"""Bots and hints (:mod:`paiju.server.table.bots`): bots take the empty seats (at once at a
table of one's own), decide after a think time, and a decision is played only if its turn
is still the one it was asked for; 托管 plays a person's seat with the normal level's bot;
a hint is that bot's choice, given only to a player alone with bots
(docs/rules-decisions.md, "托管 stays with the seat")."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.bots import think
from paiju.server.rooms import Room
from paiju.server.table import TableMachine, bots, io
from tests.server.table.helpers import (
    TIMING,
    Table,
    action_text,
    alone_hand,
    bare,
    of,
    sends,
    timers,
)


def asked_after_your_discard(seed: int = 4) -> tuple[Table, io.Decide]:
    """ana discards; a bot is asked to answer the window (its decision held)."""
    t = alone_hand(seed=seed)
    t.until(1)
    t.hold_bots = True
    t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
    t.run(TIMING.claim_pause * 0.5)
    assert len(t.asked) == 1
    return t, t.asked[0]


def test_a_table_of_ones_own_is_filled_at_once_with_confirmed_bots() -> None:
    t = Table(alone=True)
    t.join(1, "ana")
    assert timers(t.outputs, "fill") == [0.0] and t.machine.seats[1:] == [None, None, None]
    t.run(0.0)
    seated = t.machine.seats[1:]
    assert [(p.name, p.bot, p.level, p.confirmed) for p in seated if p is not None] == [
        ("夏雨（中級）", "strong", "normal", True),
        ("秋月（中級）", "strong", "normal", True),
        ("冬雪（中級）", "strong", "normal", True),
    ]


def test_a_bots_turn_waits_a_think_time_then_asks_for_its_decision() -> None:
    t = alone_hand(seed=4)
    t.until(1)
    mark = t.mark()
    t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
    (delay,) = timers(t.since(mark), "bot")
    # a window's answer: a set share of the pause, whatever the bot holds
    assert delay == bots.WINDOW_ANSWER * TIMING.claim_pause
    t.feed(io.Tuoguan(1, True))
    t.run(TIMING.claim_pause)  # the pause over: the next turns, each after a think time
    t.run(30 * TIMING.bot_delay)
    delays = timers(t.outputs[mark:], "bot")[1:]
    longest = min(think.LONGEST * TIMING.bot_delay, think.TURN_SHARE * TIMING.turn)
    own = [d for d in delays if d != bots.WINDOW_ANSWER * TIMING.claim_pause]
    assert len(own) >= 5 and all(0 < d <= longest for d in own)
    assert len(set(own)) == len(own)  # drawn, not set


def test_a_windows_answer_is_not_pushed_back_by_what_happens_during_the_pause() -> None:
    """A change during the pause (托管 switched, a person's pass) schedules the turns again;
    the bots' answer still comes :data:`~paiju.server.table.bots.WINDOW_ANSWER` of the pause
    after it began, never later (else a late change would show that a bot holds a prompt:
    the pause would outlast its length only then)."""
    t = alone_hand(seed=4)
    t.until(1)
    t.act(1, action_text(t.last_view(1)["view"]["legal"][-1]))
    due = bots.WINDOW_ANSWER * TIMING.claim_pause
    t.run(0.75 * due)  # before the answer
    mark = t.mark()
    t.feed(io.Tuoguan(1, True))
    t.feed(io.Tuoguan(1, False))
    again = timers(t.since(mark), "bot")
    assert again and all(d == pytest.approx(0.25 * due) for d in again)


def test_the_think_times_are_the_same_for_the_same_seed() -> None:
    """The think stream is the machine's own (seeded): a table played again from the same
    seed waits the same times."""

    def delays(seed: int) -> list[float]:
        t = alone_hand(seed=seed)
        t.feed(io.Tuoguan(1, True))
        t.run(100 * TIMING.bot_delay)
        return timers(t.outputs, "bot")

    first = delays(4)
    assert len(first) > 10 and delays(4) == first and delays(5) != first


def test_a_forced_move_is_quicker_than_a_close_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a few hands of 托管, the think time of the decisions on a seat's own turn
    grows with how hard each looks from the seat (:func:`paiju.bots.think.hardness`): the
    median of the easiest third well below that of the hardest third."""
    seen: list[tuple[float, float]] = []  # (hardness, think time)
    asked = bots.think_time

    def recorded(m: TableMachine, seats: list[int]) -> float:
        delay = asked(m, seats)
        hand = m.hand
        assert hand is not None
        if len(seats) == 1 and not m.game.is_prompt(hand.state, m.game.seats[seats[0]]):
            seat = m.game.seats[seats[0]]
            view = m.game.observe(hand.state, seat)
            legal = m.game.legal_actions(hand.state, seat)
            seen.append((think.hardness(m.game.name, view, legal), delay))
        return delay

    monkeypatch.setattr(bots, "think_time", recorded)
    for seed in (4, 5, 6):
        t = alone_hand(seed=seed)
        t.feed(io.Tuoguan(1, True))
        t.run(200 * TIMING.bot_delay)
    seen.sort()
    third = len(seen) // 3
    easy = sorted(d for _h, d in seen[:third])
    hard = sorted(d for _h, d in seen[-third:])
    assert third >= 15, len(seen)
    assert seen[0][0] == 0.0 and seen[-1][0] > 0.5
    assert 2 * easy[len(easy) // 2] < hard[len(hard) // 2]


def test_a_bot_decides_from_the_view_its_think_time_was_judged_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a bot's own turn the view judged for its think time is the one it decides from
    (built once for the state), and a decision asked after the state changed is made from
    a view of the state now."""
    t = alone_hand(seed=4)
    m = t.machine
    built: list[tuple[Any, int]] = []  # (state, seat) of each bot seat's view built
    observe = m.game.observe

    def counted(state: Any, seat: Any) -> Any:
        if m.game.seats.index(seat) != 0:  # not the person's frames
            built.append((state, m.game.seats.index(seat)))
        return observe(state, seat)

    monkeypatch.setattr(m.game, "observe", counted)
    t.feed(io.Tuoguan(1, True))  # ana's seat played too: the hand goes on
    mark = t.mark()
    t.run(60 * TIMING.bot_delay)
    decided = [o for o in t.since(mark) if isinstance(o, io.Decide)]
    assert len(decided) >= 10
    pairs = [(id(state), seat) for state, seat in built]
    assert len(pairs) == len(set(pairs))  # no seat's view of a state built twice
    hand = m.hand
    assert hand is not None
    hand.judged[2] = (object(), "a stale view", ())  # judged from a state since replaced
    assert bots._view_and_legal(m, 2)[0] != "a stale view"
    assert 2 not in hand.judged


def test_a_decision_is_played_only_for_the_turn_it_was_asked_for() -> None:
    t, decide = asked_after_your_discard()
    assert decide.seat == 3 and [str(a) for a in decide.legal] == ["N peng", "N pass"]
    hand = t.machine.hand
    assert hand is not None
    seq = hand.seq
    late = t.machine.handle(io.BotMove(decide.seat, decide.token - 1, decide.legal[-1]), t.now)
    assert late == [] and hand.seq == seq
    t.feed(io.BotMove(decide.seat, decide.token, decide.legal[-1]))
    assert hand.seq == seq + 1
    assert [o.write for o in of(io.Store, t.outputs)][-1] == io.Step(101, seq + 1, "N pass")


def test_tuoguan_plays_with_the_normal_bot_whatever_the_tables_bots() -> None:
    t = Table(alone=True, seed=4)
    t.machine.level = "easy"  # a table of one's own at the easy level
    t.join(1, "ana")
    t.ready(1)
    t.run(1.0)
    t.hold_bots = True
    t.feed(io.Tuoguan(1, True))
    t.run(think.LONGEST * TIMING.bot_delay)
    (decide,) = t.asked
    assert decide.seat == 0 and decide.bot.name == "strong"
    hand = t.machine.hand
    assert hand is not None and {b.name for b in hand.bots[1:]} == {"greedy"}


def test_switching_tuoguan_off_drops_the_decision_on_its_way() -> None:
    t = alone_hand(seed=4)
    t.hold_bots = True
    t.feed(io.Tuoguan(1, True))
    t.run(think.LONGEST * TIMING.bot_delay)
    (decide,) = t.asked
    t.feed(io.Tuoguan(1, False))
    hand = t.machine.hand
    assert hand is not None
    seq = hand.seq
    assert t.machine.handle(io.BotMove(0, decide.token, decide.legal[0]), t.now) == []
    assert hand.seq == seq and t.my_move(1)


def test_a_hint_is_the_normal_bots_choice_and_changes_nothing() -> None:
    t = alone_hand(seed=4)
    t.until(1)
    hand = t.machine.hand
    assert hand is not None
    version = t.last_view(1)["version"]
    seat = t.machine.game.seats[0]
    want = bots.helper_bot(t.machine).act(
        t.machine.game.observe(hand.state, seat),
        t.machine.game.legal_actions(hand.state, seat),
        random.Random(hand.seed * 7919 + version * 4 + 0),  # the seat's own stream
    )
    assert bots.helper_bot(t.machine).name == "strong"
    t.feed(io.Hint(1, version))
    hint = t.frames[1][-1]
    assert hint == {"type": "hint", "version": version, "action": str(want)}
    t.feed(io.Hint(1, version))
    assert t.frames[1][-1] == hint and hand.seq == 0 and hand.hint_at == (0, version)


def test_no_bots_come_to_a_room_without_them() -> None:
    room = Room("people", "mazhan", "people only", 800, 400, bots=False)
    m = bare(room)
    out = m.handle(io.Join(1, "ana", 10_000), 0.0)
    shown = m.handle(io.Stored(of(io.Store, out)[0].op, 10_000), 0.1)
    assert timers(shown, "fill") == []
    private = bare(room, code="ABC234")
    out = private.handle(io.Join(1, "ana", 10_000), 0.0)
    private.handle(io.Stored(of(io.Store, out)[0].op, 10_000), 0.1)
    assert [f["code"] for f in sends(private.handle(io.Fill(1), 1.0), 1)] == ["no_bots"]
