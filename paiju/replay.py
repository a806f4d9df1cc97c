"""Replaying a file of game records (one JSON object per line), game by game.

>>> import io, json
>>> from paiju.bots.driver import play_match
>>> from paiju.bots.simple import RandomBot
>>> from paiju.mazhan.rules import Ruleset
>>> lines = [json.dumps(r.to_json()) for r in play_match(Ruleset(), [RandomBot()] * 4, 2, 2)]
>>> replay_file(io.StringIO("\\n".join(lines)))
(2, [])
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from paiju.errors import RulesError
from paiju.mazhan.replay import check_record as check_mazhan

__all__ = ["replay_file"]


def replay_file(lines: Iterable[str]) -> tuple[int, list[str]]:
    """Check every record; the number checked and one message per record that fails,
    naming its line, its hand and the action at fault.

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
        game = record.get("game")
        if game != "mazhan":
            failures.append(f"{where}: unknown game {game!r}")
            continue
        try:
            check_mazhan(record)
        except RulesError as err:
            failures.append(f"{where}: {err}")
    return checked, failures
