"""Checking game records: each is replayed with :func:`paiju.games.replay` (the one fold of
``apply`` over actions) and must end where it says, with the same result.

Records carry a format version (``format``, docs/records.md). Format 2 is written now;
format 1 (no ``format`` field, the setup a game names in its registration's
``record_v1_setup`` at the top level) is still read: such a record replays when the deal it
names is still the same, and otherwise it is refused with a message naming its format, since
format 2 changed how some hands are dealt (docs/records.md).

>>> from paiju.bots.driver import play_match
>>> from paiju.bots.uniform import RandomBot
>>> from paiju.games import game
>>> g = game(names()[0])
>>> record = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=4, hands=1)[0].to_json()
>>> g.is_over(check_record(record))
True
>>> record["actions"][5] = "E nonsense"
>>> check_record(record)
Traceback (most recent call last):
...
paiju.errors.ReplayError: action 6 'E nonsense': ...
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from paiju.errors import ReplayError, RulesError
from paiju.games import Game, names, registration, replay
from paiju.games.records import RECORD_FORMAT

__all__ = ["check_record", "check_seats", "read_record", "replay_file"]

_FORMATS = (1, RECORD_FORMAT)


def read_record(
    record: Mapping[str, Any],
) -> tuple[Game[Any, Any, Any, Any], Any, int, dict[str, Any], list[str]]:
    """The game, ruleset, seed, setup and actions of a record, checked.

    >>> name = names()[0]
    >>> g, ruleset, seed, setup, actions = read_record(
    ...     {"format": 2, "game": name, "ruleset": {"game": name}, "seed": 3,
    ...      "setup": {"banker": "S"}, "actions": []})
    >>> g.name == name, seed, setup
    (True, 3, {'banker': 'S'})
    >>> read_record({"format": 9, "game": name})
    Traceback (most recent call last):
    ...
    paiju.errors.ReplayError: record format 9 is not one this paiju reads (1, 2)

    Raises :class:`~paiju.errors.ReplayError` for a malformed record.
    """
    fmt = record.get("format", 1)
    if fmt not in _FORMATS or isinstance(fmt, bool):
        known = ", ".join(str(f) for f in _FORMATS)
        raise ReplayError(f"record format {fmt!r} is not one this paiju reads ({known})")
    name = record.get("game")
    if "game" not in record:
        raise ReplayError('the record has no "game" (docs/records.md)')
    if not isinstance(name, str) or name not in names():
        raise ReplayError(f"unknown game {name!r} (choose from {', '.join(names())})")
    entry = registration(name)
    g = entry.game
    try:
        ruleset = g.ruleset_from_json(record.get("ruleset"))
    except (ValueError, TypeError) as err:
        raise ReplayError(f"ruleset: {err}") from None
    seed = record.get("seed")
    actions = record.get("actions")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError(f"seed: expected an integer, got {seed!r}")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ReplayError("actions: expected a list of action strings")
    if fmt == 1:  # the setup lay at the top level
        setup = {}
        for key in entry.record_v1_setup:
            if key not in record:
                raise ReplayError(f"{key}: a format 1 {entry.title} record names its {key}")
            setup[key] = record[key]
    else:
        raw = record.get("setup", {})
        if not isinstance(raw, dict):
            raise ReplayError("setup: expected an object")
        setup = dict(raw)
    return g, ruleset, seed, setup, list(actions)


def check_seats(g: Game[Any, Any, Any, Any], record: Mapping[str, Any]) -> None:
    """Check a record's ``players`` (the player, 0–3, in each seat: each of the game's
    seats once, four different players) and ``bots`` (a bot name in each seat), where the
    record has them.

    >>> from paiju.games import game
    >>> g = game(names()[0])
    >>> check_seats(g, {"players": {"E": 1, "S": 2, "W": 3, "N": 0}})
    >>> check_seats(g, {"players": {"E": 1, "S": 1, "W": 3, "N": 0}})
    Traceback (most recent call last):
    ...
    paiju.errors.ReplayError: players: expected the players 0–3, one in each seat of E, S, W, N;
    got {'E': 1, 'S': 1, 'W': 3, 'N': 0}

    Raises :class:`~paiju.errors.ReplayError` for a field of the wrong shape.
    """
    seats = [s.value for s in g.seats]
    where = ", ".join(seats)
    if "players" in record:
        players = record["players"]
        ok = (
            isinstance(players, dict)
            and sorted(players) == sorted(seats)
            and all(type(p) is int for p in players.values())
            and sorted(players.values()) == [0, 1, 2, 3]
        )
        if not ok:
            raise ReplayError(
                f"players: expected the players 0–3, one in each seat of {where}; "
                f"got {_brief(players)}"
            )
    if "bots" in record:
        bots = record["bots"]
        ok = (
            isinstance(bots, dict)
            and sorted(bots) == sorted(seats)
            and all(isinstance(b, str) for b in bots.values())
        )
        if not ok:
            raise ReplayError(
                f"bots: expected a bot name in each seat of {where}; got {_brief(bots)}"
            )


def _brief(value: object) -> str:
    """A value as an error message shows it: whole when short, else cut, with its length.

    >>> _brief({"E": 0}), _brief(list(range(100)))[-18:]
    ("{'E': 0}", '… (390 characters)')
    """
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:40]}… ({len(text):,} characters)"


def check_record(record: Mapping[str, Any]) -> Any:
    """Replay one record and check it ends where it says, with the same result (and, in
    format 2, the same chance: the dice), and that its ``players`` and ``bots`` name each
    seat of the game once (:func:`check_seats`).

    >>> from paiju.bots.driver import play_match
    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game
    >>> g = game(names()[-1])
    >>> record = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=4, hands=1)[0].to_json()
    >>> record["players"]["E"] = 9
    >>> check_record(record)
    Traceback (most recent call last):
    ...
    paiju.errors.ReplayError: players: expected the players 0–3, one in each seat ...; got {...}

    Raises :class:`~paiju.errors.ReplayError` for a malformed record, an illegal action, an
    unfinished hand or a different result.
    """
    g, ruleset, seed, setup, actions = read_record(record)
    check_seats(g, record)
    fmt = record.get("format", 1)
    try:
        try:
            start = g.new_hand(ruleset, seed, setup)
        except ValueError as err:
            raise ReplayError(f"setup: {err}") from None
        if fmt != 1 and "chance" in record and record["chance"] != g.chance_of(start):
            raise ReplayError(
                f"chance: recorded {record['chance']!r}, dealt {g.chance_of(start)!r}"
            )
        state = replay(g, ruleset, seed, setup, actions, start=start)
        if not g.is_over(state):
            raise ReplayError(f"the hand is not over after its {len(actions)} actions")
        got = g.result_json(state)
        want = record.get("result")
        if got != want:
            want_d = want if isinstance(want, dict) else {}
            diff = sorted(k for k in set(got) | set(want_d) if want_d.get(k) != got.get(k))
            detail = "; ".join(
                f"{k}: recorded {want_d.get(k)!r}, replayed {got.get(k)!r}" for k in diff
            )
            raise ReplayError(f"the result differs: {detail}")
    except ReplayError as err:
        if fmt == 1:
            raise ReplayError(
                f"{err} (a format 1 record, written before format {RECORD_FORMAT} changed "
                "how hands are dealt; this paiju cannot replay it)"
            ) from None
        raise
    return state


def replay_file(lines: Iterable[str]) -> tuple[int, list[str]]:
    """Check every record of a ``.jsonl`` file; the number checked and one message per
    record that fails, naming its line, its hand and the action at fault.

    >>> checked, problems = replay_file(['{"format": 2, "game": "go"}', '{"x": 1}'])
    >>> checked
    2
    >>> for problem in problems:  # doctest: +ELLIPSIS
    ...     print(problem)
    line 1: unknown game 'go' (choose from ...)
    line 2: the record has no "game" (docs/records.md)
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
