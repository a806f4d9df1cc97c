"""Shanten with wild tiles: how many tiles a hand is from complete, as players count it.

A hand of ``3n + 1`` or ``3n + 2`` concealed tiles beside ``k`` declared melds is read as
sets, partial sets (a pair, two in a row, two with a gap) and one pair for the head; junk
costs nothing, since it is thrown away. With ``m`` sets (melds included), ``t`` partial sets
(at most ``5 − m`` count) and a head ``h`` (0 or 1), shanten = ``2·(5 − m) − t − h``; each ★
completes one more step. −1 is a complete hand, 0 one tile from complete (聽牌).

Each suit's Pareto-best readings come from a table shipped with the package
(``data/shanten_suits.bin``, built by ``scripts/build_tables.py``): for every suit of at
most 17 tiles, four of a face at most (every suit a hand can hold), the number of its
readings in a list of the 251 that occur, so that a new process reads any suit at once
(computing them as hands came took the first hands of a fresh bot 2–3 times as long as
later ones, and the kept readings grew without bound). The answers are kept in tables of
bounded size (:data:`_BEST_SIZE`, :data:`_COMBINE_SIZE`, :data:`_SUIT_SIZE` entries, each
emptied when full).

>>> c = [0] * 34
>>> for i in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 28): c[i] += 1
>>> shanten(c, melds=1), shanten(c, melds=1, wilds=1)  # 123m 123p 123s 111z 2z + a meld
(0, -1)
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Sequence
from functools import cache
from importlib import resources

from paiju.kit.sealed import seal, unseal

__all__ = [
    "build_suit_tables",
    "pack_suit_tables",
    "shanten",
    "shanten_each_plus",
    "unpack_suit_tables",
]

_Readings = tuple[tuple[int, int, int], ...]

#: The most tiles of one suit a hand holds (16 and the one drawn).
MAX_SUIT_TILES = 17
_NUMBER_KEYS = 5**9
_HONOR_KEYS = 5**7
_NONE = 255  # a key outside the tables (more than 17 tiles, or a fifth copy)
_MAGIC = b"PAIJU-MAZHAN-SHANTEN-SUITS-1\n"
_DATA_FILE = "shanten_suits.bin"


def _readings_of(
    counts: bytes, honor: bool, memo: dict[tuple[bytes, bool], _Readings]
) -> _Readings:
    """Pareto-best (sets, partials, head) readings of one suit's counts, by recursion on the
    lowest tile (``memo``: the suits already read)."""
    known = memo.get((counts, honor))
    if known is not None:
        return known
    i = 0
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i >= n:
        return ((0, 0, 0),)
    c = list(counts)
    found: set[tuple[int, int, int]] = set()

    def take(removed: Sequence[int], dm: int, dt: int, dh: int) -> None:
        for k in removed:
            c[k] -= 1
        for m, t, h in _readings_of(bytes(c), honor, memo):
            if h + dh <= 1:
                found.add((m + dm, t + dt, h + dh))
        for k in removed:
            c[k] += 1

    if c[i] >= 3:
        take((i, i, i), 1, 0, 0)
    if not honor and i + 2 < n and c[i + 1] and c[i + 2]:
        take((i, i + 1, i + 2), 1, 0, 0)
    if c[i] >= 2:
        take((i, i), 0, 0, 1)
        take((i, i), 0, 1, 0)
    if not honor:
        for gap in (1, 2):
            if i + gap < n and c[i + gap]:
                take((i, i + gap), 0, 1, 0)
    take((i,), 0, 0, 0)  # the tile at i as junk
    best = tuple(
        sorted(
            a
            for a in found
            if not any(b != a and b[0] >= a[0] and b[1] >= a[1] and b[2] >= a[2] for b in found)
        )
    )
    memo[(counts, honor)] = best
    return best


def _suit_key(counts: Sequence[int]) -> int:
    """A suit's counts as a base-5 number, rank 1 in the lowest digit (as
    :func:`paiju.mazhan.tables.suit_key`)."""
    key = 0
    for count in reversed(counts):
        key = key * 5 + count
    return key


def build_suit_tables() -> tuple[bytes, bytes, tuple[_Readings, ...]]:
    """Every suit's readings, from scratch (about a minute): the number-suit and honour
    tables (a reading's number by base-5 key, 255 outside them) and the readings.

    >>> number, honor, readings = build_suit_tables()  # doctest: +SKIP
    """
    memo: dict[tuple[bytes, bool], _Readings] = {}
    found: list[tuple[bool, int, _Readings]] = []
    for honor, ranks in ((False, 9), (True, 7)):
        for counts in itertools.product(range(5), repeat=ranks):
            if sum(counts) <= MAX_SUIT_TILES:
                found.append((honor, _suit_key(counts), _readings_of(bytes(counts), honor, memo)))
    readings = tuple(sorted({r for _h, _k, r in found}))
    if len(readings) >= _NONE:
        raise AssertionError(f"{len(readings)} readings do not fit a byte")
    number_of = {r: i for i, r in enumerate(readings)}
    number = bytearray([_NONE]) * _NUMBER_KEYS
    honour = bytearray([_NONE]) * _HONOR_KEYS
    for honor, key, r in found:
        (honour if honor else number)[key] = number_of[r]
    return bytes(number), bytes(honour), readings


def pack_suit_tables(number: bytes, honor: bytes, readings: Sequence[_Readings]) -> bytes:
    """The shipped file's bytes: a magic line, the SHA-256 of the body, the zlib body (the
    two tables, then each reading as its length and its triples).

    >>> blob = pack_suit_tables(b"\\0" * 5**9, b"\\0" * 5**7, [((0, 0, 0),)])
    >>> unpack_suit_tables(blob)[2]
    (((0, 0, 0),),)
    """
    flat = bytearray()
    for r in readings:
        flat.append(len(r))
        for triple in r:
            flat.extend(triple)
    return seal(_MAGIC, bytes(number) + bytes(honor) + bytes(flat))


def unpack_suit_tables(blob: bytes) -> tuple[bytes, bytes, tuple[_Readings, ...]] | None:
    """The tables in a shipped file's bytes, or None when they are damaged.

    >>> unpack_suit_tables(b"garbage") is None
    True
    """
    body = unseal(_MAGIC, blob)
    if body is None or len(body) < _NUMBER_KEYS + _HONOR_KEYS:
        return None
    rest = body[_NUMBER_KEYS + _HONOR_KEYS :]
    readings: list[_Readings] = []
    at = 0
    while at < len(rest):
        n = rest[at]
        triples = rest[at + 1 : at + 1 + 3 * n]
        readings.append(tuple(tuple(triples[3 * k : 3 * k + 3]) for k in range(n)))  # type: ignore[misc]
        at += 1 + 3 * n
    return body[:_NUMBER_KEYS], body[_NUMBER_KEYS : _NUMBER_KEYS + _HONOR_KEYS], tuple(readings)


@cache
def _tables() -> tuple[bytes, bytes, tuple[_Readings, ...]]:
    """The shipped tables; when the file cannot be read or is damaged, a warning says so
    and they are built afresh (about a minute: the answers are the same, only slower to
    start)."""
    try:
        blob = resources.files("paiju.mazhan").joinpath("data", _DATA_FILE).read_bytes()
    except OSError as e:  # missing, unreadable: a broken install
        blob, why = b"", f"cannot be read ({e.__class__.__name__}: {e})"
    else:
        why = "is damaged"
    unpacked = unpack_suit_tables(blob)
    if unpacked is not None:
        return unpacked
    warnings.warn(
        f"paiju.mazhan: the shanten table data/{_DATA_FILE} {why}; building it afresh "
        "(about a minute). Reinstall paiju, or run scripts/build_tables.py.",
        RuntimeWarning,
        stacklevel=2,
    )
    return build_suit_tables()


_NUMBER, _HONOR, _READINGS = _tables()  # at import: a fresh process reads any suit at once
_N_READINGS = len(_READINGS)
#: the readings of suits outside the tables (a fifth copy: never in a real hand), by
#: recursion, numbered after the shipped ones
_EXTRA: list[_Readings] = []
_EXTRA_MEMO: dict[tuple[bytes, bool], _Readings] = {}


def _suit(counts: bytes, honor: bool) -> int:
    """The number of one suit's readings (:data:`_READINGS`, then :data:`_EXTRA`), kept."""
    kept = _HONOUR_SUITS if honor else _NUMBER_SUITS
    number = kept.get(counts)
    if number is None:
        number = _read_suit(counts, honor)
        if len(kept) >= _SUIT_SIZE:
            kept.clear()
        kept[counts] = number
    return number


