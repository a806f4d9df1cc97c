"""Checks on what a person typed (a hand's JSON fields), shared by both cores.

>>> exactly_one(["5m"], "wild", "tile", "'5m'")
'5m'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from paiju.errors import InvalidHandError

__all__ = ["exactly_one"]

T = TypeVar("T")


def exactly_one(found: Sequence[T], field: str, noun: str, shown: str) -> T:
    """The one piece (tile, card) read from ``field``; ``shown`` is what was written, as the
    message quotes it.

    >>> exactly_one([], "wild", "tile", "''")
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidHandError: wild: expected one tile, got ''
    >>> try:
    ...     exactly_one(["9m", "8m"], "captured", "card", "'98m'")
    ... except InvalidHandError as err:
    ...     print(err.detail())
    {'why': 'one_card', 'field': 'captured', 'params': {'n': 2}}

    Raises :class:`~paiju.errors.InvalidHandError` (``why``: ``one_<noun>`` for several,
    ``no_<noun>`` for none; ``n``, how many).
    """
    if len(found) != 1:
        raise InvalidHandError(
            f"{field}: expected one {noun}, got {shown}",
            why=f"one_{noun}" if found else f"no_{noun}",
            field=field,
            n=len(found),
        )
    return found[0]
