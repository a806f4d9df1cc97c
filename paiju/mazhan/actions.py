"""Actions a seat can take, with a strict notation: ``"<seat> <kind> [tiles]"``.

| kind | when | tiles |
|---|---|---|
| ``discard`` 打 | on one's turn | the tile |
| ``hu`` 胡 | on one's turn (自摸), on a discard, on an added kong (搶槓) | — |
| ``shazhu`` 殺豬 | holding all three ★, whenever one would discard | — |
| ``angang`` 暗槓 | after a draw, four natural tiles in hand | the face |
| ``jiagang`` 加槓 | after a draw, the fourth tile onto one's exposed pung | the face |
| ``gang`` 槓 | on a discard, holding three natural copies | — |
| ``peng`` 碰 | on a discard, holding two natural copies | — |
| ``chi`` 吃 | on the previous player's discard | the chow |
| ``pass`` 過 | on a discard or an added kong | — |

>>> a = Action.parse("S chi 345m")
>>> a.seat, a.kind, a.tile, str(a)
(<Seat.S: 'S'>, <ActionKind.CHI: 'chi'>, Tile.parse('3m'), 'S chi 345m')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paiju.errors import NotationError
from paiju.kit.enums import NamedEnum
from paiju.mazhan.seats import Seat
from paiju.mazhan.tiles import ALL_TILES, Tile, parse_tiles

__all__ = ["Action", "ActionKind"]


class ActionKind(NamedEnum):
    """The kinds of action, by pinyin, with their Chinese names.

    >>> ActionKind("peng").name_zh, ActionKind.SHAZHU.name_zh
    ('碰', '殺豬')
    """

    DISCARD = "discard", "打"
    HU = "hu", "胡"
    SHAZHU = "shazhu", "殺豬"
    ANGANG = "angang", "暗槓"
    JIAGANG = "jiagang", "加槓"
    GANG = "gang", "槓"
    PENG = "peng", "碰"
    CHI = "chi", "吃"
    PASS = "pass", "過"

    @property
    def takes_tile(self) -> bool:
        """True when the notation names a tile (discard, angang, jiagang, chi).

        >>> ActionKind.PENG.takes_tile
        False
        """
        return self in _WITH_TILE


_WITH_TILE = {ActionKind.DISCARD, ActionKind.ANGANG, ActionKind.JIAGANG, ActionKind.CHI}
_FIELDS = re.compile(r"\s*(\S+)(?:\s+(\S+)(?:\s+(\S.*?))?)?\s*$", re.DOTALL)


def _fields(text: str) -> tuple[list[str], list[int]]:
    """The seat, the kind and the rest (tiles, which may hold whitespace), with where each
    starts; whitespace of any length separates them.

    >>> _fields(" S chi 3m 4m 5m")
    (['S', 'chi', '3m 4m 5m'], [1, 3, 7])
    """
    m = _FIELDS.match(text)
    if m is None:
        return [], []
    groups = [i for i in (1, 2, 3) if m.group(i) is not None]
    return [m.group(i) for i in groups], [m.start(i) for i in groups]


@dataclass(frozen=True, slots=True)
class Action:
    """One seat's action. ``tile`` is the discard, the kong's face or the chow's lowest tile.

    >>> Action(Seat.E, ActionKind.DISCARD, Tile.parse("5m"))
    Action.parse('E discard 5m')
    """

    seat: Seat
    kind: ActionKind
    tile: Tile | None = None

    @staticmethod
    def parse(text: str) -> Action:
        """Parse ``"<seat> <kind> [tiles]"`` strictly.

        >>> Action.parse("W pass")
        Action.parse('W pass')
        >>> Action.parse(" S  chi 3m 4m 5m ")
        Action.parse('S chi 345m')
        >>> Action.parse("W chi 357m")
        Traceback (most recent call last):
        ...
        paiju.errors.NotationError: a chow is three consecutive tiles of one suit in ...

        Raises :class:`~paiju.errors.NotationError` quoting the text.
        """
        if not isinstance(text, str):
            raise NotationError(
                f"expected an action string, got {text!r}", text=str(text), position=0
            )
        parts, starts = _fields(text)
        if len(parts) not in (2, 3) or parts[0] not in ("E", "S", "W", "N"):
            raise NotationError(
                "expected '<seat> <kind> [tiles]' with seat E, S, W or N", text=text, position=0
            )
        try:
            kind = ActionKind(parts[1])
        except ValueError:
            raise NotationError(
                f"unknown action {parts[1]!r}", text=text, position=starts[1]
            ) from None
        if kind.takes_tile != (len(parts) == 3):
            need = "needs a tile" if kind.takes_tile else "takes no tile"
            at = starts[2] if len(parts) == 3 else starts[1] + len(parts[1])
            raise NotationError(f"{kind.value} {need}", text=text, position=at)
        tile = None
        if len(parts) == 3:
            at = starts[2]
            try:
                tiles = parse_tiles(parts[2])
            except NotationError as err:
                raise NotationError(err.problem, text=text, position=at + err.position) from None
            if kind is ActionKind.CHI:
                ok = (
                    len(tiles) == 3
                    and tiles[0].is_suited
                    and tiles[0].suit is tiles[2].suit
                    and [t.index for t in tiles] == [tiles[0].index + k for k in range(3)]
                )
                if not ok:
                    raise NotationError(
                        "a chow is three consecutive tiles of one suit", text=text, position=at
                    )
            elif len(tiles) != 1:
                raise NotationError(f"{kind.value} names one tile", text=text, position=at)
            tile = tiles[0]
        return Action(Seat(parts[0]), kind, tile)

    def __str__(self) -> str:
        if self.tile is None:
            return f"{self.seat.value} {self.kind.value}"
        if self.kind is ActionKind.CHI:
            t = self.tile
            return f"{self.seat.value} chi {t.rank}{t.rank + 1}{t.rank + 2}{t.suit.value}"
        return f"{self.seat.value} {self.kind.value} {self.tile}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @property
    def chow(self) -> tuple[Tile, Tile, Tile]:
        """The three tiles of a ``chi``.

        >>> Action.parse("S chi 789p").chow
        (Tile.parse('7p'), Tile.parse('8p'), Tile.parse('9p'))

        Raises ``ValueError`` for another kind.
        """
        if self.kind is not ActionKind.CHI or self.tile is None:
            raise ValueError(f"{self} is not a chow")
        i = self.tile.index
        return ALL_TILES[i], ALL_TILES[i + 1], ALL_TILES[i + 2]
