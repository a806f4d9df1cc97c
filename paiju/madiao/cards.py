"""Ma Diao cards and their notation (rules §0, §1).

A card is a face character followed by a suit letter; several faces may share one letter
(``876m`` is three cards, in that order). Whitespace may separate cards and groups
(``876m 9s``), never split one (``87 6m``); :func:`format_cards` writes none.

| suit | letter | faces, top to bottom |
|---|---|---|
| 十字門 tens of myriads | ``t`` | ``w`` 萬萬, ``q`` 千萬, ``b`` 百萬, ``9`` 九十 … ``2`` 二十 |
| 萬字門 myriads (貫) | ``m`` | ``9`` … ``1`` |
| 索子門 strings | ``s`` | ``9`` … ``1`` |
| 文錢門 coins (reversed) | ``c`` | ``0`` 空沒文, ``h`` 半文, ``1`` 一文 … ``9`` 九文 |

Inside a suit, ``rank`` 1 is the lowest card: 二十, 一萬, 一索 and 九文 (coins run the other
way). Cards compare only inside a suit.

>>> cards = parse_cards("wt9m0c9c")
>>> [(c.suit.value, c.rank, c.name_zh) for c in cards]
[('t', 11, '萬萬'), ('m', 9, '九萬'), ('c', 11, '空沒文'), ('c', 1, '九文')]
>>> format_cards(parse_cards("1m9m2t"))
'2t91m'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from paiju.errors import NotationError
from paiju.kit.enums import NamedEnum, SuitEnum
from paiju.kit.notation import notation_groups

__all__ = ["ALL_CARDS", "Card", "Role", "Suit", "format_cards", "parse_cards"]


class Suit(SuitEnum):
    """The four suits, in canonical order: letter, Chinese name and how many cards
    (:class:`~paiju.kit.enums.SuitEnum`; ``offset`` is the index of the rank-1 card).

    >>> Suit("c").name_zh, Suit("c").size, Suit.WEN.offset
    ('文錢', 11, 29)
    """

    SHI = "t", "十字", 11
    WAN = "m", "萬字", 9
    SUO = "s", "索子", 9
    WEN = "c", "文錢", 11


class Role(NamedEnum):
    """A card's role [Q]: 賞 top, 肩 second, 百 (百老, 十字 only), 頂張, 青, 副極, 極 bottom.

    >>> Role.JI.name_zh, Role("ding").name_zh
    ('極', '頂張')
    """

    SHANG = "shang", "賞"
    JIAN = "jian", "肩"
    BAI = "bai", "百"
    DING = "ding", "頂張"
    QING = "qing", "青"
    FUJI = "fuji", "副極"
    JI = "ji", "極"


_SUITS = (Suit.SHI, Suit.WAN, Suit.SUO, Suit.WEN)
_SUIT_BY_LETTER = {s.value: s for s in _SUITS}
_NUM = "一二三四五六七八九"

# face character → rank, per suit
_FACES: dict[Suit, dict[str, int]] = {
    Suit.SHI: {"w": 11, "q": 10, "b": 9, **{str(d): d - 1 for d in range(2, 10)}},
    Suit.WAN: {str(d): d for d in range(1, 10)},
    Suit.SUO: {str(d): d for d in range(1, 10)},
    Suit.WEN: {"0": 11, "h": 10, **{str(d): 10 - d for d in range(1, 10)}},
}
_FACE_OF = {s: {r: f for f, r in faces.items()} for s, faces in _FACES.items()}


def _name_zh(suit: Suit, rank: int) -> str:
    if suit is Suit.SHI:
        return {11: "萬萬", 10: "千萬", 9: "百萬"}.get(rank) or f"{_NUM[rank]}十"
    if suit is Suit.WAN:
        return f"{_NUM[rank - 1]}萬"
    if suit is Suit.SUO:
        return f"{_NUM[rank - 1]}索"
    if rank == 11:
        return "空沒文"
    if rank == 10:
        return "半文"
    return f"{_NUM[9 - rank]}文"


#: The 十字 suit's faces in words, as its top three are named ("Ninety Myriads" next to
#: "Hundred Myriads"), so that 九十萬 never reads like 九萬 ("9 Myriads") of the 萬 suit.
_SHI_EN = (
    "Twenty",
    "Thirty",
    "Forty",
    "Fifty",
    "Sixty",
    "Seventy",
    "Eighty",
    "Ninety",
    "Hundred",
    "Thousand",
    "Myriad",
)


def _name_en(suit: Suit, rank: int) -> str:
    if suit is Suit.SHI:
        return f"{_SHI_EN[rank - 1]} Myriads"
    if suit is Suit.WAN:
        return "1 Myriad" if rank == 1 else f"{rank} Myriads"
    if suit is Suit.SUO:
        return "1 String" if rank == 1 else f"{rank} Strings"
    if rank == 11:
        return "Empty Coin"
    if rank == 10:
        return "Half Coin"
    return "1 Coin" if rank == 9 else f"{10 - rank} Coins"


_NICKNAMES = {
    "wt": ("紅萬", "萬勝", "宋江"),
    "qt": ("千僧", "紅千", "武松"),
    "bt": ("百老", "百子", "大公突", "阮小五"),
    "9t": ("九十子", "小公突", "阮小七"),
    "2t": ("二十子", "扈三娘"),
    "9m": ("九貫", "雷橫"),
    "8m": ("八貫", "索超", "雌突"),
    "7m": ("七貫", "秦明"),
    "1m": ("一貫", "燕青"),
    "0c": ("空湯", "空文", "空堂", "王英"),
    "hc": ("枝花",),
}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 40 cards; ``index`` is 0–39 (十字 0–10, 萬 11–19, 索 20–28, 文 29–39,
    rank 1 first in each suit).

    >>> c = Card.parse("bt")
    >>> c.suit, c.rank, c.role, c.is_red, c.is_stamped, c.nicknames[0]
    (<Suit.SHI: 't'>, 9, <Role.BAI: 'bai'>, True, True, '百老')
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < 40:
            raise ValueError(f"card index {self.index} is outside 0–39")

    @staticmethod
    def parse(text: str) -> Card:
        """Parse exactly one card.

        >>> Card.parse("hc").name_zh
        '半文'
        """
        cards = parse_cards(text)
        if len(cards) != 1:
            raise NotationError(f"expected exactly one card, found {len(cards)}", text, 0)
        return cards[0]

    @staticmethod
    def of(suit: Suit, rank: int) -> Card:
        """The card of ``suit`` and ``rank`` (1 = lowest).

        >>> str(Card.of(Suit.WEN, 1))
        '9c'
        """
        if not 1 <= rank <= suit.size:
            raise ValueError(f"rank {rank} is not in suit {suit.value!r} (1–{suit.size})")
        return ALL_CARDS[suit.offset + rank - 1]

    @property
    def suit(self) -> Suit:
        """The card's suit.

        >>> Card.parse("5s").suit
        <Suit.SUO: 's'>
        """
        i = self.index
        return Suit.SHI if i < 11 else Suit.WAN if i < 20 else Suit.SUO if i < 29 else Suit.WEN

    @property
    def rank(self) -> int:
        """Rank inside the suit, 1 = lowest.

        >>> Card.parse("1c").rank, Card.parse("9c").rank
        (9, 1)
        """
        return self.index - self.suit.offset + 1

    @property
    def role(self) -> Role:
        """The [Q] role: 賞, 肩, 百 (百老), 頂張, 副極, 極, or 青.

        >>> [Card.parse(x).role.name_zh for x in ("9m", "8m", "7m", "3m", "2m", "1m")]
        ['賞', '肩', '頂張', '青', '副極', '極']
        >>> Card.parse("9t").role.name_zh
        '頂張'
        """
        n = self.suit.size
        r = self.rank
        if r == n:
            return Role.SHANG
        if r == n - 1:
            return Role.JIAN
        if r == 1:
            return Role.JI
        if r == 2:
            return Role.FUJI
        if self.suit is Suit.SHI and r == 9:
            return Role.BAI
        if r == (8 if self.suit is Suit.SHI else n - 2):
            return Role.DING
        return Role.QING

    @property
    def is_red(self) -> bool:
        """紅張 [Q]: the four 賞, the four 肩 and 百老 (the 九紅).

        >>> sum(c.is_red for c in ALL_CARDS)
        9
        """
        return self.role in (Role.SHANG, Role.JIAN, Role.BAI)

    @property
    def is_fun(self) -> bool:
        """趣張: the four 極.

        >>> [str(c) for c in ALL_CARDS if c.is_fun]
        ['2t', '1m', '1s', '9c']
        """
        return self.role is Role.JI

    @property
    def is_stamped(self) -> bool:
        """Red-stamped on the Wikipedia list [W]: 賞, 極, 千萬 and 百萬 (ten cards).

        >>> sum(c.is_stamped for c in ALL_CARDS)
        10
        """
        return self.role in (Role.SHANG, Role.JI) or str(self) in ("qt", "bt")

    @property
    def is_top(self) -> bool:
        """萬萬, 千萬 or 百萬: the 十字 top group of 開沖.

        >>> [str(c) for c in ALL_CARDS if c.is_top]
        ['bt', 'qt', 'wt']
        """
        return self.index in (8, 9, 10)

    @property
    def name_zh(self) -> str:
        """The Chinese name.

        >>> Card.parse("qt").name_zh, Card.parse("3s").name_zh
        ('千萬', '三索')
        """
        return _name_zh(self.suit, self.rank)

    @property
    def name_en(self) -> str:
        """The English name, as the browser client writes it.

        >>> Card.parse("qt").name_en, Card.parse("1s").name_en, Card.parse("0c").name_en
        ('Thousand Myriads', '1 String', 'Empty Coin')
        """
        return _name_en(self.suit, self.rank)

    @property
    def nicknames(self) -> tuple[str, ...]:
        """Traditional nicknames and figures, where the sources give them.

        >>> Card.parse("wt").nicknames
        ('紅萬', '萬勝', '宋江')
        """
        return _NICKNAMES.get(str(self), ())

    @property
    def face(self) -> str:
        """The face character of the notation.

        >>> Card.parse("0c").face
        '0'
        """
        return _FACE_OF[self.suit][self.rank]

    def __str__(self) -> str:
        return self.face + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(40))


def parse_cards(text: str) -> list[Card]:
    """Parse a card string strictly, keeping the written order.

    >>> [str(c) for c in parse_cards("876m")]
    ['8m', '7m', '6m']
    >>> [str(c) for c in parse_cards(" 9m 8s\twt ")]
    ['9m', '8s', 'wt']
    >>> parse_cards("1t")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: '1' is not a face of 十字 (w q b 9–2) in '1t' at position 0

    Raises :class:`~paiju.errors.NotationError` quoting the input and the position.
    """
    cards: list[Card] = []
    groups = notation_groups(text, "card", "faces", _IS_FACE, _SUIT_BY_LETTER, _not_a_face)
    for at, suit, faces in groups:
        for fpos in faces:
            rank = _FACES[suit].get(text[fpos])
            if rank is None:
                raise _not_a_face(text, fpos, at)
            cards.append(ALL_CARDS[suit.offset + rank - 1])
    return cards


_FACE_HINT = {Suit.SHI: "w q b 9–2", Suit.WAN: "9–1", Suit.SUO: "9–1", Suit.WEN: "0 h 1–9"}


class _Faces:
    """A card's face: a digit or a letter ``w q b h`` (each suit reads its own)."""

    def __contains__(self, ch: object) -> bool:
        return isinstance(ch, str) and (ch.isdigit() or ch in "wqbh")


_IS_FACE = _Faces()


def _not_a_face(text: str, pos: int, at: int | None = None) -> NotationError:
    """The error for ``text[pos]``, not a face of the suit whose letter stands at ``at``
    (by default the next character: a letter where a face goes, ``xt``)."""
    letter = text[pos + 1 if at is None else at]
    suit = _SUIT_BY_LETTER[letter]
    return NotationError(
        f"{text[pos]!r} is not a face of {suit.name_zh} ({_FACE_HINT[suit]})",
        text,
        pos,
        why="notation_face",
        code=text[pos] + letter,
        letter=letter,
        faces=_FACE_HINT[suit],
    )


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical notation: suits t m s c, each from top to bottom, one letter per suit.

    >>> format_cards(parse_cards("9c0c2t5m"))
    '2t5m09c'
    """
    out: list[str] = []
    current: Suit | None = None
    for card in sorted(cards, key=lambda c: (c.suit.offset, -c.rank)):
        if current is not None and card.suit is not current:
            out.append(current.value)
        out.append(card.face)
        current = card.suit
    if current is not None:
        out.append(current.value)
    return "".join(out)