def _in_tables(counts: bytes, more: int = 0) -> bool:
    """True when the suit of ``counts``, with ``more`` tiles added, is one the shipped tables
    hold: at most four of a face, at most :data:`MAX_SUIT_TILES` tiles.

    >>> _in_tables(bytes([4, 4, 4, 4, 1, 0, 0, 0, 0])), _in_tables(bytes([5, 0, 0]))
    (True, False)
    """
    return max(counts) <= 4 and sum(counts) + more <= MAX_SUIT_TILES


def _read_suit(counts: bytes, honor: bool) -> int:
    if _in_tables(counts):
        return (_HONOR if honor else _NUMBER)[_suit_key(counts)]
    if len(_EXTRA_MEMO) > _EXTRA_SIZE:
        _EXTRA_MEMO.clear()
    r = _readings_of(counts, honor, _EXTRA_MEMO)
    if r in _READINGS:
        return _READINGS.index(r)
    if r not in _EXTRA:
        _EXTRA.append(r)
    return _N_READINGS + _EXTRA.index(r)


def _readings(number: int) -> _Readings:
    return _READINGS[number] if number < _N_READINGS else _EXTRA[number - _N_READINGS]


def shanten(counts: Sequence[int], melds: int = 0, wilds: int = 0) -> int:
    """Shanten of natural tiles (34 counts) plus ``wilds`` ★ beside ``melds`` declared sets.

    >>> c = [0] * 34
    >>> c[0] = c[4] = c[8] = c[33] = 1  # 1m 5m 9m 中 beside four melds: nothing joins
    >>> shanten(c, melds=4), shanten(c, melds=4, wilds=2), shanten(c, melds=4, wilds=3)
    (2, 0, -1)
    """
    need = 5 - melds
    key = bytes(counts)
    known = _BEST.get(need)
    if known is None:
        known = _BEST[need] = {}
    best = known.get(key)
    if best is None:
        if len(key) != 34:
            raise ValueError(f"shanten counts 34 faces, not {len(key)}")
        best = _best(key, need)
        if len(known) >= _BEST_SIZE:
            known.clear()
        known[key] = best
    return max(-1, best - wilds)


