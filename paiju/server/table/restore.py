"""Rebuilding a table whose hand was live when its process stopped (a restart, a
fail-over): the seats from the hand's record, the state by replaying its action log.

>>> from paiju.server.table.state import Timing
>>> restore.__doc__.splitlines()[0]
'Rebuild a table whose hand was live when its process stopped: the seats from the'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from typing import Any

from paiju.bots.driver import bot_rng
from paiju.games import replay
from paiju.server.money import table_fees
from paiju.server.rooms import Room
from paiju.server.table import bots, claim_pause, io
from paiju.server.table.machine import TableMachine
from paiju.server.table.state import SEATS, Hand, Player, Timing

__all__ = ["restore"]


def restore(
    table_id: int,
    room: Room,
    timing: Timing,
    rng: random.Random,
    *,
    hand_id: int,
    hand_no: int,
    seed: int,
    stake: int,
    setup: dict[str, Any],
    seats: dict[str, Any],
    actions: list[str],
    balances: dict[int, int],
    now: float,
    make: Callable[..., TableMachine] = TableMachine,
    code: str | None = None,
    tuoguan: Collection[int] = (),
) -> tuple[TableMachine, list[io.Output]]:
    """Rebuild a table whose hand was live when its process stopped: the seats from the
    record (people away, each with the grace period to come back; those in ``tuoguan``
    with 托管 on, as they left it), the state by replay.

    Raises :class:`~paiju.errors.ReplayError` when the log does not replay (the caller
    quarantines the hand).
    """
    # the bots' level is the table's (a table of one's own or for friends may have chosen it)
    level = next((rec.get("level") for rec in seats.values() if rec.get("bot")), None)
    m = make(table_id, room, timing, rng, code=code, level=level)
    g = m.game
    for i, letter in enumerate(SEATS):
        rec = seats[letter]
        acc = rec.get("account")
        m.seats[i] = Player(
            rec["name"], account=acc, level=rec.get("level"), bot=rec.get("bot"),
            connected=False, confirmed=True, balance=balances.get(acc, 0) if acc else 0,
            tuoguan=acc in tuoguan,
        )  # fmt: skip
    dealt_state, dealt = g.deal(m.ruleset, seed, setup)
    history = list(dealt)  # the hand's events, for the people's logs
    state = replay(
        g, m.ruleset, seed, setup, actions, start=dealt_state, each=lambda _, e: history.extend(e)
    )
    m.hands_started = hand_no
    m.setup = dict(setup)
    m.hand = Hand(
        no=hand_no,
        seed=seed,
        stake=stake,
        state=state,
        bots=bots.seat_bots(m),
        rngs=[bot_rng(seed, s) for s in g.seats],
        start_balances={a: b + stake for a, b in balances.items()},  # before the fee
        fee_moves=list(table_fees({a: b + stake for a, b in balances.items()}, stake)),
        id=hand_id,
        seq=len(actions),
    )
    claim_pause.log_events(m, m.hand, history)
    m.phase = "live"
    m._now = now
    m._out = []
    for acc in m.accounts:
        m._set(f"away:{acc}", timing.disconnect)
        m._player(acc).left_at = now
    claim_pause.after_change(m, [])
    m._changed()
    out = m._out
    m._out = m._idle = []  # the outputs returned are not kept (nor added to) by the machine
    return m, out
