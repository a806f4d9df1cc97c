"""Between hands: the reading wait and the ready clocks. After a settlement each player's
ready clock starts once their page has shown it whole (:func:`settlement_shown`), or
:attr:`~paiju.server.table.state.Timing.reading` after the settlement reached them
(:func:`start_reading`); the clocks of those who have not confirmed run while four sit at
the table and stand while a seat is empty (:func:`seat_clocks`). A part of
:class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing, io
>>> m = TableMachine(1, next(iter(ROOMS.values())), Timing(), random.Random(1))
>>> _ = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> seat_clocks(m); m._ready_deadline  # three seats empty: no ready clock runs
{}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paiju.server.table import frames, hands

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine


def ready(m: TableMachine, seat: int) -> None:
    p, account = m.person(seat)
    if m.live:
        m._error(account, "hand_live", "the hand is being played")
        return
    if p.claiming:
        return
    p.confirmed = True
    m._keep.pop(account, None)
    stop_reading(m, account)
    m._cancel(f"ready:{account}")
    m._ready_deadline.pop(account, None)
    frames.broadcast_table(m)
    hands.maybe_start(m)


def settlement_shown(m: TableMachine, account: int) -> None:
    """The player's page has shown the settlement whole (its reveal and the win's
    presentation done, or skipped): their ready clock starts now. Said again, or when no
    settlement waits (a hand is live, they confirmed already), it changes nothing.

    >>> import random
    >>> from paiju.server.rooms import ROOMS
    >>> from paiju.server.table import TableMachine, Timing
    >>> m = TableMachine(1, next(iter(ROOMS.values())), Timing(), random.Random(1))
    >>> m._reading[7] = 3  # a settlement waits for ana's page
    >>> settlement_shown(m, 7); m._reading
    {}
    """
    if account not in m._reading or m.live:
        return
    stop_reading(m, account)
    if m.seat_of(account) is not None:
        arm_ready(m, account)
        frames.broadcast_table(m)


def start_reading(m: TableMachine, account: int, ack: int) -> None:
    """The settlement (sent with ``ack``) reached the player: their page has at most
    :attr:`Timing.reading` to show it whole before their ready clock starts anyway."""
    if m._reading.get(account) != ack or account in m._read_bound or m.live:
        return
    m._read_bound.add(account)
    m._set(f"read:{account}", m.timing.reading)


def stop_reading(m: TableMachine, account: int) -> None:
    """The player reads no settlement any more (shown, confirmed, gone, a new hand)."""
    m._reading.pop(account, None)
    m._read_bound.discard(account)
    m._cancel(f"read:{account}")


def arm_ready(m: TableMachine, account: int) -> None:
    if any(p is None for p in m.seats):
        # a table waits for its players: its ready clocks start once four sit there
        m._ready_deadline.pop(account, None)
        m._cancel(f"ready:{account}")
        return
    m._ready_deadline[account] = m._now + m.timing.ready
    m._set(f"ready:{account}", m.timing.ready)


def seat_clocks(m: TableMachine) -> None:
    """Between hands: the ready clocks of those who have not confirmed run while four
    sit at the table (people or bots) and stand while a seat is empty, so that nobody is
    unseated for not confirming while the table waits for players."""
    if m.live:
        return
    full = all(p is not None for p in m.seats)
    for p in m.seats:
        if p is None or p.account is None or p.confirmed or p.claiming:
            continue
        if p.account in m._reading:
            continue  # their clock waits for the settlement to be shown
        if not full:
            m._ready_deadline.pop(p.account, None)
            m._cancel(f"ready:{p.account}")
        elif p.account not in m._ready_deadline:
            arm_ready(m, p.account)
