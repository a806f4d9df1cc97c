"""Complete hands with wild tiles: checks, every decomposition, waits (rules §4, §6).

A complete hand is five sets and a pair (17 tiles, a kong counting as a set of three). The
functions here look at the *concealed* part: ``3n + 2`` tiles that must form ``n`` sets and
a pair (exposed melds are sets already). The wild face is the indicator's face; every tile of
that face in a hand is a ★, which may stand for any suit tile, wind, 發 or 中.

Everything is table-driven. The fast check (:func:`is_complete_keys`) reads how many ★ each
suit needs from :mod:`paiju.mazhan.tables`, keyed by the suit's base-5 count vector, and
combines the four suits with one more table lookup. The decompositions come per suit too:
:func:`suit_readings` lists a suit's readings for a count vector, with the ★ each reading
needs (the scorer keeps the recent ones in a bounded cache); :func:`decompositions` combines
them.

>>> is_complete("123m456p789s111z22z")
True
>>> is_complete("123m456p789s111z2z4m", wild="4m")  # the 4m is a ★: 22z
True
>>> [str(t) for t in waiting_faces("1p3p678p789p2p2p")]
['2p']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter

from paiju.errors import InvalidHandError
from paiju.kit.enums import NamedEnum
from paiju.mazhan.tables import need_tables, suit_key
from paiju.mazhan.tiles import ALL_TILES, Tile, parse_tiles

__all__ = [
    "GROUP_CODES",
    "READINGS_CACHE_SIZE",
    "Decomposition",
    "Group",
    "GroupKind",
    "HandTiles",
    "clear_readings_cache",
    "decompositions",
    "is_complete",
    "is_complete_counts",
    "is_complete_keys",
    "least_need",
    "shortfall",
    "shortfall_after_each",
    "suit_keys",
    "suit_readings",
    "wait_indices",
    "waiting_faces",
]

_TABLES = need_tables()
_POW5 = tuple(5**i for i in range(9))
_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def is_complete_keys(
    km: int,
    kp: int,
    ks: int,
    kz: int,
    wilds: int,
    _n: bytes = _TABLES.dense_number,
    _z: bytes = _TABLES.dense_honor,
    _ok: tuple[bytes, ...] = _TABLES.ok,
    _k: int = len(_TABLES.codes),
    _bad: int = _TABLES.impossible_code,
) -> bool:
    """The hot-path check: suit keys (see :func:`suit_keys`) and a ★ count of 0–3.

    The caller guarantees that the tiles are ``3n + 2`` with no bonus tile; any other size is
    never complete here.

    >>> is_complete_keys(*suit_keys(HandTiles.parse("111222333m44z").counts), 0)
    True
    """
    z = _z[kz]
    if z == _bad:
        return False
    return _ok[wilds][((_n[km] * _k + _n[kp]) * _k + _n[ks]) * _k + z] == 1


def suit_keys(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The base-5 keys of the four suits of a 34-count vector (萬, 筒, 索, 字).

    >>> suit_keys([1, 1, 1] + [0] * 24 + [2] + [0] * 6)
    (31, 0, 0, 2)
    """
    c = counts
    # fmt: off
    return (
        (((((((c[8] * 5 + c[7]) * 5 + c[6]) * 5 + c[5]) * 5 + c[4]) * 5 + c[3]) * 5 + c[2]) * 5
         + c[1]) * 5 + c[0],
        (((((((c[17] * 5 + c[16]) * 5 + c[15]) * 5 + c[14]) * 5 + c[13]) * 5 + c[12]) * 5
          + c[11]) * 5 + c[10]) * 5 + c[9],
        (((((((c[26] * 5 + c[25]) * 5 + c[24]) * 5 + c[23]) * 5 + c[22]) * 5 + c[21]) * 5
          + c[20]) * 5 + c[19]) * 5 + c[18],
        (((((c[33] * 5 + c[32]) * 5 + c[31]) * 5 + c[30]) * 5 + c[29]) * 5 + c[28]) * 5 + c[27],
    )
    # fmt: on


#: Per dense code: the fewest ★ the suit needs (with or without the pair). No hand holding
#: fewer ★ than one of its suits needs is complete: the checks stop there.
_LEAST = bytes(min(n0, n1) for n0, n1 in _TABLES.codes)


def is_complete_counts(
    c: Sequence[int],
    wilds: int,
    _n: bytes = _TABLES.dense_number,
    _z: bytes = _TABLES.dense_honor,
    _ok: tuple[bytes, ...] = _TABLES.ok,
    _k: int = len(_TABLES.codes),
    _least: bytes = _LEAST,
) -> bool:
    """Check a 34-count vector of natural tiles plus ``wilds`` ★ (0–3).

    The keys are computed inline, honours first, and the check stops at the first suit
    that needs more ★ than the hand holds. Sizes other than ``3n + 2`` are never complete
    (the combined table already implies the size).

    >>> c = [0] * 34
    >>> c[0] = 3; c[27] = 1
    >>> is_complete_counts(c, 1)  # 111m and 1z + ★
    True
    >>> is_complete_counts(c, 0)
    False
    """
    # Unrolled on purpose: this is the hot path, and Horner's rule inline is twice as fast
    # as a loop. Honours first: random hands fail there most often.
    # fmt: off
    z = _z[(((((c[33] * 5 + c[32]) * 5 + c[31]) * 5 + c[30]) * 5 + c[29]) * 5 + c[28]) * 5
           + c[27]]
    if _least[z] > wilds:
        return False
    m = _n[(((((((c[8] * 5 + c[7]) * 5 + c[6]) * 5 + c[5]) * 5 + c[4]) * 5 + c[3]) * 5
             + c[2]) * 5 + c[1]) * 5 + c[0]]
    if _least[m] > wilds:
        return False
    p = _n[(((((((c[17] * 5 + c[16]) * 5 + c[15]) * 5 + c[14]) * 5 + c[13]) * 5 + c[12]) * 5
             + c[11]) * 5 + c[10]) * 5 + c[9]]
    if _least[p] > wilds:
        return False
    s = _n[(((((((c[26] * 5 + c[25]) * 5 + c[24]) * 5 + c[23]) * 5 + c[22]) * 5 + c[21]) * 5
             + c[20]) * 5 + c[19]) * 5 + c[18]]
    # fmt: on
    return _ok[wilds][((m * _k + p) * _k + s) * _k + z] == 1


