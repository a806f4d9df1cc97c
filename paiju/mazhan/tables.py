"""Precomputed complete-hand tables: how many ★ each suit needs, keyed by its count vector.

A suit's *key* is its count vector read as a base-5 number, rank 1 in the lowest digit
(``suit_key([2, 0, 1]) == 2 + 1 * 25``). For every key the table stores two needs: how many
wild tiles turn the suit's tiles into sets only (``need0``), and into sets plus the pair
(``need1``); 4 stands for "more than three", which no Mazhan hand has. A hand is complete
with ``w`` wilds when the smallest total need, with the pair in one suit (or made of two
wilds), equals ``w`` (or is 0 when ``w`` is 3: the three wilds then make a set of their own).

The tables (5**9 bytes for a number suit, 5**7 for the honours) take a few seconds to build in
pure Python, so they ship with the package as ``data/suit_need.bin`` (zlib) and are built
again only by ``scripts/build_tables.py`` (``make tables``); a test checks that the
shipped file equals a fresh build. A ★ may read as any face, even a fifth copy (see
``docs/rules-decisions.md``).

>>> t = need_tables()
>>> needs = t.number[suit_key([1, 1, 1, 0, 0, 0, 0, 0, 0])]  # 123: a chow
>>> divmod(needs, 5)  # (need0, need1): complete as it is; the pair needs two wilds
(0, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from paiju.kit.sealed import seal, unseal

__all__ = [
    "IMPOSSIBLE",
    "NeedTables",
    "build_tables",
    "need_tables",
    "pack_tables",
    "suit_key",
    "unpack_tables",
]

#: A need of 4 or more: no Mazhan hand can meet it (there are only three ★).
IMPOSSIBLE = 4
_MAGIC = b"PAIJU-MAZHAN-NEED-1\n"
_DATA_FILE = "suit_need.bin"
NUMBER_KEYS = 5**9
HONOR_KEYS = 5**7
#: Honour ranks that can form sets: the winds, 發 and 中 (白 is a bonus tile, never in a hand).
_HONOR_SET_RANKS = (0, 1, 2, 3, 5, 6)


def suit_key(counts: Sequence[int]) -> int:
    """The base-5 key of one suit's counts, rank 1 in the lowest digit.

    >>> suit_key([0, 2, 0, 0, 0, 0, 0, 0, 1])
    390635
    """
    key = 0
    for count in reversed(counts):
        key = key * 5 + count
    return key


def _generate(ranks: int, set_ranks: Sequence[int], chows: bool) -> bytearray:
    """Build one suit's table by removing up to three tiles from every complete pattern."""
    bits = 5  # five bits a digit while generating, so that sums never carry
    mask = (1 << bits) - 1
    shapes = [3 << (bits * r) for r in set_ranks]
    if chows:
        shapes += [(1 << (bits * r)) * 0b10000100001 for r in range(ranks - 2)]
    pairs = [2 << (bits * r) for r in set_ranks]

    def excess(v: int) -> int:
        over = 0
        for r in range(ranks):
            digit = (v >> (bits * r)) & mask
            if digit > 4:
                over += digit - 4
        return over

    table = bytearray(bytes([IMPOSSIBLE * 5 + IMPOSSIBLE]) * (5**ranks))
    for with_pair in (False, True):
        complete: set[int] = set()
        for n in range(6):
            for combo in itertools.combinations_with_replacement(shapes, n):
                total = sum(combo)
                for pair in pairs if with_pair else (0,):
                    # Readings may use a face more than four times, but only with ★ (≤ 3).
                    if excess(total + pair) <= 3:
                        complete.add(total + pair)
        seen: set[int] = set()
        frontier = complete
        for need in range(4):
            following: set[int] = set()
            for v in frontier:
                if v in seen:
                    continue
                seen.add(v)
                if excess(v) == 0:
                    key = 0
                    for r in reversed(range(ranks)):
                        key = key * 5 + ((v >> (bits * r)) & mask)
                    n0, n1 = divmod(table[key], 5)
                    if with_pair and need < n1:
                        table[key] = n0 * 5 + need
                    elif not with_pair and need < n0:
                        table[key] = need * 5 + n1
                if need < 3:
                    for r in range(ranks):
                        if (v >> (bits * r)) & mask:
                            following.add(v - (1 << (bits * r)))
            frontier = following
    return table


