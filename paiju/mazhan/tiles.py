"""Mazhan tiles and their notation (rules §1).

A tile is written as digits followed by a suit letter; one letter closes every digit before
it: ``123m456p11z`` is seven tiles. Whitespace may separate tiles and groups (``123m 456p``),
never split one (``12 3m``); :func:`format_tiles` writes none. Suits: ``m`` characters 萬,
``p`` dots 筒, ``s`` bamboo 索,
``z`` honours (``1z``–``4z`` east, south, west, north; ``5z`` 白, ``6z`` 發, ``7z`` 中),
``h`` flowers 梅蘭菊竹 (``1h``–``4h``), ``j`` seasons 春夏秋冬 (``1j``–``4j``).

>>> tiles = parse_tiles("3m21m7z")
>>> tiles
[Tile.parse('3m'), Tile.parse('2m'), Tile.parse('1m'), Tile.parse('7z')]
>>> format_tiles(tiles)
'123m7z'
>>> Tile.parse("7z").name_zh, Tile.parse("2j").name_en
('中', 'summer (season 2)')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from paiju.errors import NotationError
from paiju.kit.enums import SuitEnum
from paiju.kit.notation import notation_groups

__all__ = [
    "ALL_TILES",
    "BONUS_TILES",
    "FACE_COUNT",
    "PLAYABLE_FACES",
    "Suit",
    "Tile",
    "format_tiles",
    "parse_tiles",
]


class Suit(SuitEnum):
    """The six suits of the notation, in canonical order: letter, Chinese name and how many
    faces (:class:`~paiju.kit.enums.SuitEnum`; ``offset`` is the index of the first face).

    >>> Suit("p").name_zh, Suit.HONOR.size, Suit.PIN.offset
    ('筒', 7, 9)
    """

    MAN = "m", "萬", 9
    PIN = "p", "筒", 9
    SOU = "s", "索", 9
    HONOR = "z", "字", 7
    FLOWER = "h", "花", 4
    SEASON = "j", "季", 4


_SUIT_BY_LETTER = {s.value: s for s in Suit}
_SUIT_BY_INDEX = tuple(s for s in Suit for _ in range(s.size))
_RANK_BY_INDEX = tuple(r for s in Suit for r in range(1, s.size + 1))
#: Each face's two-character code (``"5m"``), made once: views write tiles by the thousand.
_CODE_BY_INDEX = tuple(f"{r}{s.value}" for s, r in zip(_SUIT_BY_INDEX, _RANK_BY_INDEX, strict=True))

#: Faces 0–33 are suit tiles and honours (the 34-count layout); 34–41 flowers and seasons.
FACE_COUNT = 42

_NUMERALS = "一二三四五六七八九"
_HONOR_ZH = ("東", "南", "西", "北", "白", "發", "中")
_HONOR_EN = (
    "east wind",
    "south wind",
    "west wind",
    "north wind",
    "white dragon",
    "green dragon",
    "red dragon",
)
_FLOWER_ZH = ("梅", "蘭", "菊", "竹")
_FLOWER_EN = ("plum", "orchid", "chrysanthemum", "bamboo")
_SEASON_ZH = ("春", "夏", "秋", "冬")
_SEASON_EN = ("spring", "summer", "autumn", "winter")
_SUITED_EN = {Suit.MAN: "characters", Suit.PIN: "dots", Suit.SOU: "bamboo"}
# Unicode Mahjong Tiles block; flowers there run plum, orchid, bamboo, chrysanthemum.
_GLYPH_BASE = {Suit.MAN: 0x1F007, Suit.SOU: 0x1F010, Suit.PIN: 0x1F019}
_HONOR_GLYPHS = "\U0001f000\U0001f001\U0001f002\U0001f003\U0001f006\U0001f005\U0001f004"
_FLOWER_GLYPHS = "\U0001f022\U0001f023\U0001f025\U0001f024"
_SEASON_GLYPHS = "\U0001f026\U0001f027\U0001f028\U0001f029"
#: The names and glyphs of the faces a suit does not number (honours, flowers, seasons).
_ZH_BY_SUIT = {Suit.HONOR: _HONOR_ZH, Suit.FLOWER: _FLOWER_ZH, Suit.SEASON: _SEASON_ZH}
_EN_BY_SUIT = {
    Suit.HONOR: _HONOR_EN,
    Suit.FLOWER: tuple(f"{name} (flower {i})" for i, name in enumerate(_FLOWER_EN, 1)),
    Suit.SEASON: tuple(f"{name} (season {i})" for i, name in enumerate(_SEASON_EN, 1)),
}
_GLYPHS_BY_SUIT = {
    Suit.HONOR: _HONOR_GLYPHS,
    Suit.FLOWER: _FLOWER_GLYPHS,
    Suit.SEASON: _SEASON_GLYPHS,
}


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile face. ``index`` is 0–41: 萬 0–8, 筒 9–17, 索 18–26, 字 27–33, 花 34–37, 季 38–41.

    Build tiles with :meth:`parse` or :meth:`from_index`; equal faces are equal tiles.

    >>> t = Tile.parse("9p")
    >>> t.index, t.suit, t.rank, str(t)
    (17, <Suit.PIN: 'p'>, 9, '9p')
    >>> t.is_terminal_or_honor, Tile.parse("5z").is_bonus
    (True, True)
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < FACE_COUNT:
            raise ValueError(f"tile index {self.index} is outside 0–{FACE_COUNT - 1}")

    @staticmethod
    def from_index(index: int) -> Tile:
        """The tile with this face index.

        >>> Tile.from_index(27)
        Tile.parse('1z')

        Raises ``ValueError`` for an index outside 0–41.
        """
        if not 0 <= index < FACE_COUNT:
            raise ValueError(f"tile index {index} is outside 0–{FACE_COUNT - 1}")
        return ALL_TILES[index]

    @staticmethod
    def of(suit: Suit, rank: int) -> Tile:
        """The tile of ``suit`` and ``rank``.

        >>> Tile.of(Suit.SEASON, 4).name_zh
        '冬'

        Raises ``ValueError`` when the rank is not in the suit.
        """
        if not 1 <= rank <= suit.size:
            raise ValueError(f"rank {rank} is not in suit {suit.value!r} (1–{suit.size})")
        return ALL_TILES[suit.offset + rank - 1]

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse exactly one tile.

        >>> Tile.parse("2j")
        Tile.parse('2j')
        >>> Tile.parse("11m")
        Traceback (most recent call last):
        ...
        paiju.errors.NotationError: expected exactly one tile, found 2 in '11m' at position 0
        """
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise NotationError(f"expected exactly one tile, found {len(tiles)}", text, 0)
        return tiles[0]

    @property
    def suit(self) -> Suit:
        """The tile's suit.

        >>> Tile.parse("4h").suit
        <Suit.FLOWER: 'h'>
        """
        return _SUIT_BY_INDEX[self.index]

    @property
    def rank(self) -> int:
        """The digit of the tile in its suit (1–9, 1–7 for honours, 1–4 for bonus suits).

        >>> Tile.parse("6z").rank
        6
        """
        return _RANK_BY_INDEX[self.index]

    @property
    def is_suited(self) -> bool:
        """True for 萬, 筒 and 索.

        >>> Tile.parse("1z").is_suited
        False
        """
        return self.index < 27

    @property
    def is_bonus(self) -> bool:
        """True for the bonus tiles (補牌): flowers, seasons and the white dragon.

        >>> [t.is_bonus for t in parse_tiles("5z6z1h")]
        [True, False, True]
        """
        return self.index >= 34 or self.index == 31

    @property
    def is_terminal_or_honor(self) -> bool:
        """True for 首尾 tiles: 1 and 9 of a suit, the winds, 發 and 中.

        >>> [t.is_terminal_or_honor for t in parse_tiles("19m5p7z")]
        [True, True, False, True]
        """
        if self.index < 27:
            return self.index % 9 in (0, 8)
        return self.index < 34

    @property
    def name_zh(self) -> str:
        """The Chinese name.

        >>> [t.name_zh for t in parse_tiles("1m5p9s")]
        ['一萬', '五筒', '九索']
        """
        suit = self.suit
        names = _ZH_BY_SUIT.get(suit)
        if names is not None:  # honours, flowers, seasons
            return names[self.rank - 1]
        return _NUMERALS[self.rank - 1] + suit.name_zh

    @property
    def name_en(self) -> str:
        """The English name.

        >>> [t.name_en for t in parse_tiles("3p1p1m2z1h")]
        ['3 dots', '1 dot', '1 character', 'south wind', 'plum (flower 1)']
        """
        suit = self.suit
        names = _EN_BY_SUIT.get(suit)
        if names is not None:
            return names[self.rank - 1]
        name = _SUITED_EN[suit]
        if self.rank == 1 and suit is not Suit.SOU:  # "1 dot", "1 character"; bamboo is both
            name = name[:-1]
        return f"{self.rank} {name}"

    @property
    def glyph(self) -> str:
        """The Unicode mahjong tile (many fonts lack these; prefer :attr:`name_zh` on screen).

        >>> Tile.parse("7z").glyph == "\\U0001f004"
        True
        """
        suit = self.suit
        glyphs = _GLYPHS_BY_SUIT.get(suit)
        if glyphs is not None:
            return glyphs[self.rank - 1]
        return chr(_GLYPH_BASE[suit] + self.rank - 1)

    def __str__(self) -> str:
        return _CODE_BY_INDEX[self.index]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Tile:
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.index,))

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