@dataclass(frozen=True, slots=True)
class HandTiles:
    """Concealed tiles split into natural counts (34 faces) and the number of ★.

    >>> h = HandTiles.parse("11m9s9s", wild="9s")
    >>> h.wilds, h.size, h.counts[0]
    (2, 4, 2)
    """

    counts: tuple[int, ...]
    wilds: int
    wild: Tile | None

    @staticmethod
    def parse(tiles: str | Iterable[Tile], wild: Tile | str | None = None) -> HandTiles:
        """Read a tile string or tiles; tiles of the wild face become ★.

        >>> HandTiles.parse("5z").counts
        Traceback (most recent call last):
        ...
        paiju.errors.InvalidHandError: 白 (5z) is a bonus tile and is never kept in a hand

        Raises :class:`~paiju.errors.NotationError` for bad notation and
        :class:`~paiju.errors.InvalidHandError` for a bonus tile, a fifth copy of a face,
        more than three ★ or a bonus face as the wild.
        """
        wild_tile = _as_wild(wild)
        seq = parse_tiles(tiles) if isinstance(tiles, str) else list(tiles)
        counts = [0] * 42
        for tile in seq:
            counts[tile.index] += 1
        if counts[31] or any(counts[34:]):
            tile = next(t for t in seq if t.is_bonus)
            raise InvalidHandError(
                f"{tile.name_zh} ({tile}) is a bonus tile and is never kept in a hand"
            )
        del counts[34:]
        wilds = 0
        if wild_tile is not None:
            wilds = counts[wild_tile.index]
            counts[wild_tile.index] = 0
        if max(counts) > 4:
            index, count = next((i, n) for i, n in enumerate(counts) if n > 4)
            raise InvalidHandError(f"{count} copies of {ALL_TILES[index]}: there are only 4")
        if wilds > 3:
            raise InvalidHandError(f"{wilds} wild tiles ({wild_tile}): only three ★ are in play")
        return HandTiles(tuple(counts), wilds, wild_tile)

    @property
    def size(self) -> int:
        """How many tiles, ★ included.

        >>> HandTiles.parse("123m").size
        3
        """
        return sum(self.counts) + self.wilds

    def is_complete(self) -> bool:
        """True when the tiles are ``n`` sets and a pair.

        >>> HandTiles.parse("11m").is_complete()
        True
        """
        return self.size <= 17 and is_complete_counts(self.counts, self.wilds)


def _as_wild(wild: Tile | str | None) -> Tile | None:
    if wild is None:
        return None
    tile = Tile.parse(wild) if isinstance(wild, str) else wild
    if tile.is_bonus:
        raise InvalidHandError(f"{tile} is a bonus tile and cannot be the wild face")
    return tile


#: The tile-list fast path counts in a bytearray starting every face at 251: a fifth copy
#: overflows a byte (``ValueError``), a flower or season is past the end (``IndexError``),
#: so the loop checks the copies for free. ``_FROM_251`` maps the bytes back to counts.
_AT_251 = bytes([251]) * 34
_FROM_251 = bytes((b - 251) % 256 for b in range(256))
#: The honours' key of seven faces each at 251, taken off the honours' sum below.
_HONOR_251 = 251 * sum(_POW5[:7])


def _tile_counts(
    tiles: Sequence[Tile], wild: Tile, _start: bytes = _AT_251, _back: bytes = _FROM_251
) -> tuple[Sequence[int], int]:
    """:meth:`HandTiles.parse`'s natural counts and ★ for tiles and a wild face, counted the
    way :func:`is_complete` counts a tile list; anything it would reject goes through
    :meth:`HandTiles.parse` itself, which raises the same error."""
    w = wild.index
    c = bytearray(_start)
    try:
        for t in tiles:
            c[t.index] += 1
    except (AttributeError, TypeError, IndexError, ValueError):
        w = 31
    if w == 31 or w >= 34 or c[31] != 251 or c[w] == 255:  # 白, or four ★
        hand = HandTiles.parse(tiles, wild)
        return hand.counts, hand.wilds
    counts = c.translate(_back)
    wilds = counts[w]
    counts[w] = 0
    return counts, wilds


def is_complete(
    tiles: str | Iterable[Tile],
    wild: Tile | str | None = None,
    _start: bytes = _AT_251,
    _back: bytes = _FROM_251,
    _z: bytes = _TABLES.dense_honor,
    _least: bytes = _LEAST,
    _off: int = _HONOR_251,
) -> bool:
    """True when the concealed tiles form sets and one pair, ★ read as needed.

    ``tiles`` is a notation string or tiles; ``wild`` the wild face (its copies are ★).
    Seventeen tiles make a whole concealed hand; fewer (``3n + 2``) are what is left beside
    exposed melds. Other sizes are never complete.

    >>> is_complete("1m1112223334446667z")
    False
    >>> is_complete("1m1112223334446667z", wild="1m")  # the 1m is a ★: 77z
    True
    >>> is_complete("1m")
    False

    Raises :class:`~paiju.errors.NotationError` or :class:`~paiju.errors.InvalidHandError`.
    """
    if wild is None and isinstance(tiles, (list, tuple)) and len(tiles) <= 17:
        # the common case, straight to the counts (inline: this is the hot path), the
        # honours first, as random hands fail there most; anything unusual (a bonus tile,
        # a fifth copy, not tiles at all) takes the checked path below, which says what is
        # wrong
        c = bytearray(_start)
        try:
            for t in tiles:
                c[t.index] += 1
        except (AttributeError, TypeError, IndexError, ValueError):
            c[31] = 0
        if c[31] == 251:  # no 白, and the loop went through
            if c.find(252, 27) >= 0:
                return False  # a lone honour is never in a set or the pair without ★
            # fmt: off
            if _least[_z[(((((c[33] * 5 + c[32]) * 5 + c[31]) * 5 + c[30]) * 5 + c[29]) * 5
                          + c[28]) * 5 + c[27] - _off]]:
                return False
            # fmt: on
            return is_complete_counts(c.translate(_back), 0)
    hand = HandTiles.parse(tiles, wild)
    if hand.size > 17:
        raise InvalidHandError(f"{hand.size} tiles: a hand has at most 17")
    return hand.is_complete()


