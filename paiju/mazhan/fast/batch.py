"""Batch complete-hand checks over many hands at once, with NumPy gathers on the same
tables as :func:`paiju.mazhan.hand.is_complete_keys`.

>>> import numpy as np
>>> counts = np.zeros((2, 34), dtype=np.uint8)
>>> counts[:, 0:9] = [3, 1, 1, 1, 2, 1, 1, 1, 3]   # 11123455678999m
>>> counts[1, 27] = 1                             # + 1z: fifteen tiles, not 3n + 2
>>> is_complete_counts_batch(counts, np.array([0, 0])).tolist()
[True, False]
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from paiju.mazhan.tables import need_tables

__all__ = ["is_complete_batch", "is_complete_counts_batch", "suit_keys_batch"]

_POW5 = (5 ** np.arange(9)).astype(np.int32)


@cache
def _arrays() -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8], int]:
    t = need_tables()
    number = np.frombuffer(t.dense_number, dtype=np.uint8)
    honor = np.frombuffer(t.dense_honor, dtype=np.uint8)
    ok = np.stack([np.frombuffer(o, dtype=np.uint8) for o in t.ok])
    return number, honor, ok, len(t.codes)


def suit_keys_batch(counts: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Base-5 suit keys, shape ``(n, 4)``, of 34-count rows (萬 筒 索 字).

    >>> suit_keys_batch([[1, 1, 1] + [0] * 24 + [2] + [0] * 6]).tolist()
    [[31, 0, 0, 2]]
    """
    c = np.asarray(counts, dtype=np.int32)
    if c.ndim != 2 or c.shape[1] != 34:
        raise ValueError(f"expected counts of shape (n, 34), got {c.shape}")
    keys = np.empty((c.shape[0], 4), dtype=np.int32)
    keys[:, 0] = c[:, 0:9] @ _POW5
    keys[:, 1] = c[:, 9:18] @ _POW5
    keys[:, 2] = c[:, 18:27] @ _POW5
    keys[:, 3] = c[:, 27:34] @ _POW5[:7]
    return keys


def is_complete_batch(keys: npt.ArrayLike, wilds: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Complete-hand checks for rows of suit keys and ★ counts (0–3); tiles must be 3n + 2.

    >>> is_complete_batch([[31, 0, 0, 2], [31, 0, 0, 1]], [0, 1]).tolist()
    [True, True]
    """
    number, honor, ok, k = _arrays()
    kk = np.asarray(keys, dtype=np.intp)
    w = np.asarray(wilds, dtype=np.intp)
    idx = number[kk[:, 0]].astype(np.intp)
    idx *= k
    idx += number[kk[:, 1]]
    idx *= k
    idx += number[kk[:, 2]]
    idx *= k
    idx += honor[kk[:, 3]]
    result: npt.NDArray[np.bool_] = ok[w, idx].astype(np.bool_)
    return result


def is_complete_counts_batch(counts: npt.ArrayLike, wilds: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """Complete-hand checks for 34-count rows of natural tiles plus ★ counts (0–3).

    >>> is_complete_counts_batch([[2] + [0] * 33], [0]).tolist()
    [True]
    """
    c = np.asarray(counts)
    w = np.asarray(wilds)
    sizes = c.sum(axis=1) + w
    result: npt.NDArray[np.bool_] = is_complete_batch(suit_keys_batch(c), w) & (sizes % 3 == 2)
    return result
