"""Replaying game records: a fold of the game's ``apply`` over the recorded actions.

>>> import io, json
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

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from paiju.errors import ReplayError, RulesError
from paiju.games import GAMES, GameRules, rules_of

__all__ = ["check_record", "replay", "replay_file"]


def replay(rules: GameRules, ruleset: Any, seed: int, actions: Sequence[str], **setup: Any) -> Any:
    """The state after applying every action to the hand dealt from ``seed``.

    >>> from paiju.madiao.rules import Ruleset
    >>> replay(rules_of("madiao"), Ruleset(), 4, []).version
    0

    Raises :class:`~paiju.errors.ReplayError` naming the first action that fails (1-based).
    """
    state = rules.new_hand(ruleset, seed, **setup)
    for n, text in enumerate(actions, start=1):
        try:
            state, _ = rules.apply(state, rules.parse_action(text))
        except RulesError as err:
            raise ReplayError(f"action {n} {text!r}: {err}") from None
    return state


def check_record(record: Mapping[str, Any]) -> Any:
    """Replay one record and check it ends where it says, with the same result.

    Raises :class:`~paiju.errors.ReplayError` for a malformed record, an illegal action, an
    unfinished hand or a different result.
    """
    game = record.get("game")
    if game not in GAMES:
        raise ReplayError(f"unknown game {game!r}")
    rules = rules_of(str(game))
    try:
        ruleset = rules.ruleset_from_json(record.get("ruleset"))
    except (ValueError, TypeError) as err:
        raise ReplayError(f"ruleset: {err}") from None
    seed = record.get("seed")
    actions = record.get("actions")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError(f"seed: expected an integer, got {seed!r}")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReplayError("actions: expected a list of action strings")
    setup: dict[str, Any] = {}
    if game == "madiao":
        banker = record.get("banker")
        if banker not in ("E", "S", "W", "N"):
            raise ReplayError(f"banker: expected E, S, W or N, got {banker!r}")
        setup["banker"] = rules.seats["ESWN".index(str(banker))]
    state = replay(rules, ruleset, seed, actions, **setup)
    if state.phase.value != "over" or state.result is None:
        raise ReplayError(f"the hand is not over after its {len(actions)} actions")
    got = state.result.to_json()
    want = record.get("result")
    if got != want:
        want_d = want if isinstance(want, dict) else {}
        diff = sorted(k for k in set(got) | set(want_d) if want_d.get(k) != got.get(k))
        detail = "; ".join(
            f"{k}: recorded {want_d.get(k)!r}, replayed {got.get(k)!r}" for k in diff
        )
        raise ReplayError(f"the result differs: {detail}")
    return state


def replay_file(lines: Iterable[str]) -> tuple[int, list[str]]:
    """Check every record of a ``.jsonl`` file; the number checked and one message per
    record that fails, naming its line, its hand and the action at fault.

    >>> replay_file(['{"game": "go"}'])
    (1, ["line 1: unknown game 'go'"])
    """
    checked = 0
    failures: list[str] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        checked += 1
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            failures.append(f"line {n}: invalid JSON: {err.msg} at column {err.colno}")
            continue
        if not isinstance(record, dict):
            failures.append(f"line {n}: a record is a JSON object")
            continue
        where = f"line {n}"
        if "hand" in record:
            where += f", hand {record['hand']}"
        try:
            check_record(record)
        except RulesError as err:
            failures.append(f"{where}: {err}")
    return checked, failures
