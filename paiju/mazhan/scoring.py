"""Scoring a finished Mazhan hand (rules §7, §8): every seat's value and the payments.

Every figure comes with named items: base points (基礎分) item by item, the rounding (進一),
the 台 that double it, the hand types, and each payment between two seats.

The winner's value H is the best over every decomposition of the concealed tiles, every
reading of the ★ and every place the winning tile can go (§7 "Precisely"): the highest value,
then a limit hand (辣子: its "uncapped value" is not defined by the rules, and a hand that
reads as 清一色 is reported as 清一色), then the highest uncapped value, then the most 台, then
the highest base (``docs/rules-decisions.md``).

>>> from paiju.mazhan.record import EXAMPLE
>>> result = score_json(EXAMPLE)
>>> result["net"]
{'E': -640, 'S': 1280, 'W': -320, 'N': -320}
>>> s = result["players"]["S"]
>>> s["base"], s["rounded"], s["tai"], s["value"], s["hand"]
(14, 20, 3, 320, ['混一色'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import partial
from operator import attrgetter, is_
from typing import Any, TypeVar

from paiju.mazhan.hand import (
    GROUP_CODES,
    Decomposition,
    Group,
    GroupKind,
    _decomposition_groups,
    _one_wait,
    _tile_counts,
    suit_keys,
)
from paiju.mazhan.melds import Meld, MeldKind
from paiju.mazhan.record import FinishedHand, SeatHand, WinBy
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.tiles import ALL_TILES, Suit, Tile, format_tiles, parse_tiles

parse = parse_tiles  # a short alias for the doctests

__all__ = [
    "LIMIT",
    "Item",
    "Payment",
    "ScoredSet",
    "SeatScore",
    "Settlement",
    "TaiItem",
    "payments",
    "round_up",
    "score",
    "score_json",
]

#: 辣子: the cap of every value, and the value of the limit hands.
LIMIT = 400
_T = {str(t): t for t in ALL_TILES}
_RED, _GREEN, _WHITE = _T["7z"], _T["6z"], _T["5z"]


@dataclass(frozen=True, slots=True)
class _Line:
    """A line of a settlement's breakdown: its Chinese name and English gloss."""

    name: str
    en: str

    def to_json(self) -> dict[str, Any]:
        """The line as §11's JSON: its fields by name.

        >>> Item("自摸", "self-drawn", 2).to_json()["points"], _ALL_PUNGS.to_json()["tai"]
        (2, 1)
        """
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, slots=True)
class Item(_Line):
    """One base-point item.

    >>> Item("碰 中", "exposed pung of red dragon", 4).to_json()
    {'name': '碰 中', 'en': 'exposed pung of red dragon', 'points': 4}
    """

    points: int


@dataclass(frozen=True, slots=True)
class TaiItem(_Line):
    """One 台: each doubles the value.

    >>> TaiItem("中", "red dragon pung", 1).to_json()
    {'name': '中', 'en': 'red dragon pung', 'tai': 1}
    """

    tai: int


