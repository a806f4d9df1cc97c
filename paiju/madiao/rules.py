"""The Ma Diao engine: the deal, eight tricks, 開沖 and the settlement (rules §2–§4).

A hand is a fold: ``state = new_hand(ruleset, seed)``, then ``state, events = apply(state,
action)`` for each of the 32 plays. After the eighth trick the 開沖 phase runs by itself (it
holds no decision: a drawn card that scores is always taken) and the hand is settled.

Plays: the leader plays a card face up (``fa`` 發); each later player either captures (``zhuo``
捉) with a higher card of the led suit than the best face-up card so far, or discards any card
face down (``mie`` 滅); nobody must follow suit or capture. Only the trick's winning card goes
上桌.

>>> state = new_hand(Ruleset(), seed=3)
>>> len(state.hands[0]), len(state.stock), state.phase.value
(8, 8, 'tricks')
>>> state, events = apply(state, legal_actions(state)[0])
>>> events[0].kind
'play'
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from paiju.errors import GameOverError, IllegalActionError, NotationError, NotYourTurnError
from paiju.madiao.cards import ALL_CARDS, Card, parse_cards
from paiju.madiao.chong import ChongRoles, Group, base_roles
from paiju.madiao.scoring import BAILAO, Settlement, settle
from paiju.madiao.seats import SEATS, Seat

__all__ = [
    "Action",
    "ActionKind",
    "ChongDraw",
    "Event",
    "HandResult",
    "Phase",
    "Ruleset",
    "State",
    "acting",
    "apply",
    "deal",
    "events_json",
    "legal_actions",
    "legal_actions_for",
    "new_hand",
    "seat_version",
]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The options of a hand; every CHOICE of the rules is one, defaults as §6.

    - ``first_lead``: ``"banker"`` leads trick 1, or ``"next"`` (the seat after the banker).
    - ``chong_flow``: after 斷沖, ``"offer"`` the card to the others in play order (CHOICE A)
      or leave it ``"dead"`` (CHOICE B).
    - ``top_vs_top``: what a 十字 top card scores for another top card drawn (2, or 5).
    - ``shengdai``: 升代 on the 面張 (§4.7), off by default.
    - ``dahuobai``: the 大活百 bonus (3; the [Q] README's table says 5).
    - ``qiaomen``: 敲門, a 散家's 大活百 collects 1 from each other 散家.

    >>> Ruleset().to_json()["chong_flow"]
    'offer'
    >>> Ruleset.from_json(Ruleset(shengdai=True).to_json()).shengdai
    True
    """

    first_lead: str = "banker"
    chong_flow: str = "offer"
    top_vs_top: int = 2
    shengdai: bool = False
    dahuobai: int = 3
    qiaomen: bool = True

    def __post_init__(self) -> None:
        if self.first_lead not in ("banker", "next"):
            raise ValueError(f"first_lead must be 'banker' or 'next', got {self.first_lead!r}")
        if self.chong_flow not in ("offer", "dead"):
            raise ValueError(f"chong_flow must be 'offer' or 'dead', got {self.chong_flow!r}")
        for name in ("top_vs_top", "dahuobai"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"{name} must be a whole number of 注, got {value!r}")

    def to_json(self) -> dict[str, Any]:
        """The options as JSON, for game records.

        >>> sorted(Ruleset().to_json())[:3]
        ['chong_flow', 'dahuobai', 'first_lead']
        """
        return {
            "game": "madiao",
            "first_lead": self.first_lead,
            "chong_flow": self.chong_flow,
            "top_vs_top": self.top_vs_top,
            "shengdai": self.shengdai,
            "dahuobai": self.dahuobai,
            "qiaomen": self.qiaomen,
        }

    @staticmethod
    def from_json(data: object) -> Ruleset:
        """Read :meth:`to_json`'s output.

        >>> Ruleset.from_json({"game": "madiao", "colour": "red"})
        Traceback (most recent call last):
        ...
        ValueError: unknown Ma Diao ruleset options: colour
        """
        if not isinstance(data, dict) or data.get("game") != "madiao":
            raise ValueError(f"not a Ma Diao ruleset: {data!r}")
        options = {k: v for k, v in data.items() if k != "game"}
        unknown = set(options) - set(Ruleset.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown Ma Diao ruleset options: {', '.join(sorted(unknown))}")
        return Ruleset(**options)

    def roles(self, mian: Card) -> ChongRoles:
        """The 開沖 roles for a hand with this 面張.

        >>> Ruleset(shengdai=True).roles(Card.parse("9m")).shang != base_roles().shang
        True
        """
        roles = base_roles(self.top_vs_top)
        return roles.shengdai(mian) if self.shengdai else roles


class Phase(Enum):
    """Where a hand stands (開沖 runs inside the last play).

    >>> Phase("over")
    <Phase.OVER: 'over'>
    """

    TRICKS = "tricks"
    OVER = "over"


class ActionKind(Enum):
    """發 lead, 捉 capture (face up), 滅 discard (face down).

    >>> ActionKind("zhuo").name_zh
    '捉'
    """

    FA = "fa"
    ZHUO = "zhuo"
    MIE = "mie"

    @property
    def name_zh(self) -> str:
        """The Chinese name.

        >>> ActionKind.MIE.name_zh
        '滅'
        """
        return {"fa": "發", "zhuo": "捉", "mie": "滅"}[self.value]


@dataclass(frozen=True, slots=True)
class Action:
    """A play: ``"<seat> <fa|zhuo|mie> <card>"``.

    >>> Action.parse("S zhuo wt")
    Action.parse('S zhuo wt')
    >>> Action.parse("S zhuo 9x")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: unknown suit letter 'x' in 'S zhuo 9x' at position 8
    """

    seat: Seat
    kind: ActionKind
    card: Card

    @staticmethod
    def parse(text: str) -> Action:
        """Parse strictly.

        >>> Action.parse("N mie 0c").card.name_zh
        '空沒文'

        Raises :class:`~paiju.errors.NotationError` quoting the text.
        """
        if not isinstance(text, str):
            raise NotationError(
                f"expected an action string, got {text!r}", text=str(text), position=0
            )
        parts = text.split(None, 2)
        if len(parts) != 3 or parts[0] not in ("E", "S", "W", "N"):
            raise NotationError(
                "expected '<seat> <fa|zhuo|mie> <card>' with seat E, S, W or N",
                text=text,
                position=0,
            )
        kind_at = text.index(parts[1], text.index(parts[0]) + 1)
        try:
            kind = ActionKind(parts[1])
        except ValueError:
            raise NotationError(
                f"unknown play {parts[1]!r} (fa, zhuo or mie)", text=text, position=kind_at
            ) from None
        at = text.index(parts[2], kind_at + len(parts[1]))
        try:
            cards = parse_cards(parts[2])
        except NotationError as err:
            raise NotationError(err.problem, text=text, position=at + err.position) from None
        if len(cards) != 1:
            raise NotationError("a play names one card", text=text, position=at)
        return Action(Seat(parts[0]), kind, cards[0])

    def __str__(self) -> str:
        return f"{self.seat.value} {self.kind.value} {self.card}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; a face-down card (and a seat's dealt ``cards``) is shown only
    to its player (``private``).

    >>> Event("play", Seat.S, Card.parse("3m"), private=True).to_json(Seat.W)["card"] is None
    True
    """

    kind: str
    seat: Seat | None = None
    card: Card | None = None
    private: bool = False
    detail: str = ""
    cards: tuple[Card, ...] = ()

    def to_json(self, viewer: Seat | None = None) -> dict[str, Any]:
        """The event as ``viewer`` may see it (``None``: an onlooker).

        >>> Event("trick", Seat.E, Card.parse("9m"), detail="1").to_json()
        {'kind': 'trick', 'seat': 'E', 'card': '9m', 'detail': '1'}
        """
        hidden = self.private and viewer is not self.seat
        out: dict[str, Any] = {
            "kind": self.kind,
            "seat": None if self.seat is None else self.seat.value,
            "card": None if self.card is None or hidden else str(self.card),
            "detail": self.detail,
        }
        if self.kind == "deal":
            out["cards"] = None if hidden else [str(c) for c in self.cards]
        return out


def events_json(events: Iterable[Event], viewer: Seat | None) -> list[dict[str, Any]]:
    """The events as ``viewer`` may see them, as JSON, in order (the same shape as
    :func:`paiju.mazhan.rules.events_json`; every Ma Diao event is seen by every seat).

    >>> e = Event("play", Seat.W, Card.parse("2t"), True, "mie")
    >>> events_json([e], Seat.E)[0]["card"] is None
    True
    """
    return [e.to_json(viewer) for e in events]


@dataclass(frozen=True, slots=True)
class ChongDraw:
    """One card drawn in 開沖: who drew it, who scored it (None: dead) and the points.

    >>> ChongDraw(Card.parse("1m"), Seat.E, Seat.S, 3).to_json()["claimed"]
    True
    """

    card: Card
    drawer: Seat
    scorer: Seat | None
    points: int

    def to_json(self) -> dict[str, Any]:
        """The draw as JSON.

        >>> ChongDraw(Card.parse("1m"), Seat.E, None, 0).to_json()["scorer"] is None
        True
        """
        return {
            "card": str(self.card),
            "drawer": self.drawer.value,
            "scorer": None if self.scorer is None else self.scorer.value,
            "points": self.points,
            "claimed": self.scorer is not None and self.scorer is not self.drawer,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: tricks, tables, 開沖 draws and the settlement."""

    chong: tuple[ChongDraw, ...]
    settlement: Settlement

    def to_json(self) -> dict[str, Any]:
        """The result as a game record stores it.

        >>> from paiju.bots.driver import play_match
        >>> from paiju.bots.simple import RandomBot
        >>> r = play_match(Ruleset(), [RandomBot()] * 4, seed=1, hands=1)[0]
        >>> sorted(r.result)
        ['banker', 'chong', 'net', 'qiaomen', 'seats']
        """
        out = self.settlement.to_json()
        out["chong"] = [d.to_json() for d in self.chong]
        return out


@dataclass(slots=True, eq=False)
class State:
    """A hand of Ma Diao. Treat it as immutable: :func:`apply` returns a new one.

    Cards are indices 0–39 (see :class:`~paiju.madiao.cards.Card`); seats 0–3 (E S W N).
    ``history`` holds the finished tricks as ``(leader, ((seat, card, face_up), …))``;
    ``table``, ``tricks_won``, ``captured``, ``out_up`` and ``out_down`` follow from it.
    Equality compares the position (the seed and the shuffled deck are not part of it).

    >>> s = new_hand(Ruleset(), seed=1)
    >>> sum(len(h) for h in s.hands) + len(s.stock)
    40
    """

    ruleset: Ruleset
    seed: int
    deck: tuple[int, ...]
    banker: int
    hands: list[list[int]]
    bailao_holder: int
    stock: tuple[int, ...]
    leader: int
    turn: int
    trick_no: int = 0
    trick: list[tuple[int, int, bool]] = field(default_factory=list)
    table: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    tricks_won: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    captured: dict[int, tuple[int, ...]] = field(default_factory=dict)
    out_up: list[int] = field(default_factory=list)
    out_down: list[int] = field(default_factory=list)
    phase: Phase = Phase.TRICKS
    result: HandResult | None = None
    version: int = 0
    history: list[tuple[int, tuple[tuple[int, int, bool], ...]]] = field(default_factory=list)

    def copy(self) -> State:
        """A copy whose lists can change without touching this state.

        >>> s = new_hand(Ruleset(), seed=1)
        >>> s.copy().hands[0] is s.hands[0]
        False
        """
        return State(
            self.ruleset,
            self.seed,
            self.deck,
            self.banker,
            [h[:] for h in self.hands],
            self.bailao_holder,
            self.stock,
            self.leader,
            self.turn,
            self.trick_no,
            self.trick[:],
            [t[:] for t in self.table],
            self.tricks_won[:],
            dict(self.captured),
            self.out_up[:],
            self.out_down[:],
            self.phase,
            self.result,
            self.version,
            self.history[:],
        )

    def _key(self) -> tuple[Any, ...]:
        return (
            self.ruleset,
            self.banker,
            self.hands,
            self.bailao_holder,
            self.stock,
            self.leader,
            self.turn,
            self.trick_no,
            self.trick,
            self.table,
            self.tricks_won,
            self.captured,
            self.out_up,
            self.out_down,
            self.phase,
            self.result,
            self.version,
            self.history,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    @property
    def mian(self) -> Card:
        """The 面張: the last stock card, turned up for all to see and drawn last.

        >>> new_hand(Ruleset(), seed=1).mian == Card(new_hand(Ruleset(), seed=1).stock[-1])
        True
        """
        return ALL_CARDS[self.stock[-1]]

    def __str__(self) -> str:
        lines = [
            f"Ma Diao hand seed={self.seed} banker={SEATS[self.banker].value} "
            f"trick={self.trick_no + 1 if self.phase is Phase.TRICKS else 8} "
            f"面張={self.mian}"
        ]
        for i, seat in enumerate(SEATS):
            hand = " ".join(str(ALL_CARDS[c]) for c in sorted(self.hands[i]))
            table = " ".join(str(ALL_CARDS[c]) for c in self.table[i])
            mark = "→" if seat in acting(self) else " "
            lines.append(
                f"{mark}{seat.value} hand: {hand:<24} tricks {self.tricks_won[i]}  上桌: {table}"
            )
        if self.trick:
            lines.append(
                "trick: "
                + ", ".join(
                    f"{SEATS[s].value} {'↑' if up else '↓'}{ALL_CARDS[c]}"
                    for s, c, up in self.trick
                )
            )
        if self.result is not None:
            lines.append(f"net: {self.result.settlement.to_json()['net']}")
        return "\n".join(lines)


def first_banker(mian: Card) -> int:
    """Seat of the first banker: (rank of the 面張 − 1) mod 4, counted from seat 0 (§6).

    >>> first_banker(Card.parse("9m")), first_banker(Card.parse("wt"))
    (0, 2)
    """
    return (mian.rank - 1) % 4


def new_hand(ruleset: Ruleset, seed: int, banker: Seat | None = None) -> State:
    """Shuffle, set the 面張, choose the banker (from the 面張 unless given) and deal 8 each
    in play order from the banker; 8 cards stay in the stock.

    >>> s = new_hand(Ruleset(), seed=2, banker=Seat.W)
    >>> s.banker, s.leader
    (2, 2)

    Raises ``ValueError`` for a seed that is not an integer.
    """
    return deal(ruleset, seed, banker)[0]


def deal(ruleset: Ruleset, seed: int, banker: Seat | None = None) -> tuple[State, list[Event]]:
    """:func:`new_hand` with the events of the deal: each seat's eight cards (``deal``,
    private) and the 面張 turned up (``mian``, its seat the banker).

    >>> state, events = deal(Ruleset(), seed=2, banker=Seat.W)
    >>> events[-1].to_json(Seat.E)
    {'kind': 'mian', 'seat': 'W', 'card': '5t', 'detail': ''}
    >>> events[0].to_json(Seat.E)["cards"] is None  # West's cards, seen by East
    True

    Raises ``ValueError`` for a seed that is not an integer.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"the seed must be an integer, got {seed!r}")
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    stock = tuple(deck[32:])
    b = first_banker(ALL_CARDS[stock[-1]]) if banker is None else banker.number - 1
    hands: list[list[int]] = [[], [], [], []]
    events: list[Event] = []
    for k in range(4):
        seat = (b + k) % 4
        hands[seat] = sorted(deck[8 * k : 8 * k + 8])
        events.append(
            Event("deal", SEATS[seat], private=True, cards=tuple(ALL_CARDS[c] for c in hands[seat]))
        )
    events.append(Event("mian", SEATS[b], ALL_CARDS[stock[-1]]))
    holder = (
        next(i for i, h in enumerate(hands) if BAILAO.index in h)
        if any(BAILAO.index in h for h in hands)
        else -1
    )
    lead = b if ruleset.first_lead == "banker" else (b + 1) % 4
    state = State(ruleset, seed, tuple(deck), b, hands, holder, stock, lead, lead)
    return state, events


def seat_version(state: State, seat: Seat) -> int:
    """The version ``seat``'s next action must carry: the state's version (Ma Diao has no
    simultaneous decisions, so every seat shares it).

    >>> seat_version(new_hand(Ruleset(), seed=2), Seat.N)
    0
    """
    return state.version


def acting(state: State) -> tuple[Seat, ...]:
    """The seat to play (none once the hand is over).

    >>> acting(new_hand(Ruleset(), seed=2, banker=Seat.S))
    (<Seat.S: 'S'>,)
    """
    return () if state.phase is Phase.OVER else (SEATS[state.turn],)


def legal_actions(state: State) -> list[Action]:
    """Every legal play now (the single source of truth).

    >>> s = new_hand(Ruleset(), seed=2)
    >>> {a.kind.value for a in legal_actions(s)}
    {'fa'}
    """
    if state.phase is Phase.OVER:
        return []
    return list(legal_actions_for(state, SEATS[state.turn]))


def legal_actions_for(state: State, seat: Seat) -> tuple[Action, ...]:
    """The legal plays of one seat (empty when it may not play).

    >>> legal_actions_for(new_hand(Ruleset(), seed=2, banker=Seat.E), Seat.N)
    ()
    """
    i = seat.number - 1
    if state.phase is Phase.OVER or i != state.turn:
        return ()
    hand = [ALL_CARDS[c] for c in state.hands[i]]
    if not state.trick:
        return tuple(Action(seat, ActionKind.FA, c) for c in hand)
    led = ALL_CARDS[state.trick[0][1]].suit
    best = max(ALL_CARDS[c].rank for _, c, up in state.trick if up)
    captures = [Action(seat, ActionKind.ZHUO, c) for c in hand if c.suit is led and c.rank > best]
    return tuple(captures) + tuple(Action(seat, ActionKind.MIE, c) for c in hand)


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check a play and return the new state and the events it caused.

    >>> s = new_hand(Ruleset(), seed=2, banker=Seat.E)
    >>> apply(s, Action.parse("W fa 9m"))
    Traceback (most recent call last):
    ...
    paiju.errors.NotYourTurnError: W fa 9m: West may not play now (waiting for E)

    Raises :class:`~paiju.errors.GameOverError`, :class:`~paiju.errors.NotYourTurnError` or
    :class:`~paiju.errors.IllegalActionError`.
    """
    if state.phase is Phase.OVER:
        raise GameOverError(f"{action}: the hand is over")
    legal = legal_actions_for(state, action.seat)
    if not legal:
        raise NotYourTurnError(
            f"{action}: {_EN[action.seat]} may not play now (waiting for {SEATS[state.turn].value})"
        )
    if action not in legal:
        why = (
            "not in hand"
            if action.card.index not in state.hands[action.seat.number - 1]
            else "not allowed now"
        )
        raise IllegalActionError(
            f"{action} is illegal ({why}); legal: " + ", ".join(str(a) for a in legal)
        )
    s = state.copy()
    s.version += 1
    i = action.seat.number - 1
    c = action.card.index
    s.hands[i].remove(c)
    up = action.kind is not ActionKind.MIE
    s.trick.append((i, c, up))
    events = [Event("play", action.seat, action.card, private=not up, detail=action.kind.value)]
    if len(s.trick) < 4:
        s.turn = (s.turn + 1) % 4
        return s, events
    _finish_trick(s, events)
    if s.trick_no == 8:
        _chong_and_settle(s, events)
    return s, events


_EN = {Seat.E: "East", Seat.S: "South", Seat.W: "West", Seat.N: "North"}


def _finish_trick(s: State, events: list[Event]) -> None:
    ups = [(seat, c) for seat, c, up in s.trick if up]
    winner, card = ups[-1]  # every capture beat the card before it
    s.table[winner].append(card)
    s.tricks_won[winner] += 1
    if ALL_CARDS[card].is_top:
        others = tuple(c for _, c in ups if c != card and ALL_CARDS[c].is_top)
        if others:
            s.captured[card] = others
    for _, c, up in s.trick:
        if c != card:
            (s.out_up if up else s.out_down).append(c)
    s.history.append((s.leader, tuple(s.trick)))
    s.trick_no += 1
    events.append(Event("trick", SEATS[winner], ALL_CARDS[card], detail=str(s.trick_no)))
    s.trick = []
    s.leader = s.turn = winner


def _chong_and_settle(s: State, events: list[Event]) -> None:
    roles = s.ruleset.roles(s.mian)
    groups = [
        Group(
            [ALL_CARDS[c] for c in s.table[i]],
            [],
            {
                ALL_CARDS[k]: tuple(ALL_CARDS[x] for x in v)
                for k, v in s.captured.items()
                if k in s.table[i]
            },
            roles,
        )
        for i in range(4)
    ]
    draws = run_chong([ALL_CARDS[c] for c in s.stock], s.leader, groups, s.ruleset.chong_flow)
    for d in draws:
        kind = "chong" if d.scorer is d.drawer else "claim" if d.scorer else "dead"
        events.append(Event(kind, d.scorer or d.drawer, d.card, detail=str(d.points)))
    points = {seat: 0 for seat in SEATS}
    for d in draws:
        if d.scorer is not None:
            points[d.scorer] += d.points
    settlement = settle(
        SEATS[s.banker],
        s.tricks_won,
        [[ALL_CARDS[c] for c in t] for t in s.table],
        SEATS[s.bailao_holder] if s.bailao_holder >= 0 else None,
        points,
        dahuobai=s.ruleset.dahuobai,
        qiaomen=s.ruleset.qiaomen,
    )
    s.result = HandResult(tuple(draws), settlement)
    s.phase = Phase.OVER
    events.append(Event("settle"))


def run_chong(stock: list[Card], first: int, groups: list[Group], flow: str) -> list[ChongDraw]:
    """The 開沖 flow (§4.1): ``first`` (the last trick's winner) draws; a card that scores is
    taken and the drawer draws again (連沖); a 0 is 斷沖, and under ``"offer"`` the card goes
    to the first other player in play order who can score it, who then draws. A card nobody
    scores is dead and the player after its drawer draws next.

    >>> gs = [Group.parse("9m"), Group.parse(""), Group.parse("7m"), Group.parse("")]
    >>> [(d.drawer.value, d.scorer and d.scorer.value, d.points)
    ...  for d in run_chong([Card.parse("8m"), Card.parse("3s")], 0, gs, "offer")]
    [('E', 'E', 2), ('E', None, 0)]
    """
    drawer = first
    out: list[ChongDraw] = []
    for card in stock:
        points = groups[drawer].take(card)
        if points > 0:
            out.append(ChongDraw(card, SEATS[drawer], SEATS[drawer], points))
            continue
        if flow == "offer":
            for k in (1, 2, 3):
                other = (drawer + k) % 4
                claimed = groups[other].take(card)
                if claimed > 0:
                    out.append(ChongDraw(card, SEATS[drawer], SEATS[other], claimed))
                    drawer = other
                    break
            else:
                out.append(ChongDraw(card, SEATS[drawer], None, 0))
                drawer = (drawer + 1) % 4
        else:
            out.append(ChongDraw(card, SEATS[drawer], None, 0))
            drawer = (drawer + 1) % 4
    return out
