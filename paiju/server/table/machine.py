"""A table as a pure machine: inputs in, decisions out (:mod:`paiju.server.table.io`).

The machine holds the seats, the hand being played (through the :class:`~paiju.games.Game`
protocol, never a game's internals), the players' balances, and the clocks as tokens. It
never waits and never touches a socket, a database or the wall clock: ``handle(input, now)``
returns what to do, and :mod:`paiju.server.table.runner` does it. So every rule of the
online table (the table rules, §10) is tested here on its own, fast, with any sequence of
inputs.

**Durable before shown.** Every change a player could see (a step, a seat, money) is a
write; the frames it causes are held until every write queued before them is durable. A
crash can therefore only undo steps nobody has seen. When a write fails, or has waited
:attr:`~paiju.server.table.state.Timing.stall` unanswered, the table pauses (players are
told), its clocks stop and new requests wait; when the storage is back, the table resumes by
itself with fresh clocks.

**A person is charged only for a turn they were shown**: a turn's clock starts when the
frame offering it has reached the player (:class:`~paiju.server.table.io.Delivered`), so a
frame held for its write, or for a socket the table cannot reach, runs no clock.

**The claim pause** (§5 end): after every discard each seat that cannot claim sees
the same thing for :attr:`~paiju.server.table.state.Timing.claim_pause`
(:mod:`paiju.server.table.claim_pause`).

**Hands and confirmations** (§10 as clarified): every hand, the first and each after a
settlement, waits for all four to confirm (bots, and people on 托管, at once); a person who
has not confirmed within the ready clock (which runs while four sit at the table, and after
a settlement only once their page has shown it whole: ``settlement_shown``, or at most
:attr:`~paiju.server.table.state.Timing.reading` after it reached them) is unseated for free;
leaving before a hand is live is free; the settlement stays with the player (resent on
reconnecting) until they confirm or leave.

**Money**: the table fee when a hand starts, the settlement when it ends, the escape
penalty; computed here from the balances the machine keeps (a seat's balance is read once,
when it sits down) and written with the hand in one transaction each.

The machine is a dispatcher over its parts, each a module of this package: seating
(:mod:`~paiju.server.table.seating`), hands (:mod:`~paiju.server.table.hands`), the clocks
(:mod:`~paiju.server.table.clocks`), showing a change and the claim pause
(:mod:`~paiju.server.table.claim_pause`), bots and hints (:mod:`~paiju.server.table.bots`),
the money at a hand's end (:mod:`~paiju.server.table.settlement`), the frames
(:mod:`~paiju.server.table.frames`), the spectators (:mod:`~paiju.server.table.spectate`)
and the storage's answers
(:mod:`~paiju.server.table.storage`); this class holds the table's state and the outputs.

>>> from paiju.server.rooms import ROOMS
>>> room = next(iter(ROOMS.values()))  # the first game's first room
>>> m = TableMachine(1, room, Timing(), random.Random(1), alone=True)
>>> out = m.handle(io.Join(7, "ana", 10_000), now=0.0)
>>> [type(o).__name__ for o in out]  # the seat's write, the stall clock set for it, the news
['Store', 'SetTimer', 'Changed']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast, get_args

import orjson

from paiju.bots.base import Bot
from paiju.games import Game, game
from paiju.server.money import HOUSE
from paiju.server.rooms import Room
from paiju.server.table import bots, clocks, frames, hands, io, ready, seating, spectate, storage
from paiju.server.table.state import Hand, Player, Timing

__all__ = ["TableMachine"]


class TableMachine:
    """One table of a room."""

    def __init__(
        self,
        table_id: int,
        room: Room,
        timing: Timing,
        rng: random.Random,
        *,
        alone: bool = False,
        level: str | None = None,
        code: str | None = None,
    ) -> None:
        self.id = table_id
        self.room = room
        #: a private table's code: friends join by it, nobody else is seated here, and bots
        #: sit only when a player here asks (:class:`~paiju.server.table.io.Fill`)
        self.code = code
        self.game: Game[Any, Any, Any, Any] = game(room.game)
        self._helper: Bot | None = None  # the bot of 托管 and hints (:meth:`_helper_bot`)
        self.ruleset = self.game.default_ruleset()
        self.timing = timing
        self.alone = alone
        self.level = level or room.level
        self.seats: list[Player | None] = [None, None, None, None]
        self.hand: Hand | None = None
        self.phase = "idle"  # idle | starting | live
        self.hands_started = 0
        self.setup: dict[str, Any] = {}  # what the next hand needs (the game's: a banker…)
        self.lost = False
        #: the process drains (:class:`io.Drain`): no hand starts here again
        self.draining = False
        self._rng = rng  # each hand's seed
        self._think = random.Random(rng.getrandbits(64))  # the bots' think times
        self._now = 0.0
        self._out: list[io.Output] = []
        self._idle: list[io.Output] = self._out  # ``_out`` between two inputs
        self._op = 0
        self._durable = 0
        self._pending: dict[int, io.Write] = {}
        self._issued: dict[int, float] = {}  # when each pending write was asked for (in order)
        self._held: list[tuple[int, io.Send]] = []
        self._paused = False
        self._deferred: list[io.Input] = []
        self._tokens: dict[str, int] = {}
        self._token = 0
        self._ready_deadline: dict[int, float] = {}
        #: between hands, the people whose page has not yet said it has shown the
        #: settlement whole: account → the ack of their settlement frame (their ready clock
        #: waits, at most ``Timing.reading`` once the frame reached them: ``_read_bound``)
        self._reading: dict[int, int] = {}
        self._read_bound: set[int] = set()
        #: the accounts watching this table (:mod:`~paiju.server.table.spectate`)
        self.watchers: set[int] = set()
        self._spectate = spectate.Public()
        self._shown: dict[int, bytes] = {}  # the JSON of the last view each seat was sent
        #: the seats' public blocks of the views, serialised once each (a block is the same
        #: object in every view of a state, and in later states while that seat's part of
        #: the table is unchanged): seat → the block, and seat → its JSON (two dicts kept
        #: for the table's life, not a pair made per change: see :meth:`_view_json`)
        self._blocks: dict[str, Any] = {}
        self._block_json: dict[str, orjson.Fragment] = {}
        #: each seat's bot, kept from hand to hand (a bot is remade only when the seat's bot
        #: changes): the garbage collector walks what is new, and these would be new every
        #: hand. The bots' chance is new each hand (:func:`bot_rng`): a decision of the last
        #: hand still running in a worker thread may draw from the old one.
        self._bots: list[Bot | None] = [None, None, None, None]
        self._bot_names: list[str | None] = [None, None, None, None]
        self._keep: dict[int, list[dict[str, Any]]] = {}  # resent on reconnect until ready
        #: at a table for friends: the bot each claiming person's seat was taken from
        self._displaced: dict[int, tuple[int, Player | None]] = {}

    def handle(self, event: io.Input, now: float) -> list[io.Output]:
        """Everything the table does in answer to ``event`` at time ``now`` (seconds).

        >>> from paiju.server.rooms import ROOMS
        >>> room = next(iter(ROOMS.values()))  # the first game's first room
        >>> m = TableMachine(1, room, Timing(), random.Random(1))
        >>> m.handle(io.Ready(99), 0.0)[0].frame["code"]
        'not_seated'
        """
        self._now = now
        if self.lost:
            return []
        out = self._out = []
        self._dispatch(event)
        storage.release_frames(self)
        self._out = self._idle  # the frames of this answer are not kept once it is taken
        return out

    def _dispatch(self, event: io.Input) -> None:
        kind = type(event)
        if kind in _WAITS and (self._paused or self.phase == "starting"):
            self._deferred.append(event)
            return
        anyone = _ANYONE.get(kind)
        if anyone is not None:
            anyone(self, event)
            return
        seated = cast(io.SeatedInput, event)
        seat = self.seat_of(seated.account)
        if seat is None:
            self._error(seated.account, "not_seated", "you do not sit at this table")
        else:
            _SEATED[kind](self, seat, seated)

    def table_json(self) -> dict[str, Any]:
        """The seating as everyone at the table (and the lobby) sees it.

        >>> from paiju.server.rooms import ROOMS
        >>> room = next(iter(ROOMS.values()))  # the first game's first room
        >>> TableMachine(3, room, Timing(), random.Random(0)).table_json()["seats"]
        {'E': None, 'S': None, 'W': None, 'N': None}
        """
        return frames.table_json(self)

    def seat_of(self, account: int) -> int | None:
        """The seat (0–3) of an account at this table, or None."""
        for i, p in enumerate(self.seats):
            if p is not None and p.account == account:
                return i
        return None

    def sitting(self, account: int) -> tuple[int, Player] | None:
        """The seat of an account at this table and the player there, or None.

        >>> from paiju.server.rooms import ROOMS
        >>> room = next(iter(ROOMS.values()))  # the first game's first room
        >>> TableMachine(3, room, Timing(), random.Random(0)).sitting(7) is None
        True
        """
        seat = self.seat_of(account)
        if seat is None:
            return None
        p = self.seats[seat]
        assert p is not None
        return seat, p

    def person(self, seat: int) -> tuple[Player, int]:
        """The person at ``seat`` (one sits there: the caller knows) and their account."""
        p = self.seats[seat]
        assert p is not None and p.account is not None
        return p, p.account

    @property
    def accounts(self) -> list[int]:
        """The people seated here (their seats durable or not)."""
        return [p.account for p in self.seats if p is not None and p.account is not None]

    @property
    def live(self) -> bool:
        """True while a hand is being played (or starting)."""
        return self.phase != "idle"

    @property
    def quiet(self) -> bool:
        """True when no hand is live and every write and frame has gone out (a draining
        process may stop: its players have seen their hands' ends)."""
        return not self.live and not self._pending and not self._held

    @property
    def open_seats(self) -> int:
        """Seats other people may be sent to now (a table waiting for players; never a
        private table's: only its code seats a player there)."""
        if self.alone or self.code is not None or self.live or not self.accounts:
            return 0
        return sum(p is None for p in self.seats)

    @property
    def friend_seats(self) -> int:
        """Seats a friend with this private table's code may take now: the empty ones and
        the bots' (a bot gives its seat up to a friend between hands); 0 while a hand is
        live, or when the table is not private."""
        if self.code is None or self.live or not self.accounts:
            return 0
        return sum(p is None or p.account is None for p in self.seats)

    @property
    def idle_and_empty(self) -> bool:
        """Nobody sits here and nothing is left to write."""
        return not self.accounts and not self._pending

    def _write(self, write: io.Write) -> int:
        self._op += 1
        self._pending[self._op] = write
        self._issued[self._op] = self._now
        self._out.append(io.Store(self._op, write))
        if "stall" not in self._tokens and not self._paused:
            self._set("stall", self.timing.stall)
        return self._op

    def _send(self, account: int, frame: dict[str, Any], hold: bool = True, ack: int = 0) -> None:
        after = self._op if hold else 0
        # behind the held frames too: sent now, it would overtake older ones still held
        if hold and (self._pending or self._held):
            self._held.append((after, io.Send(account, frame, after, ack)))
        else:
            self._out.append(io.Send(account, frame, after, ack))

    def _error(self, account: int, code: str, message: str) -> None:
        self._send(account, {"type": "error", "code": code, "message": message}, hold=False)

    def _set(self, key: str, delay: float) -> None:
        self._token += 1
        self._tokens[key] = self._token
        self._out.append(io.SetTimer(key, max(0.0, delay), self._token))

    def _cancel(self, key: str) -> None:
        if self._tokens.pop(key, None) is not None:
            self._out.append(io.CancelTimer(key))

    def _changed(self) -> None:
        self._out.append(io.Changed())

    def _player(self, account: int | str) -> Player:
        found = self.sitting(int(account))
        assert found is not None
        return found[1]

    def _account_key(self, seat: int) -> int | str:
        p = self.seats[seat]
        return HOUSE if p is None or p.account is None else p.account

    def _movers(self) -> list[int]:
        assert self.hand is not None
        return [s.number - 1 for s in self.game.acting(self.hand.state)]

    def _auto(self, seat: int) -> bool:
        p = self.seats[seat]
        return p is None or p.account is None or p.tuoguan

    def _names(self) -> dict[int | str, str]:
        names: dict[int | str, str] = {HOUSE: "house"}
        for p in self.seats:
            if p is not None and p.account is not None:
                names[p.account] = p.name
        return names


#: What the machine does with each input: those anyone (or the house) may send…
_ANYONE: dict[type, Callable[[TableMachine, Any], None]] = {
    io.Stored: storage.stored,
    io.Trouble: storage.trouble,
    io.Failed: storage.failed,
    io.TimerFired: clocks.timer_fired,
    io.Delivered: clocks.delivered,
    io.BotMove: bots.bot_move,
    io.Join: seating.join,
    io.Connect: lambda m, e: seating.connect(m, e.account),
    io.Disconnect: lambda m, e: seating.disconnect(m, e.account),
    io.Unreached: lambda m, e: seating.unreached(m, e.account, e.window),
    io.Resend: lambda m, e: seating.resend(m, e.account),
    io.Watch: lambda m, e: spectate.watch(m, e.account),
    io.Unwatch: lambda m, e: spectate.unwatch(m, e.account),
    io.Suspend: lambda m, e: seating.suspend(m, e.account),
    io.Drain: lambda m, e: setattr(m, "draining", True),
}
#: … and those only a seated player may (with the seat they hold).
_SEATED: dict[type, Callable[[TableMachine, int, Any], None]] = {
    io.Ready: lambda m, seat, e: ready.ready(m, seat),
    io.SettlementShown: lambda m, seat, e: ready.settlement_shown(m, e.account),
    io.Act: hands.act,
    io.Tuoguan: lambda m, seat, e: seating.tuoguan(m, seat, e.on),
    io.Fill: lambda m, seat, e: seating.fill_asked(m, e.account),
    io.Hint: lambda m, seat, e: bots.hint(m, seat, e.version),
    io.Leave: lambda m, seat, e: seating.leave(m, seat, e.escape),
}
#: The inputs that wait while the table is paused or a hand is being started.
_WAITS = frozenset({io.Join, io.BotMove, *get_args(io.SeatedInput)})
