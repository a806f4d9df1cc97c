"""Written positions (what FEN is to chess): each core writes a hand as one line, the game's
word then ``key=value`` fields; this reads the fields and names what is wrong, and gives a
core's state its position methods (:class:`PositionState`).

>>> position_fields("tiles v=3 act=E", "tiles", "Tiles", ("v", "act"))
{'v': '3', 'act': 'E'}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any, ClassVar, Self, TypeVar, cast

from paiju.errors import InvalidPositionError, NotationError

__all__ = ["PositionState", "bad_position", "position_fields", "position_list"]

T = TypeVar("T")


class PositionState:
    """A core's hand state as a written position: the ``State`` of a core subclasses it,
    names the module that writes and reads its positions (its ``to_position`` and
    ``from_position``) in ``_position_module``, and gives in ``_key`` what a position holds:
    two states are equal when their positions are (states are not hashable).

    >>> import sys, types
    >>> sys.modules["coin_position"] = types.SimpleNamespace(
    ...     to_position=lambda coin: f"coin side={coin.side}",
    ...     from_position=lambda text: Coin(text.partition("=")[2]))
    >>> class Coin(PositionState):
    ...     _position_module = "coin_position"
    ...     def __init__(self, side: str) -> None:
    ...         self.side = side
    ...     def _key(self) -> tuple[str]:
    ...         return (self.side,)
    >>> Coin.from_position("coin side=heads") == Coin("heads"), Coin("tails").to_position()
    (True, 'coin side=tails')
    >>> del sys.modules["coin_position"]
    """

    __slots__ = ()
    _position_module: ClassVar[str]

    @classmethod
    def from_position(cls, text: str) -> Self:
        """The state of a written position, checked: the public way to build a state at any
        moment of a hand (the core's ``position`` module says how one is written).

        Raises :class:`~paiju.errors.InvalidPositionError` naming the field and the problem.
        """
        return cast(Self, import_module(cls._position_module).from_position(text))

    def to_position(self) -> str:
        """This state written down as a position (the core's ``position`` module)."""
        return cast(str, import_module(self._position_module).to_position(self))

    def _key(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]


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


def position_list(value: str, field: str, parse: Callable[[str], list[T]]) -> list[T]:
    """The pieces (tiles, cards) a field lists in the notation ``parse`` reads; ``-`` is
    none.

    >>> position_list("-", "wall", str.split), position_list("a b", "wall", str.split)
    ([], ['a', 'b'])

    Raises :class:`~paiju.errors.InvalidPositionError` (naming ``field``) for a
    :class:`~paiju.errors.NotationError` of ``parse``.
    """
    if value == "-":
        return []
    try:
        return parse(value)
    except NotationError as err:
        raise bad_position(f"{field}: {err}") from None