@dataclass(frozen=True, slots=True)
class ScoredSet:
    """One set (or the pair) of the reading a score used: ``kind`` is ``chow``, ``pung``,
    ``kong`` (exposed), ``ckong`` (concealed kong) or ``pair``; ``tiles`` as read (★ as the
    faces they stand for); ``wild`` the faces the ★ stand for; ``concealed`` False for a
    declared meld and for a pung completed by the winning discard.

    >>> ScoredSet("pung", tuple(parse("7z7z7z")), False, ()).to_json()
    {'kind': 'pung', 'tiles': ['7z', '7z', '7z'], 'concealed': False, 'wild': []}
    """

    kind: str
    tiles: tuple[Tile, ...]
    concealed: bool
    wild: tuple[Tile, ...]
    by_discard: bool = False

    def to_json(self) -> dict[str, Any]:
        """The set as JSON (codes).

        >>> ScoredSet("pair", tuple(parse("5m5m")), True, tuple(parse("5m"))).to_json()["wild"]
        ['5m']
        """
        return {
            "kind": self.kind,
            "tiles": [str(t) for t in self.tiles],
            "concealed": self.concealed,
            "wild": [str(t) for t in self.wild],
        }

    @property
    def label(self) -> str:
        """The set as the ``--explain`` tables write it.

        >>> ScoredSet("chow", tuple(parse("345p")), True, tuple(parse("4p"))).label
        'chow 345p (★ = 4p, concealed)'
        """
        if self.kind in ("chow", "pung", "kong", "ckong") and not self.concealed:
            text = f"{self.kind} {format_tiles(self.tiles)}"
        elif self.kind == "ckong":
            return f"ckong {format_tiles(self.tiles)}"
        else:
            text = f"{self.kind} " + "".join(str(t.rank) for t in self.tiles)
            text += self.tiles[0].suit.value
        notes = []
        if self.wild:
            notes.append("★ = " + " ".join(str(t) for t in self.wild))
        if self.by_discard:
            notes.append("completed by the discard")
        elif self.kind != "pair" and self.concealed:
            notes.append("concealed")
        return f"{text} ({', '.join(notes)})" if notes else text


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's score: base, 進一 rounding, 台, value, and the items behind them.

    >>> SeatScore.empty("loser").to_json()["value"]
    0
    """

    role: str
    base: int
    rounded: int
    tai: int
    value: int
    uncapped: int
    hand: tuple[tuple[str, str], ...]
    items: tuple[Item, ...]
    tai_items: tuple[TaiItem, ...]
    scored_sets: tuple[ScoredSet, ...]
    rule: str = "loser"

    @staticmethod
    def empty(role: str) -> SeatScore:
        """A seat with nothing to score.

        >>> SeatScore.empty("drawn").base
        0
        """
        return SeatScore(role, 0, 0, 0, 0, 0, (), (), (), ())

    @property
    def sets(self) -> tuple[str, ...]:
        """The scored sets as text (see :attr:`ScoredSet.label`).

        >>> SeatScore.empty("loser").sets
        ()
        """
        return tuple(s.label for s in self.scored_sets)

    def formula(self) -> dict[str, Any]:
        """How the value was reached, step by step: ``rule`` is ``hutou`` (rounded + 20) ×
        2^台, ``pinghu`` 100 × 2^台, ``pinghu_wilds`` (平胡 holding two or more ★: 400),
        ``limit`` (a limit hand: 400) or ``loser`` (a non-winner: rounded × 2^台); then the
        cap of 400.

        >>> from paiju.mazhan.record import EXAMPLE
        >>> score(FinishedHand.from_json(EXAMPLE)).players[Seat.S].formula()
        {'rule': 'hutou', 'base': 14, 'rounded': 20, 'head': 20, 'multiplier': 8,
         'uncapped': 320, 'cap': 400, 'value': 320}
        """
        head = {"hutou": 20, "pinghu": 100, "pinghu_wilds": 100}.get(self.rule, 0)
        return {
            "rule": self.rule,
            "base": self.base,
            "rounded": self.rounded,
            "head": head,
            "multiplier": 2**self.tai,
            "uncapped": self.uncapped,
            "cap": LIMIT,
            "value": self.value,
        }

    def to_json(self) -> dict[str, Any]:
        """The seat as §11's JSON (with ``uncapped``, ``hand_en`` and ``sets`` besides).

        >>> sorted(SeatScore.empty("loser").to_json())[:4]
        ['base', 'capped', 'hand', 'hand_en']
        """
        return {
            "role": self.role,
            "base": self.base,
            "rounded": self.rounded,
            "tai": self.tai,
            "value": self.value,
            "uncapped": self.uncapped,
            "capped": self.value == LIMIT,
            "hand": [zh for zh, _ in self.hand],
            "hand_en": [en for _, en in self.hand],
            "items": [i.to_json() for i in self.items],
            "tai_items": [t.to_json() for t in self.tai_items],
            "sets": list(self.sets),
        }


def _seat_score(
    role: str,
    base: int,
    rounded: int,
    tai: int,
    value: int,
    uncapped: int,
    hand: tuple[tuple[str, str], ...],
    items: tuple[Item, ...],
    tai_items: tuple[TaiItem, ...],
    scored_sets: tuple[ScoredSet, ...],
    rule: str,
) -> SeatScore:
    """``SeatScore(...)`` with every field given, made over twice as fast: the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``; this sets them
    as plain attributes of a :class:`_BlankScore` and then makes it a ``SeatScore`` (the
    scorer makes four per hand).

    >>> _seat_score("loser", 1, 10, 0, 10, 10, (), (), (), (), "loser") == SeatScore(
    ...     "loser", 1, 10, 0, 10, 10, (), (), (), (), "loser")
    True
    """
    s: Any = _BlankScore()  # (its slots are SeatScore's: the fields are typed there)
    s.role = role
    s.base = base
    s.rounded = rounded
    s.tai = tai
    s.value = value
    s.uncapped = uncapped
    s.hand = hand
    s.items = items
    s.tai_items = tai_items
    s.scored_sets = scored_sets
    s.rule = rule
    s.__class__ = SeatScore
    return s  # type: ignore[no-any-return]


class _BlankScore:
    """The slots of :class:`SeatScore` in the same order, not frozen: Python lets an object
    change between two classes of the same layout, so :func:`_seat_score` fills one of
    these with plain attribute stores and then turns it into a ``SeatScore``."""

    __slots__ = SeatScore.__slots__


_NEW = object.__new__


@dataclass(frozen=True, slots=True)
class Payment:
    """Points one seat pays another, and why (``win`` or ``difference``).

    >>> Payment(Seat.E, Seat.S, 640, "win").to_json()
    {'from': 'E', 'to': 'S', 'amount': 640, 'reason': 'win'}
    """

    payer: Seat
    payee: Seat
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        """The payment as JSON.

        >>> Payment(Seat.N, Seat.W, 10, "difference").to_json()["reason"]
        'difference'
        """
        return {
            "from": self.payer.value,
            "to": self.payee.value,
            "amount": self.amount,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every seat's score, the payments and each seat's net (zero-sum).

    >>> from paiju.mazhan.record import EXAMPLE
    >>> sum(score(FinishedHand.from_json(EXAMPLE)).net.values())
    0
    """

    winner: Seat | None
    players: Mapping[Seat, SeatScore]
    payments: tuple[Payment, ...]
    net: Mapping[Seat, int]

    def to_json(self) -> dict[str, Any]:
        """§11's output object (with ``winner`` and ``payments`` besides).

        >>> from paiju.mazhan.record import EXAMPLE
        >>> sorted(score(FinishedHand.from_json(EXAMPLE)).to_json())
        ['net', 'payments', 'players', 'winner']
        """
        return {
            "winner": None if self.winner is None else self.winner.value,
            "players": {s.value: self.players[s].to_json() for s in SEATS},
            "payments": [p.to_json() for p in self.payments],
            "net": {s.value: self.net[s] for s in SEATS},
        }


