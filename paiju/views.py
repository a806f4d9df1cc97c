"""The view and event JSON of both games (``docs/views.md``, format 2) as pydantic models.

These models describe exactly what ``View.to_json()`` and ``events_json`` of the game cores
produce (a test validates every view and event of random hands against them); their JSON
Schema (:func:`json_schema`) generates the client's TypeScript types. The cores never import
this module: they stay standard-library Python.

>>> from paiju.mazhan.rules import Ruleset, new_hand
>>> from paiju.mazhan.views import observe
>>> from paiju.mazhan.seats import Seat
>>> view = MazhanView.model_validate(observe(new_hand(Ruleset(), 4), Seat.S).to_json())
>>> view.format, view.seat, len(view.hand)
(2, 'S', 16)
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "TYPED_GAMES",
    "Event",
    "MadiaoEvent",
    "MadiaoPublicView",
    "MadiaoView",
    "MazhanEvent",
    "MazhanPublicView",
    "MazhanView",
    "PublicView",
    "View",
    "json_schema",
    "public_view",
]

T = TypeVar("T")

Seat = Literal["E", "S", "W", "N"]
TileCode = Annotated[
    str,
    Field(
        pattern=r"^([1-9][mps]|[1-7]z|[1-4][hj])$",
        description="A Mazhan tile code: 1m–9m, 1p–9p, 1s–9s, 1z–7z, 1h–4h, 1j–4j.",
    ),
]
CardCode = Annotated[
    str,
    Field(
        pattern=r"^([wqb2-9]t|[1-9][ms]|[0h1-9]c)$",
        description="A Ma Diao card code: wt qt bt 9t–2t, 9m–1m, 9s–1s, 0c hc 1c–9c.",
    ),
]
Zhu = Annotated[
    int | float, Field(description="注; halves (合吊) and thirds are written as decimals.")
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class PerSeat(_Model, Generic[T]):
    """One value for each seat."""

    E: T
    """East (in Mazhan, always the dealer)."""
    S: T
    """South."""
    W: T
    """West."""
    N: T
    """North."""


# --- Mazhan --------------------------------------------------------------------------------


class MazhanMeld(_Model):
    """A declared meld as this seat sees it."""

    kind: Literal["chow", "pung", "kong", "ckong"]
    """``kong`` is exposed (claimed or added to a pung), ``ckong`` concealed (暗槓)."""
    tiles: list[TileCode] | None
    """The meld's tiles, sorted; null for another seat's concealed kong (face down)."""
    claimed: TileCode | None
    """The discard the meld took; null for a concealed kong."""
    from_: Seat | None = Field(alias="from")
    """The seat whose discard it took; null for a concealed kong."""


class MazhanDiscard(_Model):
    """One tile of a river."""

    tile: TileCode
    """The discarded tile."""
    claimed_by: Seat | None
    """The seat that claimed it (it then lies in that seat's meld), or null."""


class MazhanSeat(_Model):
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


class MazhanWindow(_Model):
    """An open claim window."""

    kind: Literal["claim", "rob"]
    """``claim``: on a discard; ``rob``: on an added kong (搶槓)."""
    tile: TileCode
    """The tile that may be claimed."""
    from_: Seat = Field(alias="from")
    """The seat that discarded it (or added it to a pung)."""


class MazhanLast(_Model):
    """The last public action."""

    seat: Seat | None
    """Who did it (null for a drawn hand, 流局)."""
    kind: Literal["draw", "discard", "chi", "peng", "jiagang", "hu", "liuju"]
    """What happened."""
    tile: TileCode | None
    """The tile, or null where this seat may not see it (another seat's draw)."""


class MazhanAction(_Model):
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


class MazhanHand(_Model):
    """One seat's tiles at the end, laid down."""

    concealed: list[TileCode]
    """Concealed tiles, sorted (the winner's include the winning tile)."""
    melds: list[MazhanMeld]
    """Every meld, face up."""
    bonus: list[TileCode]
    """Bonus tiles."""


class Named(_Model):
    """A hand type."""

    zh: str
    """Chinese name, e.g. 混一色."""
    en: str
    """English name."""


class MazhanItem(_Model):
    """One base-point item (基礎分)."""

    zh: str
    """Chinese label."""
    en: str
    """English label."""
    points: int
    """Base points."""


class MazhanTaiItem(_Model):
    """One 台 (each doubles the value)."""

    zh: str
    """Chinese label."""
    en: str
    """English label."""
    tai: int
    """How many 台."""


class MazhanSet(_Model):
    """One set (or the pair) of the reading the score used."""

    kind: Literal["chow", "pung", "kong", "ckong", "pair"]
    """The set's kind."""
    tiles: list[TileCode]
    """The tiles as read (★ as the faces they stand for)."""
    concealed: bool
    """False for a declared meld and for a pung completed by the winning discard."""
    wild: list[TileCode]
    """The faces the ★ of this set stand for."""


class MazhanFormula(_Model):
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


class MazhanScore(_Model):
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


class MazhanPayment(_Model):
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


class MazhanResult(_Model):
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


class MazhanView(_Model):
    """What one Mazhan seat sees (``docs/views.md``)."""

    game: Literal["mazhan"]
    format: Literal[2]
    """The view format."""
    seat: Seat
    """The seat this view belongs to."""
    phase: Literal["act", "claim", "rob", "over"]
    """``act``: a seat moves; ``claim``/``rob``: a claim window is open; ``over``."""
    version: int
    """The version this seat's next action must carry."""
    my_turn: bool
    """This seat has legal actions now."""
    turn: Seat | None
    """Whose turn it is in phase ``act``; null in a window and when over."""
    window: MazhanWindow | None
    """The open claim window (who else may claim is never shown)."""
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
    hand: list[TileCode]
    """This seat's concealed tiles, sorted, without the drawn tile."""
    drawn: TileCode | None
    """The tile this seat just drew (set apart), else null."""
    waits: list[TileCode]
    """聽牌: the faces that complete the hand when it is one tile short."""
    seats: PerSeat[MazhanSeat]
    """What everyone sees of each seat."""
    last: MazhanLast | None
    """The last public action."""
    legal: list[MazhanAction]
    """This seat's legal actions (its own only)."""
    result: MazhanResult | None
    """Set once the hand is over."""


class MazhanDealEvent(_Model):
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


class MazhanTileEvent(_Model):
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


# --- Ma Diao -------------------------------------------------------------------------------


class MadiaoSeat(_Model):
    """What everyone sees of one seat."""

    hand_size: int
    """Cards in hand."""
    won: list[CardCode]
    """The seat's 上桌 cards (one per trick won)."""
    tricks_won: int
    """Tricks won."""
    face_down: int
    """Cards the seat has played face down (滅) so far."""
    face_down_cards: list[CardCode] | None
    """Those cards, for their owner only; null for the others."""
    played_up: list[CardCode]
    """The cards the seat played face up (發, 捉) in finished tricks, in order: a table sees
    them played."""
    captured: dict[CardCode, list[CardCode]]
    """For each of the seat's 上桌 top cards (萬萬, 千萬, 百萬) that beat other top cards face
    up in its trick, those cards (開沖 counts it double or triple)."""


class MadiaoPlay(_Model):
    """One card of the trick being played."""

    seat: Seat
    card: CardCode | None
    """The card; null for another seat's face-down card."""
    face_up: bool
    """Played face up (發, 捉) or face down (滅)."""


class MadiaoTrick(_Model):
    """The trick being played."""

    leader: Seat
    """Who leads (or led) it."""
    plays: list[MadiaoPlay]
    """The cards played so far, in order."""


class MadiaoLast(_Model):
    """The last play."""

    seat: Seat
    kind: Literal["fa", "zhuo", "mie"]
    """發 lead, 捉 capture, 滅 face down."""
    card: CardCode | None
    """The card; null for another seat's face-down card."""


class MadiaoAction(_Model):
    """One of this seat's legal plays."""

    action: str
    """The exact string to send back, e.g. ``"W zhuo wt"``."""
    kind: Literal["fa", "zhuo", "mie"]
    card: CardCode


class MadiaoBonus(_Model):
    """One bonus item."""

    zh: str
    en: str
    zhu: int
    """注."""


class MadiaoSeatResult(_Model):
    """One seat's settlement figures."""

    tricks: int
    zhengben: bool
    """正本: at least two cards 上桌."""
    diao: Zhu
    """吊."""
    won: list[CardCode]
    """上桌 cards."""
    bonuses: list[MadiaoBonus]
    chong: int
    """開沖 points."""
    bonus_total: int
    """Bonus items plus 開沖 points."""
    net: Zhu
    """Net 注 (zero-sum over the seats)."""


class MadiaoChongDraw(_Model):
    """One stock card drawn in 開沖."""

    card: CardCode
    drawer: Seat
    scorer: Seat | None
    """Who scored it (the drawer or a claimer); null: a dead card."""
    points: int


class MadiaoPayment(_Model):
    """Points one seat pays another."""

    from_: Seat = Field(alias="from")
    to: Seat
    amount: Zhu
    reason: Literal["diao", "bonus", "qiaomen", "he"]
    """``diao``: a 散家's 吊 against the banker; ``bonus``: a 散家's bonuses (開沖 included)
    against the banker's; ``qiaomen``: 敲門; ``he``: 賀 for a special hand."""


class MadiaoSpecial(_Model):
    """A special hand (色樣/異賞, §3.2): shown, not played; each other seat paid 賀."""

    seat: Seat
    name: str
    zhu: int
    """What each other seat paid."""


class MadiaoPenalty(_Model):
    """A 包賠 situation (§3.3), logged, not paid."""

    seat: Seat
    kind: Literal["zongbai", "zongzhuang"]
    """``zongbai`` (縱百老): spent 千萬 or 萬萬, and 百老 later went 上桌; ``zongzhuang``
    (故縱樁家): could capture the banker's card, threw face down, and the banker then put a
    賞 上桌."""
    card: CardCode
    """The card spent, or the capture the seat held."""
    trick: int = Field(ge=1, le=8)
    zh: str
    en: str


class MadiaoResult(_Model):
    """The settlement."""

    banker: Seat
    seats: PerSeat[MadiaoSeatResult]
    chong: list[MadiaoChongDraw]
    """The 開沖 draws in order."""
    payments: list[MadiaoPayment]
    net: PerSeat[Zhu]
    special: MadiaoSpecial | None
    """A special hand, when one was dealt (the hand then had no tricks)."""
    penalties: list[MadiaoPenalty]
    """The 包賠 situations of the hand (logged only)."""


class MadiaoView(_Model):
    """What one Ma Diao seat sees (``docs/views.md``)."""

    game: Literal["madiao"]
    format: Literal[2]
    seat: Seat
    phase: Literal["tricks", "over"]
    version: int
    """The version this seat's next action must carry."""
    my_turn: bool
    turn: Seat | None
    """Who plays now; null when over."""
    banker: Seat
    mian: CardCode
    """面張: the last stock card, face up, drawn last in 開沖."""
    trick_no: int = Field(ge=1, le=8)
    """The trick being played (8 once over)."""
    hand: list[CardCode]
    """This seat's cards."""
    seats: PerSeat[MadiaoSeat]
    trick: MadiaoTrick
    seen: list[CardCode]
    """Every card face up so far (the 面張 apart)."""
    last: MadiaoLast | None
    legal: list[MadiaoAction]
    result: MadiaoResult | None


class MadiaoDealEvent(_Model):
    """A seat's eight cards (``deal``), or a special hand shown (``seyang``)."""

    kind: Literal["deal", "seyang"]
    seat: Seat
    card: None
    detail: str
    cards: list[CardCode] | None
    """The cards; null for another seat's dealt cards (a special hand is shown to all)."""


class MadiaoCardEvent(_Model):
    """Any other event."""

    kind: Literal["mian", "play", "trick", "chong", "claim", "dead", "baopei", "settle"]
    """``mian`` the 面張 turned (seat: the banker); ``play`` (detail fa, zhuo or mie);
    ``trick`` won (detail: its number); ``chong``/``claim``/``dead`` a 開沖 draw scored by
    its drawer, by a claimer, by nobody (detail: the points); ``baopei`` a 包賠 situation
    (detail: zongbai or zongzhuang), logged when the hand ends; ``settle``."""
    seat: Seat | None
    card: CardCode | None
    """The card; null for another seat's face-down card."""
    detail: str


MadiaoEvent = Annotated[MadiaoDealEvent | MadiaoCardEvent, Field(discriminator="kind")]

View = Annotated[MazhanView | MadiaoView, Field(discriminator="game")]
#: an event of either game, as a seat may see it
Event = MazhanEvent | MadiaoEvent


# --- what a spectator sees -------------------------------------------------------------------


class MazhanPublicView(_Model):
    """A Mazhan table as a spectator sees it: what every seat sees of the others (rivers,
    melds with concealed kongs face down, flowers, hand sizes, the wall), never a concealed
    hand, a drawn tile, a seat's waits or its legal actions (rules, end of §5)."""

    game: Literal["mazhan"]
    format: Literal[2]
    phase: Literal["act", "claim", "rob", "over"]
    turn: Seat | None
    window: MazhanWindow | None
    """The open window on a discard or added kong (the same whoever may claim)."""
    dealer: Seat
    wild: TileCode
    indicator: TileCode
    set_aside: list[TileCode]
    dice: list[int] = Field(min_length=2, max_length=2)
    wall_left: int
    dead_wall: int
    seats: PerSeat[MazhanSeat]
    last: MazhanLast | None
    """The last public action (a draw's tile is never shown)."""
    result: MazhanResult | None


class MadiaoPublicView(_Model):
    """A Ma Diao table as a spectator sees it: every card played face up, the tricks won,
    how many cards each seat played face down (never their faces), never a hand."""

    game: Literal["madiao"]
    format: Literal[2]
    phase: Literal["tricks", "over"]
    turn: Seat | None
    banker: Seat
    mian: CardCode
    trick_no: int = Field(ge=1, le=8)
    seats: PerSeat[MadiaoSeat]
    trick: MadiaoTrick
    seen: list[CardCode]
    last: MadiaoLast | None
    result: MadiaoResult | None


PublicView = Annotated[MazhanPublicView | MadiaoPublicView, Field(discriminator="game")]

#: the top-level fields of a game's view every seat is shown alike (the seats' blocks and
#: the last action are taken apart: :func:`public_view`)
_PUBLIC_FIELDS = {
    game: tuple(f for f in model.model_fields if f not in ("seats", "last"))
    for game, model in (("mazhan", MazhanPublicView), ("madiao", MadiaoPublicView))
}
#: a last action whose tile or card only its own seat sees
_PRIVATE_LAST = {"mazhan": ("draw", "tile"), "madiao": ("mie", "card")}


def public_view(views: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The table as a spectator sees it (:class:`MazhanPublicView`,
    :class:`MadiaoPublicView`), from the views of one state of at least two seats (seat
    letter → ``View.to_json()``): each seat's block as another seat sees it, the fields every
    seat sees alike, a face-down card or another seat's draw without its face. ``None`` for
    a game whose views are not typed here (it has no spectator view).

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.views import observe
    >>> from paiju.mazhan.seats import Seat
    >>> state = new_hand(Ruleset(), 4)
    >>> seen = public_view({s.value: observe(state, s).to_json() for s in (Seat.E, Seat.S)})
    >>> "hand" in seen, seen["seats"]["E"]["hand_size"], seen["wall_left"] > 0
    (False, 17, True)
    """
    first = next(iter(views.values()), {})
    game = first.get("game")
    fields = _PUBLIC_FIELDS.get(str(game))
    if fields is None or len(views) < 2:
        return None
    out = {f: first[f] for f in fields}
    out["seats"] = {
        k: next(v for s, v in views.items() if s != k)["seats"][k] for k in first["seats"]
    }
    last = first["last"]
    kind, face = _PRIVATE_LAST[str(game)]
    if last is not None and last["kind"] == kind:
        last = {**last, face: None}
    out["last"] = last
    if game == "madiao":
        trick = first["trick"]
        plays = [{**p, "card": p["card"] if p["face_up"] else None} for p in trick["plays"]]
        out["trick"] = {**trick, "plays": plays}
    return out


#: the games whose views are typed here (another registered game's view is its own JSON)
TYPED_GAMES = frozenset(
    get_args(m.model_fields["game"].annotation)[0] for m in (MazhanView, MadiaoView)
)


def json_schema() -> dict[str, Any]:
    """The views and the events of both games as one JSON Schema document (every model in
    ``$defs``), for generating the client's types (``python -m paiju.views``
    prints it).

    >>> schema = json_schema()
    >>> schema["title"], sorted(schema["properties"])
    ('paiju views', ['madiao_event', 'mazhan_event', 'view'])
    """
    parts: dict[str, TypeAdapter[Any]] = {
        "view": TypeAdapter(View),
        "mazhan_event": TypeAdapter(MazhanEvent),
        "madiao_event": TypeAdapter(MadiaoEvent),
    }
    properties: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for name, adapter in parts.items():
        schema = adapter.json_schema(ref_template="#/$defs/{model}", by_alias=True)
        defs.update(schema.pop("$defs", {}))
        properties[name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "paiju views",
        "type": "object",
        "properties": properties,
        "$defs": defs,
    }


if __name__ == "__main__":  # pragma: no cover - a command
    import json

    print(json.dumps(json_schema(), ensure_ascii=False, indent=2))
