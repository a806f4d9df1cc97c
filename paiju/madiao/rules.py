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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from paiju.errors import (
    GameOverError,
    IllegalActionError,
    InvalidRulesetError,
    NotationError,
    NotYourTurnError,
)
from paiju.kit.enums import FastEnum, NamedEnum
from paiju.kit.positions import PositionState
from paiju.madiao.cards import ALL_CARDS, Card, Role, Suit, parse_cards
from paiju.madiao.chong import CHONG_OPTIONS, ChongRoles, Group, base_roles
from paiju.madiao.scoring import BAILAO, Settlement, SettleOptions, settle
from paiju.madiao.seats import SEATS, Seat

__all__ = [
    "PLAYS",
    "SPECIAL_HANDS",
    "Action",
    "ActionKind",
    "ChongDraw",
    "Event",
    "HandResult",
    "Phase",
    "Ruleset",
    "SpecialHand",
    "State",
    "acting",
    "apply",
    "deal",
    "events_json",
    "legal_actions",
    "legal_actions_for",
    "legal_codes",
    "new_hand",
    "register_special_hand",
    "seat_version",
]


_CHOICES: dict[str, tuple[str, ...]] = {
    "first_lead": ("banker", "first_dealt", "next"),
    "deal_start": ("banker", "dealer"),
    "first_banker_from": ("E", "S", "W", "N"),
    "chong_flow": ("offer", "dead"),
    "jianling": ("on_gap", "at_once"),
    "capture_multiplier": ("count", "bailao", "off"),
    "bonus_roles": ("q", "m"),
    "tu": ("off", "m", "q"),
    "settlement": ("kaizhu", "split"),
    "baopei": ("log", "off"),
}
_FLAGS = (
    "shengdai",
    "qiaomen",
    "wrap_straights",
    "gap_card_leads",
    "separate_top_leaders",
    "shi_runs",
    "chong_needs_zhengben",
)

