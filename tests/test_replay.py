"""paiju.records: a record's seat fields are checked, not only its actions and result."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paiju.bots.driver import play_match
from paiju.bots.uniform import RandomBot
from paiju.errors import ReplayError
from paiju.games import game
from paiju.records import check_record, replay_file

#: paiju's own games
GAMES = ("mazhan", "madiao")


def _record(name: str) -> dict[str, Any]:
    g = game(name)
    return play_match(g.default_ruleset(), [RandomBot()] * 4, seed=6, hands=1)[0].to_json()


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize(
    "players",
    [
        {"E": 0, "S": 0, "W": 0, "N": 0},  # one player in every seat
        {"E": 4, "S": 1, "W": 2, "N": 3},  # no player 4
        {"E": "0", "S": 1, "W": 2, "N": 3},  # not a number
        {"E": 0, "S": 1, "W": 2},  # a seat missing
        {"E": 0, "S": 1, "W": 2, "X": 3},  # no seat X
        [0, 1, 2, 3],
    ],
)
def test_wrong_players_are_a_mismatch_not_a_reproduction(name: str, players: Any) -> None:
    record = _record(name)
    check_record(record)  # as written, it reproduces
    record["players"] = players
    with pytest.raises(ReplayError, match="players: expected the players 0–3"):
        check_record(record)
    checked, failures = replay_file([json.dumps(record)])
    assert checked == 1 and len(failures) == 1 and "players" in failures[0]


def test_wrong_bots_are_a_mismatch() -> None:
    record = _record("mazhan")
    record["bots"] = {"E": "random"}
    with pytest.raises(ReplayError, match="bots: expected a bot name in each seat"):
        check_record(record)


def test_any_seating_of_the_four_players_is_accepted() -> None:
    record = _record("madiao")
    record["players"] = {"E": 3, "S": 0, "W": 2, "N": 1}
    check_record(record)