def round_up(base: int) -> int:
    """進一法: round up to a multiple of ten.

    >>> [round_up(b) for b in (0, 2, 12, 14, 32, 40)]
    [0, 10, 20, 20, 40, 40]
    """
    return -(-base // 10) * 10


def score_json(data: object) -> dict[str, Any]:
    """Score §11's JSON input and return §11's JSON output.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> score_json(EXAMPLE)["players"]["S"]["tai_items"][0]
    {'name': '中', 'en': 'red dragon pung', 'tai': 1}

    Raises :class:`~paiju.errors.InvalidHandError` (a ``ValueError``) for bad input.
    """
    return score(FinishedHand.from_json(data)).to_json()


def score(hand: FinishedHand) -> Settlement:
    """Score every seat of a checked finished hand and settle the payments.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> s = score(FinishedHand.from_json(EXAMPLE))
    >>> s.players[Seat.S].value, s.net[Seat.E]
    (320, -640)
    """
    winner = hand.winner
    held = hand.players
    if winner is None:
        players = {seat: _score_other(hand, seat, held[seat], "drawn") for seat in SEATS}
        return _settlement(None, players, (), dict.fromkeys(SEATS, 0))
    players = {}
    for seat in SEATS:
        if seat is winner:
            players[seat] = _score_winner(hand, seat, held[seat])
        else:
            players[seat] = _score_other(hand, seat, held[seat], "loser")
    e, s, w, n = players.values()  # in seat order
    key = (winner, e.value, s.value, w.value, n.value)
    settled = _SETTLED.get(key)
    if settled is None:
        settled = _settle(winner, dict(zip(SEATS, key[1:], strict=True)))
        _remember(_SETTLED, key, settled, _SETTLED_SIZE)
    pays, net = settled
    return _settlement(winner, players, pays, net.copy())


def _settle(winner: Seat, values: dict[Seat, int]) -> tuple[tuple[Payment, ...], dict[Seat, int]]:
    """The payments of a hand with a winner, and each seat's net.

    >>> pays, net = _settle(Seat.S, {Seat.E: 0, Seat.S: 100, Seat.W: 0, Seat.N: 10})
    >>> len(pays), [net[s] for s in SEATS]
    (5, [-220, 400, -110, -70])
    """
    pays = payments(winner, values)
    net = dict.fromkeys(SEATS, 0)
    for p in pays:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return tuple(pays), net


#: The payments and nets of recent hands, by the winner and the four values (multiples of
#: ten up to 400: the common combinations come back, about every other hand in seeded
#: play). Payments are immutable and shared; each settlement gets its own copy of the nets.
_SETTLED: dict[tuple[Seat, int, int, int, int], tuple[tuple[Payment, ...], dict[Seat, int]]] = {}
_SETTLED_SIZE = 2048


def _remember(cache: dict[Any, Any], key: object, value: object, size: int) -> None:
    """``cache[key] = value``, first dropping the older half of a full cache (first in,
    first out: a hit costs one lookup and no bookkeeping).

    >>> c: dict[int, int] = {1: 1, 2: 2}
    >>> _remember(c, 3, 3, 2); c
    {2: 2, 3: 3}
    """
    if len(cache) >= size:
        # pop, not del: two threads (the loop's settlement, a search) may both evict
        for old in list(itertools.islice(cache, size // 2)):
            cache.pop(old, None)
    cache[key] = value


def _settlement(
    winner: Seat | None,
    players: dict[Seat, SeatScore],
    pays: tuple[Payment, ...],
    net: dict[Seat, int],
) -> Settlement:
    """``Settlement(...)``, its slots set directly (as :func:`_seat_score` does).

    >>> _settlement(None, {}, (), {}) == Settlement(None, {}, (), {})
    True
    """
    made = _NEW(Settlement)
    _SET_WINNER(made, winner)
    _SET_PLAYERS(made, players)
    _SET_PAYMENTS(made, pays)
    _SET_NET(made, net)
    return made


_SET_WINNER, _SET_PLAYERS, _SET_PAYMENTS, _SET_NET = (
    getattr(Settlement, f.name).__set__ for f in fields(Settlement)
)


def payments(winner: Seat | None, values: Mapping[Seat, int]) -> list[Payment]:
    """The payments of §7: each non-winner pays H, non-winners settle their differences;
    doubled between the dealer (East) and anyone. A draw pays nothing.

    >>> [(p.payer.value, p.payee.value, p.amount) for p in
    ...  payments(Seat.E, {Seat.E: 100, Seat.S: 10, Seat.W: 10, Seat.N: 0})]
    [('S', 'E', 200), ('W', 'E', 200), ('N', 'E', 200), ('N', 'S', 10), ('N', 'W', 10)]
    """
    if winner is None:
        return []
    out: list[Payment] = []
    others = _OTHERS[winner]
    value = values[winner]
    east = Seat.E
    for s in others:
        out.append(_payment(s, winner, value * 2 if east is s or east is winner else value, "win"))
    for a, b in _PAIRS[winner]:
        diff = values[a] - values[b]
        if diff:
            if east is a or east is b:
                diff *= 2
            if diff > 0:
                out.append(_payment(b, a, diff, "difference"))
            else:
                out.append(_payment(a, b, -diff, "difference"))
    return out


#: Per winner: the other seats in order, and their pairs.
_OTHERS = {w: tuple(s for s in SEATS if s is not w) for w in SEATS}
_PAIRS = {w: tuple(itertools.combinations(_OTHERS[w], 2)) for w in SEATS}


def _payment(payer: Seat, payee: Seat, amount: int, reason: str) -> Payment:
    """The payment with these fields: immutable, so each is made once and shared."""
    key = (payer, payee, amount, reason)
    made = _PAYMENTS.get(key)
    if made is None:
        made = Payment(payer, payee, amount, reason)
        if len(_PAYMENTS) < 100_000:  # a few thousand at most in play; the cap bounds odd use
            _PAYMENTS[key] = made
    return made


_PAYMENTS: dict[tuple[Seat, Seat, int, str], Payment] = {}


# --- items shared by every seat -------------------------------------------------------------

_SET_POINTS = {"exposed_pung": 2, "concealed_pung": 4, "exposed_kong": 8, "concealed_kong": 16}
_SET_NAMES = {
    "exposed_pung": ("碰", "exposed pung of"),
    "concealed_pung": ("手牌", "concealed pung of"),
    "exposed_kong": ("明槓", "exposed kong of"),
    "concealed_kong": ("暗槓", "concealed kong of"),
    "won_pung": ("碰", "pung completed by the winning discard:"),
}


def _make_set_item(kind: str, face: Tile) -> Item:
    points = _SET_POINTS["exposed_pung" if kind == "won_pung" else kind]
    if face.is_terminal_or_honor:
        points *= 2
    zh, en = _SET_NAMES[kind]
    return Item(f"{zh} {face.name_zh}", f"{en} {face.name_en}", points)


def _make_face_tai(face: Tile, seat: Seat, kong: bool = False) -> TaiItem | None:
    """The 台 of a pung (or with ``kong``, a kong) of ``face`` held by ``seat``, if any.

    >>> _make_face_tai(_RED, Seat.E, kong=True)
    TaiItem(name='中', en='red dragon kong', tai=1)
    """
    set_name = "kong" if kong else "pung"
    if face == _RED:
        return TaiItem("中", f"red dragon {set_name}", 1)
    if face == _GREEN:
        return TaiItem("發", f"green dragon {set_name}", 1)
    if face == seat.wind:
        return TaiItem(f"{face.name_zh}風", f"seat wind {set_name} ({face.name_en})", 1)
    return None


def _bonus_items(bonus: Iterable[Tile], seat: Seat) -> tuple[list[Item], list[TaiItem]]:
    made = _bonus_tuples(bonus, seat)
    return list(made[0]), list(made[1])


def _bonus_totals(
    bonus: Iterable[Tile], seat: Seat
) -> tuple[tuple[Item, ...], tuple[TaiItem, ...], int, int]:
    """:func:`_bonus_tuples` with their base points and 台 added up.

    >>> _bonus_totals(parse("5z5z1h"), Seat.E)[2:]
    (12, 2)
    """
    # by the seat and the faces in order: a few thousand keys at most (up to four 白 and
    # one of each flower and season), so the cache needs no bound
    key = (seat.number, tuple(sorted(map(_INDEX, bonus))))
    made = _BONUS_TOTALS.get(key)
    if made is None:
        items, tai = _bonus_tuples(bonus, seat)
        made = _BONUS_TOTALS[key] = (items, tai, sum(map(_POINTS, items)), sum(map(_TAI, tai)))
    return made


def _bonus_tuples(
    bonus: Iterable[Tile], seat: Seat
) -> tuple[tuple[Item, ...], tuple[TaiItem, ...]]:
    key = (seat.number, tuple(sorted(map(_INDEX, bonus))))
    made = _BONUS_ITEMS.get(key)
    if made is None:
        made = _BONUS_ITEMS[key] = _bonus_items_of(tuple(ALL_TILES[f] for f in key[1]), seat)
    return made


def _bonus_items_of(
    bonus: tuple[Tile, ...], seat: Seat
) -> tuple[tuple[Item, ...], tuple[TaiItem, ...]]:
    items: list[Item] = []
    tai: list[TaiItem] = []
    whites = 0
    for tile in bonus:
        if tile == _WHITE:
            whites += 1
            items.append(_once(Item("白板", "white dragon (bonus tile)", 4)))
            continue
        kind_zh, kind_en = ("花", "flower") if tile.suit is Suit.FLOWER else ("季", "season")
        items.append(_once(Item(f"{kind_zh} {tile.name_zh}", f"{kind_en}: {tile.name_en}", 4)))
        if tile.rank == seat.number:
            tai.append(
                _once(
                    TaiItem(
                        f"{tile.name_zh}（{seat.name_zh}位）",
                        f"{tile.name_en} matches the seat ({seat.value})",
                        1,
                    )
                )
            )
    if whites >= 2:
        tai.append(_once(TaiItem(f"白板 ×{whites}", f"{whites} white dragons", whites // 2)))
    return tuple(items), tuple(tai)


def _once(line: _L) -> _L:
    """The first item (or 台) made equal to ``line``: each combination of bonus tiles has its
    own tuple of items, but a few dozen items in all are different, so they are shared.

    >>> _once(Item("a", "b", 4)) is _once(Item("a", "b", 4))
    True
    """
    return _LINES.setdefault(line, line)  # type: ignore[return-value]


_L = TypeVar("_L", bound=_Line)
_LINES: dict[_Line, _Line] = {}


def _meld_items(melds: Iterable[Meld], seat: Seat) -> tuple[list[Item], list[TaiItem]]:
    items: list[Item] = []
    tai: list[TaiItem] = []
    face_tai = _FACE_TAI[seat.number - 1]
    kong_tai = _KONG_TAI[seat.number - 1]
    for meld in melds:
        kind = _MELD_SET_KIND.get(meld.kind)
        if kind is None:
            continue
        f = meld.tiles[0].index
        items.append(_SET_ITEMS[kind][f])
        t = (face_tai if meld.kind is MeldKind.PUNG else kong_tai)[f]
        if t is not None:
            tai.append(t)
    return items, tai


_MELD_SET_KIND = {
    MeldKind.PUNG: "exposed_pung",
    MeldKind.KONG: "exposed_kong",
    MeldKind.CKONG: "concealed_kong",
}
#: The items and 台 of every set kind and face, and the bonus tiles' by seat, made once.
_SET_ITEMS = {
    kind: tuple(_make_set_item(kind, ALL_TILES[f]) for f in range(34)) for kind in _SET_NAMES
}
_FACE_TAI = tuple(tuple(_make_face_tai(ALL_TILES[f], seat) for f in range(34)) for seat in SEATS)
_KONG_TAI = tuple(
    tuple(_make_face_tai(ALL_TILES[f], seat, kong=True) for f in range(34)) for seat in SEATS
)
_BONUS_ITEMS: dict[tuple[int, tuple[int, ...]], tuple[tuple[Item, ...], tuple[TaiItem, ...]]] = {}
_BONUS_TOTALS: dict[
    tuple[int, tuple[int, ...]], tuple[tuple[Item, ...], tuple[TaiItem, ...], int, int]
] = {}


def _finish(role: str, items: list[Item], tai_items: list[TaiItem]) -> tuple[int, int, int]:
    base = sum(map(_POINTS, items))
    return base, -(-base // 10) * 10, sum(map(_TAI, tai_items))


_INDEX = attrgetter("index")
_POINTS = attrgetter("points")
_TAI = attrgetter("tai")


# --- non-winners ----------------------------------------------------------------------------


def _score_other(hand: FinishedHand, seat: Seat, sh: SeatHand, role: str) -> SeatScore:
    """U = min(400, rounded × 2^台): melds, kongs, natural concealed triplets, bonus tiles."""
    n = seat.number - 1
    items: list[Item] = []
    tai: list[TaiItem] = []
    base = n_tai = 0
    sets: tuple[ScoredSet, ...] = ()
    if sh.melds:
        made = []
        parts = _MELD_PARTS_BY_SEAT[n]
        for meld in sh.melds:
            part = parts[_MELD_CODE[meld.kind] + meld.tiles[0].index]
            if part is None:
                part = _new_meld_part(meld, n)
            scored, item, t = part
            made.append(scored)
            if item is not None:
                items.append(item)
                base += item.points
                if t is not None:
                    tai.append(t)
                    n_tai += t.tai
        sets = tuple(made)
    counts = bytearray(42)
    for f in map(_INDEX, sh.concealed):
        counts[f] += 1
    counts[hand.wild.index] = 0
    marks = counts.translate(_THREE_OR_MORE)  # 1 where a face is held three or four times
    f = marks.find(1)
    if f >= 0:
        pung_items = _SET_ITEMS["concealed_pung"]
        face_tai = _FACE_TAI[n]
        while f >= 0:
            item = pung_items[f]
            items.append(item)
            base += item.points
            t = face_tai[f]
            if t is not None:
                tai.append(t)
                n_tai += t.tai
            f = marks.find(1, f + 1)
    if sh.bonus:
        b_items, b_tai, b_base, b_n_tai = _bonus_totals(sh.bonus, seat)
        items += b_items
        tai += b_tai
        base += b_base
        n_tai += b_n_tai
    rounded = -(-base // 10) * 10
    uncapped = rounded << n_tai  # rounded × 2^台
    return _seat_score(
        role,
        base,
        rounded,
        n_tai,
        min(LIMIT, uncapped),
        uncapped,
        (),
        tuple(items),
        tuple(tai),
        sets,
        "loser",
    )


_THREE_OR_MORE = bytes(int(n >= 3) for n in range(256))


def _meld_set(m: Meld) -> ScoredSet:
    key = (m.kind, m.tiles[0].index)  # a meld's tiles follow from its kind and first tile
    made = _MELD_SETS.get(key)
    if made is None:
        made = _MELD_SETS[key] = ScoredSet(m.kind.value, m.tiles, m.kind is MeldKind.CKONG, ())
    return made


_MELD_SETS: dict[tuple[MeldKind, int], ScoredSet] = {}


def _new_meld_part(m: Meld, n: int) -> tuple[ScoredSet, Item | None, TaiItem | None]:
    """A meld's scored set, base-point item (none for a chow) and 台 (if any) for seat ``n``
    (0–3), made once and kept in :data:`_MELD_PARTS_BY_SEAT`.

    >>> from paiju.mazhan.melds import Meld
    >>> _new_meld_part(Meld.parse("pung 777z"), 0)[2].name
    '中'
    """
    f = m.tiles[0].index
    kind = _MELD_SET_KIND.get(m.kind)
    item = t = None
    if kind is not None:
        item = _SET_ITEMS[kind][f]
        t = (_FACE_TAI if m.kind is MeldKind.PUNG else _KONG_TAI)[n][f]
    made = _MELD_PARTS_BY_SEAT[n][_MELD_CODE[m.kind] + f] = (_meld_set(m), item, t)
    return made


#: Per meld kind: its offset in a seat's meld parts (kind and first face: 4 × 34 of them).
_MELD_CODE = {MeldKind.CHOW: 0, MeldKind.PUNG: 34, MeldKind.KONG: 68, MeldKind.CKONG: 102}
#: Per seat: each meld's parts (see :func:`_new_meld_part`) by kind offset + first face.
_MELD_PARTS_BY_SEAT: tuple[list[tuple[ScoredSet, Item | None, TaiItem | None] | None], ...] = tuple(
    [None] * 136 for _ in SEATS
)


# --- the winner -----------------------------------------------------------------------------

_HAND_NAMES = {
    "天胡": "heavenly hand",
    "地胡": "earthly hand",
    "殺豬": "three wilds",
    "清一色": "pure one suit",
    "四台": "four tai or more",
    "平胡": "all chows",
    "對對胡": "all pungs",
    "混一色": "one suit and honours",
}


def _hand(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple(map(_HAND_PAIRS.__getitem__, names))


_HAND_PAIRS = {zh: (zh, en) for zh, en in _HAND_NAMES.items()}


def _score_winner(hand: FinishedHand, seat: Seat, sh: SeatHand) -> SeatScore:
    win_by = hand.win_by
    assert win_by is not None  # FinishedHand._check guarantees it
    if win_by is WinBy.SHA_ZHU or hand.tianhu:
        stars = sh.concealed.count(hand.wild)
        # 殺豬 and 天胡: 400, shown with the melds and bonus tiles only (§7 "Precisely").
        items, tai = _meld_items(sh.melds, seat)
        b_items, b_tai = _bonus_items(sh.bonus, seat)
        items += b_items
        tai += b_tai
        base, rounded, n_tai = _finish("winner", items, tai)
        names = ["天胡"] if hand.tianhu else []
        if win_by is WinBy.SHA_ZHU or stars == 3:
            names.append("殺豬")
        uncapped = max(LIMIT, (rounded + 20) * 2**n_tai)
        return _seat_score(
            "winner",
            base,
            rounded,
            n_tai,
            LIMIT,
            uncapped,
            _hand(*names),
            tuple(items),
            tuple(tai),
            tuple(_meld_set(m) for m in sh.melds),
            "limit",
        )
    counts, stars = _tile_counts(sh.concealed, hand.wild)
    keys = suit_keys(counts)
    single = _single_wait(hand, sh, counts, stars, keys)
    best: tuple[tuple[Group, ...], bool] | None = None
    best_key: tuple[int, bool, int, int, int] | None = None
    fixed = _Fixed(hand, seat, sh, single)
    rank = fixed.key
    discard = hand.win_tile is not None and win_by.is_discard_like
    t = fixed.win_index
    for decomposition in _decomposition_groups(counts, stars, keys=keys):
        # a ★-only group (face None) sorts last of the pungs or as the pair: only then are
        # there faces to read
        if decomposition[-1].face is not None and (
            len(decomposition) < 2 or decomposition[-2].face is not None
        ):
            readings: Iterable[tuple[Group, ...]] = (decomposition,)
        else:
            readings = _free_group_readings(decomposition, seat)
        for groups in readings:
            for won_pung in _placements(t, groups) if discard else _NOT_A_DISCARD:
                if best is None:  # ranked only if another reading comes (most hands: none)
                    best = (groups, won_pung)
                    continue
                if best_key is None:
                    best_key = rank(best[0], best[1], stars)
                key = rank(groups, won_pung, stars)
                if key > best_key:
                    best, best_key = (groups, won_pung), key
    assert best is not None  # the winner's hand was checked complete
    # the chosen reading again, with the labels of its sets (only this one needs them)
    return _evaluate(hand, seat, sh, best[0], best[1], single, stars, label=True, fixed=fixed)


#: Per face: its suit's bit (bit 3 for the honours), and a concealed pung's base points.
_SUIT_BIT = tuple(1 << min(f // 9, 3) for f in range(34))
_PUNG_POINTS = tuple(8 if ALL_TILES[f].is_terminal_or_honor else 4 for f in range(34))


def _worth(pinghu: bool, stars: int, n_tai: int, rounded: int) -> tuple[int, int]:
    """The value and the uncapped value of a hand that is not a limit hand: a 平胡 is 100
    doubled per 台 (辣子 with two ★ or more), any other hand its rounded base + 20 胡頭
    doubled per 台; capped at :data:`LIMIT`."""
    if pinghu:
        uncapped = 100 * 2**n_tai
        value = LIMIT if stars >= 2 else min(LIMIT, uncapped)
        return value, max(uncapped, value)
    uncapped = (rounded + 20) * 2**n_tai
    return min(LIMIT, uncapped), uncapped


class _Fixed:
    """What :func:`_evaluate` adds up for the winner that does not depend on the reading
    (the melds, the bonus tiles, self-draw, a single wait), so that each reading is ranked
    by :meth:`key` on numbers alone; the best reading is then evaluated in full. ``key``
    equals ``(value, rule == "limit", uncapped, tai, base)`` of :func:`_evaluate` (a test
    checks it on every reading of many hands)."""

    __slots__ = ("all_chow_melds", "base", "bonus_items", "bonus_tai", "dihu", "meld_items",
                 "meld_suit_bits", "meld_tai", "no_chow_melds", "pinghu_ok", "single", "tai",
                 "win_by", "win_index", "win_tile", "wind")  # fmt: skip

    def __init__(self, hand: FinishedHand, seat: Seat, sh: SeatHand, single: bool) -> None:
        win_by = hand.win_by
        assert win_by is not None
        # kept for _evaluate, which starts from the same items (and copies the lists)
        n = seat.number - 1
        parts = _MELD_PARTS_BY_SEAT[n]
        items: list[Item] = []
        tai: list[TaiItem] = []
        base = n_tai = chows = bits = 0
        for m in sh.melds:
            f = m.tiles[0].index
            bits |= _SUIT_BIT[f]  # a meld's tiles are all of one suit
            part = parts[_MELD_CODE[m.kind] + f]
            if part is None:
                part = _new_meld_part(m, n)
            _, item, t = part
            if item is None:  # a chow
                chows += 1
                continue
            items.append(item)
            base += item.points
            if t is not None:
                tai.append(t)
                n_tai += t.tai
        self.meld_items, self.meld_tai = items, tai
        if sh.bonus:
            b_items, b_tai, b_base, b_n_tai = _bonus_totals(sh.bonus, seat)
            self.bonus_items, self.bonus_tai = b_items, b_tai
            base += b_base
            n_tai += b_n_tai
        else:
            self.bonus_items = self.bonus_tai = ()
        # the base points and 台 of these items, self-draw and a single wait
        self.base = base + 2 * win_by.is_self_drawn + 2 * single
        self.tai = n_tai
        self.win_by = win_by
        self.single = single
        self.no_chow_melds = not chows
        self.all_chow_melds = chows == len(sh.melds)
        self.meld_suit_bits = bits
        self.pinghu_ok = not sh.bonus and win_by.is_discard_like and not single
        self.dihu = hand.dihu
        self.win_tile = hand.win_tile
        self.win_index = -1 if hand.win_tile is None else hand.win_tile.index
        self.wind = seat.wind.index

    def key(
        self, groups: tuple[Group, ...], won_pung: bool, stars: int
    ) -> tuple[int, bool, int, int, int]:
        base = self.base
        n_tai = self.tai
        pungs = chows = 0
        suits = self.meld_suit_bits  # bit s for suit s, bit 3 for honours
        win = self.win_index if won_pung else -1
        wind = self.wind
        for g in groups:
            face = g.face
            assert face is not None
            f = face.index
            suits |= _SUIT_BIT[f]
            kind = g.kind
            if kind is GroupKind.CHOW:
                chows += 1
            elif kind is GroupKind.PUNG:
                pungs += 1
                # 4 (8 for 首尾), halved when the winning discard completed it
                base += _PUNG_POINTS[f] >> (f == win)
                if f == 33 or f == 32 or f == wind:  # 中, 發, the seat's wind
                    n_tai += 1
        honors = suits > 7
        suits &= 7
        sets_are_pungs = not chows and self.no_chow_melds
        all_chows = not pungs and self.all_chow_melds
        one_suit = suits == 1 or suits == 2 or suits == 4
        pure = one_suit and not honors
        mixed = one_suit and honors
        n_tai += sets_are_pungs + mixed
        rounded = -(-base // 10) * 10
        value, uncapped = _worth(all_chows and self.pinghu_ok, stars, n_tai, rounded)
        limit = self.dihu or stars == 3 or pure or n_tai >= 4
        if limit:
            value = LIMIT
            uncapped = max(uncapped, LIMIT)
        return value, limit, uncapped, n_tai, base


def _single_wait(
    hand: FinishedHand, sh: SeatHand, counts: Sequence[int], stars: int, keys: Sequence[int]
) -> bool:
    """獨張: exactly one face completes the 16 tiles held before the winning tile, not
    counting the wild face nor a face whose four copies are all in the player's hand.
    ``counts`` and ``stars`` are the 17 concealed tiles read (natural counts and ★),
    ``keys`` their suit keys."""
    if hand.win_tile is None:
        return False
    win = hand.win_tile.index
    wild = hand.wild.index
    before = bytearray(counts)  # the 16 tiles held before the winning tile
    wilds = stars
    keys_before = list(keys)
    if win == wild:
        wilds -= 1
    else:
        before[win] -= 1
        keys_before[_SUIT_OF[win]] -= _STEP_OF[win]
    # the tiles held before the winning one: the concealed tiles less that one
    if (len(sh.concealed) - 1) % 3 != 1 or wilds > 3:
        return False
    held = before  # the player's own copies: concealed (bar the winning tile) and melds
    if sh.melds:
        held = bytearray(before)
        for meld in sh.melds:
            for t in meld.tiles:
                held[t.index] += 1
    return _one_wait(before, wilds, wild, held, keys_before, _SUIT_OF[win])


#: Per face: its suit (0–3) and its step in the suit key (base 5).
_SUIT_OF = tuple(min(f // 9, 3) for f in range(34))
_STEP_OF = tuple(5 ** (f - 9 * min(f // 9, 3)) for f in range(34))
_FACE = attrgetter("face")
_IS_NONE = partial(is_, None)
_FREE_PAIR_READINGS = ("5m", "5p", "5s", "7z")


def _readings_of_free_groups(d: Decomposition, seat: Seat) -> Iterator[tuple[Group, ...]]:
    """Give every ★-only group a face: the readings that can change the value."""
    return iter(_free_group_readings(d.groups, seat))


def _free_group_readings(groups: tuple[Group, ...], seat: Seat) -> Iterable[tuple[Group, ...]]:
    """:func:`_readings_of_free_groups` on a decomposition's groups."""
    if not any(map(_IS_NONE, map(_FACE, groups))):
        return (groups,)  # nothing to read (most hands)
    options: list[list[Group]] = []
    for g in groups:
        if g.face is not None:
            options.append([g])
        elif g.kind is GroupKind.PAIR:
            options.append([Group(g.kind, _T[f], g.wild_mask) for f in _FREE_PAIR_READINGS])
        else:
            faces = {
                _RED,
                _GREEN,
                seat.wind,
                _T["1m"],
                _T["1p"],
                _T["1s"],
                _T["5m"],
                _T["5p"],
                _T["5s"],
            }
            options.append([Group(g.kind, f, g.wild_mask) for f in sorted(faces)])
    return itertools.product(*options)


_FULL = {GroupKind.PUNG: 0b111, GroupKind.PAIR: 0b11}


def _win_placements(hand: FinishedHand, groups: tuple[Group, ...]) -> list[bool]:
    """Whether the winning discard closes a pung (scored as exposed) or another group."""
    tile = hand.win_tile
    if hand.win_by is None or not hand.win_by.is_discard_like or tile is None:
        return [False]
    return list(_placements(tile.index, groups))


def _placements(t: int, groups: tuple[Group, ...]) -> tuple[bool, ...]:
    """:func:`_win_placements` for a winning discard of face ``t`` (shared tuples)."""
    in_pung = elsewhere = False
    for g in groups:  # is the tile one of the group's natural (non-★) tiles?
        face = g.face
        if face is None:
            continue
        at = t - face.index
        kind = g.kind
        if kind is GroupKind.CHOW:
            if 0 <= at <= 2 and not g.wild_mask >> at & 1:
                elsewhere = True
        elif at == 0 and g.wild_mask != _FULL[kind]:
            if kind is GroupKind.PUNG:
                in_pung = True
            else:
                elsewhere = True
    if in_pung:
        return _BOTH if elsewhere else _PUNG_ONLY
    return _ELSEWHERE if elsewhere else _NOWHERE


_BOTH: tuple[bool, ...] = (True, False)
_PUNG_ONLY: tuple[bool, ...] = (True,)
_ELSEWHERE: tuple[bool, ...] = (False,)
_NOWHERE: tuple[bool, ...] = ()
_NOT_A_DISCARD = _ELSEWHERE


def _evaluate(
    hand: FinishedHand,
    seat: Seat,
    sh: SeatHand,
    groups: tuple[Group, ...],
    won_pung: bool,
    single: bool,
    stars: int,
    label: bool = False,
    fixed: _Fixed | None = None,
) -> SeatScore:
    win_by = hand.win_by
    assert win_by is not None
    if fixed is None:
        fixed = _Fixed(hand, seat, sh, single)
    items = list(fixed.meld_items)
    tai = list(fixed.meld_tai)
    sets = list(map(_meld_set, sh.melds)) if label else None
    win = fixed.win_index if won_pung else -1  # the face of a pung the discard completed
    pung_items = _SET_ITEMS["concealed_pung"]
    won_items = _SET_ITEMS["won_pung"]
    face_tai = _FACE_TAI[seat.number - 1]
    chow = GroupKind.CHOW
    pung = GroupKind.PUNG
    chows = pungs = 0
    base = fixed.base  # the melds, bonus tiles, self-draw and single wait; pungs added below
    n_tai = fixed.tai
    suits = fixed.meld_suit_bits  # bit s for suit s, bit 3 for honours
    for g in groups:
        kind = g.kind
        if kind is chow:
            chows += 1
        elif kind is pung:
            pungs += 1
        face = g.face
        if face is None:
            continue  # no tiles read (a ★-only group is always given a face before this)
        f = face.index
        suits |= _SUIT_BIT[f]
        by_discard = False
        if kind is pung:
            by_discard = f == win
            item = (won_items if by_discard else pung_items)[f]
            items.append(item)
            base += item.points
            t = face_tai[f]
            if t is not None:
                tai.append(t)
                n_tai += t.tai
        if sets is not None:
            made = _GROUP_SETS[g.code * 2 + by_discard]
            sets.append(_new_group_set(g, by_discard) if made is None else made)
    items += fixed.bonus_items
    tai += fixed.bonus_tai
    if win_by.is_self_drawn:
        items.append(_SELF_DRAWN)
    if single:
        items.append(_SINGLE_WAIT)

    sets_are_pungs = not chows and fixed.no_chow_melds
    all_chows = not pungs and fixed.all_chow_melds
    honors = suits > 7
    suits &= 7
    one_suit = suits == 1 or suits == 2 or suits == 4
    pure = one_suit and not honors
    mixed = one_suit and honors
    names: list[str] = []
    if sets_are_pungs:
        tai.append(_ALL_PUNGS)
        n_tai += 1
    if mixed:
        tai.append(_MIXED)
        n_tai += 1
    rounded = -(-base // 10) * 10

    pinghu = all_chows and not sh.bonus and win_by.is_discard_like and not single
    value, uncapped = _worth(pinghu, stars, n_tai, rounded)
    if hand.dihu:
        names.append("地胡")
    if stars == 3:
        names.append("殺豬")
    if pure:
        names.append("清一色")
    if n_tai >= 4:
        names.append("四台")
    rule = "hutou"
    if pinghu:
        rule = "pinghu_wilds" if stars >= 2 else "pinghu"
    if names:  # a limit hand (辣子)
        value = LIMIT
        uncapped = max(uncapped, LIMIT)
        rule = "limit"
    if pinghu:
        names.append("平胡")
    if sets_are_pungs:
        names.append("對對胡")
    if mixed:
        names.append("混一色")
    return _seat_score(
        "winner",
        base,
        rounded,
        n_tai,
        value,
        uncapped,
        _hand(*names),
        tuple(items),
        tuple(tai),
        () if sets is None else tuple(sets),
        rule,
    )


_SELF_DRAWN = Item("自摸", "self-drawn", 2)
_SINGLE_WAIT = Item("獨張", "single wait", 2)
_ALL_PUNGS = TaiItem("對對胡", "all pungs", 1)
_MIXED = TaiItem("混一色", "one suit and honours", 1)


def _new_group_set(g: Group, by_discard: bool) -> ScoredSet:
    """The scored set of a group with a face (a pung completed by the winning discard if
    ``by_discard``), made once and kept in :data:`_GROUP_SETS`.

    >>> from paiju.mazhan.hand import decompositions
    >>> g = decompositions("777z11z")[0].groups[0]
    >>> _new_group_set(g, True).label
    'pung 777z (completed by the discard)'
    """
    assert g.face is not None
    wild = tuple(t for i, t in enumerate(g.tiles) if g.wild_mask >> i & 1)
    made = ScoredSet(g.kind.value, g.tiles, not by_discard, wild, by_discard)
    _GROUP_SETS[g.code * 2 + by_discard] = made
    return made


#: A group's scored set at ``2 × code + 1`` if the winning discard completed it, else at
#: ``2 × code`` (see :attr:`Group.code`): a few hundred in use, each made once.
_GROUP_SETS: list[ScoredSet | None] = [None] * (2 * GROUP_CODES)