class GroupKind(NamedEnum):
    """What a group of a decomposition is: a chow 順, a pung 刻 or the pair 將.

    >>> [(kind.value, kind.name_zh) for kind in GroupKind]
    [('chow', '順'), ('pung', '刻'), ('pair', '將')]
    """

    CHOW = "chow", "順"
    PUNG = "pung", "刻"
    PAIR = "pair", "將"


_KIND_ORDER = {GroupKind.CHOW: 0, GroupKind.PUNG: 1, GroupKind.PAIR: 2}
#: Every :attr:`Group.code` is below this: (kind × 35 + face, 34 for none) × 8 + ★ mask.
GROUP_CODES = 3 * 35 * 8


@dataclass(frozen=True, slots=True)
class Group:
    """One set or the pair of a decomposition of the concealed tiles.

    ``face`` is the tile read (a chow's lowest); ``None`` for a group of ★ only, whose
    reading is free. Bit ``i`` of ``wild_mask`` marks the ``i``-th tile as a ★. ``code``
    numbers the group below :data:`GROUP_CODES` (equal groups, equal codes): the scorer
    reads per-group tables by it.

    >>> g = Group(GroupKind.CHOW, Tile.parse("3m"), 0b010)
    >>> str(g), g.wilds, [str(t) for t in g.naturals], g.code
    ('3m★5m', 1, ['3m', '5m'], 18)
    """

    kind: GroupKind
    face: Tile | None
    wild_mask: int
    order: tuple[int, int, int] = field(init=False, repr=False, compare=False, hash=False)
    code: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # the canonical order (chows, pungs, pair; then by face), made once: decompositions
        # sort and compare by it
        face = 99 if self.face is None else self.face.index
        kind = _KIND_ORDER[self.kind]
        object.__setattr__(self, "order", (kind, face, self.wild_mask))
        face = 34 if self.face is None else face
        object.__setattr__(self, "code", (kind * 35 + face) * 8 + self.wild_mask)

    def __hash__(self) -> int:
        # equal groups have equal codes; hashing the int is much cheaper than the generated
        # hash of the fields (a face's own hash is a Python call), and a suit's readings
        # are gathered in a set of tuples of groups
        return self.code

    @property
    def size(self) -> int:
        """Tiles in the group.

        >>> Group(GroupKind.PAIR, None, 0b11).size
        2
        """
        return 2 if self.kind is GroupKind.PAIR else 3

    @property
    def wilds(self) -> int:
        """How many ★ the group uses.

        >>> Group(GroupKind.PUNG, Tile.parse("1z"), 0b110).wilds
        2
        """
        return self.wild_mask.bit_count()

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The tiles as read (★ as the faces they stand for); empty for a free ★ group.

        >>> Group(GroupKind.CHOW, Tile.parse("7s"), 0).tiles
        (Tile.parse('7s'), Tile.parse('8s'), Tile.parse('9s'))
        """
        if self.face is None:
            return ()
        if self.kind is GroupKind.CHOW:
            i = self.face.index
            return (ALL_TILES[i], ALL_TILES[i + 1], ALL_TILES[i + 2])
        return (self.face,) * self.size

    @property
    def naturals(self) -> tuple[Tile, ...]:
        """The natural (non-★) tiles of the group.

        >>> Group(GroupKind.PUNG, Tile.parse("5p"), 0b100).naturals
        (Tile.parse('5p'), Tile.parse('5p'))
        """
        return tuple(t for i, t in enumerate(self.tiles) if not self.wild_mask >> i & 1)

    def __str__(self) -> str:
        if self.face is None:
            return "★" * self.size
        return "".join("★" if self.wild_mask >> i & 1 else str(t) for i, t in enumerate(self.tiles))


@dataclass(frozen=True, slots=True)
class Decomposition:
    """The concealed tiles read as sets and one pair, in canonical order.

    >>> d = decompositions("123m11z")[0]
    >>> [str(g) for g in d.groups], str(d.pair)
    (['1m2m3m', '1z1z'], '1z1z')
    """

    groups: tuple[Group, ...]

    @property
    def pair(self) -> Group:
        """The pair.

        >>> str(decompositions("22p")[0].pair)
        '2p2p'
        """
        for group in self.groups:
            if group.kind is GroupKind.PAIR:
                return group
        raise AssertionError("a decomposition always has a pair")  # pragma: no cover

    @property
    def sets(self) -> tuple[Group, ...]:
        """The chows and pungs.

        >>> len(decompositions("111222333m44z")[0].sets)
        3
        """
        return tuple(g for g in self.groups if g.kind is not GroupKind.PAIR)

    def __str__(self) -> str:
        return " ".join(str(g) for g in self.groups)


Reading = tuple[Group, ...]


def suit_readings(
    suit: int, counts: tuple[int, ...], wilds: int, pair: bool
) -> tuple[Reading, ...]:
    """Every reading of one suit's tiles as sets (and the pair if ``pair``) with exactly
    ``wilds`` ★ placed beside natural tiles of the suit, in canonical order.

    ``suit`` is 0–3 (萬 筒 索 字) and ``counts`` its 9 (or 7) counts. Computed afresh on
    every call: the scorer keeps its own bounded cache of these (:data:`READINGS_CACHE_SIZE`).

    >>> suit_readings(0, (1, 1, 1, 0, 0, 0, 0, 0, 0), 1, False)  # four tiles: no sets
    ()
    >>> [str(g) for (g,) in suit_readings(0, (1, 0, 1, 0, 0, 0, 0, 0, 0), 1, False)]
    ['1m★3m']
    >>> [str(g) for (g,) in suit_readings(3, (0, 0, 0, 0, 0, 0, 2), 1, False)]
    ['7z7z★']

    Raises ``ValueError`` for a suit outside 0–3 or counts of the wrong length.
    """
    if not 0 <= suit <= 3 or len(counts) != (7 if suit == 3 else 9):
        raise ValueError(f"expected suit 0–3 and its 9 (honours: 7) counts, got {suit}")
    return _sorted_readings(_suit_readings(suit, list(counts), wilds, pair))


def _sorted_readings(found: set[Reading]) -> tuple[Reading, ...]:
    return tuple(sorted(found, key=lambda r: [g.order for g in r]))


def _suit_readings(
    suit: int, work: list[int], wilds: int, pair: bool, key: int | None = None
) -> set[Reading]:
    """The readings of :func:`suit_readings`, unordered; ``work`` is used as scratch space
    (it holds the same counts again on return); ``key`` is its suit key, when known."""
    found: set[Reading] = set()
    honor = suit == 3
    table = _TABLES.honor if honor else _TABLES.number
    if key is None:
        key = suit_key(work)
    _readings(_GROUP_TABLE[suit], honor, table, work, key, 0, wilds, pair, [], found)
    return found


def _readings(
    groups: _SuitGroups,
    honor: bool,
    table: bytes,
    counts: list[int],
    key: int,
    r: int,
    wilds: int,
    pair: bool,
    current: list[Group],
    found: set[Reading],
) -> None:
    # ``key`` is the suit key of ``counts``: the need table says how many ★ the tiles left
    # need at least (with the pair, if it is still to make); with fewer, nothing follows
    v = table[key]
    if (v % 5 if pair else v // 5) > wilds:
        return
    # the lowest rank still held: every rank below ``r`` is empty already
    n = len(counts)
    while r < n and not counts[r]:
        r += 1
    if r == n:
        if wilds == 0 and not pair:
            found.add(tuple(sorted(current, key=_ORDER)))
        return
    held = counts[r]
    step = _POW5[r]
    # a pung (or the pair) of rank r: k natural tiles, the rest ★
    pungs, pairs, chows = groups[r]
    for k in (3, 2, 1) if held >= 3 else (2, 1) if held == 2 else (1,):
        need = 3 - k
        if need > wilds:
            continue
        counts[r] = held - k
        current.append(pungs[need])
        _readings(
            groups, honor, table, counts, key - k * step, r, wilds - need, pair, current, found
        )
        current.pop()
    if pair:
        for k in (2, 1) if held >= 2 else (1,):
            need = 2 - k
            if need > wilds:
                continue
            counts[r] = held - k
            current.append(pairs[need])
            _readings(
                groups, honor, table, counts, key - k * step, r, wilds - need, False, current, found
            )
            current.pop()
    counts[r] = held
    if honor:
        return
    # chows that hold the tile at r (positions below r are empty, so those are ★): each
    # pattern is (the chow, its ★ count, the ranks above r it takes naturally, their key)
    for group, used, taken, taken_key in chows:
        if used > wilds:
            continue
        for rank in taken:
            if not counts[rank]:
                break
        else:
            counts[r] -= 1
            for rank in taken:
                counts[rank] -= 1
            current.append(group)
            _readings(
                groups,
                honor,
                table,
                counts,
                key - step - taken_key,
                r,
                wilds - used,
                pair,
                current,
                found,
            )
            current.pop()
            counts[r] += 1
            for rank in taken:
                counts[rank] += 1


#: One rank's groups (see :func:`_group_table`).
_RankGroups = tuple[
    tuple[Group, ...], tuple[Group, ...], tuple[tuple[Group, int, tuple[int, ...], int], ...]
]
_SuitGroups = tuple[_RankGroups, ...]


def _group_table(suit: int) -> _SuitGroups:
    """Per rank of ``suit``: its pungs by ★ count (0–2), its pairs by ★ count (0–1), and
    the chows holding a natural tile at that rank and none below it, as (chow, ★ used, the
    ranks above taken naturally, their part of the suit key). Every group is made once here
    and shared."""
    n = 7 if suit == 3 else 9
    out: list[_RankGroups] = []
    for r in range(n):
        face = ALL_TILES[suit * 9 + r]
        pungs = tuple(
            Group(GroupKind.PUNG, face, ((1 << need) - 1) << (3 - need)) for need in range(3)
        )
        pairs = tuple(
            Group(GroupKind.PAIR, face, ((1 << need) - 1) << (2 - need)) for need in range(2)
        )
        chows: list[tuple[Group, int, tuple[int, ...], int]] = []
        if suit != 3:
            for start in range(max(0, r - 2), min(r, 6) + 1):
                below = r - start  # ★ positions before r
                above = [start + pos for pos in range(below + 1, 3)]
                for picks in itertools.product((False, True), repeat=len(above)):
                    mask = (1 << below) - 1
                    taken = []
                    for j, is_wild in enumerate(picks):
                        if is_wild:
                            mask |= 1 << (below + 1 + j)
                        else:
                            taken.append(above[j])
                    group = Group(GroupKind.CHOW, ALL_TILES[suit * 9 + start], mask)
                    chows.append(
                        (group, mask.bit_count(), tuple(taken), sum(_POW5[t] for t in taken))
                    )
        out.append((pungs, pairs, tuple(chows)))
    return tuple(out)


_GROUP_TABLE = tuple(_group_table(s) for s in range(4))

_FREE_PAIR = Group(GroupKind.PAIR, None, 0b11)
_FREE_SET = Group(GroupKind.PUNG, None, 0b111)


def decompositions(
    tiles: str | Iterable[Tile] | HandTiles, wild: Tile | str | None = None
) -> list[Decomposition]:
    """Every way to read the concealed tiles as sets and one pair, ★ included.

    A group of ★ only (``★★`` pair, ``★★★`` set) has no fixed face: the scorer reads it.

    >>> [str(d) for d in decompositions("111222333m44z")]
    ['1m2m3m 1m2m3m 1m2m3m 4z4z', '1m1m1m 2m2m2m 3m3m3m 4z4z']
    >>> [str(d) for d in decompositions("13m66z", wild="9s")]
    []
    >>> [str(d) for d in decompositions("13m9s66z", wild="9s")]
    ['1m★3m 6z6z']

    Raises like :func:`is_complete`.
    """
    hand = tiles if isinstance(tiles, HandTiles) else HandTiles.parse(tiles, wild)
    return [Decomposition(groups) for groups in _decomposition_groups(hand.counts, hand.wilds)]


def _decomposition_groups(
    counts: Sequence[int],
    w: int,
    _n: bytes = _TABLES.dense_number,
    _z: bytes = _TABLES.dense_honor,
    keys: Sequence[int] | None = None,
) -> list[tuple[Group, ...]]:
    """The groups of every decomposition of natural ``counts`` and ``w`` ★, in the order of
    :func:`decompositions` (which wraps them); the scorer reads them directly, giving the
    suit keys it already has as ``keys``."""
    t0, t1, t2, t3 = sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27]), sum(counts[27:34])
    size = t0 + t1 + t2 + t3 + w
    if size % 3 != 2 or size > 17:
        return []
    if keys is None:
        keys = suit_keys(counts)
    k0, k1, k2, k3 = keys
    # where the ★ and the pair can go follows from each suit's needs (its dense code), its
    # size modulo 3 and the ★ held: a few hundred such plans in play, each worked out once
    plan_key = (_n[k0], _n[k1], _n[k2], _z[k3], t0 % 3, t1 % 3, t2 % 3, t3 % 3, w)
    plan = _PLANS.get(plan_key)
    if plan is None:
        plan = _plan(*plan_key)
        if len(_PLANS) >= _PLANS_SIZE:
            _PLANS.clear()  # rarely: a few hundred plans are ever made
        _PLANS[plan_key] = plan
    if not plan:
        return []
    # the four suits' cache keys with no ★ and no pair (+4 per ★, +16 for the pair)
    base = (k0 * 32, k1 * 32 + 1, k2 * 32 + 2, k3 * 32 + 3)
    made: list[tuple[Group, ...]] = []
    for split, free_set, pair_at in plan:
        _combine(made, split, free_set, pair_at, base, keys, counts)
    if len(made) <= 1:
        return made
    found: dict[tuple[tuple[int, int, int], ...], tuple[Group, ...]] = {}
    for groups_made in made:
        found.setdefault(tuple(map(_ORDER, groups_made)), groups_made)
    return [found[k] for k in sorted(found)]


_Plan = tuple[tuple[tuple[int, int, int, int], bool, int], ...]
#: :func:`_plan` by its arguments (bounded: emptied if ever full).
_PLANS: dict[tuple[int, ...], _Plan] = {}
_PLANS_SIZE = 4096


def _plan(d0: int, d1: int, d2: int, d3: int, m0: int, m1: int, m2: int, m3: int, w: int) -> _Plan:
    """Every way to share ``w`` ★ among the four suits (dense codes ``d0``–``d3``, sizes
    ``m0``–``m3`` modulo 3) and a ★★★ set, with the pair in suit 0–3 or made of two ★ (4),
    that the suits' needs allow: ((★ per suit), a ★★★ set, the pair's suit) each.

    >>> h = HandTiles.parse("123m45p11z")  # and one ★: for 3p or 6p, the pair is 11z
    >>> k = suit_keys(h.counts)
    >>> n, z = _TABLES.dense_number, _TABLES.dense_honor
    >>> _plan(n[k[0]], n[k[1]], n[k[2]], z[k[3]], 0, 2, 0, 2, 1)
    (((0, 1, 0, 0), False, 3),)
    """
    codes = _TABLES.codes
    c = (codes[d0], codes[d1], codes[d2], codes[d3])
    sizes = (m0, m1, m2, m3)
    # a suit's tiles and ★ make sets (3n) or sets and the pair (3n + 2). A suit takes at
    # least the ★ the tables say it needs (without the pair, with it), raised to make its
    # size whole; then more in steps of three.
    sets_only = [c[s][0] + (-sizes[s] - c[s][0]) % 3 for s in range(4)]
    with_pair = [c[s][1] + (2 - sizes[s] - c[s][1]) % 3 for s in range(4)]
    out: list[tuple[tuple[int, int, int, int], bool, int]] = []
    for pair_at in range(5):  # 0–3: in that suit; 4: two ★
        lo = list(sets_only)
        if pair_at < 4:
            rest = w  # what the suits and a ★★★ set share
            lo[pair_at] = with_pair[pair_at]
        else:
            rest = w - 2
        if sum(lo) > rest:
            continue
        lo0, lo1, lo2, lo3 = lo
        for a in range(lo0, rest - lo1 - lo2 - lo3 + 1, 3):
            for b in range(lo1, rest - a - lo2 - lo3 + 1, 3):
                for c2 in range(lo2, rest - a - b - lo3 + 1, 3):
                    for d in range(lo3, rest - a - b - c2 + 1, 3):
                        free = rest - a - b - c2 - d  # 0, or 3 for a ★★★ set
                        if free <= 3:
                            out.append(((a, b, c2, d), free == 3, pair_at))
    return tuple(out)


def _combine(
    made: list[Reading],
    split: tuple[int, int, int, int],
    free_set: bool,
    pair_at: int,
    base: tuple[int, int, int, int],
    keys: Sequence[int],
    counts: Sequence[int],
) -> None:
    """Add to ``made`` every decomposition with ``split[s]`` ★ in suit ``s``, the pair in
    suit ``pair_at`` (4: a ★★ pair) and, with ``free_set``, a ★★★ set."""
    cache = _READINGS_BY_KEY
    per_suit = []
    for s in range(4):
        readings = cache.get(base[s] + split[s] * 4 + (16 if pair_at == s else 0))
        if readings is None:
            readings = _suit_readings_keyed(s, keys[s], split[s], pair_at == s, counts)
        if not readings:
            return
        per_suit.append(readings)
    # each suit's reading comes split by kind (see _by_kind) and the suits come in face
    # order, so the chows, then the pungs, the ★★★ set (no face: last of the pungs) and
    # the pair, joined in that order, are in canonical order without a sort
    free = (_FREE_SET,) if free_set else ()
    pair = (_FREE_PAIR,) if pair_at == 4 else ()
    for rm, rp, rs, rz in itertools.product(*per_suit):
        made.append(rm[0] + rp[0] + rs[0] + rm[1] + rp[1] + rs[1] + rz[1] + free
                    + (pair or rm[2] or rp[2] or rs[2] or rz[2]))  # fmt: skip


#: How many suit readings the scorer keeps (by suit key, ★ and pair): a bounded cache, so
#: that a long-running server's memory does not grow with every hand it scores. Over
#: thousands of different winning hands about one reading in nine is new; 8,192 hold the
#: common ones (a few MB). When full, the older half is dropped (first in, first out: a hit
#: costs one dict lookup and no bookkeeping).
READINGS_CACHE_SIZE = 8192

#: :func:`suit_readings` by one integer (suit key, ★, pair, suit), each reading split by
#: kind (see :func:`_by_kind`): hashing an int is cheaper than hashing the suit's counts
#: tuple, and the scorer asks for every suit of every winner.
_READINGS_BY_KEY: dict[int, tuple[ByKind, ...]] = {}


def _suit_readings_keyed(
    s: int, key: int, wilds: int, pair: bool, counts: Sequence[int]
) -> tuple[ByKind, ...]:
    k = key * 32 + pair * 16 + wilds * 4 + s  # suit 0–3, ★ 0–3, the pair: below 32
    found = _READINGS_BY_KEY.get(k)
    if found is None:
        found = _moved_readings(k, s) if s < 3 else None
        if found is None:
            lo, hi = _SUIT_SPANS[s]
            found = tuple(map(_by_kind, _suit_readings(s, list(counts[lo:hi]), wilds, pair, key)))
        cache = _READINGS_BY_KEY
        if len(cache) >= READINGS_CACHE_SIZE:
            # pop, not del: two threads (the loop's settlement, a search) may both evict
            for old in list(itertools.islice(cache, READINGS_CACHE_SIZE // 2)):
                cache.pop(old, None)
        cache[k] = found
    return found


#: A suit's reading split by kind: its chows, its pungs, its pair (empty or one group).
ByKind = tuple[Reading, Reading, Reading]


def _by_kind(reading: Reading) -> ByKind:
    """A suit's reading (in canonical order) split into its chows, pungs and pair.

    >>> (reading,) = suit_readings(0, (3, 1, 1, 0, 0, 0, 0, 0, 0), 0, True)  # 11123m
    >>> [[str(g) for g in part] for part in _by_kind(reading)]
    [['1m2m3m'], [], ['1m1m']]
    """
    chows = tuple(g for g in reading if g.kind is GroupKind.CHOW)
    pungs = tuple(g for g in reading if g.kind is GroupKind.PUNG)
    return chows, pungs, reading[len(chows) + len(pungs) :]


def _moved_readings(k: int, s: int) -> tuple[ByKind, ...] | None:
    """Number suit ``s``'s readings for cache key ``k``, made from another number suit's with
    the same counts, ★ and pair if the cache holds them: the same readings with every face
    moved to suit ``s`` (the three number suits read alike), cheaper than the search.

    >>> clear_readings_cache()
    >>> c = [1, 1, 1] + [0] * 31  # 123m
    >>> key = suit_keys(c)[0]
    >>> _ = _suit_readings_keyed(0, key, 0, False, c)  # the 萬 readings, cached
    >>> [[str(g) for part in r for g in part] for r in _moved_readings(key * 32 + 2, 2)]
    [['1s2s3s']]
    """
    for other in _OTHER_NUMBER_SUITS[s]:
        same = _READINGS_BY_KEY.get(k - s + other)
        if same is not None:
            move = _MOVE[other][s]
            return tuple([_moved(r, move) for r in same])
    return None


def _moved(reading: ByKind, move: dict[int, Group]) -> ByKind:
    """A reading's parts with each group replaced by ``move[id(group)]``."""
    chows, pungs, pair = reading
    return (
        tuple([move[id(g)] for g in chows]),
        tuple([move[id(g)] for g in pungs]),
        tuple([move[id(g)] for g in pair]),
    )


