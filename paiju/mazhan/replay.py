"""Replaying a game record: a fold of :func:`~paiju.mazhan.rules.apply` over its actions.

>>> from paiju.bots.driver import play_match
>>> from paiju.bots.simple import RandomBot
>>> from paiju.mazhan.rules import Ruleset
>>> record = play_match(Ruleset(), [RandomBot()] * 4, seed=4, hands=1)[0].to_json()
>>> check_record(record).phase.value
'over'
>>> record["actions"][5] = "E hu"
>>> check_record(record)
Traceback (most recent call last):
...
paiju.errors.ReplayError: action 6 'E hu': ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from paiju.errors import ReplayError, RulesError
from paiju.mazhan.actions import Action
from paiju.mazhan.rules import Phase, Ruleset, State, apply, new_hand

__all__ = ["check_record", "replay"]


def replay(ruleset: Ruleset, seed: int, actions: Sequence[str]) -> State:
    """The state after applying every action of a record to the hand dealt from ``seed``.

    >>> replay(Ruleset(), 4, []).version
    0

    Raises :class:`~paiju.errors.ReplayError` naming the first action that fails (1-based).
    """
    state = new_hand(ruleset, seed)
    for n, text in enumerate(actions, start=1):
        try:
            state, _ = apply(state, Action.parse(text))
        except RulesError as err:
            raise ReplayError(f"action {n} {text!r}: {err}") from None
    return state


def check_record(record: Mapping[str, Any]) -> State:
    """Replay a record (as :meth:`~paiju.bots.driver.HandRecord.to_json` writes it) and check
    that it ends where it says, with the same result.

    Raises :class:`~paiju.errors.ReplayError` for a malformed record, an illegal action, an
    unfinished hand or a different result.
    """
    try:
        ruleset = Ruleset.from_json(record.get("ruleset"))
    except ValueError as err:
        raise ReplayError(f"ruleset: {err}") from None
    seed = record.get("seed")
    actions = record.get("actions")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError(f"seed: expected an integer, got {seed!r}")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReplayError("actions: expected a list of action strings")
    state = replay(ruleset, seed, actions)
    if state.phase is not Phase.OVER or state.result is None:
        raise ReplayError(f"the hand is not over after its {len(actions)} actions")
    got = state.result.to_json()
    want = record.get("result")
    if got != want:
        diff = sorted(k for k in set(got) | set(want or {}) if (want or {}).get(k) != got.get(k))
        detail = "; ".join(
            f"{k}: recorded {(want or {}).get(k)!r}, replayed {got.get(k)!r}" for k in diff
        )
        raise ReplayError(f"the result differs: {detail}")
    return state
