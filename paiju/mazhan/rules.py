"""The Mazhan game engine: one hand from the shuffle to the settlement (rules §2–§9).

A hand is a fold: ``state = new_hand(ruleset, seed)``, then ``state, events = apply(state,
action)`` for each action until ``state.phase is Phase.OVER``; ``state.result`` then holds the
settlement, computed by :func:`paiju.mazhan.scoring.score`, so the engine and
``paiju mazhan score`` can never disagree. Chance is the seed alone: the shuffle and the dice
come from ``random.Random(seed)``; draws are not actions but follow from the wall.

**Turns.** In phase ``ACT`` the seat to move (after a draw, or after a chow or pung) may
discard, declare a win (自摸, 天胡), 殺豬, a concealed kong or an added kong (the last three
after a draw only).

**Claims are a simultaneous decision.** After a discard, every other seat that can claim it
(胡, 槓, 碰, 吃 for the next seat only) gets its options, ``pass`` included, and the phase is
``CLAIM``; ``acting(state)`` lists the seats still to decide, and each decides once, in any
order, without seeing the others' decisions. When the last one has decided, the engine
resolves them by priority: 胡 first, and among several winners only the first in play order
after the discarder (截胡); then 槓 or 碰 (at most one seat can hold two copies of the
discard); then 吃. Seats that cannot claim are not asked; when no seat can claim, the next seat
draws at once. An added kong (加槓) opens the same kind of window, phase ``ROB``, to the seats
that can win on its tile (搶槓), first in play order from the declarer.

**Versions and the claim pause** (rules §5, "What the other seats see"). Every action makes
a new ``state.version``, answers in a window included; a seat's version
(:func:`seat_version`, what its view shows and its next action carries) counts only what it
could see: inside a window the window's opening version, and once the window closes the
winning claim and its own answer, never the others' passes or lost claims. So a seat that
cannot claim sees the same versions whether or not another seat could. A table shows those
seats the same pause after every discard and added kong: :func:`settling` gives the state
to show during it, a window open to nobody that looks the same to them as a real one.

>>> state = new_hand(Ruleset(), seed=1)
>>> state.phase, acting(state)
(<Phase.ACT: 'act'>, (<Seat.E: 'E'>,))
>>> action = next(a for a in legal_actions(state) if a.kind is ActionKind.DISCARD)
>>> state, events = apply(state, action)
>>> events[0].kind, state.version
('discard', 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from itertools import chain, compress, repeat
from operator import attrgetter, getitem, is_
from typing import Any

from paiju.errors import GameOverError, IllegalActionError, InvalidRulesetError, NotYourTurnError
from paiju.kit.enums import FastEnum
from paiju.kit.events import events_json as seen_by
from paiju.kit.positions import PositionState
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.hand import is_complete_keys, least_need, suit_keys
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.record import FinishedHand, SeatHand, WinBy, ending_json
from paiju.mazhan.scoring import Settlement, score
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES, Tile
from paiju.mazhan.wall import shuffled_wall

__all__ = [
    "Event",
    "HandResult",
    "Phase",
    "Ruleset",
    "State",
    "acting",
    "apply",
    "check_every_hand",
    "deal",
    "events_json",
    "legal_actions",
    "legal_actions_for",
    "new_hand",
    "seat_version",
    "settling",
]

_WHITE = 31
_FACES = ALL_TILES[:34]
#: ``_RUNS[f][n]``: ``n`` copies of face ``f`` (a hand holds at most four)
_RUNS = tuple(tuple((t,) * n for n in range(5)) for t in _FACES)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rule options of a Mazhan hand, checked when made.

    ``dead_wall``: the tiles at the end of the wall that a normal draw never takes (§5.6).

    >>> Ruleset().to_json()
    {'game': 'mazhan', 'dead_wall': 11}
    >>> Ruleset.from_json({'game': 'mazhan', 'dead_wall': 11}) == Ruleset()
    True
    >>> Ruleset(dead_wall=-5)
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidRulesetError: dead_wall must be an integer 0–60, got -5

    Raises :class:`~paiju.errors.InvalidRulesetError` (a ``ValueError``).
    """

    dead_wall: int = 11

    def __post_init__(self) -> None:
        d = self.dead_wall
        if not isinstance(d, int) or isinstance(d, bool) or not 0 <= d <= 60:
            raise InvalidRulesetError(f"dead_wall must be an integer 0–60, got {d!r}")

    def to_json(self) -> dict[str, Any]:
        """The options as JSON, for game records.

        >>> Ruleset(dead_wall=0).to_json()["dead_wall"]
        0
        """
        return {"game": "mazhan", "dead_wall": self.dead_wall}

    @staticmethod
    def from_json(data: object) -> Ruleset:
        """Read :meth:`to_json`'s output (a missing option takes its default).

        >>> Ruleset.from_json({"game": "madiao"})
        Traceback (most recent call last):
        ...
        paiju.errors.InvalidRulesetError: not a Mazhan ruleset: {'game': 'madiao'}

        Raises :class:`~paiju.errors.InvalidRulesetError` (a ``ValueError``).
        """
        if not isinstance(data, dict) or data.get("game") != "mazhan":
            raise InvalidRulesetError(f"not a Mazhan ruleset: {data!r}")
        unknown = set(data) - {"game", "dead_wall"}
        if unknown:
            raise InvalidRulesetError(f"unknown ruleset options: {', '.join(sorted(unknown))}")
        return Ruleset(dead_wall=data.get("dead_wall", 11))


class Phase(FastEnum):
    """Where a hand stands.

    >>> Phase("claim")
    <Phase.CLAIM: 'claim'>
    """

    ACT = "act"
    CLAIM = "claim"
    ROB = "rob"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, with who may see it.

    - ``private``: the tiles are shown only to ``seat`` (a draw, the deal, a concealed kong);
      the others see the event with ``tiles`` hidden.
    - ``audience``: the event exists only for that seat (a decision inside a claim window,
      a lost claim); the others do not see it at all.
    - ``dice``: the two dice, on the ``deal`` event.

    >>> e = Event("draw", Seat.S, (Tile.parse("5m"),), private=True)
    >>> e.to_json(Seat.S)["tiles"], e.to_json(Seat.W)["tiles"]
    (['5m'], None)
    >>> Event("decision", Seat.S, detail="pass", audience=Seat.S).to_json(Seat.W) is None
    True
    """

    kind: str
    seat: Seat | None = None
    tiles: tuple[Tile, ...] = ()
    private: bool = False
    detail: str = ""
    audience: Seat | None = None
    dice: tuple[int, int] | None = None

    def visible_to(self, viewer: Seat | None) -> bool:
        """Whether ``viewer`` (``None``: an onlooker) sees this event at all.

        >>> Event("claim_lost", Seat.N, audience=Seat.N).visible_to(Seat.E)
        False
        """
        return self.audience is None or viewer is self.audience

    def visible_tiles(self, viewer: Seat | None) -> tuple[Tile, ...] | None:
        """The tiles ``viewer`` may see (``None`` when hidden from them).

        >>> Event("discard", Seat.E, (Tile.parse("1z"),)).visible_tiles(Seat.N)
        (Tile.parse('1z'),)
        """
        if self.private and viewer is not self.seat:
            return None
        return self.tiles

    def to_json(self, viewer: Seat | None = None) -> dict[str, Any] | None:
        """The event as JSON as ``viewer`` may see it (``None``: an onlooker), or ``None``
        when the event is not for them (see :func:`events_json`).

        >>> Event("discard", Seat.N, (Tile.parse("5m"),)).to_json()
        {'kind': 'discard', 'seat': 'N', 'tiles': ['5m'], 'detail': ''}
        """
        if not self.visible_to(viewer):
            return None
        tiles = self.visible_tiles(viewer)
        out: dict[str, Any] = {
            "kind": self.kind,
            "seat": None if self.seat is None else self.seat.value,
            "tiles": None if tiles is None else [str(t) for t in tiles],
            "detail": self.detail,
        }
        if self.dice is not None:
            out["dice"] = list(self.dice)
        return out


def events_json(events: Iterable[Event], viewer: Seat | None) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, as JSON, in order (the others left out).

    >>> events_json([Event("decision", Seat.S, detail="peng", audience=Seat.S),
    ...              Event("discard", Seat.W, (Tile.parse("2p"),))], Seat.E)
    [{'kind': 'discard', 'seat': 'W', 'tiles': ['2p'], 'detail': ''}]
    """
    return seen_by(events, viewer)


