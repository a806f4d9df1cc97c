"""The games paiju plays, behind one interface, for the driver, replays and simulations.

Each game core has the same shape (Ruleset, new_hand, Action.parse, legal_actions_for,
apply, acting, observe); this registry names them, so that code above the cores never has to
know which game it runs.

>>> rules_of("madiao").name, game_of(rules_of("mazhan").default_ruleset())
('madiao', 'mazhan')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["GAMES", "GameRules", "game_of", "rules_of"]

GAMES = ("mazhan", "madiao")


@dataclass(frozen=True, slots=True)
class GameRules:
    """One game's core functions.

    >>> rules_of("mazhan").parse_action("E discard 5m").kind.value
    'discard'
    """

    name: str
    ruleset_type: type
    new_hand: Callable[..., Any]
    apply: Callable[[Any, Any], tuple[Any, list[Any]]]
    acting: Callable[[Any], tuple[Any, ...]]
    legal_actions_for: Callable[[Any, Any], tuple[Any, ...]]
    observe: Callable[[Any, Any], Any]
    parse_action: Callable[[str], Any]
    ruleset_from_json: Callable[[object], Any]
    seats: tuple[Any, ...]

    def default_ruleset(self) -> Any:
        """The game's default rules.

        >>> rules_of("madiao").default_ruleset().chong_flow
        'offer'
        """
        return self.ruleset_type()


def rules_of(game: str) -> GameRules:
    """The core functions of ``game``.

    >>> rules_of("go")
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'go' (choose from mazhan, madiao)

    Raises ``ValueError`` for an unknown game.
    """
    if game == "mazhan":
        from paiju.mazhan import rules as mz
        from paiju.mazhan.actions import Action as MzAction
        from paiju.mazhan.seats import SEATS as MZ_SEATS
        from paiju.mazhan.views import observe as mz_observe

        return GameRules(
            "mazhan",
            mz.Ruleset,
            mz.new_hand,
            mz.apply,
            mz.acting,
            mz.legal_actions_for,
            mz_observe,
            MzAction.parse,
            mz.Ruleset.from_json,
            MZ_SEATS,
        )
    if game == "madiao":
        from paiju.madiao import rules as md
        from paiju.madiao.seats import SEATS as MD_SEATS
        from paiju.madiao.views import observe as md_observe

        return GameRules(
            "madiao",
            md.Ruleset,
            md.new_hand,
            md.apply,
            md.acting,
            md.legal_actions_for,
            md_observe,
            md.Action.parse,
            md.Ruleset.from_json,
            MD_SEATS,
        )
    raise ValueError(f"unknown game {game!r} (choose from {', '.join(GAMES)})")


def game_of(ruleset: object) -> str:
    """The name of the game a ruleset belongs to.

    >>> from paiju.madiao.rules import Ruleset
    >>> game_of(Ruleset())
    'madiao'

    Raises ``ValueError`` for anything else.
    """
    to_json = getattr(ruleset, "to_json", None)
    game = to_json().get("game") if callable(to_json) else None
    if game not in GAMES:
        raise ValueError(f"not a paiju ruleset: {ruleset!r}")
    return str(game)