_OTHER_NUMBER_SUITS = ((1, 2), (0, 2), (0, 1))


def _moves() -> tuple[tuple[dict[int, Group], ...], ...]:
    """Per number suit ``a`` and ``b``: each of suit ``a``'s groups (by ``id``: the readings
    hold only these shared groups) to the same group in suit ``b``."""
    out = []
    for a in range(3):
        row = []
        for b in range(3):
            move = {}
            for ga, gb in zip(_groups_of(a), _groups_of(b), strict=True):
                move[id(ga)] = gb
            row.append(move)
        out.append(tuple(row))
    return tuple(out)


def _groups_of(suit: int) -> list[Group]:
    """Every group of :data:`_GROUP_TABLE` for ``suit``, in table order."""
    out: list[Group] = []
    for pungs, pairs, chows in _GROUP_TABLE[suit]:
        out += pungs
        out += pairs
        out += [chow[0] for chow in chows]
    return out


_MOVE = _moves()


def clear_readings_cache() -> None:
    """Empty the scorer's cache of suit readings (benchmarks time a cold scorer with it).

    >>> clear_readings_cache(); len(_READINGS_BY_KEY)
    0
    """
    _READINGS_BY_KEY.clear()


_ORDER = attrgetter("order")


def waiting_faces(
    tiles: str | Iterable[Tile] | HandTiles, wild: Tile | str | None = None
) -> list[Tile]:
    """The faces that would complete these ``3n + 1`` concealed tiles (a ★ counted as one).

    The wild face itself is listed when drawing a ★ would complete the hand.

    >>> [str(t) for t in waiting_faces("1112345678999m")][:3]
    ['1m', '2m', '3m']
    >>> [str(t) for t in waiting_faces("123m4z", wild="9m")]
    ['9m', '4z']

    Raises like :func:`is_complete`.
    """
    hand = tiles if isinstance(tiles, HandTiles) else HandTiles.parse(tiles, wild)
    if hand.size % 3 != 1 or hand.size > 16:
        return []
    return _waits(hand.counts, hand.wilds, hand.wild)