#: The 開沖 options' defaults, which the ruleset's are (:mod:`paiju.madiao.chong`).
_CHONG = base_roles()


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The options of a hand: every CHOICE of the rules is one, named as the rules name it,
    defaults as §6 (``docs/rules-decisions.md`` lists them with the sources' alternatives).
    Checked when made.

    The deal and the play (§2, §3):

    - ``first_lead``: who leads trick 1: ``banker``, or ``first_dealt`` (the seat dealt
      first); ``next`` (the seat after the banker) is what records before format 2 wrote.
    - ``deal_start``: the deal begins with the ``banker``, or with the ``dealer`` (the seat
      after the banker, where Wikipedia's dealer sits).
    - ``first_banker_from``: the first banker is (rank of the 面張 − 1) mod 4 seats on from
      this seat (``E``).
    - ``special_hands``: the 色樣/異賞 patterns in play (§3.2): names from
      :data:`SPECIAL_HANDS`, empty by default (the table ships empty).
    - ``baopei``: 包賠 penalty situations (§3.3) are ``log``-ged as events, or ``off``.

    開沖 (§4):

    - ``chong_flow``: after 斷沖, ``offer`` the card to the others in play order (CHOICE A)
      or leave it ``dead`` (CHOICE B).
    - ``wrap_straights``: 順領/間領 straights may wrap round (8-9-1).
    - ``jianling``: a 間領's 青 members lead ``on_gap`` (when this player 沖s the gap card) or
      ``at_once``.
    - ``gap_card_leads``: a 沖'd 間領 gap card leads as a member of its straight (off).
    - ``top_vs_top``: what a 十字 top card scores for another top card drawn (2, or 5).
    - ``capture_multiplier``: a 十字 top card that captured top cards in its trick counts
      once more for each (``count``), only when 百老 was among them (``bailao``, the seed's
      cases), or not at all (``off``).
    - ``separate_top_leaders``: top cards won in separate tricks lead separately (on), or
      together once.
    - ``shi_runs``: 順領/間領 apply in 十字 too (off).
    - ``shengdai``: 升代 on the 面張 (§4.7), off.
    - ``chong_needs_zhengben``: only a 正本 player may 沖 (off: anyone may).

    The settlement (§3.4, §3.5, §4.8):

    - ``bonus_roles``: ``q`` (each 賞, 肩, 極 上桌 is 1 注) or ``m`` (賞 only, 扶正次賞).
    - ``dahuobai``: 大活百's 注 (3; the [Q] README's table says 5).
    - ``tu``: the 突 module, ``off``, ``m`` or ``q`` (values in the decisions doc).
    - ``qiaomen``: 敲門, a 散家's 大活百 collects from each other 散家 (on).
    - ``settlement``: ``kaizhu`` (開注: each 散家 pays the banker's bonus and 開沖 points in
      full) or ``split`` (the three share them).

    >>> Ruleset().to_json()["chong_flow"]
    'offer'
    >>> Ruleset.from_json(Ruleset(shengdai=True).to_json()).shengdai
    True
    >>> Ruleset(tu="both")
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidRulesetError: tu must be one of 'off', 'm', 'q', got 'both'
    """

    first_lead: str = "banker"
    chong_flow: str = "offer"
    top_vs_top: int = _CHONG.top_vs_top
    shengdai: bool = False
    dahuobai: int = 3
    qiaomen: bool = True
    deal_start: str = "banker"
    first_banker_from: str = "E"
    special_hands: tuple[str, ...] = ()
    baopei: str = "log"
    wrap_straights: bool = _CHONG.wrap_straights
    jianling: str = _CHONG.jianling
    gap_card_leads: bool = _CHONG.gap_card_leads
    capture_multiplier: str = _CHONG.capture_multiplier
    separate_top_leaders: bool = _CHONG.separate_top_leaders
    shi_runs: bool = _CHONG.shi_runs
    chong_needs_zhengben: bool = False
    bonus_roles: str = "q"
    tu: str = "off"
    settlement: str = "kaizhu"

    def __post_init__(self) -> None:
        for name, values in _CHOICES.items():
            value = getattr(self, name)
            if value not in values:
                choices = ", ".join(repr(v) for v in values)
                raise InvalidRulesetError(f"{name} must be one of {choices}, got {value!r}")
        for name in _FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise InvalidRulesetError(
                    f"{name} must be true or false, got {getattr(self, name)!r}"
                )
        for name in ("top_vs_top", "dahuobai"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
                raise InvalidRulesetError(
                    f"{name} must be a whole number of 注 0–100, got {value!r}"
                )
        hands = self.special_hands
        if not isinstance(hands, tuple) or not all(isinstance(h, str) for h in hands):
            raise InvalidRulesetError(f"special_hands must be a tuple of names, got {hands!r}")
        unknown = [h for h in hands if h not in SPECIAL_HANDS]
        if unknown:
            known = ", ".join(sorted(SPECIAL_HANDS)) or "none: the table is empty"
            raise InvalidRulesetError(
                f"special_hands: unknown pattern {unknown[0]!r} (known: {known})"
            )

    def to_json(self) -> dict[str, Any]:
        """The options as JSON, for game records.

        >>> sorted(Ruleset().to_json())[:3]
        ['baopei', 'bonus_roles', 'capture_multiplier']
        """
        out: dict[str, Any] = {"game": "madiao"}
        for name in Ruleset.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @staticmethod
    def from_json(data: object) -> Ruleset:
        """Read :meth:`to_json`'s output; options it lacks (records written before they
        existed) take their defaults.

        >>> Ruleset.from_json({"game": "madiao", "colour": "red"})
        Traceback (most recent call last):
        ...
        paiju.errors.InvalidRulesetError: unknown Ma Diao ruleset options: colour

        Raises :class:`~paiju.errors.InvalidRulesetError` (a ``ValueError``).
        """
        if not isinstance(data, dict) or data.get("game") != "madiao":
            raise InvalidRulesetError(f"not a Ma Diao ruleset: {data!r}")
        options = {k: v for k, v in data.items() if k != "game"}
        unknown = set(options) - set(Ruleset.__dataclass_fields__)
        if unknown:
            raise InvalidRulesetError(
                f"unknown Ma Diao ruleset options: {', '.join(sorted(unknown))}"
            )
        if isinstance(options.get("special_hands"), list):
            options["special_hands"] = tuple(options["special_hands"])
        return Ruleset(**options)

    def roles(self, mian: Card) -> ChongRoles:
        """The 開沖 roles and options for a hand with this 面張.

        >>> Ruleset(shengdai=True).roles(Card.parse("9m")).shang != base_roles().shang
        True
        """
        roles = base_roles(**{name: getattr(self, name) for name in CHONG_OPTIONS})
        return roles.shengdai(mian) if self.shengdai else roles

    def settle_options(self) -> SettleOptions:
        """The settlement's options.

        >>> Ruleset(tu="m").settle_options().tu
        'm'
        """
        return SettleOptions(
            dahuobai=self.dahuobai,
            qiaomen=self.qiaomen,
            bonus_roles=self.bonus_roles,
            tu=self.tu,
            settlement=self.settlement,
        )


@dataclass(frozen=True, slots=True)
class SpecialHand:
    """A 色樣/異賞 pattern (§3.2): a dealt hand that ``matches`` is shown and not played;
    the hand goes straight to 開沖 and each other seat pays its holder ``zhu`` (賀).

    >>> SpecialHand("八同", "eight of one suit", 10, lambda cards: False).zhu
    10
    """

    name: str
    en: str
    zhu: int
    matches: Callable[[tuple[Card, ...]], bool]


#: The special-hand table: empty, as the rules decide for v1 (§3.2, §6.7); a house adds its
#: patterns with :func:`register_special_hand` and names them in ``Ruleset.special_hands``.
SPECIAL_HANDS: dict[str, SpecialHand] = {}


def register_special_hand(hand: SpecialHand) -> None:
    """Add a pattern to :data:`SPECIAL_HANDS` (a house rule; none ships).

    >>> register_special_hand(SpecialHand("", "", 1, lambda cards: False))
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidRulesetError: a special hand needs a name and a positive 注

    Raises :class:`~paiju.errors.InvalidRulesetError` for a nameless or worthless pattern.
    """
    if not hand.name or hand.zhu <= 0:
        raise InvalidRulesetError("a special hand needs a name and a positive 注")
    if any(ch.isspace() or ch in ",:|=/" for ch in hand.name):
        raise InvalidRulesetError(
            f"a special hand's name is written in positions: no spaces or , : | = /, "
            f"got {hand.name!r}"
        )
    SPECIAL_HANDS[hand.name] = hand


class Phase(FastEnum):
    """Where a hand stands (開沖 runs inside the last play).

    >>> Phase("over")
    <Phase.OVER: 'over'>
    """

    TRICKS = "tricks"
    OVER = "over"


class ActionKind(NamedEnum):
    """發 lead, 捉 capture (face up), 滅 discard (face down).

    >>> ActionKind("zhuo").name_zh
    '捉'
    """

    FA = "fa", "發"
    ZHUO = "zhuo", "捉"
    MIE = "mie", "滅"


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
        if self.kind in ("deal", "seyang"):
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
class Penalty:
    """A 包賠 situation (§3.3), logged, not paid (v1): ``zongbai`` (縱百老: a seat spent
    千萬 or 萬萬, and 百老 later went 上桌) or ``zongzhuang`` (故縱樁家: a 散家 could capture the
    banker's card and threw face down; the banker won the trick and then put a 賞 上桌).
    ``card`` is the card spent, or the capture the seat held; ``trick`` is 1–8.

    >>> Penalty(Seat.S, "zongbai", Card.parse("qt"), 2).zh
    '縱百老'
    """

    seat: Seat
    kind: str
    card: Card
    trick: int

    @property
    def zh(self) -> str:
        """The Chinese name.

        >>> Penalty(Seat.W, "zongzhuang", Card.parse("9m"), 3).zh
        '故縱樁家'
        """
        return {"zongbai": "縱百老", "zongzhuang": "故縱樁家"}[self.kind]

    @property
    def en(self) -> str:
        """What happened, in English.

        >>> Penalty(Seat.W, "zongbai", Card.parse("wt"), 3).en
        'spent Myriad Myriads in trick 3, and 百老 later went 上桌'
        """
        if self.kind == "zongbai":
            return f"spent {self.card.name_en} in trick {self.trick}, and 百老 later went 上桌"
        return (
            f"could capture the banker's card with {self.card.name_en} in trick "
            f"{self.trick}, threw face down; the banker then put a 賞 上桌"
        )


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended: tricks, tables, 開沖 draws and the settlement; a special hand
    (``special``: its holder, name and 注) and the logged 包賠 situations."""

    chong: tuple[ChongDraw, ...]
    settlement: Settlement
    special: tuple[Seat, str, int] | None = None
    penalties: tuple[Penalty, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The result as a game record stores it.

        >>> from paiju.bots.driver import play_match
        >>> from paiju.bots.uniform import RandomBot
        >>> r = play_match(Ruleset(), [RandomBot()] * 4, seed=1, hands=1)[0]
        >>> sorted(r.result)
        ['banker', 'chong', 'net', 'qiaomen', 'seats']
        """
        out = self.settlement.to_json()
        out["chong"] = [d.to_json() for d in self.chong]
        if self.special is not None:
            seat, name, zhu = self.special
            out["special"] = {"seat": seat.value, "name": name, "zhu": zhu}
        return out


@dataclass(slots=True, eq=False)
class State(PositionState):
    """A hand of Ma Diao. Treat it as immutable: :func:`apply` returns a new one.

    Cards are indices 0–39 (see :class:`~paiju.madiao.cards.Card`); seats 0–3 (E S W N).
    ``history`` holds the finished tricks as ``(leader, ((seat, card, face_up), …))``;
    ``table``, ``tricks_won``, ``captured``, ``out_up`` and ``out_down`` follow from it.
    Equality compares the position (the seed and the shuffled deck are not part of it):
    :meth:`to_position` writes it and :meth:`from_position` reads it back, checked
    (:mod:`paiju.madiao.position`; :class:`~paiju.kit.positions.PositionState`).

    >>> s = new_hand(Ruleset(), seed=1)
    >>> sum(len(h) for h in s.hands) + len(s.stock)
    40
    >>> s.to_position().split()[:2], State.from_position(s.to_position()) == s
    (['madiao', 'v=0'], True)
    """

    _position_module = "paiju.madiao.position"

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
    special: tuple[int, str] | None = None

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
            self.special,
        )

    def _key(self) -> tuple[Any, ...]:
        return (_POSITION_FIELDS(self),)

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


#: What a position holds (what equality compares): every field but the seed and the deck.
_POSITION_FIELDS = attrgetter(*(f.name for f in fields(State) if f.name not in ("seed", "deck")))


def first_banker(mian: Card, origin: int = 0) -> int:
    """Seat of the first banker: (rank of the 面張 − 1) mod 4, counted from seat ``origin``
    (§6: seat 0).

    >>> first_banker(Card.parse("9m")), first_banker(Card.parse("wt")), first_banker(
    ...     Card.parse("wt"), origin=3)
    (0, 2, 1)
    """
    return (origin + mian.rank - 1) % 4


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
    origin = "ESWN".index(ruleset.first_banker_from)
    b = first_banker(ALL_CARDS[stock[-1]], origin) if banker is None else banker.number - 1
    start = b if ruleset.deal_start == "banker" else (b + 1) % 4
    hands: list[list[int]] = [[], [], [], []]
    events: list[Event] = []
    for k in range(4):
        seat = (start + k) % 4
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
    lead = first_leader(ruleset, b)
    state = State(ruleset, seed, tuple(deck), b, hands, holder, stock, lead, lead)
    special = special_hand(state)
    if special is not None:
        seat, pattern = special
        state.special = special
        shown = tuple(ALL_CARDS[c] for c in hands[seat])
        events.append(Event("seyang", SEATS[seat], detail=pattern, cards=shown))
        _chong_and_settle(state, events)
    return state, events


def first_leader(ruleset: Ruleset, banker: int) -> int:
    """Who leads trick 1 (``first_lead``): the banker, the seat dealt first (``deal_start``),
    or, as records before format 2 read, the seat after the banker.

    >>> first_leader(Ruleset(first_lead="first_dealt", deal_start="dealer"), 2)
    3
    """
    if ruleset.first_lead == "banker":
        return banker
    if ruleset.first_lead == "first_dealt":
        return banker if ruleset.deal_start == "banker" else (banker + 1) % 4
    return (banker + 1) % 4


def special_hand(state: State) -> tuple[int, str] | None:
    """The first seat, in play order from the banker, whose dealt hand is one of the
    ruleset's special hands (§3.2), with the pattern's name; ``None`` (always, with the
    empty table that ships).

    >>> special_hand(new_hand(Ruleset(), 1)) is None
    True
    """
    for k in range(4):
        seat = (state.banker + k) % 4
        cards = tuple(ALL_CARDS[c] for c in sorted(state.hands[seat]))
        for name in state.ruleset.special_hands:
            if SPECIAL_HANDS[name].matches(cards):
                return seat, name
    return None


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
    """The legal plays of one seat (empty when it may not play): :func:`legal_codes`'s, as
    the shared :data:`PLAYS` objects.

    >>> legal_actions_for(new_hand(Ruleset(), seed=2, banker=Seat.E), Seat.N)
    ()
    >>> legal_actions_for(new_hand(Ruleset(), seed=2, banker=Seat.E), Seat.E)[0]
    Action.parse('E fa 6t')
    """
    i = seat.number - 1
    if i != state.turn:
        return ()
    plays = PLAYS[i]
    return tuple([plays[code] for code in legal_codes(state)])


#: Each card's suit (十 0, 萬 1, 索 2, 文 3) and rank, by card index: integers for
#: :func:`legal_codes` (the same as ``ALL_CARDS[c].suit`` and ``.rank``).
_SUIT_NO = tuple(0 if c < 11 else 1 if c < 20 else 2 if c < 29 else 3 for c in range(40))
_RANK_NO = tuple(ALL_CARDS[c].rank for c in range(40))
#: The code of a play is ``kind × 40 + card``: 發 0, 捉 1, 滅 2 (:func:`legal_codes`).
CODE_KINDS = (ActionKind.FA, ActionKind.ZHUO, ActionKind.MIE)
#: ``PLAYS[seat index][code]``: every play as an :class:`Action`, built once (actions are
#: frozen: one object serves every step that plays it).
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action(seat, CODE_KINDS[code // 40], ALL_CARDS[code % 40]) for code in range(120))
    for seat in SEATS
)


def legal_codes(state: State) -> tuple[int, ...]:
    """The legal plays of the seat to play, as integer codes ``kind × 40 + card index``
    with kind 0 發, 1 捉, 2 滅 (:data:`CODE_KINDS`), in the order of
    :func:`legal_actions_for`; empty once the hand is over. The one statement of which plays
    are legal; callers that index actions use the codes (the environments' ``Discrete(120)``
    is this code), :func:`legal_actions_for` turns them into actions.

    >>> s = new_hand(Ruleset(), seed=2)
    >>> seat = acting(s)[0]
    >>> legal_codes(s) == tuple(
    ...     CODE_KINDS.index(a.kind) * 40 + a.card.index for a in legal_actions_for(s, seat))
    True
    >>> legal_codes(new_hand(Ruleset(), seed=2, banker=Seat.E))[:2]
    (4, 9)
    """
    if state.phase is Phase.OVER:
        return ()
    hand = state.hands[state.turn]
    trick = state.trick
    if not trick:
        return tuple(hand)
    led = _SUIT_NO[trick[0][1]]
    best = max([_RANK_NO[c] for _, c, up in trick if up])
    suit, rank = _SUIT_NO, _RANK_NO
    return (*[40 + c for c in hand if suit[c] == led and rank[c] > best], *[80 + c for c in hand])


def apply(state: State, action: Action, *, checked: bool = False) -> tuple[State, list[Event]]:
    """Check a play and return the new state and the events it caused. ``checked``: the
    caller has already found the play among :func:`legal_codes` of this very state (the
    environments do, to build the action mask), so the legality check is not made again.

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
    if not checked:
        legal = legal_actions_for(state, action.seat)
        if not legal:
            raise NotYourTurnError(
                f"{action}: {_EN[action.seat]} may not play now "
                f"(waiting for {SEATS[state.turn].value})"
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


def _chong_and_settle(s: State, events: list[Event] | None) -> None:
    roles = s.ruleset.roles(s.mian)
    may_chong = [not s.ruleset.chong_needs_zhengben or len(s.table[i]) >= 2 for i in range(4)]
    groups = [
        Group(
            [ALL_CARDS[c] for c in s.table[i]] if may_chong[i] else [],
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
    first = s.special[0] if s.special is not None else s.leader
    draws = run_chong([ALL_CARDS[c] for c in s.stock], first, groups, s.ruleset.chong_flow)
    points = {seat: 0 for seat in SEATS}
    for d in draws:
        if d.scorer is not None:
            points[d.scorer] += d.points
    he = None
    special = None
    if s.special is not None:
        pattern = SPECIAL_HANDS[s.special[1]]
        he = (SEATS[s.special[0]], pattern.zhu)
        special = (SEATS[s.special[0]], pattern.name, pattern.zhu)
    settlement = settle(
        SEATS[s.banker],
        s.tricks_won,
        [[ALL_CARDS[c] for c in t] for t in s.table],
        SEATS[s.bailao_holder] if s.bailao_holder >= 0 else None,
        points,
        options=s.ruleset.settle_options(),
        mian=s.mian,
        dealt=[[ALL_CARDS[c] for c in h] for h in dealt_hands(s)],
        he=he,
    )
    penalties = penalties_of(s) if s.ruleset.baopei == "log" else ()
    s.result = HandResult(tuple(draws), settlement, special, penalties)
    s.phase = Phase.OVER
    if events is not None:
        for d in draws:
            kind = "chong" if d.scorer is d.drawer else "claim" if d.scorer else "dead"
            events.append(Event(kind, d.scorer or d.drawer, d.card, detail=str(d.points)))
        for p in penalties:
            events.append(Event("baopei", p.seat, p.card, detail=p.kind))
        events.append(Event("settle"))


def dealt_hands(s: State) -> list[list[int]]:
    """Each seat's eight dealt cards: its hand and every card it has played.

    >>> s = new_hand(Ruleset(), 1)
    >>> dealt_hands(s) == s.hands
    True
    """
    dealt = [sorted(h) for h in s.hands]
    for _, plays in s.history:
        for seat, c, _up in plays:
            dealt[seat].append(c)
    for seat, c, _up in s.trick:
        dealt[seat].append(c)
    return [sorted(h) for h in dealt]


_WT, _QT = 10, 9


def penalties_of(s: State) -> tuple[Penalty, ...]:
    """The 包賠 situations of a finished hand's tricks (§3.3, log only; see
    :class:`Penalty`).

    >>> penalties_of(new_hand(Ruleset(), 1))
    ()
    """
    out: list[Penalty] = []
    best_card = -1
    hands = [set(h) for h in dealt_hands(s)]
    winners = []
    for _, plays in s.history:
        ups = [(seat, c) for seat, c, up in plays if up]
        winners.append(ups[-1])
    bailao_won = next((k for k, (_, c) in enumerate(winners) if c == BAILAO.index), None)
    holder = s.bailao_holder
    for k, (_lead, plays) in enumerate(s.history):
        led = ALL_CARDS[plays[0][1]].suit
        best = -1
        for n, (seat, c, up) in enumerate(plays):
            hand = hands[seat]
            card = ALL_CARDS[c]
            if (
                c in (_WT, _QT)
                and holder >= 0
                and seat != holder
                and bailao_won is not None
                and bailao_won > k
                and not (c == _WT and _QT in hand)
                and not (led is Suit.SHI and all(ALL_CARDS[x].suit is Suit.SHI for x in hand))
            ):
                out.append(Penalty(SEATS[seat], "zongbai", card, k + 1))
            if n > 0 and not up and seat != s.banker and best >= 0:
                by_banker = any(p == s.banker and x == best_card for p, x, u in plays[:n] if u)
                captures = sorted(
                    x for x in hand if ALL_CARDS[x].suit is led and ALL_CARDS[x].rank > best
                )
                if by_banker and captures and _banker_then_shang(s, winners, k):
                    out.append(Penalty(SEATS[seat], "zongzhuang", ALL_CARDS[captures[0]], k + 1))
            if up:
                best, best_card = card.rank, c
            hand.discard(c)
    return tuple(out)


def _banker_then_shang(s: State, winners: list[tuple[int, int]], k: int) -> bool:
    """The banker won trick ``k`` and then led trick ``k + 1`` with a 賞 that went 上桌."""
    if winners[k][0] != s.banker or k + 1 >= len(s.history):
        return False
    lead_seat, lead_card = s.history[k + 1][1][0][:2]
    return (
        lead_seat == s.banker
        and winners[k + 1] == (s.banker, lead_card)
        and ALL_CARDS[lead_card].role is Role.SHANG
    )


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
