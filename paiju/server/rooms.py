"""The rooms (Mazhan rules §10): who may sit, which game, what an escape costs, the bots.

| room | game | minimum balance | escape |
|---|---|---|---|
| ``mazhan`` | Mazhan | 800 | 400 × 底注 (the rules) |
| ``mazhan-vip`` | Mazhan | 1,000,000 | 400 × 底注 |
| ``madiao`` | Ma Diao | 800 | 40 × 底注 (paiju's choice, see docs/rules-decisions.md) |

Bots fill empty seats at one of three levels (:data:`LEVELS`): ``easy``, ``normal`` (the
rooms' default) and ``hard``; a player's table of their own may name its level.

>>> ROOMS["mazhan-vip"].min_balance
1000000
>>> bot_for("madiao", "normal")
'heuristic'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["LEVELS", "LEVEL_NAMES", "ROOMS", "Room", "bot_display_name", "bot_for"]

#: The bot playing each level of each game (``hard`` searches for up to 200 ms a decision).
LEVELS: dict[str, dict[str, str]] = {
    "mazhan": {"easy": "greedy", "normal": "strong", "hard": "expert@200ms"},
    "madiao": {"easy": "heuristic", "normal": "heuristic", "hard": "expert@200ms"},
}

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

    >>> bot_for("mazhan", "normal")
    'strong'
    >>> bot_for("mazhan", "godlike")
    Traceback (most recent call last):
    ...
    ValueError: unknown level 'godlike' (choose from easy, normal, hard)

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

    >>> ROOMS["madiao"].to_json()["game"]
    'madiao'
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

        >>> ROOMS["mazhan"].to_json()["seats"]
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


ROOMS: dict[str, Room] = {
    r.name: r
    for r in (
        Room("mazhan", "mazhan", "馬站麻將 · 普通房", 800, 400),
        Room("mazhan-vip", "mazhan", "馬站麻將 · VIP 房", 1_000_000, 400),
        Room("madiao", "madiao", "馬吊 · 普通房", 800, 40),
    )
}
