"""Showing a change, and the claim pause (§5 end): after every discard each seat
that cannot claim is shown the same thing for :attr:`~paiju.server.table.state.Timing.claim_pause`
whether or not another seat can claim: the discard done and a window open to nobody. Until
the pause is over a seat answering a window sees its prompt, every other seat only the pause
(what follows is held for it), and nobody's turn starts. A part of
:class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> holding(TableMachine(1, room, Timing(), random.Random(1)))
False
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import orjson

from paiju.server.table import clocks, frames, seating, settlement, spectate
from paiju.server.table.state import Hand

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def after_change(
    m: TableMachine, events: list[Any], pause: tuple[Any, list[Any]] | None = None
) -> None:
    """Show a change: each person's seat its view and the events as it may see them.

    **The claim pause** (§5 end): after a discard every seat that cannot claim is
    shown the same thing for :attr:`Timing.claim_pause`, whether or not another seat
    can claim: the discard done and a window open to nobody (``pause``, from
    :meth:`Game.settling`; a real window looks the same to a seat without options).
    Until the pause is over, a seat is shown the window's prompt while it is answering
    one, and otherwise only the pause: what follows (its own answer, the window's
    outcome, the next draw, the hand's end) is held for it, and nobody's turn starts;
    bots answer within the pause, so a pass leaves no trace."""
    hand = m.hand
    assert hand is not None
    shown: dict[int, list[dict[str, Any]]] = {}
    if pause is not None:
        hand.settling = pause[0]
        hand.pausing = True  # the pause is shown even when it lasts no time at all
        hand.pause_began = m._now
        if m.timing.claim_pause > 0:
            m._set("settle", m.timing.claim_pause)
        n = len(pause[1])
        shown = log_events(m, hand, events[:n])  # the action itself: everyone sees it now
        events = events[n:]
    if hand.pausing:
        for i, seen in seen_by(m, events).items():
            if quiet(m, i):
                hand.held.setdefault(i, []).extend(seen)
            else:
                add_to_log(hand, i, seen)
                shown.setdefault(i, []).extend(seen)
        clocks.schedule(m)
        for i in range(4):  # a seat not answering the window: the pause's view
            frames.send_view(m, i, shown.get(i, []))
        spectate.changed(m)
        if m.timing.claim_pause <= 0:
            pause_over(m)
        return
    for i, seen in log_events(m, hand, events).items():
        shown.setdefault(i, []).extend(seen)
    clocks.schedule(m)
    if m.game.is_over(hand.state):
        settlement.settle(m, shown)
        return
    for i in range(4):
        frames.send_view(m, i, shown.get(i, []))
    spectate.changed(m)


def pause_over(m: TableMachine) -> None:
    """The claim pause is over: every seat is shown what was held for it, and the next
    turn starts (a window a person is still answering goes on as it would have)."""
    hand = m.hand
    if hand is None or hand.id is None or not hand.pausing:
        return
    hand.pausing = False
    hand.last = None  # what is shown now follows the pause, not anyone's own action
    shown = release_held_events(m, hand)
    if m.game.is_over(hand.state):
        settlement.settle(m, shown)
        for account in hand.leaving:  # an escape asked as the hand ended: a leave now
            seating.unseat(m, account, "left")
        return
    clocks.schedule(m)
    for i in range(4):
        frames.send_view(m, i, shown.get(i, []))
    spectate.changed(m)


def ending(m: TableMachine) -> bool:
    """True while a hand that is over waits for the claim pause to show its end."""
    hand = m.hand
    return hand is not None and hand.id is not None and m.game.is_over(hand.state)


def shown_state(m: TableMachine, seat: int) -> Any:
    """The state the seat is shown: during the claim pause, unless it is answering the
    window, the pause's."""
    hand = m.hand
    assert hand is not None
    return hand.settling if quiet(m, seat) else hand.state


def quiet(m: TableMachine, seat: int) -> bool:
    """True while the claim pause shows this seat only the pause (it is not answering a
    window)."""
    hand = m.hand
    if hand is None or not hand.pausing:
        return False
    state = hand.state
    return not (seat in m._movers() and m.game.is_prompt(state, m.game.seats[seat]))


def holding(m: TableMachine) -> bool:
    """True while the claim pause holds the table: no window is being answered, and
    nobody's turn may start until the pause is over."""
    hand = m.hand
    return hand is not None and hand.pausing and not window_open(m)


def window_open(m: TableMachine) -> bool:
    """True while seats are answering a claim window."""
    hand = m.hand
    assert hand is not None
    state, seats = hand.state, m.game.seats
    return any(m.game.is_prompt(state, seats[s]) for s in m._movers())


def seen_by(m: TableMachine, events: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """Each person's seat's ``events`` as that seat may see them."""
    return {
        i: frames.events_json(events, m.game.seats[i])
        for i, p in enumerate(m.seats)
        if p is not None and p.account is not None
    }


def release_held_events(m: TableMachine, hand: Hand) -> dict[int, list[dict[str, Any]]]:
    """The events held by the claim pause, now added to each seat's log of the hand."""
    held, hand.held = hand.held, {}
    for i, seen in held.items():
        add_to_log(hand, i, seen)
    return held


def log_events(m: TableMachine, hand: Hand, events: list[Any]) -> dict[int, list[dict[str, Any]]]:
    """Each person's seat's ``events`` as that seat may see them, added to its log of the
    hand; returned, so the views sent next carry them without working them out again."""
    shown = seen_by(m, events)
    for i, seen in shown.items():
        add_to_log(hand, i, seen)
    return shown


def add_to_log(hand: Hand, seat: int, seen: list[dict[str, Any]]) -> None:
    if seen:
        log = hand.logs.setdefault(seat, bytearray())
        if log:
            log += b","
        log += orjson.dumps(seen)[1:-1]
