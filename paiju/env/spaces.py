"""The environments' Gymnasium spaces, built once per shape and shared.

A ``Box`` holds four arrays as large as its shape (``low``, ``high`` and the two
``bounded_*`` masks): for a flat observation of 1,264 values and a centralised critic's state
of 5,000-odd, 64 kB per environment, when every environment of one configuration has the
same bounds. The arrays are made once per shape here, read-only, and each environment gets
its own light ``Box`` over them (a shallow copy: a few hundred bytes), so that seeding or
sampling one environment's space leaves every other one's alone (PettingZoo's seed test
samples two environments' spaces in turn).

>>> a, b = box((3,), np.float32), box((3,), np.float32)
>>> a is b, a.low is b.low, a.low.flags.writeable
(False, True, False)
>>> _ = a.seed(1); b.np_random is a.np_random
False
"""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np
from gymnasium import spaces

__all__ = ["box", "discrete", "observation_dict"]


@functools.cache
def _template(shape: tuple[int, ...], dtype: str, low: float, high: float) -> spaces.Box:
    """The shared ``Box`` of this shape, dtype and bounds, its arrays read-only (never
    seeded or sampled itself: only its copies are given out)."""
    made = spaces.Box(low, high, shape, np.dtype(dtype))
    for array in (made.low, made.high, made.bounded_below, made.bounded_above):
        array.setflags(write=False)
    return made


def box(
    shape: tuple[int, ...], dtype: Any, low: float = -np.inf, high: float = np.inf
) -> spaces.Box:
    """A ``Box(low, high, shape, dtype)`` of its own (its own sampler) over arrays shared by
    every box of the same shape, dtype and bounds (read-only: a space is not to be changed).

    >>> s = box((2, 2), np.int8, 0, 1)
    >>> s.shape, s.dtype.name, s.contains(np.ones((2, 2), np.int8))
    ((2, 2), 'int8', True)
    >>> s.high[0, 0] = 5
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    """
    shared = _template(tuple(shape), np.dtype(dtype).name, float(low), float(high))
    own: spaces.Box = copy.copy(shared)
    own.__dict__["_np_random"] = None  # its own sampler, made when first used
    return own


def discrete(n: int) -> spaces.Discrete:
    """``Discrete(n)`` (small: made for each environment, with its own sampler).

    >>> discrete(128).n
    np.int64(128)
    """
    return spaces.Discrete(n)


def observation_dict(obs_shape: tuple[int, ...], n_actions: int) -> spaces.Dict:
    """The AEC and parallel environments' observation space: ``{"observation": float32 box,
    "action_mask": int8 0/1 vector}``, over shared arrays.

    >>> d = observation_dict((5,), 3)
    >>> d["observation"].shape, d["action_mask"].dtype.name
    ((5,), 'int8')
    """
    parts: dict[str, Any] = {
        "observation": box(obs_shape, np.float32),
        "action_mask": box((n_actions,), np.int8, 0, 1),
    }
    return spaces.Dict(parts)