def wait_indices(hand: Sequence[int], wild: int) -> list[int]:
    """:func:`waiting_faces` for a 34-count hand with its ★ counted at face ``wild`` (the
    engine's form), as face indices.

    >>> h = [0] * 34
    >>> h[0] = h[1] = 1; h[27] = 2  # 12m 11z: waits on 3m, or on a ★ (the wild face 9s)
    >>> wait_indices(h, 26)
    [2, 26]

    Raises ``ValueError`` for a hand that is not 34 counts or a bad wild face.
    """
    if len(hand) != 34 or not 0 <= wild < 34 or wild == 31:
        raise ValueError(f"expected 34 counts and a wild face index 0–33 (not 31), got {wild}")
    counts = list(hand)
    wilds = counts[wild]
    counts[wild] = 0
    size = sum(counts) + wilds
    if size % 3 != 1 or size > 16 or wilds > 3:
        return []
    return [t.index for t in _waits(counts, wilds, ALL_TILES[wild])]


def least_need(km: int, kp: int, ks: int, kz: int) -> int:
    """A lower bound of the ★ that natural tiles with these suit keys need to become sets
    and a pair (exact below 4: the tables store a suit's need up to 4). One more tile lowers
    it by at most one (the tile could have been a ★), so tiles that need two ★ more than
    they hold wait on nothing.

    >>> least_need(*suit_keys(HandTiles.parse("123m45p").counts))  # ★ for 3p or 6p, ★★ pair
    3
    """
    m = _DENSE_N[km]
    p = _DENSE_N[kp]
    s = _DENSE_N[ks]
    z = _DENSE_Z[kz]
    gain = min(2, _PAIR_GAIN[m], _PAIR_GAIN[p], _PAIR_GAIN[s], _PAIR_GAIN[z])
    return _NEED0[m] + _NEED0[p] + _NEED0[s] + _NEED0[z] + gain