#: :func:`_best` by the number of sets to make, then by the 34 counts as bytes (kept: a bot
#: asks about the same few hands again and again, a tile more or less). Bytes keys and int
#: values leave the tables out of the garbage collector's walks, where a cache keyed by
#: tuples added two tracked objects per new hand: a server's bots ask about tens of
#: thousands of new hands a second. A table is emptied when it reaches :data:`_BEST_SIZE`
#: (a bot's asks are about the hands of the hand being played: older ones are seldom asked
#: again).
_BEST: dict[int, dict[bytes, int]] = {}
_BEST_SIZE = 1 << 14
#: :func:`_combine`'s answers by the four suits' reading numbers and the sets to make, one
#: int (emptied when it reaches :data:`_COMBINE_SIZE`)
_COMBINED: dict[int, int] = {}
_COMBINE_SIZE = 1 << 16
#: each suit's reading number by its counts (a dict look-up is cheaper than the table's
#: base-5 key), number suits and honours, each emptied when it reaches this size
_NUMBER_SUITS: dict[bytes, int] = {}
_HONOUR_SUITS: dict[bytes, int] = {}
_SUIT_SIZE = 1 << 15
#: suits read by recursion (outside the shipped tables), kept up to this many
_EXTRA_SIZE = 1 << 12


def _best(c: bytes, need: int) -> int:
    """Shanten before ★ of these counts, ``need`` sets to make."""
    kept = _NUMBER_SUITS
    a = kept.get(c[0:9])
    if a is None:
        a = _suit(c[0:9], False)
    b = kept.get(c[9:18])
    if b is None:
        b = _suit(c[9:18], False)
    d = kept.get(c[18:27])
    if d is None:
        d = _suit(c[18:27], False)
    h = _HONOUR_SUITS.get(c[27:34])
    if h is None:
        h = _suit(c[27:34], True)
    return _combined(a, b, d, h, need)


def _combined(a: int, b: int, d: int, h: int, need: int) -> int:
    """:func:`_combine` of the suits with these reading numbers, kept."""
    key = (((a << 10 | b) << 10 | d) << 10 | h) << 5 | (need & 31)
    best = _COMBINED.get(key)
    if best is None:
        best = _combine(_readings(a), _readings(b), _readings(d), _readings(h), need)
        if len(_COMBINED) >= _COMBINE_SIZE:
            _COMBINED.clear()
        _COMBINED[key] = best
    return best


