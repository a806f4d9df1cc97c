"""Who sits at the table: joining (a seat claim written first), confirming the next hand,
sockets opening and closing (the disconnect clock), 托管, leaving, bots filling seats (the
ready clocks between hands: :mod:`paiju.server.table.ready`). A part of
:class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing, io
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(), random.Random(1))
>>> _ = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> m.seats[0].name, m.seats[0].claiming  # sat down, the seat not durable yet
('ana', True)
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from paiju.server.rooms import bot_display_name, bot_for
from paiju.server.table import claim_pause, clocks, frames, hands, io, ready, settlement
from paiju.server.table.state import BOT_NAMES, PAUSED, SEATS, Player

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def join(m: TableMachine, event: io.Join) -> None:
    if m.seat_of(event.account) is not None:
        connect(m, event.account)
        return
    m.watchers.discard(event.account)  # a spectator who sits down watches no more
    if m.code is not None and m.live:
        m._error(event.account, "table_playing", "a hand is being played there: join when it ends")
        return
    free = next((i for i, p in enumerate(m.seats) if p is None), None)
    if free is None and m.code is not None:
        # at a table for friends a bot keeps a seat only until a friend comes for it
        free = next(
            (i for i, p in enumerate(m.seats) if p is not None and p.account is None),
            None,
        )
        if free is not None:
            m._displaced[event.account] = (free, m.seats[free])
    if free is None:
        m._error(event.account, "table_full", "the table is full")
        return
    if event.balance < m.room.min_balance:
        m._error(
            event.account,
            "too_few_points",
            f"this room needs {m.room.min_balance} points; you have {event.balance}",
        )
        return
    m.seats[free] = Player(
        event.name, account=event.account, connected=True, claiming=True,
        balance=event.balance,
    )  # fmt: skip
    m._write(io.ClaimSeat(event.account, m.id))
    m._changed()


def seat_durable(m: TableMachine, account: int, balance: object) -> None:
    found = m.sitting(account)
    if found is None:
        return
    seat, p = found
    p.claiming = False
    if isinstance(balance, int) and not isinstance(balance, bool):
        # the balance as the seat was taken: a hand elsewhere may have moved it since the
        # join read it (an escape there, its penalty written before its seat was freed)
        p.balance = balance
        if balance < m.room.min_balance:
            unseat(m, account, "too_few_points")
            return
    m._displaced.pop(account, None)
    log.info(
        "table %s: account %s seated",
        m.id,
        account,
        extra={"event": "seat", "table": m.id, "account": account, "seat": SEATS[seat]},
    )
    m._send(account, frames.seated_frame(m, seat))
    ready.arm_ready(m, account)
    ready.seat_clocks(m)
    frames.broadcast_table(m)
    arm_fill(m)


def connect(m: TableMachine, account: int) -> None:
    found = m.sitting(account)
    if found is None:
        m._error(account, "not_seated", "you do not sit at this table")
        return
    seat, p = found
    p.connected = True
    p.unreached_since = None
    m._cancel(f"away:{account}")
    m._cancel(f"reach:{account}")
    if p.left_at is not None:
        if m.live:
            p.away += m._now - p.left_at
        p.left_at = None
    if p.claiming:
        return  # `seated` follows when the seat is durable
    send_table(m, account, seat)


def resend(m: TableMachine, account: int) -> None:
    """The table as it stands, again, to a player whose frames may have been lost."""
    found = m.sitting(account)
    if found is not None and found[1].connected and not found[1].claiming:
        send_table(m, account, found[0])


def send_table(m: TableMachine, account: int, seat: int) -> None:
    """Everything a player at ``seat`` may see now: the seat, the table, the hand so far
    (or the last settlement)."""
    m._send(account, frames.seated_frame(m, seat))
    if m._paused:
        m._send(account, PAUSED, hold=False)
    frames.broadcast_table(m)
    hand = m.hand
    if hand is not None and hand.id is not None:
        m._send(account, frames.hand_start_frame(m, seat))
        m._shown.pop(seat, None)
        frames.send_view(m, seat, [], force=True, catch_up=True)
    elif not m.live:
        for frame in m._keep.get(account, []):
            # a settlement not yet shown: its reading bound starts once it reaches them
            token = m._reading.get(account, 0) if frame.get("type") == "settlement" else 0
            m._send(account, frame, ack=0 if account in m._read_bound else token)


def disconnect(m: TableMachine, account: int) -> None:
    found = m.sitting(account)
    if found is None:
        return
    seat, p = found
    p.connected = False
    if p.suspended and m.live:  # 托管 plays on; no away clock, no escape
        frames.broadcast_table(m)
        return
    if m.live:
        p.left_at = m._now
        wait = max(0.0, m.timing.disconnect - p.away)
        hand = m.hand
        turn = None if hand is None else hand.turns.get(seat)
        if turn is not None and turn.deadline is None and not m._paused:
            # a turn not yet shown runs out while its player is away, as one shown does
            turn.deadline = m._now + m.timing.turn
            clocks.arm_turn(m)
    else:
        wait = m.timing.ready
    m._set(f"away:{account}", wait)
    frames.broadcast_table(m)


def unreached(m: TableMachine, account: int, window: float = 0.0) -> None:
    """Their socket cannot be reached (the house's fault): their turn's clock stops, and
    the turn waits, uncounted, for as long as a player may be away; then it runs out,
    uncounted (:func:`~paiju.server.table.clocks.schedule`). No disconnect clock runs: it is
    never an escape. A frame shown to them, or their connecting, reaches them again."""
    found = m.sitting(account)
    if found is None or not found[1].connected:
        return
    seat, p = found
    # counted while the house had not yet found them cut off: not theirs
    since = m._now - max(window, m.timing.cut_off_window)
    theirs = [t for t in p.counted if t < since]
    p.timeouts = max(0, p.timeouts - (len(p.counted) - len(theirs)))
    p.counted[:] = theirs
    if not p.reached:
        return
    p.unreached_since = m._now
    hand = m.hand
    turn = None if hand is None else hand.turns.get(seat)
    if turn is not None and not turn.key[2]:
        turn.deadline = None  # shown or not, this turn's clock stands while they are cut off
        turn.counted = False
    if hand is not None and hand.id is not None:
        clocks.schedule(m)


def tuoguan(m: TableMachine, seat: int, on: bool) -> None:
    p, account = m.person(seat)
    if p.tuoguan != on:
        # durable like a step: a restart or a take-over plays the seat as it was left
        m._write(io.SetTuoguan(account, m.id, on))
    p.tuoguan = on
    if not on:
        p.timeouts = 0
    frames.broadcast_table(m)
    if m.hand is not None and m.hand.id is not None:
        clocks.schedule(m)
        if not m.game.is_over(claim_pause.shown_state(m, seat)):
            frames.send_view(m, seat, [], force=True)  # the count of timeouts it shows


def suspend(m: TableMachine, account: int) -> None:
    """An admin suspended ``account`` (idempotent): between hands it is unseated; in a live
    hand 托管 plays its seat to the end, its away clock is stopped, and it is unseated (free,
    as anyone who does not confirm the next hand) once the hand is over."""
    found = m.sitting(account)
    if found is None:
        return
    seat, p = found
    p.suspended = True
    m._cancel(f"away:{account}")
    if not m.live:
        unseat(m, account, "left")
        return
    p.left_at = None
    if not p.tuoguan:
        tuoguan(m, seat, True)


def leave(m: TableMachine, seat: int, escape: bool) -> None:
    _, account = m.person(seat)
    if not m.live:
        unseat(m, account, "left")
    elif claim_pause.ending(m):
        # the hand is over, its end not shown yet: an escape is a leave once it is; a plain
        # leave waits for the settlement like any leave during a hand (nothing to confirm)
        assert m.hand is not None
        if escape:
            m.hand.leaving.append(account)
        else:
            m._error(account, "hand_live", "the hand is over: its settlement is a moment away")
    elif escape:
        settlement.escape(m, seat, "left")
    else:
        # sent before the player knew the hand had begun (a second tap on Ready lands on
        # Leave as the hand starts): an escape is only ever what they confirmed
        penalty = sum(a for _, _, a in settlement.penalty(m, seat))
        m._error(
            account,
            "escape_unconfirmed",
            f"the hand has begun, so you are still at the table: leaving now is an "
            f"escape ({penalty} points); confirm it to leave (a leave with escape: true)",
        )


def vacate(m: TableMachine, account: int, seat: int) -> None:
    """The person at ``seat`` is gone, or never sat (a claim that failed): a bot that
    gave the seat up for them sits down again, else the seat is empty."""
    back = m._displaced.pop(account, (seat, None))
    m.seats[seat] = back[1] if back[0] == seat else None


def unseat(m: TableMachine, account: int, why: str) -> None:
    """Free a seat (no hand is live): the seat's release is written, the player told."""
    seat = m.seat_of(account)
    if seat is None:
        return
    vacate(m, account, seat)
    m._cancel(f"ready:{account}")
    m._cancel(f"away:{account}")
    m._ready_deadline.pop(account, None)
    m._keep.pop(account, None)
    ready.stop_reading(m, account)
    m._write(io.ReleaseSeat(account, m.id))
    log.info(
        "table %s: account %s unseated (%s)",
        m.id,
        account,
        why,
        extra={"event": "unseat", "table": m.id, "account": account, "why": why},
    )
    m._send(account, {"type": "unseated", "why": why})
    m._changed()  # the hub sends this account's next join elsewhere, not back here
    ready.seat_clocks(m)
    frames.broadcast_table(m)
    if m.accounts:
        arm_fill(m)
    else:
        m.seats[:] = (None, None, None, None)  # the bots leave with the last person
        m._cancel("fill")


def maybe_empty(m: TableMachine) -> None:
    if m.idle_and_empty and not m.live:
        m._out.append(io.Empty())


def arm_fill(m: TableMachine) -> None:
    if m._paused or not m.room.bots or m.live or not m.accounts:
        return
    if m.code is not None:
        return  # a private table waits for friends: bots sit when a player asks
    if all(p is not None for p in m.seats):
        return
    if any(p is not None and p.claiming for p in m.seats):
        return
    m._set("fill", 0.0 if m.alone else m.timing.bot_wait)


def fill_asked(m: TableMachine, account: int) -> None:
    if m.code is None:
        m._error(account, "not_private", "bots fill this table by themselves")
    elif m.live:
        m._error(account, "hand_live", "the hand is being played")
    elif not m.room.bots:
        m._error(account, "no_bots", "bots do not play in this room")
    elif any(p is not None and p.claiming for p in m.seats):
        m._error(account, "seat_pending", "a player is taking a seat; try again")
    else:
        fill_bots(m)


def fill_bots(m: TableMachine) -> None:
    if m.live or not m.accounts:
        return
    bot = bot_for(m.game.name, m.level)
    for i, p in enumerate(m.seats):
        if p is None:
            name = bot_display_name(BOT_NAMES[i], m.level)
            m.seats[i] = Player(name, level=m.level, bot=bot, confirmed=True)
    ready.seat_clocks(m)
    frames.broadcast_table(m)
    hands.maybe_start(m)