_EAGER = [False]


def check_every_hand(on: bool = True) -> None:
    """Validate and score every finished hand as it ends (the test suite does), instead of
    when its settlement is first read.

    The engine always checks a finished hand against the rules before anyone can read its
    settlement (:meth:`HandResult.settlement`); a simulation that never reads the result
    skips the work. With this switch on, the check runs at the end of every hand, so a
    wrong state fails at the action that made it.

    >>> check_every_hand(True); check_every_hand(False)
    """
    _EAGER[0] = bool(on)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, and its settlement.

    ``settlement`` is computed (after :meth:`FinishedHand.validate
    <paiju.mazhan.record.FinishedHand.validate>`) the first time it is read, then kept.

    >>> from paiju.bots.driver import play_hand
    >>> from paiju.bots.uniform import RandomBot
    >>> state, _ = play_hand(Ruleset(), [RandomBot()] * 4, seed=3)
    >>> sum(state.result.settlement.net.values())
    0
    """

    winner: Seat | None
    win_by: WinBy | None
    win_tile: Tile | None
    discarder: Seat | None
    tianhu: bool
    dihu: bool
    finished: FinishedHand
    _settled: list[Settlement] = field(default_factory=list, compare=False, repr=False)

    @property
    def settlement(self) -> Settlement:
        """The settlement (:func:`paiju.mazhan.scoring.score` of :attr:`finished`), the hand
        validated first.

        >>> from paiju.bots.driver import play_hand
        >>> from paiju.bots.uniform import RandomBot
        >>> state, _ = play_hand(Ruleset(), [RandomBot()] * 4, seed=3)
        >>> state.result.settlement is state.result.settlement
        True

        Raises :class:`~paiju.errors.InvalidHandError` if the finished hand breaks the rules
        (an engine bug: the engine's own safety net).
        """
        settled = self._settled
        if not settled:
            self.finished.validate()
            settled.append(score(self.finished))
        return settled[0]

    def to_json(self) -> dict[str, Any]:
        """The result as a game record stores it: who won, how, and each seat's net 胡.

        >>> from paiju.bots.driver import play_hand
        >>> from paiju.bots.uniform import RandomBot
        >>> state, _ = play_hand(Ruleset(), [RandomBot()] * 4, seed=3)
        >>> sorted(state.result.to_json())
        ['dihu', 'discarder', 'hand', 'net', 'tianhu', 'value', 'win_by', 'win_tile', 'winner']
        """
        players = self.settlement.players
        return {
            **ending_json(self),
            "value": None if self.winner is None else players[self.winner].value,
            "hand": [] if self.winner is None else [zh for zh, _ in players[self.winner].hand],
            "net": {s.value: self.settlement.net[s] for s in SEATS},
        }


@dataclass(slots=True, eq=False)
class State(PositionState):
    """The whole state of a hand. Treat it as immutable: :func:`apply` returns a new one.
    The engine keeps caches on a state (legal actions, suit keys, the views' shared part)
    and shares the lists a move leaves unchanged between a state and the next: to change a
    state by hand, change a :meth:`copy`, before asking anything of it.

    Tiles are face indices (see :class:`~paiju.mazhan.tiles.Tile`); seats are 0–3 (E S W N).
    ``hands[s]`` counts seat ``s``'s concealed tiles by face, ★ counted at ``wild``.
    ``meld_src[s][k]`` is where meld ``k`` came from: ``(seat it was claimed from, claimed
    tile)``, ``(-1, -1)`` for a concealed kong; ``claimed_by[s][k]`` the seat that claimed
    discard ``k`` (``-1``: it lies in the river). ``window_version`` is the version at which
    the open claim window (phase ``CLAIM`` or ``ROB``) opened. ``unseen[s]`` counts the
    answers given in closed windows that seat ``s`` could not see (the others' passes and
    lost claims): its version (:func:`seat_version`) leaves them out.

    Fields that mean nothing in the current phase hold fixed values (``drawn`` −1 outside
    ``ACT``, ``claim_tile`` −1 outside a window, …), so two states of the same position are
    equal. Equality compares the position: the part of the wall already dealt is not part
    of it, nor is the seed, nor ``unseen`` (history a written position does not hold).
    :meth:`to_position` writes it and :meth:`from_position` reads it back, checked
    (:mod:`paiju.mazhan.position`; :class:`~paiju.kit.positions.PositionState`).

    >>> s = new_hand(Ruleset(), seed=5)
    >>> sum(s.hands[0]) + 3 * len(s.melds[0]), sum(s.hands[1])
    (17, 16)
    >>> s.to_position().split()[:3], State.from_position(s.to_position()) == s
    (['mazhan', 'v=0', 'act=E'], True)
    """

    _position_module = "paiju.mazhan.position"

    ruleset: Ruleset
    seed: int
    wall: tuple[int, ...]
    dice: tuple[int, int]
    head: int
    tail: int
    wild: int
    indicator: int
    set_aside: tuple[int, ...]
    hands: list[list[int]]
    melds: list[list[Meld]]
    meld_src: list[list[tuple[int, int]]]
    bonus: list[list[int]]
    discards: list[list[int]]
    claimed_by: list[list[int]]
    phase: Phase = Phase.ACT
    current: int = 0
    drawn: int = -1
    drew: bool = True
    after_kong: bool = False
    claim_tile: int = -1
    claim_from: int = -1
    options: dict[int, tuple[Action, ...]] = field(default_factory=dict)
    decisions: dict[int, Action] = field(default_factory=dict)
    dealer_discarded: bool = False
    dihu_window: bool = False
    kongs: int = 0
    result: HandResult | None = None
    version: int = 0
    window_version: int = 0
    unseen: tuple[int, int, int, int] = (0, 0, 0, 0)
    _act: tuple[Action, ...] | None = None
    _keys: list[int] | None = None
    _owned: int = 0
    _known: int = 0
    _near: int = 0
    # what every seat's view shares, made once (paiju.mazhan.views); a state made by apply
    # starts with the one of the state before it, which its own replaces
    _views: Any = None

    def copy(self) -> State:
        """A copy whose lists can change without touching this state.

        >>> s = new_hand(Ruleset(), seed=5)
        >>> t = s.copy(); t.hands[0][0] += 1
        >>> s.hands[0][0] == t.hands[0][0]
        False
        """
        return replace(
            self,
            hands=[h[:] for h in self.hands],
            melds=[m[:] for m in self.melds],
            meld_src=[m[:] for m in self.meld_src],
            bonus=[b[:] for b in self.bonus],
            discards=[d[:] for d in self.discards],
            claimed_by=[c[:] for c in self.claimed_by],
            options=dict(self.options),
            decisions=dict(self.decisions),
            _act=None,
            _keys=None,
            _owned=_ALL_OWNED,
            _known=0,
            _near=0,
            _views=None,
        )

    def _fork(self) -> State:
        """The next state for :func:`apply`: the per-seat lists shared with this state until
        the engine changes one (``_hand``, ``_river``, ...), and but for ``hands`` the lists
        of them too, so a copy costs one short list, not 24 lists. Callers never see the
        sharing: this state is never changed afterwards. Sets every field (a test checks)."""
        keys = self._keys
        if keys is None:
            keys = self._keys = _natural_keys(self.hands, self.wild)
        # every slot stored here rather than through ``State(...)``: the dataclass's
        # ``__init__`` with 37 arguments costs twice as much, and a hand makes 80 forks
        s = _new_state(State)
        s.ruleset = self.ruleset
        s.seed = self.seed
        s.wall = self.wall
        s.dice = self.dice
        s.head = self.head
        s.tail = self.tail
        s.wild = self.wild
        s.indicator = self.indicator
        s.set_aside = self.set_aside
        s.hands = self.hands[:]  # always its own: the views tell a state's part by this list
        s.melds = self.melds
        s.meld_src = self.meld_src
        s.bonus = self.bonus
        s.discards = self.discards
        s.claimed_by = self.claimed_by
        s.phase = self.phase
        s.current = self.current
        s.drawn = self.drawn
        s.drew = self.drew
        s.after_kong = self.after_kong
        s.claim_tile = self.claim_tile
        s.claim_from = self.claim_from
        s.options = self.options
        s.decisions = self.decisions
        s.dealer_discarded = self.dealer_discarded
        s.dihu_window = self.dihu_window
        s.kongs = self.kongs
        s.result = self.result
        s.version = self.version + 1
        s.window_version = self.window_version
        s.unseen = self.unseen
        s._act = None
        s._keys = keys[:]
        s._owned = 0
        s._known = self._known
        s._near = self._near
        s._views = self._views  # the views of the next state take the seats it leaves unchanged
        return s

    def _key(self) -> tuple[Any, ...]:
        return self.wall[self.head : self.tail], _POSITION_FIELDS(self)

    @property
    def wild_tile(self) -> Tile:
        """The wild face (its three copies in play are ★).

        >>> new_hand(Ruleset(), seed=5).wild_tile.is_bonus
        False
        """
        return ALL_TILES[self.wild]

    @property
    def live_tiles(self) -> int:
        """Tiles still in the wall (the dead wall included).

        >>> new_hand(Ruleset(), seed=5).live_tiles <= 144 - 65 - 1
        True
        """
        return self.tail - self.head

    def concealed(self, seat: Seat) -> tuple[Tile, ...]:
        """A seat's concealed tiles, sorted (★ shown as the wild face).

        >>> len(new_hand(Ruleset(), seed=5).concealed(Seat.S))
        16
        """
        return tuple(chain.from_iterable(map(getitem, _RUNS, self.hands[seat.number - 1])))

    def __str__(self) -> str:
        lines = [
            f"Mazhan hand seed={self.seed} phase={self.phase.value} version={self.version}",
            f"wild ★ {self.wild_tile} (indicator {ALL_TILES[self.indicator]}), "
            f"wall {self.live_tiles} tiles, dice {self.dice[0]}+{self.dice[1]}",
        ]
        for i, seat in enumerate(SEATS):
            mark = "→" if seat in acting(self) else " "
            hand = "".join(str(t) for t in self.concealed(seat))
            melds = " ".join(f"[{m}]" for m in self.melds[i])
            bonus = "".join(str(ALL_TILES[b]) for b in sorted(self.bonus[i]))
            river = " ".join(
                str(ALL_TILES[t]) + ("*" if c >= 0 else "")
                for t, c in zip(self.discards[i], self.claimed_by[i], strict=True)
            )
            lines.append(f"{mark}{seat.value} {seat.name_zh} {hand} {melds} bonus:{bonus}")
            lines.append(f"    river: {river}")
        if self.result is not None:
            lines.append(f"result: {self.result.to_json()}")
        return "\n".join(lines)


#: What a position holds besides the wall not yet dealt (what equality compares): every
#: field but the seed, the wall, ``unseen`` and the engine's caches.
_POSITION_FIELDS = attrgetter(
    *(
        f.name
        for f in fields(State)
        if f.name not in ("seed", "wall", "head", "tail", "unseen") and f.name[0] != "_"
    )
)


def new_hand(ruleset: Ruleset, seed: int) -> State:
    """Shuffle, roll, deal 17/16, turn the wild indicator and replace the bonus tiles.

    >>> s = new_hand(Ruleset(), seed=11)
    >>> s.phase, s.current, len(s.wall)
    (<Phase.ACT: 'act'>, 0, 144)

    Raises ``ValueError`` for a seed that is not an integer.
    """
    return _deal(ruleset, seed, None)


def deal(ruleset: Ruleset, seed: int) -> tuple[State, list[Event]]:
    """:func:`new_hand` with the events of the deal: the dice (``deal``), each seat's tiles
    (``dealt``, private), the bonus tiles turned while looking for the indicator
    (``set_aside``), the ``indicator``, and the initial bonus replacement (``bonus``, then a
    private ``draw`` from the tail for each).

    >>> state, events = deal(Ruleset(), seed=1)
    >>> events[0].to_json(Seat.S)
    {'kind': 'deal', 'seat': 'E', 'tiles': [], 'detail': '', 'dice': [4, 5]}
    >>> events[2].to_json(Seat.E)["tiles"] is None  # South's tiles, seen by East
    True

    Raises ``ValueError`` for a seed that is not an integer.
    """
    events: list[Event] = []
    return _deal(ruleset, seed, events), events


def _deal(ruleset: Ruleset, seed: int, events: list[Event] | None) -> State:
    """The deal; its events appended to ``events`` unless it is ``None``."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be an integer, got {seed!r}")
    wall, dice = shuffled_wall(seed)
    if events is not None:
        events.append(Event("deal", Seat.E, dice=dice))
    hands = [[0] * 42 for _ in range(4)]
    # four tiles to each seat, four times, then the dealer's 17th
    dealt = [
        sum((wall[16 * r + 4 * seat : 16 * r + 4 * seat + 4] for r in range(4)), ())
        for seat in range(4)
    ]
    dealt[0] += wall[64:65]
    head = 65
    for h, tiles in zip(hands, dealt, strict=True):
        for tile in tiles:
            h[tile] += 1
    if events is not None:
        for seat in range(4):
            events.append(
                Event("dealt", SEATS[seat], tuple(ALL_TILES[t] for t in sorted(dealt[seat])), True)
            )
    set_aside = []
    while _is_bonus(wall[head]):
        set_aside.append(wall[head])
        if events is not None:
            events.append(Event("set_aside", None, (ALL_TILES[wall[head]],)))
        head += 1
    indicator = wall[head]
    head += 1
    if events is not None:
        events.append(Event("indicator", None, (ALL_TILES[indicator],)))
    state = State(
        ruleset,
        seed,
        wall,
        dice,
        head,
        len(wall),
        indicator,
        indicator,
        tuple(set_aside),
        hands,
        [[] for _ in range(4)],
        [[] for _ in range(4)],
        [[] for _ in range(4)],
        [[] for _ in range(4)],
        [[] for _ in range(4)],
    )
    # initial bonus replacement (補花, §3.5): the dealer first, then in play order, each
    # seat finishes before the next starts: it lays out each bonus tile and replaces it from
    # the tail, again while the replacement is a bonus tile, of whatever kind
    for seat in range(4):
        h = hands[seat]
        for tile in [t for t in _BONUS_FACES if h[t] for _ in range(h[t])]:
            while True:
                h[tile] -= 1
                state.bonus[seat].append(tile)
                if events is not None:
                    events.append(_EV_BONUS[seat][tile])
                state.tail -= 1
                tile = state.wall[state.tail]
                h[tile] += 1
                if not _is_bonus(tile):
                    if events is not None:
                        events.append(_EV_DRAW[seat][tile][True])
                    break
    for h in hands:
        del h[34:]  # bonus faces never stay in a hand
    return state


def seat_version(state: State, seat: Seat) -> int:
    """The version ``seat``'s next action must carry (and its view shows): the actions
    applied so far that this seat could see. Inside a claim window it stays at the window's
    opening version, so a seat cannot tell that another has decided; once the window
    closes it counts the winning claim, if one won, and the seat's own answer, if it
    answered and did not win, but never another seat's pass or lost claim. So a seat that
    cannot claim sees the versions it would see had nobody been able to claim; and a seat
    never has legal actions at one version in two decisions (a late answer to a closed
    prompt is stale).

    >>> s = new_hand(Ruleset(), seed=2)
    >>> seat_version(s, Seat.W) == s.version == 0
    True
    >>> s, _ = apply(s, Action.parse("E discard 7m"))  # South may pung: a window opens
    >>> s.phase, [seat_version(s, seat) for seat in SEATS]
    (<Phase.CLAIM: 'claim'>, [1, 1, 1, 1])
    >>> s, _ = apply(s, Action.parse("S pass"))  # it closes; South draws
    >>> s.phase, s.version, [seat_version(s, seat) for seat in SEATS]
    (<Phase.ACT: 'act'>, 2, [1, 2, 1, 1])
    """
    if state.phase is _P_CLAIM or state.phase is _P_ROB:
        return state.window_version - state.unseen[seat.number - 1]
    return state.version - state.unseen[seat.number - 1]


def settling(state: State, action: Action) -> tuple[State, list[Event]] | None:
    """What the table shows while a discard or an added kong settles (rules §5 end): the
    state right after ``action`` with a claim window open to nobody, and the events of that
    part of the action; ``None`` for any other action. ``state`` is left unchanged.

    After a discard every seat that cannot claim sees the same pause whether or not another
    seat can claim it, so a table shows those seats this state during the pause: the
    discard in its river, phase ``CLAIM`` on it, no seat's options, the version the window
    would open at, and the ``discard`` event only (never the next draw). For an added kong
    (加槓) it is the same with phase ``ROB`` and the ``jiagang`` event, the pung not yet a
    kong. Where ``apply`` opens a window, each seat without options sees this state as it
    sees that window (:func:`~paiju.mazhan.views.observe`) and these events as the first of
    ``apply``'s; where nobody can claim, ``apply`` goes on to the next draw. Only for
    showing: never apply an action to it.

    >>> s = new_hand(Ruleset(), seed=2)
    >>> pause, events = settling(s, Action.parse("E discard 6m"))  # nobody can claim it
    >>> pause.phase, pause.options, pause.version, [e.kind for e in events]
    (<Phase.CLAIM: 'claim'>, {}, 1, ['discard'])
    >>> s.phase, s.version, s.discards[0]  # unchanged
    (<Phase.ACT: 'act'>, 0, [])
    >>> after, _ = apply(s, Action.parse("E discard 6m"))  # South draws at once
    >>> after.phase, after.version
    (<Phase.ACT: 'act'>, 1)
    >>> settling(new_hand(Ruleset(), seed=67), Action.parse("E angang 4z")) is None
    True

    Raises what :func:`apply` raises for an action that is not legal now.
    """
    if action not in legal_actions_for(state, action.seat):
        apply(state, action)  # not legal now: raises the error apply gives for it
    kind = action.kind
    if kind is not _K_DISCARD and kind is not _K_JIAGANG:
        return None
    assert action.tile is not None
    s = state._fork()
    events: list[Event] = []
    if kind is _K_DISCARD:
        _discard(s, s.current, action.tile.index, events, settle=True)
    else:
        _declare_added_kong(s, s.current, action.tile.index, events, settle=True)
    return s, events


def _is_bonus(tile: int) -> bool:
    return tile >= 34 or tile == _WHITE


#: The bonus faces in face order: 白, then the flowers and seasons
_BONUS_FACES = tuple(t for t in range(42) if _is_bonus(t))


def acting(state: State) -> tuple[Seat, ...]:
    """The seats that may act now (several during a claim window; none once it is over).

    >>> acting(new_hand(Ruleset(), seed=2))
    (<Seat.E: 'E'>,)
    """
    phase = state.phase
    if phase is _P_ACT:
        return _ACTING[state.current]
    if phase is _P_OVER:
        return ()
    d = state.claim_from
    return tuple(compress(_SEATS_AFTER[d], map(state.options.__contains__, _INDEX_AFTER[d])))


def legal_actions(state: State) -> list[Action]:
    """Every legal action now, for every seat that may act (the single source of truth).

    >>> state = new_hand(Ruleset(), seed=2)
    >>> all(a.seat is Seat.E for a in legal_actions(state))
    True
    """
    if state.phase is _P_ACT:
        return list(_act_options(state))
    out: list[Action] = []
    for seat in acting(state):
        out.extend(state.options[seat.number - 1])
    return out


def legal_actions_for(state: State, seat: Seat) -> tuple[Action, ...]:
    """The legal actions of one seat (empty when it may not act).

    >>> legal_actions_for(new_hand(Ruleset(), seed=2), Seat.W)
    ()
    """
    if state.phase is _P_ACT:
        return _act_options(state) if seat.number - 1 == state.current else ()
    if state.phase is _P_OVER:
        return ()
    return state.options.get(seat.number - 1, ())


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` and return the new state and the events it caused.

    >>> state = new_hand(Ruleset(), seed=2)
    >>> apply(state, Action.parse("S pass"))
    Traceback (most recent call last):
    ...
    paiju.errors.NotYourTurnError: S pass: South may not act now

    Raises :class:`~paiju.errors.GameOverError` on a finished hand,
    :class:`~paiju.errors.NotYourTurnError` for a seat that may not act and
    :class:`~paiju.errors.IllegalActionError` for an action the rules do not allow. The
    messages name only what the acting seat may know (never who else may claim).
    """
    phase = state.phase
    if phase is _P_ACT:  # legal_actions_for, inlined: the hot path
        legal = (
            (state._act or _act_options(state)) if action.seat.number - 1 == state.current else ()
        )
    elif phase is _P_OVER:
        raise GameOverError(f"{action}: the hand is over")
    else:
        legal = state.options.get(action.seat.number - 1, ())
    if not legal:
        raise NotYourTurnError(f"{action}: {_SEAT_EN[action.seat]} may not act now")
    # the legal actions are interned: one taken from them is found by identity, in C
    if not any(map(is_, legal, repeat(action))) and action not in legal:
        raise IllegalActionError(
            f"{action} is not legal now ({state.phase.value}); legal: "
            + ", ".join(str(a) for a in legal)
        )
    s = state._fork()
    events: list[Event] = []
    if s.phase is _P_ACT:
        _act(s, action, events)
    else:
        o = action.seat.number - 1
        s.decisions = {**s.decisions, o: action}
        options = s.options = dict(s.options)
        del options[o]
        event = _EV_DECISION.get(id(action))
        if event is None:  # an action equal to a legal one, not the engine's own object
            tiles = action.chow if action.kind is _K_CHI else ()
            event = Event(
                "decision", action.seat, tiles, detail=action.kind.value, audience=action.seat
            )
        events.append(event)
        if not options:
            if s.phase is _P_CLAIM:
                _resolve_claims(s, events)
            else:
                _resolve_rob(s, events)
    return s, events


_new_state = object.__new__

_SEAT_EN = {Seat.E: "East", Seat.S: "South", Seat.W: "West", Seat.N: "North"}


# --- what the hot paths keep ---------------------------------------------------------------
#
# The engine keeps each seat's natural tiles (the ★ left out) as four base-5 suit keys,
# ``_keys[4 * seat + suit]``, updated as tiles move, so a win check is one table lookup
# (:func:`~paiju.mazhan.hand.is_complete_keys`). A state made by :func:`apply` shares its
# per-seat lists with the state it came from until it changes one: ``_owned`` has a bit per
# seat and kind of list (hands 0–3, rivers 4–7, melds 8–11, bonus tiles 12–15), and one per
# list of those lists but ``hands`` (rivers 16, melds 17, bonus tiles 18), which a state shares
# too until it changes one of their seats. Actions and the common events are interned: built
# once here, shared by every state.
#
# A claim check on a discard is skipped for a seat known to be far from a win: ``_known``
# has a bit for each seat whose ``_near`` bit is up to date (cleared when its hand changes);
# ``_near`` is set when the seat's natural tiles need at most one ★ more than it holds
# (``hand.least_need``, a lower bound from the tables), and always for a seat holding three
# ★. One more tile lowers the ★ a hand needs by at most one (the tile could have been a ★),
# so a seat that needs two more than it holds cannot win on any discard.

# Enum members read as module globals: on CPython 3.11 ``Phase.ACT`` is an attribute
# lookup on the enum class through its metaclass, several times a global's cost, and an
# action reads about ten of them.
_P_ACT, _P_CLAIM, _P_ROB, _P_OVER = Phase.ACT, Phase.CLAIM, Phase.ROB, Phase.OVER
_K_DISCARD, _K_HU, _K_SHAZHU = ActionKind.DISCARD, ActionKind.HU, ActionKind.SHAZHU
_K_ANGANG, _K_JIAGANG, _K_GANG = ActionKind.ANGANG, ActionKind.JIAGANG, ActionKind.GANG
_K_PENG, _K_CHI, _K_PASS = ActionKind.PENG, ActionKind.CHI, ActionKind.PASS
_M_CHOW, _M_PUNG, _M_KONG, _M_CKONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.CKONG
#: ``_OTHERS[c]``: for each other seat ``o`` in play order after ``c``, ``(steps from c, o,
#: o's bit, where o's suit keys start)``
_OTHERS = tuple(
    tuple((k, (c + k) % 4, 1 << (c + k) % 4, 4 * ((c + k) % 4)) for k in (1, 2, 3))
    for c in range(4)
)
#: ``_STALE[c][known]``: each other seat ``o`` whose bit is down in ``known``, as ``(o, its
#: bit, where its suit keys start)``
_STALE = tuple(
    tuple(tuple((o, bit, b) for _k, o, bit, b in others if not known & bit) for known in range(16))
    for others in _OTHERS
)
#: ``_NEXT3[c]``: the other seats in play order after ``c``; ``_OTHERS_MASK[c]`` their bits
_NEXT3 = tuple(((c + 1) % 4, (c + 2) % 4, (c + 3) % 4) for c in range(4))
_OTHERS_MASK = tuple(15 & ~(1 << c) for c in range(4))
#: ``acting`` in phase ``ACT``: one tuple per seat, made once
_ACTING = tuple((seat,) for seat in SEATS)
#: ``_AFTER[d]``: the other seats in play order after seat ``d``, as (index, seat)
_AFTER = tuple(tuple(((d + k) % 4, SEATS[(d + k) % 4]) for k in (1, 2, 3)) for d in range(4))
_INDEX_AFTER = tuple(tuple(o for o, _seat in after) for after in _AFTER)
_SEATS_AFTER = tuple(tuple(seat for _o, seat in after) for after in _AFTER)
_SUIT = tuple(f // 9 for f in range(34))
_P5 = tuple(5 ** (f % 9) for f in range(34))
_RIVERS, _MELDS, _BONUS = 1 << 16, 1 << 17, 1 << 18
_ALL_OWNED = 0x7FFFF
#: In ``_owned`` too: the seat to move drew while known to be far from a win (its ``_near``
#: bit down and up to date, so its hand needed two ★ more than it held): no tile can have
#: completed it, and the 自摸 check is skipped. Never set by :meth:`State.copy`.
_FAR = 1 << 19


def _natural_keys(hands: list[list[int]], wild: int) -> list[int]:
    keys: list[int] = []
    for h in hands:
        ks = list(suit_keys(h))
        ks[_SUIT[wild]] -= h[wild] * _P5[wild]
        keys.extend(ks)
    return keys


def _keys_of(s: State) -> list[int]:
    keys = s._keys
    if keys is None:
        keys = s._keys = _natural_keys(s.hands, s.wild)
    return keys


def _hand(s: State, seat: int) -> list[int]:
    bit = 1 << seat
    if s._owned & bit:
        return s.hands[seat]
    s._owned |= bit
    h = s.hands[seat] = s.hands[seat][:]
    return h


def _river(s: State, seat: int) -> tuple[list[int], list[int]]:
    bit = 16 << seat
    owned = s._owned
    if not owned & bit:
        if not owned & _RIVERS:
            owned |= _RIVERS
            s.discards = s.discards[:]
            s.claimed_by = s.claimed_by[:]
        s._owned = owned | bit
        s.discards[seat] = s.discards[seat][:]
        s.claimed_by[seat] = s.claimed_by[seat][:]
    return s.discards[seat], s.claimed_by[seat]


def _meld_lists(s: State, seat: int) -> tuple[list[Meld], list[tuple[int, int]]]:
    bit = 256 << seat
    owned = s._owned
    if not owned & bit:
        if not owned & _MELDS:
            owned |= _MELDS
            s.melds = s.melds[:]
            s.meld_src = s.meld_src[:]
        s._owned = owned | bit
        s.melds[seat] = s.melds[seat][:]
        s.meld_src[seat] = s.meld_src[seat][:]
    return s.melds[seat], s.meld_src[seat]


def _bonus_list(s: State, seat: int) -> list[int]:
    bit = 4096 << seat
    owned = s._owned
    if not owned & bit:
        if not owned & _BONUS:
            owned |= _BONUS
            s.bonus = s.bonus[:]
        s._owned = owned | bit
        s.bonus[seat] = s.bonus[seat][:]
    return s.bonus[seat]


def _add(s: State, seat: int, f: int, n: int) -> None:
    """``n`` (may be negative) tiles of face ``f`` into ``seat``'s hand, keys kept."""
    _hand(s, seat)[f] += n
    s._known &= ~(1 << seat)
    if f != s.wild:
        _keys_of(s)[4 * seat + _SUIT[f]] += n * _P5[f]


def _wins_with(keys: list[int], seat: int, f: int, wilds: int) -> bool:
    """Whether ``seat``'s hand (``3n + 1`` tiles) is complete with one more tile ``f``."""
    b = 4 * seat
    k = keys[b : b + 4]
    k[_SUIT[f]] += _P5[f]
    return is_complete_keys(k[0], k[1], k[2], k[3], wilds)


def _interned(kind: ActionKind, faces: Iterable[int]) -> tuple[tuple[Action, ...], ...]:
    """``[seat][face]``: the action of that kind on that face (``None`` where it cannot be)."""
    wanted = set(faces)
    return tuple(
        tuple(Action(seat, kind, ALL_TILES[f]) if f in wanted else None for f in range(34))  # type: ignore[misc]
        for seat in SEATS
    )


_A_HU = tuple(Action(seat, ActionKind.HU) for seat in SEATS)
_A_SHAZHU = tuple(Action(seat, ActionKind.SHAZHU) for seat in SEATS)
_A_GANG = tuple(Action(seat, ActionKind.GANG) for seat in SEATS)
_A_PENG = tuple(Action(seat, ActionKind.PENG) for seat in SEATS)
_A_PASS = tuple(Action(seat, ActionKind.PASS) for seat in SEATS)
_A_DISCARD = _interned(ActionKind.DISCARD, range(34))
_A_ANGANG = _interned(ActionKind.ANGANG, range(34))
_A_JIAGANG = _interned(ActionKind.JIAGANG, range(34))
_A_CHI = _interned(ActionKind.CHI, (f for f in range(27) if f % 9 <= 6))
#: ``_CHOWS[wild][f]``: for a suit tile ``f``, each chow holding it as (lowest tile, the two
#: others), but those whose two others need the wild face (a ★ never makes a chow)
_CHOWS = tuple(
    tuple(
        tuple(
            (base, *(t for t in (base, base + 1, base + 2) if t != f))
            for base in range(f - f % 9 + max(0, f % 9 - 2), f - f % 9 + min(f % 9, 6) + 1)
            if wild not in (base, base + 1, base + 2) or wild == f
        )
        if f < 27
        else ()
        for f in range(34)
    )
    for wild in range(34)
)
_EV_DISCARD = tuple(
    tuple(Event("discard", seat, (ALL_TILES[f],)) for f in range(34)) for seat in SEATS
)
_EV_DRAW = tuple(
    tuple(
        (
            Event("draw", seat, (ALL_TILES[f],), private=True, detail="head"),
            Event("draw", seat, (ALL_TILES[f],), private=True, detail="tail"),
        )
        for f in range(34)
    )
    for seat in SEATS
)
_EV_BONUS = tuple(tuple(Event("bonus", seat, (ALL_TILES[f],)) for f in range(42)) for seat in SEATS)
_LIUJU = Event("liuju", None, detail="流局")
#: The melds a claim lays down, and their events, made once: ``_PUNGS[f]``, ``_CHOWS_LAID[base]``
#: (by the chow's lowest face), ``_EV_PENG[seat][f]``, ``_EV_CHI[seat][base]``
_PUNGS = tuple(Meld(_M_PUNG, (t,) * 3) for t in ALL_TILES[:34])
_CHOWS_LAID = {
    base: Meld(_M_CHOW, tuple(ALL_TILES[base : base + 3])) for base in range(27) if base % 9 <= 6
}
_EV_PENG = tuple(tuple(Event("peng", seat, m.tiles) for m in _PUNGS) for seat in SEATS)
_EV_CHI = tuple(
    {base: Event("chi", seat, m.tiles) for base, m in _CHOWS_LAID.items()} for seat in SEATS
)
#: The ``decision`` event of each answer in a window, by the interned action's ``id`` (the
#: interned actions live as long as the module, so no other object can take their ids)
_EV_DECISION = {
    id(a): Event(
        "decision", a.seat, a.chow if a.kind is _K_CHI else (), detail=a.kind.value, audience=a.seat
    )
    for a in chain(
        _A_HU, _A_GANG, _A_PENG, _A_PASS, (a for row in _A_CHI for a in row if a is not None)
    )
}


# --- the seat to move --------------------------------------------------------------------


def _act_options(s: State) -> tuple[Action, ...]:
    act = s._act
    if act is not None:
        return act
    c = s.current
    h = s.hands[c]
    wild = s.wild
    w = h[wild]
    # the counts as bytes, the ★ left out (it is never discarded): searched in C
    hb = bytearray(h)
    hb[wild] = 0
    out: list[Action] = []
    if s.drew:
        if not s._owned & _FAR:  # else it was too far from a win before this draw
            keys = _keys_of(s)
            b = 4 * c
            if is_complete_keys(keys[b], keys[b + 1], keys[b + 2], keys[b + 3], w):
                out.append(_A_HU[c])
        if w == 3:
            out.append(_A_SHAZHU[c])
        if 4 in hb:
            angang = _A_ANGANG[c]
            out.extend(angang[f] for f in range(34) if h[f] == 4)  # never the ★ (3 at most)
        for meld in s.melds[c]:
            if meld.kind is _M_PUNG and h[meld.face.index]:
                out.append(_A_JIAGANG[c][meld.face.index])
    elif w == 3:
        out.append(_A_SHAZHU[c])
    discards = tuple(compress(_A_DISCARD[c], hb))  # every face held but the ★
    act = s._act = tuple(out) + discards if out else discards
    return act


def _act(s: State, action: Action, events: list[Event]) -> None:
    c = s.current
    kind = action.kind
    if kind is _K_DISCARD:
        assert action.tile is not None
        _discard(s, c, action.tile.index, events)
    elif kind is _K_HU:
        tianhu = c == 0 and not s.dealer_discarded
        win_by = WinBy.KONG_REPLACEMENT if s.after_kong else WinBy.SELF_DRAW
        tile = None if s.drawn < 0 else ALL_TILES[s.drawn]
        _finish(s, events, c, win_by, tile, None, tianhu=tianhu, dihu=False)
    elif kind is _K_SHAZHU:
        _finish(s, events, c, WinBy.SHA_ZHU, None, None, tianhu=False, dihu=False)
    elif kind is _K_ANGANG:
        assert action.tile is not None
        f = action.tile.index
        _add(s, c, f, -4)
        melds, src = _meld_lists(s, c)
        melds.append(Meld(_M_CKONG, (action.tile,) * 4))
        src.append((-1, -1))
        s.kongs += 1
        events.append(Event("angang", action.seat, (action.tile,) * 4, private=True))
        _draw(s, c, events, from_tail=True)
    else:  # JIAGANG
        assert action.tile is not None
        _declare_added_kong(s, c, action.tile.index, events)


def _declare_added_kong(
    s: State, c: int, f: int, events: list[Event], *, settle: bool = False
) -> None:
    """``c`` adds ``f`` to its pung: a rob window to the seats that can win on it, else the
    kong and its replacement; with ``settle``, a rob window open to nobody (:func:`settling`)."""
    robbers = {} if settle else _robbers(s, c, f)
    events.append(Event("jiagang", SEATS[c], (ALL_TILES[f],)))
    if robbers or settle:
        _open_window(s, _P_ROB, c, f, robbers)
    else:
        _complete_added_kong(s, c, f, events)


def _robbers(s: State, c: int, f: int) -> dict[int, tuple[Action, ...]]:
    """The seats that can win on the tile ``f`` added to ``c``'s pung (搶槓)."""
    robbers: dict[int, tuple[Action, ...]] = {}
    keys = _keys_of(s)
    for k in (1, 2, 3):
        o = (c + k) % 4
        if _wins_with(keys, o, f, s.hands[o][s.wild]):
            robbers[o] = (_A_HU[o], _A_PASS[o])
    return robbers


def _open_window(
    s: State, phase: Phase, c: int, f: int, options: dict[int, tuple[Action, ...]]
) -> None:
    s.phase = phase
    s.current = c
    s.claim_tile = f
    s.claim_from = c
    s.options = options
    s.decisions = {}
    s.window_version = s.version
    s.drawn = -1
    s.drew = False
    s.after_kong = False


def _complete_added_kong(s: State, c: int, f: int, events: list[Event]) -> None:
    _add(s, c, f, -1)
    melds = _meld_lists(s, c)[0]
    for i, meld in enumerate(melds):
        if meld.kind is _M_PUNG and meld.face.index == f:
            melds[i] = Meld(_M_KONG, (meld.face,) * 4)
            break
    s.kongs += 1
    _draw(s, c, events, from_tail=True)


def _claim_options(s: State, c: int, f: int, keys: list[int]) -> dict[int, tuple[Action, ...]]:
    """Every other seat's options on ``c``'s discard ``f`` (``pass`` included); ``keys``
    are the state's suit keys."""
    wild = s.wild
    hands = s.hands
    known = s._known
    near = s._near
    stale = _STALE[c][known]  # the other seats whose hands changed since their bound
    if stale:
        for o, bit, b in stale:
            known |= bit
            w = hands[o][wild]
            # three ★ are checked on every discard, as if near (see _FAR too)
            if w == 3 or least_need(keys[b], keys[b + 1], keys[b + 2], keys[b + 3]) <= w + 1:
                near |= bit
            else:
                near &= ~bit
        s._known = known
        s._near = near
    o1, o2, o3 = _NEXT3[c]
    h1 = hands[o1]
    # the chows the next seat's tiles make (by their lowest face; none on an honour)
    next_chows = [base for base, t1, t2 in _CHOWS[wild][f] if h1[t1] and h1[t2]]
    # most discards: no seat near a win, none holding a pair of the tile, no chow for the
    # next seat, said in a few lookups
    if (
        not next_chows
        and not near & _OTHERS_MASK[c]
        and h1[f] < 2
        and hands[o2][f] < 2
        and hands[o3][f] < 2
    ):
        return {}
    options: dict[int, tuple[Action, ...]] = {}
    for k, o, bit, _b in _OTHERS[c]:
        h = hands[o]
        hu = _wins_with(keys, o, f, h[wild]) if near & bit else False
        held = h[f]
        chows = next_chows if k == 1 else None
        if not hu and held < 2 and not chows:
            continue
        opts: list[Action] = [_A_HU[o]] if hu else []
        if held == 3:
            opts.append(_A_GANG[o])
        if held >= 2 or chows:
            spare = sum(h) - 2 - h[wild]  # non-★ tiles left to discard after a pung or chow
            if held >= 2 and spare >= 1:
                opts.append(_A_PENG[o])
            if chows and spare >= 1:
                chi = _A_CHI[o]
                opts.extend([chi[base] for base in chows])
        if opts:
            opts.append(_A_PASS[o])
            options[o] = tuple(opts)
    return options


def _discard(s: State, c: int, f: int, events: list[Event], settle: bool = False) -> None:
    """``c`` discards ``f``: a claim window to the seats that can claim it, else the next
    seat's turn; with ``settle``, a window open to nobody (:func:`settling`)."""
    # _add(s, c, f, -1) and _river(s, c) inlined: f is never the wild face, and a discard
    # is the first change an action makes, so the hand and the river are copied outright
    bit = 1 << c
    h = s.hands[c] = s.hands[c][:]
    h[f] -= 1
    s._owned |= bit | _RIVERS | (16 << c)
    s._known &= ~bit
    keys = s._keys
    assert keys is not None
    keys[4 * c + _SUIT[f]] -= _P5[f]
    rivers = s.discards = s.discards[:]
    rivers[c] = [*rivers[c], f]
    claimed = s.claimed_by = s.claimed_by[:]
    claimed[c] = [*claimed[c], -1]
    events.append(_EV_DISCARD[c][f])
    first = c == 0 and not s.dealer_discarded
    if c == 0:
        s.dealer_discarded = True
    options = {} if settle else _claim_options(s, c, f, keys)
    if options or settle:
        _open_window(s, _P_CLAIM, c, f, options)
        s.dihu_window = first and s.kongs == 0
    else:
        _next_turn(s, (c + 1) % 4, events)


def _enter_act(s: State, seat: int) -> None:
    """Phase ``ACT`` for ``seat``, the window's fields cleared."""
    s.phase = _P_ACT
    s.current = seat
    s.claim_tile = -1
    s.claim_from = -1
    s.options = {}
    s.decisions = {}
    s.dihu_window = False
    s.window_version = 0


def _next_turn(s: State, seat: int, events: list[Event]) -> None:
    if s.tail - s.head <= s.ruleset.dead_wall:
        _enter_act(s, seat)
        events.append(Event("exhausted", SEATS[seat], detail=f"{s.tail - s.head} tiles left"))
        _finish_draw(s, events)
        return
    _draw(s, seat, events, from_tail=False)


def _draw(s: State, seat: int, events: list[Event], *, from_tail: bool) -> None:
    """Draw for ``seat``: from the head, or from the tail for a replacement; lay out bonus
    tiles and replace them from the tail. An empty wall when a tile is due is a draw."""
    if s.phase is not _P_ACT:  # after a window; in ACT the window's fields hold already
        _enter_act(s, seat)
    s.current = seat
    s.drew = True
    s.after_kong = from_tail
    wall = s.wall
    while True:
        if s.head >= s.tail:
            s.drawn = -1
            events.append(Event("exhausted", SEATS[seat], detail="no tile left to replace"))
            _finish_draw(s, events)
            return
        if from_tail:
            s.tail -= 1
            tile = wall[s.tail]
        else:
            s.head += 1
            tile = wall[s.head - 1]
        if tile >= 34 or tile == _WHITE:
            _bonus_list(s, seat).append(tile)
            events.append(_EV_BONUS[seat][tile])
            from_tail = True
            continue
        # _add(s, seat, tile, 1) and _hand(s, seat) inlined
        bit = 1 << seat
        owned = s._owned
        if owned & bit:
            s.hands[seat][tile] += 1
        else:
            s._owned = owned | bit
            h = s.hands[seat] = s.hands[seat][:]
            h[tile] += 1
        known = s._known
        if known & bit and not s._near & bit:
            # it needed two ★ more than it held: no one tile completes it (see _FAR)
            s._owned |= _FAR
        s._known = known & ~bit
        if tile != s.wild:
            keys = s._keys
            assert keys is not None
            keys[4 * seat + _SUIT[tile]] += _P5[tile]
        s.drawn = tile
        events.append(_EV_DRAW[seat][tile][from_tail])
        return


# --- claims ------------------------------------------------------------------------------


def _lost_claims(s: State, winner: Action | None, events: list[Event]) -> None:
    """A private ``claim_lost`` to each seat whose claim (not a pass) did not win."""
    decided = s.decisions
    for o, _seat in _AFTER[s.claim_from]:  # in play order after the discarder
        a = decided.get(o)
        if a is None or a is winner or a.kind is _K_PASS:
            continue
        events.append(
            Event(
                "claim_lost",
                a.seat,
                detail="" if winner is None else str(winner),
                audience=a.seat,
            )
        )


def _close_window(s: State, winner: int) -> None:
    """The window's answers each seat could not see, added to its ``unseen``: every answer
    but the winning claim (``winner``'s; −1 when none won) and the seat's own."""
    decided = s.decisions
    n = len(decided)
    u = s.unseen
    if winner < 0:  # only passes
        s.unseen = (
            u[0] + n - (0 in decided),
            u[1] + n - (1 in decided),
            u[2] + n - (2 in decided),
            u[3] + n - (3 in decided),
        )
    elif n > 1:  # a claim won over other answers
        n -= 1
        s.unseen = (
            u[0] + n - (winner != 0 and 0 in decided),
            u[1] + n - (winner != 1 and 1 in decided),
            u[2] + n - (winner != 2 and 2 in decided),
            u[3] + n - (winner != 3 and 3 in decided),
        )
    # else the winning claim was the only answer, and every seat saw it


def _resolve_claims(s: State, events: list[Event]) -> None:
    d = s.claim_from
    f = s.claim_tile
    decided = s.decisions
    # one pass in play order after the discarder: the first 胡 wins outright, else the
    # first 槓 or 碰, else the first 吃; nothing but passes lets the next seat draw
    won = -1
    claim = -1
    chow = -1
    for o, _seat in _AFTER[d]:
        a = decided.get(o)
        if a is None:
            continue
        kind = a.kind
        if kind is _K_HU:
            won = o
            break
        if kind is _K_GANG or kind is _K_PENG:
            if claim < 0:
                claim = o
        elif kind is _K_CHI and chow < 0:
            chow = o
    if won >= 0:
        o = won
        _close_window(s, o)
        _lost_claims(s, decided[o], events)
        _river(s, d)[1][-1] = o
        _add(s, o, f, 1)
        _finish(
            s,
            events,
            o,
            WinBy.DISCARD,
            ALL_TILES[f],
            SEATS[d],
            tianhu=False,
            dihu=s.dihu_window and o != 0,
        )
        return
    if claim >= 0:
        o = claim
        a = decided[o]
        tile = ALL_TILES[f]
        _close_window(s, o)
        _lost_claims(s, a, events)
        _river(s, d)[1][-1] = o
        melds, src = _meld_lists(s, o)
        if a.kind is _K_GANG:
            _add(s, o, f, -3)
            melds.append(Meld(_M_KONG, (tile,) * 4))
            src.append((d, f))
            s.kongs += 1
            events.append(Event("gang", a.seat, (tile,) * 4))
            _draw(s, o, events, from_tail=True)
        else:
            _add(s, o, f, -2)
            melds.append(_PUNGS[f])
            src.append((d, f))
            events.append(_EV_PENG[o][f])
            _after_claim(s, o)
        return
    if chow >= 0:
        o = chow
        a = decided[o]
        _close_window(s, o)
        _lost_claims(s, a, events)
        _river(s, d)[1][-1] = o
        assert a.tile is not None  # a chi names its lowest tile
        base = a.tile.index
        for t in (base, base + 1, base + 2):
            if t != f:
                _add(s, o, t, -1)
        melds, src = _meld_lists(s, o)
        melds.append(_CHOWS_LAID[base])
        src.append((d, f))
        events.append(_EV_CHI[o][base])
        _after_claim(s, o)
        return
    _close_window(s, -1)
    _next_turn(s, (d + 1) % 4, events)


def _after_claim(s: State, seat: int) -> None:
    _enter_act(s, seat)
    s.drew = False
    s.after_kong = False
    s.drawn = -1


def _resolve_rob(s: State, events: list[Event]) -> None:
    c = s.claim_from
    f = s.claim_tile
    for k in (1, 2, 3):
        o = (c + k) % 4
        a = s.decisions.get(o)
        if a is not None and a.kind is _K_HU:
            _close_window(s, o)
            _lost_claims(s, a, events)
            _add(s, c, f, -1)  # the robbed player keeps the pung
            _add(s, o, f, 1)
            _finish(
                s, events, o, WinBy.ROBBED_KONG, ALL_TILES[f], SEATS[c], tianhu=False, dihu=False
            )
            return
    _close_window(s, -1)
    _complete_added_kong(s, c, f, events)


# --- the end -----------------------------------------------------------------------------


def _seat_hands(s: State) -> dict[Seat, SeatHand]:
    return {
        seat: SeatHand(
            s.concealed(seat),
            tuple(s.melds[i]),
            tuple(ALL_TILES[b] for b in s.bonus[i]),
        )
        for i, seat in enumerate(SEATS)
    }


def _end(s: State) -> None:
    """Phase ``OVER``, every turn and window field cleared."""
    _enter_act(s, 0)
    s.phase = _P_OVER
    s.drawn = -1
    s.drew = False
    s.after_kong = False


def _finish(
    s: State,
    events: list[Event] | None,
    winner: int,
    win_by: WinBy,
    win_tile: Tile | None,
    discarder: Seat | None,
    *,
    tianhu: bool,
    dihu: bool,
    eager: bool = False,
) -> None:
    finished = FinishedHand(
        ALL_TILES[s.wild],
        SEATS[winner],
        win_tile,
        win_by,
        discarder,
        tianhu,
        dihu,
        _seat_hands(s),
    )
    s.result = HandResult(SEATS[winner], win_by, win_tile, discarder, tianhu, dihu, finished)
    if eager or _EAGER[0]:
        s.result.settlement  # noqa: B018  (validate and score now: the engine's safety net)
    _end(s)
    if events is not None:
        events.append(
            Event("hu", SEATS[winner], () if win_tile is None else (win_tile,), detail=win_by.value)
        )


def _finish_draw(s: State, events: list[Event] | None, *, eager: bool = False) -> None:
    finished = FinishedHand(ALL_TILES[s.wild], None, None, None, None, False, False, _seat_hands(s))
    s.result = HandResult(None, None, None, None, False, False, finished)
    if eager or _EAGER[0]:
        s.result.settlement  # noqa: B018  (validate and score now: the engine's safety net)
    _end(s)
    if events is not None:
        events.append(_LIUJU)