def shanten_each_plus(
    counts: Sequence[int], faces: Sequence[int], melds: int = 0, wilds: int = 0
) -> list[int]:
    """The shanten of ``counts`` with one more tile of each face of ``faces`` (one at a
    time): ``[shanten(counts + f) for f in faces]``, the unchanged suits read once (a bot's
    acceptance asks this of every tile that could come).

    >>> c = [0] * 34
    >>> for i in (0, 1, 9, 10, 18, 19, 27, 27, 28, 28, 30, 31, 32): c[i] += 1
    >>> shanten_each_plus(c, [2, 29, 27], melds=1)
    [2, 3, 2]
    >>> [shanten(c[:f] + [c[f] + 1] + c[f + 1:], melds=1) for f in (2, 29, 27)]
    [2, 3, 2]

    Raises ``ValueError`` for counts of other than 34 faces, or a face outside 0–33.
    """
    key = bytes(counts)
    if len(key) != 34:
        raise ValueError(f"shanten counts 34 faces, not {len(key)}")
    if faces and (min(faces) < 0 or max(faces) > 33):  # once a call: a bot asks ~15 a turn
        raise ValueError(f"a face is 0–33, got {[f for f in faces if not 0 <= f <= 33]}")
    need = 5 - melds
    suits = (key[0:9], key[9:18], key[18:27], key[27:34])
    numbers = [_suit(suits[0], False), _suit(suits[1], False), _suit(suits[2], False)]
    numbers.append(_suit(suits[3], True))
    # a suit with one more tile is read from the tables by its key plus that tile's digit
    # (what _suit does, without making the suit's bytes): ``bases`` holds the key of each
    # suit that can take one more tile inside the tables, else -1; a fifth copy, or more
    # tiles than the tables hold, is read the slow way
    bases = [_suit_key(suit) if _in_tables(suit, 1) else -1 for suit in suits]
    out = []
    for f in faces:
        s, lo, step, table = _PLACE[f]
        if key[f] < 4 and bases[s] >= 0:
            n = table[bases[s] + step]
        else:
            part = bytearray(suits[s])
            part[f - lo] += 1
            n = _suit(bytes(part), s == 3)
        one = list(numbers)
        one[s] = n
        out.append(max(-1, _combined(one[0], one[1], one[2], one[3], need) - wilds))
    return out


#: ``_PLACE[f]``: face ``f``'s suit, the suit's first face, ``f``'s digit in the suit's key and
#: the suit's table
_PLACE = tuple(
    (
        3 if f >= 27 else f // 9,
        f - f % 9 if f < 27 else 27,
        5 ** (f % 9 if f < 27 else f - 27),
        _HONOR if f >= 27 else _NUMBER,
    )
    for f in range(34)
)


def _combine(ra: _Readings, rb: _Readings, rc: _Readings, rd: _Readings, need: int) -> int:
    """The best shanten before ★ over one reading per suit."""
    # The value falls (or stays) as sets, partial sets or the head grow, so only the
    # Pareto-best sums of two suits matter (partial sets capped at ``need``, the head at 1):
    # merge the suits pairwise, dropping dominated sums, then take the best.
    ab = _merge(ra, rb, need)
    abc = _merge(ab, rc, need)
    best = 99
    for m0, t0, h0 in abc:
        for m1, t1, h1 in rd:
            m = m0 + m1
            head = min(1, h0 + h1)
            t = min(t0 + t1, max(0, need - m))
            best = min(best, 2 * (need - m) - t - head)
    return best


def _merge(x: _Readings, y: _Readings, need: int) -> _Readings:
    sums = {(a[0] + b[0], min(need, a[1] + b[1]), min(1, a[2] + b[2])) for a in x for b in y}
    if len(sums) <= 2:
        return tuple(sums)
    # keep the sums no other is at least as good as in all three: from the most sets down,
    # a sum is dominated only by one kept before it (as many sets or more)
    kept: list[tuple[int, int, int]] = []
    for a in sorted(sums, reverse=True):
        _, t, h = a
        for b in kept:
            if b[1] >= t and b[2] >= h:
                break
        else:
            kept.append(a)
    return tuple(kept)
