"""Written positions (what FEN is to chess): each core writes a hand as one line, the game's
word then ``key=value`` fields; this reads the fields and names what is wrong.

>>> position_fields("tiles v=3 act=E", "tiles", "Tiles", ("v", "act"))
{'v': '3', 'act': 'E'}
"""

from __future__ import annotations

from collections.abc import Sequence

from paiju.errors import InvalidPositionError

__all__ = ["bad_position", "position_fields"]


def bad_position(message: str) -> InvalidPositionError:
    """The error for a position: ``message`` after ``position:``.

    >>> str(bad_position("v: not a number"))
    'position: v: not a number'
    """
    return InvalidPositionError(f"position: {message}")


def position_fields(
    text: str, word: str, title: str, order: Sequence[str], required: Sequence[str] = ()
) -> dict[str, str]:
    """The fields of a position that starts with ``word`` (the game's, ``title`` in
    messages), each at most once, each among ``order``; those in ``required`` present.

    >>> position_fields("cards v=0", "cards", "Cards", ("v", "banker"), ("v", "banker"))
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: missing field 'banker'
    >>> position_fields("tiles v=0 v=1", "tiles", "Tiles", ("v",))
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: field 'v' appears twice

    Raises :class:`~paiju.errors.InvalidPositionError` naming the field and the problem.
    """
    if not isinstance(text, str):
        raise bad_position(f"expected a position string, got {type(text).__name__}")
    words = text.split()
    if not words or words[0] != word:
        raise bad_position(f"a {title} position starts with the word {word!r}")
    out: dict[str, str] = {}
    for item in words[1:]:
        key, sep, value = item.partition("=")
        if not sep or not value:
            raise bad_position(f"{item!r} is not a key=value field")
        if key not in order:
            raise bad_position(f"unknown field {key!r} (fields: {', '.join(order)})")
        if key in out:
            raise bad_position(f"field {key!r} appears twice")
        out[key] = value
    for key in required:
        if key not in out:
            raise bad_position(f"missing field {key!r}")
    return out
