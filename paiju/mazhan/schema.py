"""The view and event JSON of Mazhan (``docs/views.md``, format 2) as pydantic models, the
typed views :mod:`paiju.views` registers for the game.

These models describe exactly what ``View.to_json()`` and ``events_json`` of the core
produce (a test validates every view and event of random hands against them); the core never
imports this module: it stays standard-library Python.

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> view = MazhanView.model_validate(observe(new_hand(Ruleset(), 4), Seat.S).to_json())
>>> view.format, view.seat, len(view.hand)
(2, 'S', 16)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from paiju.views import Model, PerSeat, Seat, public_of, register_views

__all__ = ["MazhanEvent", "MazhanPublicView", "MazhanView", "spectate"]

TileCode = Annotated[
    str,
    Field(
        pattern=r"^([1-9][mps]|[1-7]z|[1-4][hj])$",
        description="A Mazhan tile code: 1m–9m, 1p–9p, 1s–9s, 1z–7z, 1h–4h, 1j–4j.",
    ),
]


class MazhanMeld(Model):
    """A declared meld as this seat sees it."""

    kind: Literal["chow", "pung", "kong", "ckong"]
    """``kong`` is exposed (claimed or added to a pung), ``ckong`` concealed (暗槓)."""
    tiles: list[TileCode] | None
    """The meld's tiles, sorted; null for another seat's concealed kong (face down)."""
    claimed: TileCode | None
    """The discard the meld took; null for a concealed kong."""
    from_: Seat | None = Field(alias="from")
    """The seat whose discard it took; null for a concealed kong."""


class MazhanDiscard(Model):
    """One tile of a river."""

    tile: TileCode
    """The discarded tile."""
    claimed_by: Seat | None
    """The seat that claimed it (it then lies in that seat's meld), or null."""


class MazhanSeat(Model):
    """What everyone sees of one seat."""

    wind: Seat
    """The seat's wind (the seat itself: East is always the dealer)."""
    hand_size: int
    """How many concealed tiles the seat holds (the drawn one included)."""
    melds: list[MazhanMeld]
    """Declared melds, in the order declared."""
    bonus: list[TileCode]
    """Bonus tiles laid out (flowers, seasons, white dragons), in the order laid out."""
    discards: list[MazhanDiscard]
    """The river, in order."""


class MazhanWindow(Model):
    """An open claim window."""

    kind: Literal["claim", "rob"]
    """``claim``: on a discard; ``rob``: on an added kong (搶槓)."""
    tile: TileCode
    """The tile that may be claimed."""
    from_: Seat = Field(alias="from")
    """The seat that discarded it (or added it to a pung)."""


class MazhanLast(Model):
    """The last public action."""

    seat: Seat | None
    """Who did it (null for a drawn hand, 流局)."""
    kind: Literal["draw", "discard", "chi", "peng", "jiagang", "hu", "liuju"]
    """What happened."""
    tile: TileCode | None
    """The tile, or null where this seat may not see it (another seat's draw)."""


class MazhanAction(Model):
    """One of this seat's legal actions."""

    action: str
    """The exact string to send back, e.g. ``"S chi 456m"``."""
    kind: Literal["discard", "hu", "shazhu", "angang", "jiagang", "gang", "peng", "chi", "pass"]
    """The kind of action."""
    tile: TileCode | None
    """The tile it is about: the discard, the kong's face, the claimed tile, the winning
    tile; null for a pass, 殺豬 or 天胡."""
    tiles: list[TileCode]
    """What the action lays down (a chow's three, a pung's three, a kong's four; the
    discard itself)."""


class MazhanHand(Model):
    """One seat's tiles at the end, laid down."""

    concealed: list[TileCode]
    """Concealed tiles, sorted (the winner's include the winning tile)."""
    melds: list[MazhanMeld]
    """Every meld, face up."""
    bonus: list[TileCode]
    """Bonus tiles."""


class Named(Model):
    """A hand type."""

    zh: str
    """Chinese name, e.g. 混一色."""
    en: str
    """English name."""


class MazhanItem(Model):
    """One base-point item (基礎分)."""

    zh: str
    """Chinese label."""
    en: str
    """English label."""
    points: int
    """Base points."""


class MazhanTaiItem(Model):
    """One 台 (each doubles the value)."""

    zh: str
    """Chinese label."""
    en: str
    """English label."""
    tai: int
    """How many 台."""


class MazhanSet(Model):
    """One set (or the pair) of the reading the score used."""

    kind: Literal["chow", "pung", "kong", "ckong", "pair"]
    """The set's kind."""
    tiles: list[TileCode]
    """The tiles as read (★ as the faces they stand for)."""
    concealed: bool
    """False for a declared meld and for a pung completed by the winning discard."""
    wild: list[TileCode]
    """The faces the ★ of this set stand for."""


class MazhanFormula(Model):
    """How the value was reached: base → 進一 → the rule → ×2^台 → the cap."""

    rule: Literal["hutou", "pinghu", "pinghu_wilds", "limit", "loser"]
    """``hutou``: (rounded + head) × multiplier; ``pinghu``: head (100) × multiplier;
    ``pinghu_wilds``: 平胡 holding two or more ★, 400; ``limit``: a limit hand (辣子), 400;
    ``loser``: a non-winner, rounded × multiplier."""
    base: int
    """Base points (基礎分)."""
    rounded: int
    """The base rounded up to ten (進一)."""
    head: int
    """胡頭 20 for ``hutou``, 100 for ``pinghu``, else 0."""
    multiplier: int
    """2^台."""
    uncapped: int
    """The value before the cap."""
    cap: int
    """The cap (400, 辣子)."""
    value: int
    """The value (胡)."""


class MazhanScore(Model):
    """One seat's score, explained."""

    role: Literal["winner", "loser", "drawn"]
    """The seat's role in the hand."""
    base: int
    """Base points."""
    rounded: int
    """Rounded base (進一)."""
    tai: int
    """台."""
    value: int
    """The value (胡): H for the winner, U for the others."""
    uncapped: int
    """The value before the cap of 400."""
    capped: bool
    """True when the cap lowered the value."""
    formula: MazhanFormula
    """The steps of the value."""
    hand: list[Named]
    """Hand types (the winner's)."""
    items: list[MazhanItem]
    """Base-point items."""
    tai_items: list[MazhanTaiItem]
    """台 items."""
    sets: list[MazhanSet]
    """The sets of the reading used."""


class MazhanPayment(Model):
    """Points one seat pays another."""

    from_: Seat = Field(alias="from")
    """The payer."""
    to: Seat
    """The payee."""
    amount: int
    """胡 (× the stake at a table)."""
    reason: Literal["win", "difference"]
    """``win``: a non-winner pays the winner's value; ``difference``: between two
    non-winners, the lower value pays the difference."""
    dealer: bool
    """The dealer (East) is one of the two: the amount is doubled."""


class MazhanResult(Model):
    """The end of the hand: every hand laid down, every score and payment."""

    winner: Seat | None
    """The winner, or null for a drawn hand (流局)."""
    win_by: Literal["self_draw", "discard", "robbed_kong", "kong_replacement", "sha_zhu"] | None
    """How the hand was won."""
    win_tile: TileCode | None
    """The winning tile (null for 殺豬, 天胡 and a drawn hand)."""
    discarder: Seat | None
    """Who discarded the winning tile (or was robbed)."""
    tianhu: bool
    """天胡."""
    dihu: bool
    """地胡."""
    hands: PerSeat[MazhanHand]
    """Every seat's tiles."""
    scores: PerSeat[MazhanScore]
    """Every seat's score."""
    payments: list[MazhanPayment]
    """The payments (none for a drawn hand)."""
    net: PerSeat[int]
    """Each seat's net 胡 (zero-sum)."""


class MazhanPublicView(Model):
    """A Mazhan table as every seat sees it alike, and as a spectator sees it: what every seat
    sees of the others (rivers, melds with concealed kongs face down, flowers, hand sizes,
    the wall), never a concealed hand, a drawn tile, a seat's waits or its legal actions
    (rules, end of §5)."""

    game: Literal["mazhan"]
    format: Literal[2]
    """The view format."""
    phase: Literal["act", "claim", "rob", "over"]
    """``act``: a seat moves; ``claim``/``rob``: a claim window is open; ``over``."""
    turn: Seat | None
    """Whose turn it is in phase ``act``; null in a window and when over."""
    window: MazhanWindow | None
    """The open claim window on a discard or added kong (the same for every seat: who may
    claim is never shown)."""
    dealer: Seat
    """The dealer (always East)."""
    wild: TileCode
    """The wild face: its three copies in play are ★."""
    indicator: TileCode
    """The indicator tile turned up."""
    set_aside: list[TileCode]
    """Bonus tiles turned while looking for the indicator."""
    dice: list[int] = Field(min_length=2, max_length=2)
    """The two dice."""
    wall_left: int
    """Tiles left in the wall (the dead wall included)."""
    dead_wall: int
    """Tiles at the end of the wall a normal draw never takes."""
    seats: PerSeat[MazhanSeat]
    """What everyone sees of each seat."""
    last: MazhanLast | None
    """The last public action (another seat's draw without its tile)."""
    result: MazhanResult | None
    """Set once the hand is over."""


class MazhanView(MazhanPublicView):
    """What one Mazhan seat sees (``docs/views.md``): the table as every seat sees it, and
    this seat's own tiles, waits and legal actions."""

    seat: Seat
    """The seat this view belongs to."""
    version: int
    """The version this seat's next action must carry."""
    my_turn: bool
    """This seat has legal actions now."""
    hand: list[TileCode]
    """This seat's concealed tiles, sorted, without the drawn tile."""
    drawn: TileCode | None
    """The tile this seat just drew (set apart), else null."""
    waits: list[TileCode]
    """聽牌: the faces that complete the hand when it is one tile short."""
    legal: list[MazhanAction]
    """This seat's legal actions (its own only)."""


class MazhanDealEvent(Model):
    """The deal: the dealer and the dice."""

    kind: Literal["deal"]
    seat: Seat
    """The dealer."""
    tiles: list[TileCode]
    """Empty."""
    detail: str
    """Empty."""
    dice: list[int] = Field(min_length=2, max_length=2)
    """The two dice."""


class MazhanTileEvent(Model):
    """Any other event, as this seat may see it."""

    kind: Literal[
        "dealt",
        "set_aside",
        "indicator",
        "bonus",
        "draw",
        "discard",
        "decision",
        "claim_lost",
        "chi",
        "peng",
        "gang",
        "angang",
        "jiagang",
        "hu",
        "exhausted",
        "liuju",
    ]
    """``dealt`` a seat's tiles (private); ``set_aside`` a bonus tile turned for the
    indicator; ``bonus`` a bonus tile laid out; ``draw`` (private; ``detail`` head or tail);
    ``decision`` this seat's own answer in a claim window (only it sees it); ``claim_lost``
    this seat's claim lost (``detail`` names the claim that won; only it sees it); ``hu``
    (``detail`` how it was won); ``exhausted``/``liuju`` a drawn hand."""
    seat: Seat | None
    """Whose event it is."""
    tiles: list[TileCode] | None
    """The tiles, or null where this seat may not see them."""
    detail: str
    """More about the event (see ``kind``)."""


MazhanEvent = Annotated[MazhanDealEvent | MazhanTileEvent, Field(discriminator="kind")]


def spectate(views: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The table as a spectator sees it (:class:`MazhanPublicView`), from the views of one
    state of two or more seats: another seat's draw without its tile.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> state = new_hand(Ruleset(), 4)
    >>> seen = spectate({s.value: observe(state, s).to_json() for s in (Seat.E, Seat.S)})
    >>> "hand" in seen, seen["seats"]["E"]["hand_size"], seen["wall_left"] > 0
    (False, 17, True)
    """
    return public_of(views, MazhanPublicView, ("draw", "tile"))


register_views("mazhan", MazhanView, MazhanEvent, public=MazhanPublicView, spectate=spectate)
