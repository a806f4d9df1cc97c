"""The rooms (the table rules, §10): who may sit, which game, what an escape costs, the bots.

Each game's registration names its rooms: the room's name (a game's first room is named
like the game), its title, the minimum balance to sit, and the escape's multiple of 底注
(as the game's rules set it, or paiju's choice where they set none: docs/rules-decisions.md).

Bots fill empty seats at one of three levels (:data:`LEVELS`): ``easy``, ``normal`` (the
rooms' default) and ``hard``; a player's table of their own may name its level.

Both come from the games' registrations: each game's room kinds from
:func:`paiju.games.register`, its bot per level from :func:`paiju.bots.registry.register_bots`;
:data:`ROOMS` and :data:`LEVELS` read them at every look-up, so a game registered later has
its rooms too.

>>> room = ROOMS[names()[0]]
>>> room.game == names()[0], room.min_balance > 0, room.escape_multiple > 0
(True, True, True)
>>> bot_for(room.game, "normal") == LEVELS[room.game]["normal"]
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from paiju.bots.registry import bots_of, registered
from paiju.games import names, registration

__all__ = ["LEVELS", "LEVEL_NAMES", "ROOMS", "Room", "bot_display_name", "bot_for"]


class _Levels(Mapping[str, Mapping[str, str]]):
    """The bot playing each level of each game, as the games registered them."""

    def __getitem__(self, game: str) -> Mapping[str, str]:
        if game not in registered():
            raise KeyError(game)
        return bots_of(game).levels

    def __iter__(self) -> Iterator[str]:
        return iter(registered())

    def __len__(self) -> int:
        return len(registered())


#: The bot playing each level of each game (``hard`` searches for up to 200 ms a decision).
LEVELS: Mapping[str, Mapping[str, str]] = _Levels()

#: How a bot's name shows its level at the table.
LEVEL_NAMES = {"easy": "初級", "normal": "中級", "hard": "高級"}


def bot_display_name(name: str, level: str) -> str:
    """A bot's name at the table, with its level.

    >>> bot_display_name("春風", "hard")
    '春風（高級）'
    """
    return f"{name}（{LEVEL_NAMES.get(level, level)}）"


def bot_for(game: str, level: str) -> str:
    """The bot that plays ``level`` in ``game``.

    >>> bot_for(names()[0], "normal") == LEVELS[names()[0]]["normal"]
    True
    >>> bot_for(names()[0], "godlike")
    Traceback (most recent call last):
    ...
    ValueError: unknown level 'godlike' (choose from easy, normal, hard)
    >>> bot_for("chess", "normal")
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'chess'

    Raises ``ValueError`` for an unknown game or level.
    """
    levels = LEVELS.get(game)
    if levels is None:
        raise ValueError(f"unknown game {game!r}")
    if level not in levels:
        raise ValueError(f"unknown level {level!r} (choose from {', '.join(levels)})")
    return levels[level]


@dataclass(frozen=True, slots=True)
class Room:
    """A room's rules.

    >>> ROOMS[names()[-1]].to_json()["game"] == names()[-1]
    True
    """

    name: str
    game: str
    title: str
    min_balance: int
    escape_multiple: int
    bots: bool = True
    level: str = "normal"

    def to_json(self) -> dict[str, Any]:
        """The room as the lobby lists it.

        >>> ROOMS[names()[0]].to_json()["seats"]
        4
        """
        return {
            "name": self.name,
            "game": self.game,
            "title": self.title,
            "min_balance": self.min_balance,
            "seats": 4,
            "escape_multiple": self.escape_multiple,
            "bots": self.bots,
            "level": self.level,
        }


_built: tuple[tuple[object, ...], dict[str, Room]] = ((), {})


def _rooms() -> dict[str, Room]:
    global _built
    entries = tuple(registration(name) for name in names())
    if entries != _built[0]:
        _built = (entries, _build(entries))
    return _built[1]


def _build(entries: tuple[Any, ...]) -> dict[str, Room]:
    return {
        kind.name: Room(kind.name, e.game.name, kind.title, kind.min_balance, kind.escape_multiple)
        for e in entries
        for kind in e.rooms
    }


class _Rooms(Mapping[str, Room]):
    """The rooms of every registered game, in the games' order, each game's in its own."""

    def __getitem__(self, name: str) -> Room:
        return _rooms()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_rooms())

    def __len__(self) -> int:
        return len(_rooms())


#: The rooms by name, as the games' registrations name them (and those of any game
#: registered later).
ROOMS: Mapping[str, Room] = _Rooms()
