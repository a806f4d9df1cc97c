"""One protocol for every game: what the driver, replays, the arena, the environments and the
server use, so that none of them ever asks which game it holds.

A :class:`Game` is the hand level (deal, legal actions, apply, observe, is over, result,
transfers) and the match level (:class:`Deal`: who sits where and what the next hand needs;
:meth:`Game.next_deal` passes the deal or the bank round), with its calculators
(:attr:`Game.calculators`: the scorer pages' answers, JSON in, JSON out).

A game is one folder (``paiju/<game>/``: its core, its ``game`` module, its bots, its
environments, its typed views) and one registration: its ``game`` module calls
:func:`register` once, and its :class:`Registration` holds the game, its title, its unit, its
rooms, how to read its written positions, how its summary reads and where its other parts
are (:attr:`Registration.parts`: the modules that register its bots, its environments, its
typed views). Everything else looks a game up by name (:func:`game`, :func:`registration`,
:func:`names`), never tests one. The installed games are found by their entry points
(:data:`ENTRY_POINTS`, declared in ``pyproject.toml``) on the first look-up (:func:`load`); a
game defined elsewhere may also simply call :func:`register`.

>>> g = game(names()[0])
>>> state = g.new_hand(g.default_ruleset(), 7, g.first_deal(random.Random(1)).setup)
>>> g.is_over(state), len(g.acting(state))
(False, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib.metadata import entry_points
from types import MappingProxyType
from typing import Any, Generic, Protocol, TypeVar

from paiju.errors import ReplayError, RulesError
from paiju.kit.events import events_json

__all__ = [
    "ENTRY_POINTS",
    "PARTS",
    "Calculator",
    "Deal",
    "Game",
    "HandOutcome",
    "InputProblems",
    "Registration",
    "RoomKind",
    "SeatEvent",
    "SeatView",
    "SummaryReport",
    "Tally",
    "Transfer",
    "events_json",
    "game",
    "game_of",
    "load",
    "names",
    "register",
    "registration",
    "replay",
]

#: A game folder's modules of the other layers (:attr:`Registration.parts`), by layer: the
#: names every game of paiju's own uses (``paiju/<game>/bots/`` …).
PARTS = {"bots": "bots", "env": "env", "views": "schema"}

#: The entry-point group naming each installed game's ``game`` module (importing it
#: registers the game); pyproject.toml declares paiju's own.
ENTRY_POINTS = "paiju.games"

S = TypeVar("S")  # a hand's state
A = TypeVar("A")  # an action
V = TypeVar("V", bound="SeatView", covariant=True)  # a seat's view
R = TypeVar("R")  # a ruleset


@dataclass(frozen=True, slots=True)
class Calculator:
    """One of a game's calculators (a finished hand's settlement, some draws' points): JSON
    in, JSON out, with what the scorer page's route and the ``paiju <game> <name>`` command
    need to offer it. Calling it runs :attr:`run`.

    ``run`` raises :class:`~paiju.errors.RulesError` (or :class:`InputProblems`) naming what
    is wrong; ``route``: its path under ``/api`` (``POST``); ``heavy``: an input built to be
    slow can hold the interpreter for a noticeable time, so the server answers one at a time
    in a worker thread; ``contract``: what its input follows (a rules section), for an error
    message; ``command``: what the command prints as JSON, when it differs from ``run``'s
    answer; ``explain``: that printout as readable tables (``--explain``).

    >>> double = Calculator(lambda data: {"twice": 2 * data}, "double a number", "/double")
    >>> double(21)
    {'twice': 42}
    """

    run: Callable[[object], dict[str, Any]]
    help: str
    route: str
    description: str = ""
    contract: str = "the rules"
    heavy: bool = False
    command: Callable[[object], dict[str, Any]] | None = None
    explain: Callable[[dict[str, Any]], str] | None = None

    def __call__(self, data: object) -> dict[str, Any]:
        """The answer to ``data`` (:attr:`run`)."""
        return self.run(data)

    def printout(self, data: object) -> dict[str, Any]:
        """What ``paiju <game> <name>`` prints for ``data``: :attr:`command`'s answer, or
        :attr:`run`'s.

        >>> Calculator(lambda d: {"web": d}, "h", "/x", command=lambda d: {"cli": d}).printout(1)
        {'cli': 1}
        """
        return (self.command or self.run)(data)


class SeatView(Protocol):
    """What a seat sees (:meth:`Game.observe`), as the JSON its player is sent: a ``game``
    (the game's name), its ``legal`` actions as text, and whatever else the game shows."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON."""
        ...


class SeatEvent(Protocol):
    """What happened (the events :meth:`Game.apply` returns), as a seat may see it."""

    def to_json(self, viewer: Any) -> dict[str, Any] | None:
        """The event as ``viewer`` (a seat, or ``None`` for nobody's) may see it; ``None``
        when it is not for them."""
        ...


class InputProblems(RulesError):
    """Every problem a calculator found in its input, for a person to fix them at once; its
    message, ``why``, ``field`` and ``params`` are the first problem's.

    >>> err = InputProblems([RulesError("wild: no", why="one_tile", field="wild"),
    ...                      RulesError("winner: no")])
    >>> str(err), err.detail(), len(err.problems)
    ('wild: no', {'why': 'one_tile', 'field': 'wild', 'params': {}}, 2)

    Raises ``ValueError`` for no problems.
    """

    def __init__(self, problems: Sequence[RulesError]) -> None:
        if not problems:
            raise ValueError("InputProblems needs at least one problem")
        first = problems[0]
        super().__init__(str(first), why=first.why, field=first.field, **first.params)
        self.code = first.code
        #: Every problem, the first being the one this error says.
        self.problems = tuple(problems)


@dataclass(frozen=True, slots=True)
class Deal:
    """A match position: the next hand's number, who sits where, what it needs besides its
    seed.

    ``seating[i]`` is the player (0–3) in seat ``i`` (E, S, W, N); ``setup`` is JSON the
    game's :meth:`Game.new_hand` reads (a banker, once known).

    >>> Deal(0, (2, 3, 0, 1)).player_in(0)
    2
    """

    hand: int
    seating: tuple[int, int, int, int]
    setup: Mapping[str, Any] = field(default_factory=dict)

    def player_in(self, seat: int) -> int:
        """The player sitting in seat ``seat`` (0–3).

        >>> Deal(0, (0, 1, 2, 3)).player_in(3)
        3
        """
        return self.seating[seat]

    def seat_of(self, player: int) -> int:
        """The seat (0–3) of player ``player``.

        >>> Deal(0, (2, 3, 0, 1)).seat_of(0)
        2
        """
        return self.seating.index(player)


@dataclass(frozen=True, slots=True)
class Transfer:
    """Units (the game's :attr:`Registration.unit`) one seat pays another at a hand's end,
    and why.

    >>> Transfer(0, 1, Fraction(5, 2), "win").to_json()
    {'from': 0, 'to': 1, 'units': '5/2', 'reason': 'win'}
    """

    payer: int
    payee: int
    units: Fraction
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The transfer as JSON (units as an integer, or a fraction string).

        >>> Transfer(2, 3, Fraction(4), "difference").to_json()["units"]
        4
        """
        units: int | str = int(self.units) if self.units.denominator == 1 else str(self.units)
        return {"from": self.payer, "to": self.payee, "units": units, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a hand went for one seat, for statistics: its net, whether it won, whether it
    dealt in (discarded the winning tile or was robbed, say; ``None`` where the game has
    no such thing).

    >>> HandOutcome(Fraction(-3), False, None).net
    Fraction(-3, 1)
    """

    net: Fraction
    won: bool
    dealt_in: bool | None


class Game(Protocol, Generic[S, A, V, R]):
    """A game, at the hand and at the match level. Implemented by
    each game's ``game`` module (``paiju/<game>/game.py``).
    """

    name: str
    #: The four seats in play order (E, S, W, N).
    seats: tuple[Any, ...]
    #: The bot that plays a seat nobody plays (bots filling seats, 托管, timeouts).
    default_bot: str
    #: The game's calculators by name (a finished hand's settlement, some draws' points):
    #: what the scorer pages and the ``paiju <game>`` commands ask, JSON in and out.
    calculators: Mapping[str, Calculator]

    def default_ruleset(self) -> R:
        """The game's default rules."""
        ...

    def ruleset_from_json(self, data: object) -> R:
        """Read a ruleset written by its ``to_json`` (``ValueError`` if malformed)."""
        ...

    def first_deal(self, rng: random.Random) -> Deal:
        """The position a match starts from (seats and first dealer drawn from ``rng``)."""
        ...

    def next_deal(self, deal: Deal, final: S) -> Deal:
        """The position after a hand that ended in ``final`` (the deal or bank passes)."""
        ...

    def new_hand(self, ruleset: R, seed: int, setup: Mapping[str, Any]) -> S:
        """Deal a hand from ``seed`` (``ValueError`` for a malformed setup)."""
        ...

    def deal(self, ruleset: R, seed: int, setup: Mapping[str, Any]) -> tuple[S, list[Any]]:
        """:meth:`new_hand` and the events of the deal (the dice, say, each seat's
        tiles — private —, the indicator, the bonus replacements)."""
        ...

    def setup_of(self, state: S) -> dict[str, Any]:
        """What a record needs besides the seed to deal this hand again."""
        ...

    def chance_of(self, state: S) -> dict[str, Any]:
        """What chance decided when the hand was dealt, recorded for people (the
        dice); a replay checks it."""
        ...

    def acting(self, state: S) -> tuple[Any, ...]:
        """The seats that must decide now (empty when the hand is over)."""
        ...

    def legal_actions(self, state: S, seat: Any) -> tuple[A, ...]:
        """The legal actions of ``seat`` now (empty when it may not act)."""
        ...

    def apply(self, state: S, action: A) -> tuple[S, list[Any]]:
        """The state after ``action`` and the events it caused (``RulesError`` if illegal),
        each a :class:`SeatEvent`."""
        ...

    def observe(self, state: S, seat: Any) -> V:
        """What ``seat`` may know of ``state``."""
        ...

    def seat_version(self, state: S, seat: Any) -> int:
        """The version an action of ``seat`` must carry now (and its view shows): it counts
        only what the seat could see, so it may differ between seats."""
        ...

    def settling(self, state: S, action: A) -> tuple[S, list[Any]] | None:
        """What to show, while the table pauses, the seats that cannot answer ``action``
        (legal in ``state``); ``None`` when the action needs no pause.

        The rule (the rules' §5, end): a seat must not learn from the table's rhythm that
        another seat can claim. After every discard (and added kong, which may be robbed)
        every seat that cannot claim sees the same pause, whether or not another seat can
        claim, and the same frames: this state, the action done and a claim window open to
        nobody, with the events of that part of the action. Where ``apply`` opens a real
        window, a seat without options sees this state exactly as it sees the window; where
        nobody can claim, the table shows it for the pause, then ``apply``'s state. Only
        for showing: never apply an action to it; ``state`` is left unchanged.

        For example, a discard that nobody can claim::

            pause, events = game.settling(state, discard)  # CLAIM, no options; ["discard"]
            after, all_events = game.apply(state, discard)  # the next seat drew

        A game without claims always answers ``None``; a game with them raises
        ``RulesError`` for an action that is not legal in ``state``, as ``apply`` does.
        """
        ...

    def is_over(self, state: S) -> bool:
        """True once the hand has ended."""
        ...

    def result_json(self, state: S) -> dict[str, Any]:
        """The result of a finished hand as its record stores it."""
        ...

    def transfers(self, state: S) -> list[Transfer]:
        """Who pays whom, in the game's units, at the end of a finished hand."""
        ...

    def outcome(self, state: S, seat: int) -> HandOutcome:
        """How a finished hand went for seat ``seat`` (0–3)."""
        ...

    def nets(self, state: S) -> list[float]:
        """Every seat's net of a finished hand (seats 0–3), as floats: the environments'
        rewards, read once per hand without building four :class:`HandOutcome`."""
        ...

    def timeout_action(self, state: S, seat: Any) -> A:
        """What the clock plays for ``seat`` when its time runs out (a claim prompt: pass)."""
        ...

    def is_prompt(self, state: S, seat: Any) -> bool:
        """True when ``seat`` is answering a claim prompt (its expiry is not a timeout)."""
        ...

    def parse_action(self, text: str) -> A:
        """Read an action in the game's notation (``NotationError`` if malformed)."""
        ...

    def tally(self) -> Tally:
        """An empty summary of many hands' results (for ``paiju simulate``)."""
        ...


class Tally(Protocol):
    """Counts over the results of many hands of one game."""

    def add(self, result: Mapping[str, Any]) -> None:
        """Count one hand's result (as :meth:`Game.result_json` gives it)."""
        ...

    def summary(self, hands: int) -> dict[str, Any]:
        """The summary over ``hands`` hands."""
        ...


@dataclass(frozen=True, slots=True)
class RoomKind:
    """A kind of room a game's tables open in (the server's rooms: who may sit, what an
    escape costs).

    >>> RoomKind("tiles-vip", "VIP 房", 1_000_000, 400).min_balance
    1000000
    """

    name: str
    title: str
    min_balance: int
    #: An escape costs this many 底注.
    escape_multiple: int


@dataclass(frozen=True, slots=True)
class SummaryReport:
    """How a game's summary (:meth:`Tally.summary`) reads as tables, in plain data: rows
    beside the hand count (label, text), one table of a row (its title, cells by column)
    and tables of counts (title, what is counted, the counts).

    >>> SummaryReport(head=(("draws", "3"),)).row
    {}
    """

    head: tuple[tuple[str, str], ...] = ()
    row_title: str = ""
    row: Mapping[str, str] = field(default_factory=dict)
    counts: tuple[tuple[str, str, Mapping[str, int]], ...] = ()


@dataclass(frozen=True, slots=True)
class Registration:
    """Everything shared code needs of a game besides the protocol, registered by the game.

    ``title``: its name in English prose; ``unit``: what its nets count; ``rooms``: the
    kinds of room it is played in; ``read_position``: a written position (:meth:`to_position`
    of its states, first word its name) back to a state, ``None`` if it has none;
    ``record_v1_setup``: the setup fields a format-1 record must carry at its top level;
    ``report``: its summary as tables (``None``: the common rows only); ``parts``: the
    modules of its other layers by layer (``bots``, ``env``, ``views``), each registering
    that layer's entries when imported, loaded by that layer's registry when first asked;
    ``order``: where it is listed among the installed games (lower first, then by name).
    """

    game: Game[Any, Any, Any, Any]
    title: str
    unit: str
    rooms: tuple[RoomKind, ...] = ()
    read_position: Callable[[str], Any] | None = None
    record_v1_setup: tuple[str, ...] = ()
    report: Callable[[Mapping[str, Any]], SummaryReport] | None = None
    parts: Mapping[str, str] = field(default_factory=dict)
    order: int = 0


_REGISTRY: dict[str, Registration] = {}
_loaded = False


def register(
    g: Game[Any, Any, Any, Any],
    *,
    title: str,
    unit: str,
    rooms: Sequence[RoomKind] = (),
    read_position: Callable[[str], Any] | None = None,
    record_v1_setup: Sequence[str] = (),
    report: Callable[[Mapping[str, Any]], SummaryReport] | None = None,
    parts: Mapping[str, str] | None = None,
    order: int = 0,
) -> Registration:
    """Register a game under its name (again: replaced); its registration.

    Raises ``ValueError`` for a game whose seats are not four.
    """
    if len(g.seats) != 4:
        raise ValueError(f"a game has four seats; {g.name!r} has {len(g.seats)}")
    entry = Registration(
        g, title, unit, tuple(rooms), read_position, tuple(record_v1_setup), report,
        MappingProxyType(dict(parts or {})), order,
    )  # fmt: skip
    _REGISTRY[g.name] = entry
    return entry


def load() -> None:
    """Register the installed games (those of :data:`ENTRY_POINTS`), once; the look-ups
    call it.

    >>> load(); len(names()) >= 2
    True

    Raises ``RuntimeError`` when no game is installed (paiju run without ``pip install``).
    """
    global _loaded
    if _loaded:
        return
    _loaded = True
    found = entry_points(group=ENTRY_POINTS)
    if not found:
        raise RuntimeError(
            f"no game is installed (entry points {ENTRY_POINTS!r}): install paiju first "
            "(`pip install -e .`, or `make run`)"
        )
    before = dict(_REGISTRY)
    for point in found:
        point.load()  # the game's module registers the game
    installed = sorted(
        ((n, r) for n, r in _REGISTRY.items() if n not in before),
        key=lambda item: (item[1].order, item[0]),
    )
    _REGISTRY.clear()
    _REGISTRY.update([*installed, *before.items()])


def names() -> tuple[str, ...]:
    """The registered games' names: the installed ones in their order
    (:attr:`Registration.order`), then those registered otherwise, in the order they
    registered.

    >>> len(names()) == len(set(names()))
    True
    """
    load()
    return tuple(_REGISTRY)


def registration(name: object) -> Registration:
    """The registration of the game called ``name``.

    >>> registration(names()[0]).game.name == names()[0]
    True

    Raises ``ValueError`` for an unknown game.
    """
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        load()
        entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise ValueError(f"unknown game {name!r} (choose from {', '.join(names())})")
    return entry


def game(name: object) -> Game[Any, Any, Any, Any]:
    """The game called ``name``.

    >>> game(names()[0]).name == names()[0]
    True
    >>> game("go")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'go' (choose from ...)

    Raises ``ValueError`` for an unknown game.
    """
    return registration(name).game


def game_of(ruleset: object) -> Game[Any, Any, Any, Any]:
    """The game a ruleset belongs to.

    >>> g = game(names()[0])
    >>> game_of(g.default_ruleset()) is g
    True

    Raises ``ValueError`` for anything else.
    """
    to_json = getattr(ruleset, "to_json", None)
    name = to_json().get("game") if callable(to_json) else None
    if not isinstance(name, str) or name not in names():
        raise ValueError(f"not a paiju ruleset: {ruleset!r}")
    return game(name)


def replay(
    g: Game[S, A, Any, R],
    ruleset: R,
    seed: int,
    setup: Mapping[str, Any],
    actions: Sequence[str | A],
    start: S | None = None,
    each: Callable[[S, list[Any]], None] | None = None,
) -> S:
    """The state after applying ``actions`` (strings or actions) to the hand dealt from
    ``seed`` (or to ``start``): a fold of :meth:`Game.apply`. ``each``, when given, is told
    the state after every action and the events it made.

    >>> g = game(names()[0])
    >>> start = g.new_hand(g.default_ruleset(), 4, g.first_deal(random.Random(4)).setup)
    >>> first = g.legal_actions(start, g.acting(start)[0])[0]
    >>> seen: list[Any] = []
    >>> state = replay(g, g.default_ruleset(), 4, g.setup_of(start), [first],
    ...                each=lambda s, e: seen.extend(e))
    >>> g.seat_version(state, g.seats[0]) > g.seat_version(start, g.seats[0]) and bool(seen)
    True

    Raises :class:`~paiju.errors.ReplayError` naming the first action that fails (1-based).
    """
    state = g.new_hand(ruleset, seed, setup) if start is None else start
    for n, item in enumerate(actions, start=1):
        try:
            action = g.parse_action(item) if isinstance(item, str) else item
            state, happened = g.apply(state, action)
        except RulesError as err:
            raise ReplayError(f"action {n} {str(item)!r}: {err}") from None
        if each is not None:
            each(state, happened)
    return state


def rotate_seating(seating: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Every player moves one seat on: South's player becomes East.

    >>> rotate_seating((0, 1, 2, 3))
    (1, 2, 3, 0)
    """
    return (seating[1], seating[2], seating[3], seating[0])
