"""The game record (docs/records.md): one hand of a match, enough to replay it, and its
result. Written by the match driver (:func:`paiju.bots.driver.iter_match`), read by
:mod:`paiju.records`; it sits beside the :class:`~paiju.games.Game` protocol so that a
reader of records needs no bot.

>>> r = HandRecord("cards", 1, 0, 7, {"game": "cards"}, {"banker": "E"},
...                {"E": 0, "S": 1, "W": 2, "N": 3}, dict.fromkeys("ESWN", "random"), [], {})
>>> r.to_json()["format"] == RECORD_FORMAT
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["RECORD_FORMAT", "HandRecord"]

#: The version of the game-record format this code writes (docs/records.md).
RECORD_FORMAT = 2


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a match as a game record (docs/records.md): enough to replay it, and its
    result.

    ``players`` maps each seat to the player (0–3) sitting there; ``setup`` holds what the
    hand needs besides its seed (a banker, say); ``chance`` what chance decided at the deal,
    for people (the dice, say).
    """

    game: str
    match_seed: int
    hand: int
    seed: int
    ruleset: dict[str, Any]
    setup: dict[str, Any]
    players: dict[str, int]
    bots: dict[str, str]
    actions: list[str]
    result: dict[str, Any]
    chance: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (one line of a ``.jsonl`` file).

        >>> r = HandRecord("tiles", 1, 0, 5, {}, {}, {}, {}, ["E discard 1m"], {})
        >>> list(r.to_json())[:6]
        ['format', 'game', 'match_seed', 'hand', 'seed', 'ruleset']
        """
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "match_seed": self.match_seed,
            "hand": self.hand,
            "seed": self.seed,
            "ruleset": self.ruleset,
            "setup": self.setup,
            "chance": self.chance,
            "players": self.players,
            "bots": self.bots,
            "actions": self.actions,
            "result": self.result,
        }
