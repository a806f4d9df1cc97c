"""The spectators of a table: accounts that watch it without a seat. They are shown public
information only, what every seat sees of the others (:func:`paiju.views.public_view`:
rivers, melds, flowers, counts, the wall; never a concealed hand, a drawn tile, claim
options, nor what the claim pause shows a claimer and hides from the others), **one public
change behind**: when the table's public state changes, a spectator is shown the state
before it. The deal is shown at once (nothing has been played), the end of a hand at once
with its result (every hand is laid down then). Spectators send nothing the table acts on:
no clock, timer or turn of the table depends on them, and their frames wait for the writes
like every frame (durable before shown). The seats' ``table`` frames count them
(``watchers``). A part of :class:`~paiju.server.table.machine.TableMachine`.

>>> import random
>>> from paiju.server.rooms import ROOMS
>>> from paiju.server.table import TableMachine, Timing, io
>>> room = next(iter(ROOMS.values()))
>>> m = TableMachine(1, room, Timing(), random.Random(1), alone=True)
>>> _ = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> [o.frame["type"] for o in m.handle(io.Watch(8), now=0.0)]  # held behind ana's seat
[]
>>> m.watchers
{8}
"""

from __future__ import annotations

import collections
import logging
from typing import TYPE_CHECKING, Any

import orjson

from paiju.games import Game
from paiju.server.table import frames
from paiju.server.table.state import SEATS
from paiju.views import public_view, watchable

if TYPE_CHECKING:
    from paiju.server.table.machine import TableMachine

__all__ = [
    "Public",
    "changed",
    "hand_over",
    "hand_started",
    "public_json",
    "unwatch",
    "watch",
]

log = logging.getLogger("paiju.table")

#: the public states of a hand kept to find the one before the newest when a spectator comes
#: (a claim window's private answers make new states that look the same: at most one per
#: seat that may answer, three at four seats, so a run of at most four alike). Every table
#: keeps them whether or not anyone watches, and each state holds objects of its own that
#: the garbage collector walks: at 16 they were two fifths of a table's objects (~310 of
#: ~760 tracked objects a table, measured in memory), and at 2,000 tables the young
#: collections' pauses grow with them
KEPT = 6


class Public:
    """The live hand as the spectators see it: its recent public states (each the state a
    seat that is not answering a window is shown), the public JSON of the newest and of the
    one before it while someone watches, and the last hand's end (for a spectator who comes
    between hands)."""

    __slots__ = ("delayed", "final", "hand", "newest", "states")

    def __init__(self) -> None:
        self.states: collections.deque[Any] = collections.deque(maxlen=KEPT)
        self.hand = 0
        self.newest: bytes | None = None  # None: not worked out (nobody watched)
        self.delayed: bytes | None = None  # what the spectators are shown now
        self.final: dict[str, Any] | None = None


def watch(m: TableMachine, account: int) -> None:
    """``account`` watches the table (the hub checked the limit and who may watch): it is
    told so, sent the table and the hand as the spectators see it now."""
    if m.seat_of(account) is not None:
        m._error(account, "already_seated", "you sit at this table")
        return
    if not watchable(m.game.name):
        m._error(account, "not_watchable", "this game has no spectator view")
        return
    m.watchers.add(account)
    frames.broadcast_table(m)  # the seats' count, and the spectator's ``watching``
    hand = m.hand
    pub = m._spectate
    if hand is not None and hand.id is not None:
        if pub.newest is None:
            _catch_up(m)
        if pub.delayed is not None:
            m._send(account, _frame(m, pub.delayed))
    elif pub.final is not None:
        m._send(account, pub.final)


def unwatch(m: TableMachine, account: int) -> None:
    """``account`` no longer watches (it asked, its socket closed, or it sat down)."""
    if account not in m.watchers:
        return
    m.watchers.discard(account)
    m._send(account, {"type": "unwatched", "why": "left"})
    if not m.watchers:
        m._spectate.newest = m._spectate.delayed = None  # nobody to work it out for
    frames.broadcast_table(m)


def hand_started(m: TableMachine) -> None:
    """A new hand is durable: its public states start afresh."""
    hand = m.hand
    assert hand is not None and hand.id is not None
    pub = m._spectate
    pub.states.clear()
    pub.hand = hand.id
    pub.newest = pub.delayed = None
    pub.final = None


def changed(m: TableMachine) -> None:
    """The seats were shown a change: the spectators are shown the public state before it,
    if the public state changed (a private answer to a claim window changes nothing public,
    so nothing is sent: not even the fact)."""
    hand = m.hand
    if hand is None or hand.id is None:
        return
    state = hand.settling if hand.pausing else hand.state
    pub = m._spectate
    if pub.states and pub.states[-1] is state:
        return
    pub.states.append(state)
    if not m.watchers:
        return
    if pub.newest is None:
        _catch_up(m)
        shown = pub.delayed
    else:
        newest = _public_json(m, state)
        if newest == pub.newest:
            return
        before, shown = pub.delayed, pub.newest
        pub.delayed, pub.newest = shown, newest
        if shown == before:
            return  # the deal, shown at once already
    if shown is not None:
        for account in sorted(m.watchers):
            m._send(account, _frame(m, shown))


def hand_over(m: TableMachine, final: Any) -> None:
    """The hand is over (``final``: its last state), or aborted by an escape (``None``):
    the spectators are shown its end at once, with its result (every hand is laid down),
    and so is a spectator who comes before the next hand."""
    pub = m._spectate
    pub.states.clear()
    pub.newest = pub.delayed = None
    pub.final = None
    if final is None:
        return
    view = _public_json(m, final)
    if view is None:
        return
    pub.final = _frame(m, view)
    for account in sorted(m.watchers):
        m._send(account, pub.final)


def _catch_up(m: TableMachine) -> None:
    """Work out the newest public state and the one before it (what a spectator is shown),
    from the states kept: the deal alone is shown as it is."""
    pub = m._spectate
    states = list(pub.states)
    if not states:
        return
    pub.newest = _public_json(m, states[-1])
    pub.delayed = pub.newest if len(states) == 1 else None
    for state in reversed(states[:-1]):
        older = _public_json(m, state)
        if older != pub.newest:
            pub.delayed = older
            break


def _public_json(m: TableMachine, state: Any) -> bytes | None:
    return public_json(m.game, state)


def public_json(game: Game[Any, Any, Any, Any], state: Any) -> bytes | None:
    """A state of ``game`` as the spectators see it, as JSON (``None``: the game has no
    spectator view): :func:`paiju.views.public_view` of two seats' views.

    >>> import random
    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> state, _ = g.deal(g.default_ruleset(), 4, g.first_deal(random.Random(4)).setup)
    >>> seen = public_json(g, state)
    >>> seen is not None and b'"hand":' not in seen and b'"seats"' in seen
    True
    """
    seats = game.seats
    views = {SEATS[i]: game.observe(state, seats[i]).to_json() for i in range(2)}
    view = public_view(views)
    return None if view is None else orjson.dumps(view)


def _frame(m: TableMachine, view: bytes) -> dict[str, Any]:
    return {
        "type": "watch_view",
        "table": m.id,
        "hand": m._spectate.hand,
        "view": orjson.Fragment(view),
    }
