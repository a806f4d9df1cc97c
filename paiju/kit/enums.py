"""Enum bases the cores share: members hashed by identity (:class:`FastEnum`), members
written by a code that also carry a Chinese name (:class:`NamedEnum`), and the suits of a
notation, each with its size and the index of its first face (:class:`SuitEnum`).

>>> class Kind(NamedEnum):
...     PUNG = "pung", "刻"
...     PAIR = "pair", "將"
>>> Kind("pair"), Kind.PUNG.name_zh, Kind.PUNG in {Kind.PUNG}
(<Kind.PAIR: 'pair'>, '刻', True)
"""

from __future__ import annotations

from enum import Enum
from typing import Self

__all__ = ["FastEnum", "NamedEnum", "SuitEnum"]


class FastEnum(Enum):
    """An enum whose members are equal only to themselves and hash by identity: the C-level
    hash of :class:`object`, faster in sets and as dict keys than :class:`~enum.Enum`'s own
    (which hashes the member's name).

    >>> class Phase(FastEnum):
    ...     OVER = "over"
    >>> {Phase.OVER: 1}[Phase("over")]
    1
    """

    __hash__ = object.__hash__


class NamedEnum(FastEnum):
    """A :class:`FastEnum` whose members are declared ``NAME = "code", "中文"``: the value is
    the code (what the notation and JSON write), ``name_zh`` the Chinese name.

    >>> class Kind(NamedEnum):
    ...     FA = "fa", "發"
    >>> Kind.FA.value, Kind.FA.name_zh
    ('fa', '發')
    """

    _value_: str
    #: The member's Chinese name.
    name_zh: str

    def __new__(cls, code: str, name_zh: str = "") -> Self:
        member = object.__new__(cls)
        member._value_ = code
        member.name_zh = name_zh
        return member

    @property
    def value(self) -> str:
        """The member's code (typed, and read faster than :class:`~enum.Enum`'s own).

        >>> class Kind(NamedEnum):
        ...     MIE = "mie", "滅"
        >>> Kind.MIE.value
        'mie'
        """
        return self._value_


class SuitEnum(NamedEnum):
    """The suits of a notation, members declared ``NAME = "letter", "中文", size`` in order:
    ``size`` is how many faces the suit has, ``offset`` the index of its first face (the
    sizes of the suits before it, added up).

    >>> class Suit(SuitEnum):
    ...     WAN = "m", "萬字", 9
    ...     WEN = "c", "文錢", 11
    >>> Suit("c").name_zh, Suit.WEN.size, Suit.WEN.offset
    ('文錢', 11, 9)
    """

    #: How many faces the suit has.
    size: int
    #: The index of the suit's first face.
    offset: int

    def __new__(cls, code: str, name_zh: str = "", size: int = 0) -> Self:
        member = object.__new__(cls)
        member._value_ = code
        member.name_zh = name_zh
        member.size = size
        member.offset = sum(s.size for s in cls.__members__.values())
        return member
