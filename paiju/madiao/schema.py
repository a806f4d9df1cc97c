"""The view and event JSON of Ma Diao (``docs/views.md``, format 2) as pydantic models, the
typed views :mod:`paiju.views` registers for the game.

>>> from paiju.madiao.rules import Ruleset, new_hand
>>> from paiju.madiao.views import observe
>>> from paiju.madiao.seats import Seat
>>> view = MadiaoView.model_validate(observe(new_hand(Ruleset(), 5), Seat.E).to_json())
>>> view.game, len(view.hand)
('madiao', 8)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from paiju.views import Model, PerSeat, Seat, public_of, register_views

__all__ = ["MadiaoEvent", "MadiaoPublicView", "MadiaoView", "spectate"]

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


class MadiaoSeat(Model):
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


class MadiaoPlay(Model):
    """One card of the trick being played."""

    seat: Seat
    card: CardCode | None
    """The card; null for another seat's face-down card."""
    face_up: bool
    """Played face up (發, 捉) or face down (滅)."""


class MadiaoTrick(Model):
    """The trick being played."""

    leader: Seat
    """Who leads (or led) it."""
    plays: list[MadiaoPlay]
    """The cards played so far, in order."""


class MadiaoLast(Model):
    """The last play."""

    seat: Seat
    kind: Literal["fa", "zhuo", "mie"]
    """發 lead, 捉 capture, 滅 face down."""
    card: CardCode | None
    """The card; null for another seat's face-down card."""


class MadiaoAction(Model):
    """One of this seat's legal plays."""

    action: str
    """The exact string to send back, e.g. ``"W zhuo wt"``."""
    kind: Literal["fa", "zhuo", "mie"]
    card: CardCode


class MadiaoBonus(Model):
    """One bonus item."""

    zh: str
    en: str
    zhu: int
    """注."""


class MadiaoSeatResult(Model):
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


class MadiaoChongDraw(Model):
    """One stock card drawn in 開沖."""

    card: CardCode
    drawer: Seat
    scorer: Seat | None
    """Who scored it (the drawer or a claimer); null: a dead card."""
    points: int


class MadiaoPayment(Model):
    """Points one seat pays another."""

    from_: Seat = Field(alias="from")
    to: Seat
    amount: Zhu
    reason: Literal["diao", "bonus", "qiaomen", "he"]
    """``diao``: a 散家's 吊 against the banker; ``bonus``: a 散家's bonuses (開沖 included)
    against the banker's; ``qiaomen``: 敲門; ``he``: 賀 for a special hand."""


class MadiaoSpecial(Model):
    """A special hand (色樣/異賞, §3.2): shown, not played; each other seat paid 賀."""

    seat: Seat
    name: str
    zhu: int
    """What each other seat paid."""


class MadiaoPenalty(Model):
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


class MadiaoResult(Model):
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


class MadiaoPublicView(Model):
    """A Ma Diao table as every seat sees it alike, and as a spectator sees it: every card
    played face up, the tricks won, how many cards each seat played face down (never their
    faces), never a hand."""

    game: Literal["madiao"]
    format: Literal[2]
    phase: Literal["tricks", "over"]
    turn: Seat | None
    """Who plays now; null when over."""
    banker: Seat
    mian: CardCode
    """面張: the last stock card, face up, drawn last in 開沖."""
    trick_no: int = Field(ge=1, le=8)
    """The trick being played (8 once over)."""
    seats: PerSeat[MadiaoSeat]
    trick: MadiaoTrick
    seen: list[CardCode]
    """Every card face up so far (the 面張 apart)."""
    last: MadiaoLast | None
    result: MadiaoResult | None


class MadiaoView(MadiaoPublicView):
    """What one Ma Diao seat sees (``docs/views.md``): the table as every seat sees it, and
    this seat's own cards and legal actions."""

    seat: Seat
    version: int
    """The version this seat's next action must carry."""
    my_turn: bool
    hand: list[CardCode]
    """This seat's cards."""
    legal: list[MadiaoAction]


class MadiaoDealEvent(Model):
    """A seat's eight cards (``deal``), or a special hand shown (``seyang``)."""

    kind: Literal["deal", "seyang"]
    seat: Seat
    card: None
    detail: str
    cards: list[CardCode] | None
    """The cards; null for another seat's dealt cards (a special hand is shown to all)."""


class MadiaoCardEvent(Model):
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


def spectate(views: Mapping[str, dict[str, Any]]) -> dict[str, Any]:
    """The table as a spectator sees it (:class:`MadiaoPublicView`), from the views of one
    state of two or more seats: a card played face down (滅) without its face, in the last
    action and in the trick.

    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> from paiju.madiao.views import observe
    >>> from paiju.madiao.seats import Seat
    >>> state = new_hand(Ruleset(), 5, banker=Seat.E)
    >>> seen = spectate({s.value: observe(state, s).to_json() for s in (Seat.E, Seat.S)})
    >>> "hand" in seen, seen["banker"]
    (False, 'E')
    """
    out = public_of(views, MadiaoPublicView, ("mie", "card"))
    trick = next(iter(views.values()))["trick"]
    plays = [{**p, "card": p["card"] if p["face_up"] else None} for p in trick["plays"]]
    out["trick"] = {**trick, "plays": plays}
    return out


register_views("madiao", MadiaoView, MadiaoEvent, public=MadiaoPublicView, spectate=spectate)
