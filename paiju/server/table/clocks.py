"""The table's clocks: its timers as they fire, each turn's clock (started when the frame
offering the turn reached its player, at once for a bot, 托管 or a player away), and a
turn's expiry (a timeout counted only for a turn shown; the fourth in a row an escape). A
part of :class:`~paiju.server.table.machine.TableMachine`.

>>> from paiju.server.table.state import Turn
>>> Turn(key=(3, False, False), token=1).deadline is None  # not shown yet: no clock
True
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from paiju.server.table import bots, claim_pause, hands, io, ready, seating, settlement, storage
from paiju.server.table.state import Turn

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def timer_fired(m: TableMachine, event: io.TimerFired) -> None:
    if m._tokens.get(event.key) != event.token:
        return  # cancelled or replaced
    del m._tokens[event.key]
    if m._paused:
        return
    if event.key == "stall":
        storage.stall_check(m)
    elif event.key == "turn":
        expire(m)
    elif event.key == "bot":
        bots.decide(m)
    elif event.key == "settle":
        claim_pause.pause_over(m)
    elif event.key == "fill":
        seating.fill_bots(m)
    elif event.key.startswith("read:"):  # a settlement shown long enough: the clock starts
        acc = int(event.key[5:])
        m._read_bound.discard(acc)
        ready.settlement_shown(m, acc)
    elif event.key.startswith("ready:"):
        acc = int(event.key[6:])
        found = m.sitting(acc)
        if found is not None and not found[1].confirmed and not m.live:
            seating.unseat(m, acc, "not_ready")
    elif event.key.startswith("reach:"):  # a player cut off long enough: played for
        if m.hand is not None and m.hand.id is not None:
            schedule(m)
    elif event.key.startswith("away:"):
        acc = int(event.key[5:])
        seat = m.seat_of(acc)
        if seat is not None:
            if claim_pause.ending(m):
                pass  # the hand is over: between hands they have the ready clock
            elif m.live:
                settlement.escape(m, seat, "disconnected")
            else:
                seating.unseat(m, acc, "not_ready")


def schedule(m: TableMachine) -> None:
    """The turns of the seats that must decide, and their clocks: bots and 托管 after a
    think time (:func:`~paiju.server.table.bots.think_time`), people on the turn clock,
    which starts when the frame offering the turn is shown to them (:meth:`_delivered`),
    or at once for a player away (their turn is played, not counted). A turn goes on while
    the seat's version, its being a prompt and its being played for stay the same (a claim
    window keeps each seat's clock until it closes; a change elsewhere at the table does
    not restart it)."""
    hand = m.hand
    assert hand is not None
    m._cancel("turn")
    m._cancel("bot")
    if m._paused or m.game.is_over(hand.state):
        hand.turns = {}
        return
    if claim_pause.holding(m):
        hand.turns = {}  # nobody's turn, no clock, while the claim pause holds
        return
    movers = m._movers()
    state, seats = hand.state, m.game.seats
    turns: dict[int, Turn] = {}
    for s in movers:
        key = (
            m.game.seat_version(state, seats[s]),
            m.game.is_prompt(state, seats[s]),
            m._auto(s),
        )
        turn = hand.turns.get(s)
        if turn is None or turn.key != key:
            m._token += 1
            turn = Turn(key, m._token)
        p = m.seats[s]
        if turn.deadline is None:
            if key[2] or p is None or not p.connected:
                turn.deadline = m._now + m.timing.turn
            elif p.unreached_since is not None and p.account is not None:
                # cut off by the house: the turn waits as long as an absent player may be away
                bound = p.unreached_since + m.timing.disconnect
                if bound <= m._now:
                    turn.deadline = m._now + m.timing.turn
                else:
                    m._set(f"reach:{p.account}", bound - m._now)
        turns[s] = turn
    hand.turns = turns
    waiting = [s for s, t in turns.items() if t.key[2] and not t.deciding]
    if waiting:  # the bots and 托管 decide together after a think time (bots.think_time)
        m._set("bot", bots.think_time(m, waiting))
    arm_turn(m)


def arm_turn(m: TableMachine) -> None:
    """The turn clock: set for the first person's turn to run out."""
    hand = m.hand
    assert hand is not None
    m._cancel("turn")
    due = [t.deadline for t in hand.turns.values() if not t.key[2] and t.deadline is not None]
    if due and not m._paused:
        m._set("turn", min(due) - m._now)


def delivered(m: TableMachine, event: io.Delivered) -> None:
    """The frame offering a turn reached its player: the turn's clock starts now, whole,
    and a player cut off is reached again (a frame offering a turn carries its mark while
    they are cut off, even once their turn has begun to run out uncounted)."""
    hand = m.hand
    found = m.sitting(event.account)
    if found is None or m._paused:
        return
    if hand is None:  # between hands: the settlement reached them
        ready.start_reading(m, event.account, event.ack)
        return
    seat, p = found
    turn = hand.turns.get(seat)
    if turn is None or turn.token != event.ack:
        return
    if turn.deadline is not None and p.reached:
        return  # its clock runs already
    turn.deadline = m._now + m.timing.turn
    turn.counted = True
    p.unreached_since = None
    m._cancel(f"reach:{event.account}")
    arm_turn(m)


def expire(m: TableMachine) -> None:
    """The turn clock ran out: pass a claim prompt (not counted), else play the clock's
    action and count a timeout; the 4th in a row is an escape. A seat whose player is
    away is played the same way but not counted: the disconnect clock (180 s) is theirs,
    so coming back within it resumes the hand as §10 promises (docs/rules-decisions.md)."""
    while True:
        hand = m.hand
        if hand is None or hand.id is None or m.game.is_over(hand.state):
            return
        late = [
            (s, t)
            for s, t in hand.turns.items()
            if not t.key[2] and t.deadline is not None and t.deadline <= m._now + 1e-6
        ]
        if not late:
            break
        seat, turn = late[0]
        seat_obj = m.game.seats[seat]
        if not m.game.is_prompt(hand.state, seat_obj):
            p = m.seats[seat]
            assert p is not None
            # only a turn the player was shown, and missed while here, is theirs to pay
            if p.connected and p.reached and turn.counted:
                p.timeouts += 1
                p.counted[:] = [*p.counted[-3:], m._now]
            if p.timeouts >= 4:
                settlement.escape(m, seat, "timeouts")
                return
        hands.apply_action(m, seat, m.game.timeout_action(hand.state, seat_obj))
    if "turn" not in m._tokens and "bot" not in m._tokens:
        schedule(m)


def left(m: TableMachine, turn: Turn) -> float:
    """The seconds left on a turn's clock (all of them until its frame is shown)."""
    if turn.deadline is None:
        return m.timing.turn
    return max(0.0, turn.deadline - m._now)