_DENSE_N = _TABLES.dense_number
_DENSE_Z = _TABLES.dense_honor
_NEED0 = tuple(n0 for n0, _ in _TABLES.codes)
_PAIR_GAIN = tuple(n1 - n0 for n0, n1 in _TABLES.codes)


def _waits(counts: Sequence[int], wilds: int, wild: Tile | None) -> list[Tile]:
    """The waits of ``3n + 1`` tiles: natural counts and ``wilds`` ★ of face ``wild``."""
    return [ALL_TILES[i] for i in _wait_hits(counts, wilds, -1 if wild is None else wild.index)]


#: Per suit, its playable faces (not 白) with each one's step in the suit key.
_SUIT_FACES = tuple(
    tuple((f, _POW5[f - lo]) for f in range(lo, hi) if f != 31) for lo, hi in _SUIT_SPANS
)


def _wait_hits(
    counts: Sequence[int],
    wilds: int,
    w: int,
    _n: bytes = _TABLES.dense_number,
    _z: bytes = _TABLES.dense_honor,
    _ok: tuple[bytes, ...] = _TABLES.ok,
    _k: int = len(_TABLES.codes),
    _least: bytes = _LEAST,
    held: Sequence[int] | None = None,
    most: int = 34,
    keys: Sequence[int] | None = None,
) -> list[int]:
    """:func:`_waits` as face indices, the wild face given by its index ``w`` (-1: none).

    With ``held`` (counts at least ``counts``), a face held four times there is no wait
    either, and with ``most`` the search stops at that many natural waits and leaves the
    wild face out (the single-wait check asks for two at most); ``keys`` are the suit keys
    of ``counts`` when the caller has them.

    Each suit's code is looked up once; a face changes only its own suit's code, so the
    combined index is that suit's new code times its place value plus the other suits'
    part, made once per suit."""
    if keys is None:
        keys = suit_keys(counts)
    if wilds < 3 and least_need(keys[0], keys[1], keys[2], keys[3]) > wilds + 1:
        return []
    if held is None:
        held = counts
    m, p, s, z = _n[keys[0]], _n[keys[1]], _n[keys[2]], _z[keys[3]]
    k2 = _k * _k
    k3 = k2 * _k
    ok = _ok[wilds]
    hits: list[int] = []
    # a tile changes only its own suit: the other suits still need their fewest ★ (with or
    # without the pair), so a suit is skipped when the others alone need more than are held
    lm, lp, ls, lz = _least[m], _least[p], _least[s], _least[z]
    least = lm + lp + ls + lz
    for table, key, place, rest, faces, own in (
        (_n, keys[0], k3, (p * _k + s) * _k + z, _SUIT_FACES[0], lm),
        (_n, keys[1], k2, m * k3 + s * _k + z, _SUIT_FACES[1], lp),
        (_n, keys[2], _k, m * k3 + p * k2 + z, _SUIT_FACES[2], ls),
        (_z, keys[3], 1, m * k3 + p * k2 + s * _k, _SUIT_FACES[3], lz),
    ):
        if least - own > wilds:
            continue
        for i, step in faces:
            if i != w and held[i] < 4 and ok[table[key + step] * place + rest]:
                hits.append(i)  # no fifth copy to draw, and the wild face is a ★ (below)
                if len(hits) == most:
                    return hits
    if most < 34:
        return hits
    if w >= 0 and wilds < 3 and _ok[wilds + 1][m * k3 + p * k2 + s * _k + z]:
        hits.append(w)
        hits.sort()
    return hits


