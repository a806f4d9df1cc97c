"""Money at the end of a hand: the settlement (every payment through the ledger's
movements, balances never below zero), passing the deal, unseating the broke, and the escape
and its penalty. A part of :class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(), random.Random(1))
>>> apply_moves(m, [])  # nobody seated: nothing to move
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from paiju.games import Deal
from paiju.server.money import HOUSE, escape_penalty, settle_hand
from paiju.server.table import frames, io, ready, seating, spectate
from paiju.server.table.state import HOUSE_FUNDS, SEATS

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def apply_moves(m: TableMachine, moves: list[tuple[int | str, int | str, int]]) -> None:
    for payer, payee, amount in moves:
        for key, delta in ((payer, -amount), (payee, amount)):
            if key != HOUSE and m.seat_of(int(key)) is not None:
                m._player(key).balance += delta


def settle(m: TableMachine, shown: dict[int, list[dict[str, Any]]]) -> None:
    hand = m.hand
    assert hand is not None and hand.id is not None
    state = hand.state
    payments = [
        (m._account_key(t.payer), m._account_key(t.payee), round(t.units * hand.stake))
        for t in m.game.transfers(state)
    ]
    payments = [(a, b, x) for a, b, x in payments if a != b and x > 0]
    balances: dict[int | str, int] = {HOUSE: HOUSE_FUNDS}
    for p in m.seats:
        if p is not None and p.account is not None:
            balances[p.account] = p.balance
    moves = settle_hand(balances, payments)
    apply_moves(m, moves)
    result = m.game.result_json(state)
    m._write(io.CloseHand(hand.id, result, moves))
    log.info(
        "table %s: hand %s settled",
        m.id,
        hand.id,
        extra={"event": "settle", "table": m.id, "hand": hand.id, "stake": hand.stake},
    )
    m._cancel("turn")
    m._cancel("bot")
    names = m._names()
    for i, p in enumerate(m.seats):
        if p is None or p.account is None:
            continue
        view = frames.view_frame(m, i, shown.get(i, []))
        change = p.balance - hand.start_balances.get(p.account, p.balance)
        settlement = {
            "type": "settlement",
            "hand": hand.id,
            "stake": hand.stake,
            "fee": hand.stake,
            "result": result,
            "moves": frames.moves_json(hand.fee_moves, "fee", names)
            + frames.moves_json(moves, "hand", names),
            "balance": p.balance,
            "balance_change": change,
            "ready_seconds": m.timing.ready,
            "reading_seconds": m.timing.reading,
        }
        m._send(p.account, view)
        # the ready clock waits for the page to show the settlement whole (settlement_shown),
        # at most Timing.reading once this frame has reached it (its ack: Delivered)
        m._token += 1
        m._reading[p.account] = m._token
        m._send(p.account, settlement, ack=m._token)
        # a page that comes back before the next hand gets the hand's whole log with it
        m._keep[p.account] = [frames.view_frame(m, i, [], catch_up=True), settlement]
    end_hand(m, state)


def end_hand(m: TableMachine, final: Any) -> None:
    """Between hands: pass the deal or the bank, unseat the broke, start the ready
    clocks."""
    _close(m, final)
    deal = m.game.next_deal(Deal(0, (0, 1, 2, 3), m.setup), final)
    m.seats[:] = [m.seats[deal.player_in(i)] for i in range(4)]
    m.setup = dict(deal.setup)
    for p in list(m.seats):
        if p is None or p.account is None:
            continue
        if p.balance < m.room.min_balance:
            seating.unseat(m, p.account, "too_few_points")
        elif p.suspended:  # an admin suspended them during the hand: freed now, free
            seating.unseat(m, p.account, "left")
        else:
            if p.tuoguan:
                # 托管 plays the seat: nobody reads for it, its ready clock starts at once
                # (it does not confirm: §10 lets bots alone confirm by themselves)
                ready.stop_reading(m, p.account)
            if p.account not in m._reading:
                ready.arm_ready(m, p.account)
            if not p.connected:
                m._set(f"away:{p.account}", m.timing.ready)
    frames.broadcast_table(m)
    m._changed()


def penalty(m: TableMachine, seat: int) -> list[tuple[int | str, int | str, int]]:
    """What the seat's escape from the live hand would move (rules §10)."""
    hand = m.hand
    p = m.seats[seat]
    assert hand is not None and p is not None and p.account is not None
    others = [m._account_key(i) for i in range(4) if i != seat]
    return escape_penalty(p.account, others, p.balance, hand.stake, m.room.escape_multiple)


def escape(m: TableMachine, seat: int, why: str) -> None:
    hand = m.hand
    p = m.seats[seat]
    assert hand is not None and hand.id is not None and p is not None
    assert p.account is not None
    moves = penalty(m, seat)
    apply_moves(m, moves)
    reason = {"aborted": "escape", "escaper": SEATS[seat], "why": why}
    m._write(io.AbortHand(hand.id, reason, moves, p.account))
    log.info(
        "table %s: hand %s ended by an escape (%s)",
        m.id,
        hand.id,
        why,
        extra={"event": "escape", "table": m.id, "hand": hand.id, "account": p.account},
    )
    names = m._names()
    frame = {
        "type": "escape",
        "hand": hand.id,
        "seat": SEATS[seat],
        "name": p.name,
        "why": why,
        "stake": hand.stake,
        "penalty": sum(a for _, _, a in moves),
        "moves": frames.moves_json(moves, "escape", names),
    }
    for q in m.seats:
        if q is not None and q.account is not None:
            m._send(q.account, {**frame, "balance": q.balance})
    m._cancel("turn")
    m._cancel("bot")
    m._cancel("settle")
    _close(m, None)
    escaper = p.account
    seating.unseat(m, escaper, "escape")
    for q in m.seats:
        if q is not None and q.account is not None:
            q.confirmed = False
            ready.arm_ready(m, q.account)
            if not q.connected:
                m._set(f"away:{q.account}", m.timing.ready)
    frames.broadcast_table(m)
    m._changed()


def _close(m: TableMachine, final: Any) -> None:
    """The hand is over (``final``: its last state; ``None``: it was cut short): the table
    is idle, what was shown of it is forgotten, the spectators are shown its end."""
    m.hand = None
    m.phase = "idle"
    m._shown.clear()
    m._blocks.clear()
    m._block_json.clear()
    spectate.hand_over(m, final)
