"""The table's writes and the storage's answers: a write not durable within
:attr:`~paiju.server.table.state.Timing.stall` pauses the table as a failed one does (storage
that stalls is storage that is down); the frames a write causes are held until it and every
write before it are durable; when the storage answers again the table resumes with fresh
clocks. A part of :class:`~paiju.server.table.machine.TableMachine` (not an API of its own).

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing, io
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(stall=2.0), random.Random(1), alone=True)
>>> _ = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> [o.frame for o in m.handle(io.TimerFired("stall", 1), now=2.0)]  # still unanswered
[{'type': 'paused', 'why': 'storage'}]
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from paiju.server.table import (
    claim_pause,
    clocks,
    frames,
    hands,
    io,
    ready,
    seating,
    settlement,
    spectate,
)
from paiju.server.table.state import PAUSED

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def stall_check(m: TableMachine) -> None:
    """The stall clock: a write not durable within :attr:`Timing.stall` pauses the table
    as a failed one does (storage that stalls is storage that is down); otherwise the
    clock is set again for the oldest write still waiting."""
    oldest = next(iter(m._issued.values()), None)
    if oldest is None or m._paused:
        return
    waited = m._now - oldest
    if waited >= m.timing.stall - 1e-9:
        log.warning(
            "table %s: a write has waited %.1f s; pausing",
            m.id,
            waited,
            extra={"event": "pause", "table": m.id},
        )
        pause(m)
    else:
        m._set("stall", m.timing.stall - waited)


def _answered(m: TableMachine, op: int) -> io.Write | None:
    """The write ``op`` answered (durable, or refused for good), once; None if it was."""
    write = m._pending.pop(op, None)
    if write is not None:
        del m._issued[op]
        m._durable = max(m._durable, op)
    return write


def stored(m: TableMachine, event: io.Stored) -> None:
    write = _answered(m, event.op)
    if write is None:
        return
    if isinstance(write, io.ClaimSeat):
        seating.seat_durable(m, write.account, event.result)
    elif isinstance(write, io.StartHand):
        hands.hand_durable(m, int(event.result))
    if m._paused and not m._pending:
        resume(m)
    seating.maybe_empty(m)


def trouble(m: TableMachine, event: io.Trouble) -> None:
    if event.op in m._pending and not m._paused:
        log.warning(
            "table %s: storage trouble (%s); pausing",
            m.id,
            event.error,
            extra={"event": "pause", "table": m.id},
        )
        pause(m)


def pause(m: TableMachine) -> None:
    """The storage is down (a write failed, or has waited too long): every clock stops
    and new requests wait until every write is durable (:meth:`_resume`)."""
    m._paused = True
    m._cancel("turn")
    m._cancel("bot")
    m._cancel("fill")
    m._cancel("stall")
    m._cancel("settle")
    for acc in m.accounts:
        m._cancel(f"ready:{acc}")
        m._cancel(f"read:{acc}")  # a settlement's reading bound starts again on resuming
        m._cancel(f"away:{acc}")  # the time away stops counting too (:meth:`_resume`)
        p = m._player(acc)
        if p.left_at is not None and m.live:
            p.away += m._now - p.left_at
            p.left_at = None
        m._send(acc, PAUSED, hold=False)


def failed(m: TableMachine, event: io.Failed) -> None:
    write = _answered(m, event.op)
    if write is None:
        return
    if event.code == "seat_taken" and isinstance(write, io.ClaimSeat):
        seat = m.seat_of(write.account)
        if seat is not None:
            seating.vacate(m, write.account, seat)
            ready.seat_clocks(m)  # a seat is empty again: the clocks stand, bots may come
            frames.broadcast_table(m)
            seating.arm_fill(m)
        m._error(write.account, "already_seated", "you sit at another table already")
        m._changed()
        seating.maybe_empty(m)
        return
    log.warning(
        "table %s: %s on %s; letting the table go",
        m.id,
        event.code,
        write,
        extra={"event": "table_lost", "table": m.id},
    )
    m.lost = True
    m._held.clear()
    m._out.append(io.Lost())


def resume(m: TableMachine) -> None:
    m._paused = False
    for acc in m.accounts:
        m._send(acc, {"type": "resumed"}, hold=False)
        p = m._player(acc)
        if acc in m._read_bound and not m.live:  # reading the settlement: its bound, afresh
            m._set(f"read:{acc}", m.timing.reading)
        elif not m.live and not p.confirmed and not p.claiming and acc not in m._reading:
            ready.arm_ready(m, acc)
        if not p.connected and not p.claiming:  # away: their clock goes on from here
            if m.live:
                p.left_at = m._now
                m._set(f"away:{acc}", max(0.0, m.timing.disconnect - p.away))
            else:
                m._set(f"away:{acc}", m.timing.ready)
    hand = m.hand
    if hand is not None and hand.id is not None:
        # fresh clocks after a pause, each from the view that shows it again; a claim
        # pause the storage's outlasted is over
        hand.turns.clear()
        if hand.pausing:
            hand.pausing = False
            hand.last = None
        shown = claim_pause.release_held_events(m, hand)
        if m.game.is_over(hand.state):  # its end was waiting for the claim pause
            settlement.settle(m, shown)
        else:
            clocks.schedule(m)
            for i in range(4):
                frames.send_view(m, i, shown.get(i, []), force=True)
            spectate.changed(m)
    seating.arm_fill(m)
    deferred = m._deferred[:]
    m._deferred.clear()
    for event in deferred:
        m._dispatch(event)


def release_frames(m: TableMachine) -> None:
    """Send the held frames whose writes are all durable."""
    if not m._held:
        return
    keep: list[tuple[int, io.Send]] = []
    for op, send in m._held:
        if op <= m._durable and not any(p <= op for p in m._pending):
            m._out.append(send)
        else:
            keep.append((op, send))
    m._held[:] = keep  # the same list: a new one would be new to the collector
