"""Declared melds: chows, pungs and kongs laid down (rules §5).

Written ``"kind tiles"``: ``chow 123m``, ``pung 777z``, ``kong 5555p`` (exposed, direct or
added), ``ckong 7777z`` (concealed). A ★ is never part of a meld.

>>> m = Meld.parse("pung 777z")
>>> m.kind, str(m), m.face.name_zh
(<MeldKind.PUNG: 'pung'>, 'pung 777z', '中')
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.errors import InvalidHandError, NotationError
from paiju.kit.enums import FastEnum
from paiju.mazhan.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Meld", "MeldKind"]


class MeldKind(FastEnum):
    """The kind of a declared meld.

    >>> MeldKind("ckong").is_kong
    True
    """

    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    CKONG = "ckong"

    @property
    def is_kong(self) -> bool:
        """True for exposed and concealed kongs.

        >>> MeldKind.PUNG.is_kong
        False
        """
        return self in (MeldKind.KONG, MeldKind.CKONG)

    @property
    def size(self) -> int:
        """How many tiles the meld holds.

        >>> MeldKind.KONG.size
        4
        """
        return 4 if self.is_kong else 3


@dataclass(frozen=True, slots=True)
class Meld:
    """A chow, pung or kong laid down, its tiles sorted.

    >>> Meld.parse("chow 3m2m4m").tiles
    (Tile.parse('2m'), Tile.parse('3m'), Tile.parse('4m'))
    >>> Meld.parse("pung 776z")
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: meld 'pung 776z': a pung is three identical tiles
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]

    @staticmethod
    def parse(text: str) -> Meld:
        """Parse ``"kind tiles"`` strictly.

        >>> Meld.parse("ckong 1111s").kind
        <MeldKind.CKONG: 'ckong'>
        >>> Meld.parse("  chow 1m 2m 3m ")
        Meld.parse('chow 123m')
        >>> Meld.parse("chow 12x")
        Traceback (most recent call last):
        ...
        paiju.errors.NotationError: unknown suit letter 'x' in 'chow 12x' at position 7

        Raises :class:`~paiju.errors.InvalidHandError` (or a
        :class:`~paiju.errors.NotationError` for the tiles).
        """
        if not isinstance(text, str):
            raise InvalidHandError(f"a meld is a string like 'pung 777z', got {text!r}")
        parts = text.split(None, 1)
        if len(parts) != 2:
            raise InvalidHandError(
                f"meld {text!r}: expected 'kind tiles', like 'pung 777z' or 'chow 123m'",
                why="meld_shape",
                meld=text,
            )
        try:
            kind = MeldKind(parts[0])
        except ValueError:
            raise InvalidHandError(
                f"meld {text!r}: unknown kind {parts[0]!r} (chow, pung, kong or ckong)",
                why="meld_kind",
                meld=text,
                kind=parts[0],
            ) from None
        start = len(text) - len(parts[1])  # where the tiles begin in what was written
        try:
            tiles = parse_tiles(parts[1])
        except NotationError as err:
            # the fault's place in the whole meld, which the error names
            raise NotationError(
                err.problem,
                text,
                start + err.position,
                why=err.why,
                meld=text,
                **{k: v for k, v in err.params.items() if k not in ("text", "position")},
            ) from None
        return Meld.of(kind, tiles, text=text)

    @staticmethod
    def of(
        kind: MeldKind, tiles: list[Tile] | tuple[Tile, ...], *, text: str | None = None
    ) -> Meld:
        """Build a meld, checking its shape.

        >>> str(Meld.of(MeldKind.KONG, [Tile.parse("9p")] * 4))
        'kong 9999p'

        Raises :class:`~paiju.errors.InvalidHandError` for a wrong shape.
        """
        ts = tuple(sorted(tiles))
        label = text if text is not None else f"{kind.value} {format_tiles(ts)}"
        if any(t.is_bonus for t in ts):
            raise InvalidHandError(
                f"meld {label!r}: bonus tiles are never melded", why="meld_bonus", meld=label
            )
        if len(ts) != kind.size:
            raise InvalidHandError(
                f"meld {label!r}: a {kind.value} has {kind.size} tiles",
                why="meld_size",
                meld=label,
                kind=kind.value,
                size=kind.size,
                n=len(ts),
            )
        if kind is MeldKind.CHOW:
            ok = (
                ts[0].is_suited
                and ts[0].suit is ts[2].suit
                and ts[1].index == ts[0].index + 1
                and ts[2].index == ts[0].index + 2
            )
            if not ok:
                raise InvalidHandError(
                    f"meld {label!r}: a chow is three consecutive tiles of one suit",
                    why="meld_chow",
                    meld=label,
                )
        elif len(set(ts)) != 1:
            what = "a pung is three" if kind is MeldKind.PUNG else "a kong is four"
            raise InvalidHandError(
                f"meld {label!r}: {what} identical tiles",
                why="meld_same",
                meld=label,
                kind=kind.value,
            )
        return Meld(kind, ts)

    @property
    def face(self) -> Tile:
        """The pung or kong's face, or a chow's lowest tile.

        >>> Meld.parse("chow 789s").face
        Tile.parse('7s')
        """
        return self.tiles[0]

    @property
    def is_exposed(self) -> bool:
        """False only for a concealed kong.

        >>> Meld.parse("ckong 2222m").is_exposed
        False
        """
        return self.kind is not MeldKind.CKONG

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"
