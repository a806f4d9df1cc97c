"""A hand's life at the table: starting it (the fee written with it), its becoming
durable, a player's action checked against the seat's version and the turn, an action
applied and written. A part of :class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing, io
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(), random.Random(1), alone=True)
>>> m.handle(io.Act(7, "E discard 1m", 0), now=0.0)[0].frame["code"]  # nobody sits there
'not_seated'
>>> _ = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> m.handle(io.Act(7, "E discard 1m", 0), now=0.0)[0].frame["code"]  # no hand yet
'no_hand'
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from paiju.bots.driver import bot_rng
from paiju.errors import RulesError
from paiju.server.money import stake_for, table_fees
from paiju.server.table import bots, claim_pause, frames, io, spectate
from paiju.server.table.state import SEATS, Hand

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

log = logging.getLogger("paiju.table")


def maybe_start(m: TableMachine) -> None:
    if m.live or m._paused or m.draining:
        return
    if any(p is None or p.claiming or not p.confirmed for p in m.seats):
        return
    people = [p for p in m.seats if p is not None and p.account is not None]
    if not people:
        return
    stake = stake_for([p.balance for p in people])
    seed = m._rng.getrandbits(63)
    state, dealt = m.game.deal(m.ruleset, seed, m.setup)
    balances = {p.account: p.balance for p in people if p.account is not None}
    fees = table_fees(balances, stake)
    for payer, _house, amount in fees:
        m._player(payer).balance -= amount
    seat_bots = bots.seat_bots(m)
    m.hands_started += 1
    m.hand = Hand(
        no=m.hands_started,
        seed=seed,
        stake=stake,
        state=state,
        bots=seat_bots,
        rngs=[bot_rng(seed, s) for s in m.game.seats],
        start_balances=balances,
        fee_moves=list(fees),
        dealt=dealt,
    )
    m.phase = "starting"
    for p in people:
        assert p.account is not None
        p.confirmed = False
        p.timeouts = 0
        p.away = 0.0
        p.left_at = None if p.connected else m._now
        m._cancel(f"ready:{p.account}")
        m._ready_deadline.pop(p.account, None)
        m._keep.pop(p.account, None)
        m._reading.pop(p.account, None)
        m._read_bound.discard(p.account)
        m._cancel(f"read:{p.account}")
        if not p.connected:  # away when the hand starts: the live hand's grace
            m._set(f"away:{p.account}", m.timing.disconnect)
    seats = {
        SEATS[i]: {"account": p.account, "name": p.name, "bot": p.bot, "level": p.level}
        for i, p in enumerate(m.seats)
        if p is not None
    }
    m._write(
        io.StartHand(
            m.id, m.hands_started, m.game.name, seed, m.ruleset.to_json(),
            m.game.setup_of(state), seats, stake, fees,
        )
    )  # fmt: skip
    m._changed()


def hand_durable(m: TableMachine, hand_id: int) -> None:
    hand = m.hand
    if hand is None:
        return
    hand.id = hand_id
    m.phase = "live"
    log.info(
        "table %s: hand %s started",
        m.id,
        hand_id,
        extra={"event": "hand_start", "table": m.id, "hand": hand_id, "accounts": m.accounts},
    )
    m._shown.clear()
    m._blocks.clear()
    m._block_json.clear()
    for i, p in enumerate(m.seats):
        if p is not None and p.account is not None:
            m._send(p.account, frames.hand_start_frame(m, i))
    frames.broadcast_table(m)
    spectate.hand_started(m)
    claim_pause.after_change(m, hand.dealt)
    hand.dealt = []
    deferred = m._deferred[:]
    m._deferred.clear()
    for event in deferred:
        m._dispatch(event)


def act(m: TableMachine, seat: int, event: io.Act) -> None:
    p = m.seats[seat]
    assert p is not None and p.account is not None
    if not at_version(m, p.account, seat, event.version):
        return
    seat_obj = m.game.seats[seat]
    try:
        action = m.game.parse_action(event.action)
    except RulesError as err:
        m._error(p.account, "bad_action", str(err)[:200])
        return
    if action.seat is not seat_obj:
        m._error(p.account, "not_your_turn", f"you sit in seat {seat_obj.value}")
        return
    if seat not in m._movers() or claim_pause.quiet(m, seat):
        # answered alike whether a window is open to others or the table settles
        m._error(p.account, "not_your_turn", f"{action}: it is not your turn now")
        return
    count, p.timeouts = p.timeouts, 0  # reset before the views go out: they show it
    if not apply_action(m, seat, action):
        p.timeouts = count


def at_version(m: TableMachine, account: int, seat: int, version: int) -> bool:
    """True when a hand is being played and ``version`` is the seat's view's; else the
    account is told (``no_hand``, ``stale_version``)."""
    hand = m.hand
    if hand is None or hand.id is None:
        m._error(account, "no_hand", "no hand is being played at this table")
        return False
    state = claim_pause.shown_state(m, seat)  # during the claim pause, the pause's
    if m.game.is_over(state):
        m._error(account, "no_hand", "no hand is being played at this table")
        return False
    want = m.game.seat_version(state, m.game.seats[seat])
    if version != want:
        m._error(account, "stale_version", f"the table is at version {want}, not {version}")
        return False
    return True


def apply_action(m: TableMachine, seat: int, action: Any) -> bool:
    hand = m.hand
    assert hand is not None and hand.id is not None
    try:
        state, events = m.game.apply(hand.state, action)
    except RulesError as err:
        p = m.seats[seat]
        if p is not None and p.account is not None:
            m._error(p.account, err.code, str(err)[:300])
        return False
    pause = m.game.settling(hand.state, action)
    hand.seq += 1
    hand.state = state
    hand.last = (seat, str(action))
    m._write(io.Step(hand.id, hand.seq, str(action)))
    claim_pause.after_change(m, events, pause)
    return True