ALL_TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(FACE_COUNT))

#: The 33 faces that can stand in a hand: suit tiles, winds, 發 and 中 (not 白).
PLAYABLE_FACES: tuple[Tile, ...] = tuple(t for t in ALL_TILES if not t.is_bonus)
#: The 9 bonus faces: 白 and the flowers and seasons.
BONUS_TILES: tuple[Tile, ...] = tuple(t for t in ALL_TILES if t.is_bonus)


def parse_tiles(text: str) -> list[Tile]:
    """Parse a tile string strictly, keeping the written order.

    >>> parse_tiles("19m5z")
    [Tile.parse('1m'), Tile.parse('9m'), Tile.parse('5z')]
    >>> parse_tiles(" 123m  4p\t5p ") == parse_tiles("123m4p5p")
    True
    >>> parse_tiles("12 3m")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: whitespace inside a group: digits '12' lack a suit letter in ...
    >>> parse_tiles("")
    []
    >>> parse_tiles("123m456")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: digits '456' lack a suit letter in '123m456' at position 4
    >>> parse_tiles("8z")
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: 8z is not a tile (honours are 1z–7z) in '8z' at position 0
    >>> parse_tiles(None)
    Traceback (most recent call last):
    ...
    paiju.errors.NotationError: expected a tile string, got null

    Raises :class:`~paiju.errors.NotationError` quoting the input and the position.
    """
    tiles: list[Tile] = []
    for at, suit, digits in notation_groups(text, "tile", "digits", _DIGITS, _SUIT_BY_LETTER):
        ch = text[at]
        for dpos in digits:
            rank = ord(text[dpos]) - 48
            if not 1 <= rank <= suit.size:
                raise NotationError(
                    f"{rank}{ch} is not a tile ({_range_hint(suit)})",
                    text,
                    dpos,
                    why="notation_rank",
                    code=f"{rank}{ch}",
                    letter=ch,
                    top=suit.size,
                )
            tiles.append(ALL_TILES[suit.offset + rank - 1])
    return tiles


_DIGITS = "0123456789"  # a tile's face is a digit (0 is no rank: an error)


def _range_hint(suit: Suit) -> str:
    names = {
        Suit.MAN: "characters are 1m–9m",
        Suit.PIN: "dots are 1p–9p",
        Suit.SOU: "bamboo are 1s–9s",
        Suit.HONOR: "honours are 1z–7z",
        Suit.FLOWER: "flowers are 1h–4h",
        Suit.SEASON: "seasons are 1j–4j",
    }
    return names[suit]


def format_tiles(tiles: Iterable[Tile]) -> str:
    """The canonical notation: sorted by suit (m p s z h j) then rank, one letter per suit.

    >>> format_tiles(parse_tiles("7z1m2h1m9p"))
    '11m9p7z2h'
    >>> format_tiles([])
    ''
    """
    out: list[str] = []
    current: Suit | None = None
    for tile in sorted(tiles):
        suit = tile.suit
        if current is not None and suit is not current:
            out.append(current.value)
        out.append(str(tile.rank))
        current = suit
    if current is not None:
        out.append(current.value)
    return "".join(out)