def _one_wait(
    counts: Sequence[int],
    wilds: int,
    w: int,
    held: Sequence[int],
    keys: Sequence[int],
    first: int,
    _n: bytes = _TABLES.dense_number,
    _z: bytes = _TABLES.dense_honor,
    _ok: tuple[bytes, ...] = _TABLES.ok,
    _k: int = len(_TABLES.codes),
    _least: bytes = _LEAST,
) -> bool:
    """True when exactly one natural face completes ``counts`` and ``wilds`` ★ (the 獨張
    check): :func:`_wait_hits` with ``most=2``, told the suit keys, ``keys``, and which
    suit to try ``first``, the winning tile's: the hand waits there, and a second wait
    (the other side of a two-sided wait) is most often in the same suit, so the search
    mostly stops there. The faces ``w`` (the wild face) and those held four times in
    ``held`` are no wait.

    >>> c = [0] * 34
    >>> c[0] = c[1] = 1; c[27] = 2  # 12m 11z: only 3m
    >>> _one_wait(c, 0, 33, c, suit_keys(c), 0)
    True
    >>> c[1], c[2] = 0, 1  # 13m 11z: only 2m
    >>> _one_wait(c, 0, 33, c, suit_keys(c), 0)
    True
    >>> c[0], c[2], c[3] = 0, 1, 1  # 34m 11z: 2m and 5m
    >>> _one_wait(c, 0, 33, c, suit_keys(c), 0)
    False
    """
    m, p, s, z = _n[keys[0]], _n[keys[1]], _n[keys[2]], _z[keys[3]]
    k2 = _k * _k
    k3 = k2 * _k
    ok = _ok[wilds]
    lm, lp, ls, lz = _least[m], _least[p], _least[s], _least[z]
    least = lm + lp + ls + lz
    suits = [
        (_n, keys[0], k3, (p * _k + s) * _k + z, _SUIT_FACES[0], lm),
        (_n, keys[1], k2, m * k3 + s * _k + z, _SUIT_FACES[1], lp),
        (_n, keys[2], _k, m * k3 + p * k2 + z, _SUIT_FACES[2], ls),
        (_z, keys[3], 1, m * k3 + p * k2 + s * _k, _SUIT_FACES[3], lz),
    ]
    if first:
        suits.insert(0, suits.pop(first))
    hits = 0
    for table, key, place, rest, faces, own in suits:
        if least - own > wilds:
            continue  # the other suits alone need more ★ than are held (as in _wait_hits)
        for i, step in faces:
            if i != w and held[i] < 4 and ok[table[key + step] * place + rest]:
                if hits:
                    return False
                hits = 1
    return hits == 1