@dataclass(frozen=True, slots=True)
class NeedTables:
    """The loaded tables.

    ``number`` and ``honor`` map a suit key to ``need0 * 5 + need1``; ``dense_number`` and
    ``dense_honor`` map it to a small code, and ``ok[w][code_m*K³ + code_p*K² + code_s*K +
    code_z]`` is 1 when the hand is complete with ``w`` wilds (``K = len(codes)``).

    >>> t = need_tables()
    >>> len(t.number) == 5**9 and len(t.honor) == 5**7
    True
    """

    number: bytes
    honor: bytes
    codes: tuple[tuple[int, int], ...]
    dense_number: bytes
    dense_honor: bytes
    ok: tuple[bytes, bytes, bytes, bytes]

    @property
    def impossible_code(self) -> int:
        """The dense code of a suit that no three wilds can complete.

        >>> t = need_tables()
        >>> t.codes[t.impossible_code]
        (4, 4)
        """
        return self.codes.index((IMPOSSIBLE, IMPOSSIBLE))


def build_tables() -> tuple[bytes, bytes]:
    """Build the number-suit and honour tables from scratch (a few seconds).

    >>> number, honor = build_tables()  # doctest: +SKIP
    """
    number = _generate(9, range(9), chows=True)
    honor = _generate(7, _HONOR_SET_RANKS, chows=False)
    return bytes(number), bytes(honor)


def pack_tables(number: bytes, honor: bytes) -> bytes:
    """The shipped file's bytes: a magic line, the SHA-256 of the tables, the zlib body.

    >>> unpack_tables(pack_tables(b"a" * 5**9, b"b" * 5**7)) == (b"a" * 5**9, b"b" * 5**7)
    True
    """
    return seal(_MAGIC, number + honor)


def unpack_tables(blob: bytes) -> tuple[bytes, bytes] | None:
    """The tables in a shipped file's bytes, or None when they are damaged.

    >>> unpack_tables(b"garbage") is None
    True
    """
    body = unseal(_MAGIC, blob)
    if body is None or len(body) != NUMBER_KEYS + HONOR_KEYS:
        return None
    return body[:NUMBER_KEYS], body[NUMBER_KEYS:]


def _combine(codes: Sequence[tuple[int, int]]) -> tuple[bytes, bytes, bytes, bytes]:
    k = len(codes)
    ok = [bytearray(k**4) for _ in range(4)]
    for idx, quad in enumerate(itertools.product(codes, repeat=4)):
        n0 = sum(q[0] for q in quad)
        need = n0 + 2  # the pair made of two wilds
        for a0, a1 in quad:
            need = min(need, n0 - a0 + a1)
        for w in range(4):
            if need == w or (w == 3 and need == 0):
                ok[w][idx] = 1
    return bytes(ok[0]), bytes(ok[1]), bytes(ok[2]), bytes(ok[3])


@cache
def need_tables() -> NeedTables:
    """The complete-hand tables, loaded once from the package (built afresh if it is damaged).

    >>> need_tables() is need_tables()
    True
    """
    blob = resources.files("paiju.mazhan").joinpath("data", _DATA_FILE).read_bytes()
    unpacked = unpack_tables(blob)
    number, honor = unpacked if unpacked is not None else build_tables()
    raw = sorted(set(number) | set(honor) | {IMPOSSIBLE * 5 + IMPOSSIBLE})
    codes = tuple(divmod(v, 5) for v in raw)
    translate = bytes.maketrans(bytes(raw), bytes(range(len(raw))))
    return NeedTables(
        number=number,
        honor=honor,
        codes=codes,
        dense_number=number.translate(translate),
        dense_honor=honor.translate(translate),
        ok=_combine(codes),
    )
