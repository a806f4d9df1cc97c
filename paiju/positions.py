"""Positions of any game, for ``paiju position`` and ``paiju legal``: the position after
N actions of a game record, and the legal actions of a written position.

>>> from paiju.bots.driver import play_match
>>> from paiju.bots.uniform import RandomBot
>>> from paiju.games import game
>>> g = game(names()[-1])
>>> record = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=1, hands=1)[0].to_json()
>>> text = position_after(record, 1)
>>> text.split()[:2] == [g.name, "v=1"]
True
>>> len(legal_of(text)) > 0
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.errors import InvalidPositionError, ReplayError
from paiju.games import names, registration, replay
from paiju.records import read_record

__all__ = ["legal_of", "position_after", "read_position"]


def position_after(record: Mapping[str, Any], n: int) -> str:
    """The position after the first ``n`` actions of a game record (0: the deal).

    >>> position_after({"game": "go"}, 0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    paiju.errors.ReplayError: unknown game 'go' (choose from ...)

    Raises :class:`~paiju.errors.ReplayError` for a bad record, an ``n`` outside the record
    or an action that does not replay.
    """
    game, ruleset, seed, setup, actions = read_record(record)
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= len(actions):
        raise ReplayError(f"the record has {len(actions)} actions: N must be 0–{len(actions)}")
    state = replay(game, ruleset, seed, setup, actions[:n])
    text: str = state.to_position()
    return text


def read_position(text: str) -> Any:
    """The state of a written position of any game (its first word names the game).

    >>> read_position("chess rnbqkbnr/pppppppp")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: it must start with ... or ..., not 'chess'

    Raises :class:`~paiju.errors.InvalidPositionError`.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"position: expected text, got {type(text).__name__}")
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    readable = [n for n in names() if registration(n).read_position is not None]
    read = registration(first).read_position if first in readable else None
    if read is None:
        choices = " or ".join(readable)
        raise InvalidPositionError(f"position: it must start with {choices}, not {first!r}")
    return read(text)


def legal_of(text: str) -> list[str]:
    """Every legal action of a written position, for every seat that may act (the seats of
    an open claim window each list their own); empty once the hand is over.

    >>> legal_of("go v=0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    paiju.errors.InvalidPositionError: position: it must start with ..., not 'go'

    Raises :class:`~paiju.errors.InvalidPositionError`.
    """
    state = read_position(text)
    g = registration(text.split(maxsplit=1)[0]).game
    return [str(a) for seat in g.acting(state) for a in g.legal_actions(state, seat)]