@cache
def _suit_shortfall(honor: bool, counts: tuple[int, ...], pair: bool) -> int:
    """Fewest ★ that make every tile of one suit into sets (and the pair if ``pair``)."""
    r = next((i for i, c in enumerate(counts) if c), -1)
    if r < 0:
        return 2 if pair else 0
    work = list(counts)
    best = 99
    for size, is_pair in ((3, False), (2, True)):
        if is_pair and not pair:
            continue
        for k in range(min(size, work[r]), 0, -1):
            work[r] -= k
            best = min(best, size - k + _suit_shortfall(honor, tuple(work), pair and not is_pair))
            work[r] += k
    if not honor:
        for start in range(max(0, r - 2), min(r, 6) + 1):
            used = 0
            taken = []
            for rank in range(start, start + 3):
                if rank >= r and work[rank]:
                    taken.append(rank)
                else:
                    used += 1
            for rank in taken:
                work[rank] -= 1
            best = min(best, used + _suit_shortfall(honor, tuple(work), pair))
            for rank in taken:
                work[rank] += 1
    return best


def shortfall(counts: Sequence[int], wilds: int = 0) -> int:
    """How many more ★ these tiles would need to become sets and one pair, every tile used:
    0 for a complete hand; for ``3n + 1`` tiles, 1 means one tile from complete (聽牌).

    It counts tiles to add, not to exchange, so junk weighs heavily: a measure for choosing
    discards (the ``greedy`` bot), not a shanten number.

    >>> c = [0] * 34
    >>> c[0] = c[1] = 1; c[27] = 2  # 12m 11z
    >>> shortfall(c)
    1
    >>> shortfall(c, wilds=1)
    0
    """
    total0 = 0
    best_pair_delta = 2
    for lo, hi in _SUIT_SPANS:
        part = tuple(counts[lo:hi])
        honor = lo == 27
        n0 = _suit_shortfall(honor, part, False)
        n1 = _suit_shortfall(honor, part, True)
        total0 += n0
        best_pair_delta = min(best_pair_delta, n1 - n0)
    return max(0, total0 + best_pair_delta - wilds)


def shortfall_after_each(counts: Sequence[int], wilds: int = 0) -> list[int | None]:
    """:func:`shortfall` of the tiles less one tile of each index (``None`` where there is
    none of it): what each discard would leave, the unchanged suits reckoned once.

    >>> c = [0] * 34
    >>> c[0] = c[1] = c[5] = 1; c[27] = 2  # 12m 6m 11z
    >>> after = shortfall_after_each(c)
    >>> after[5], after[0], after[2]
    (1, 4, None)
    >>> all(after[i] == shortfall([*c[:i], c[i] - 1, *c[i + 1 :]]) for i in range(34) if c[i])
    True
    """
    parts = []
    keys = []
    for lo, hi in _SUIT_SPANS:
        honor = lo == 27
        key = sum(c * p for c, p in zip(counts[lo:hi], _POW5, strict=False))
        keys.append(key)
        parts.append(_part(honor, key, counts[lo:hi]))
    total0 = sum(n0 for n0, _ in parts)
    out: list[int | None] = [None] * 34
    for k, (lo, hi) in enumerate(_SUIT_SPANS):
        whole = counts[lo:hi]
        if not any(whole):
            continue
        honor = lo == 27
        others = min([2] + [n1 - n0 for j, (n0, n1) in enumerate(parts) if j != k])
        base = total0 - parts[k][0] - wilds
        known = _PARTS[honor]
        key = keys[k]
        for r, c in enumerate(whole):
            if c:
                less = key - _POW5[r]
                pair = known.get(less)
                if pair is None:
                    pair = _part(honor, less, (*whole[:r], c - 1, *whole[r + 1 :]))
                n0, n1 = pair
                d = n1 - n0
                v = base + n0 + (others if others < d else d)
                out[lo + r] = v if v > 0 else 0
    return out


def _part(honor: bool, key: int, counts: Sequence[int]) -> tuple[int, int]:
    """:func:`_suit_shortfall` of one suit without and with the pair, by its key."""
    known = _PARTS[honor]
    pair = known.get(key)
    if pair is None:
        part = tuple(counts)
        pair = (_suit_shortfall(honor, part, False), _suit_shortfall(honor, part, True))
        if len(known) >= _PARTS_SIZE:
            known.clear()
        known[key] = pair
    return pair


#: :func:`_suit_shortfall` without and with the pair, by a suit's counts in base 5 (one
#: table for the numbered suits, one for the honours): an int key, made by a subtraction
#: for each tile taken away (emptied when full)
_PARTS: tuple[dict[int, tuple[int, int]], dict[int, tuple[int, int]]] = ({}, {})
_PARTS_SIZE = 200_000
