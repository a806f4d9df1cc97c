"""Seeded simulations: play many hands with bots, write game records, summarise.

>>> summary = simulate("mazhan", games=5, seed=1, bot_names=["random"])
>>> summary["hands"], sum(summary["wins_by_seat"].values()) + summary["draws"]
(5, 5)
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import IO, Any

from paiju.bots.base import make_bot
from paiju.bots.driver import iter_match
from paiju.mazhan.rules import Ruleset

__all__ = ["GAMES", "parse_bots", "simulate"]

GAMES = ("mazhan",)


def parse_bots(game: str, text: str | None, default: str = "greedy") -> list[str]:
    """Bot names for the four players: one name for all, or four separated by commas.

    >>> parse_bots("mazhan", "greedy,random,greedy,random")
    ['greedy', 'random', 'greedy', 'random']
    >>> parse_bots("mazhan", "random")
    ['random', 'random', 'random', 'random']
    >>> parse_bots("mazhan", "greedy,random")
    Traceback (most recent call last):
    ...
    ValueError: --bots takes one name or four, separated by commas; got 2
    """
    names = [default] * 4 if not text else [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"--bots takes one name or four, separated by commas; got {len(names)}")
    for name in names:
        make_bot(game, name)  # raises ValueError for an unknown name
    return names


def simulate(
    game: str,
    games: int,
    seed: int,
    bot_names: Sequence[str],
    out: IO[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` hands of one match and return the summary; write each hand's record
    as a JSON line to ``out``. The records hold no clock time: the same seed gives the same
    bytes.

    Raises ``ValueError`` for an unknown game or bot, or a negative count.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (choose from {', '.join(GAMES)})")
    if games < 0:
        raise ValueError(f"--games must be 0 or more, got {games}")
    names = parse_bots(game, ",".join(bot_names))
    bots = [make_bot(game, n) for n in names]
    wins_by_seat: Counter[str] = Counter()
    types: Counter[str] = Counter()
    methods: Counter[str] = Counter()
    player_net = [0] * 4
    player_wins = [0] * 4
    draws = 0
    actions = 0
    win_values = 0
    start = time.perf_counter()
    for done, (record, _state) in enumerate(iter_match(Ruleset(), bots, seed, games), 1):
        result = record.result
        actions += len(record.actions)
        winner = result["winner"]
        if winner is None:
            draws += 1
        else:
            wins_by_seat[winner] += 1
            methods[result["win_by"]] += 1
            for name in result["hand"] or ["胡頭"]:
                types[name] += 1
            win_values += result["value"]
            player_wins[record.players[winner]] += 1
        for seat, net in result["net"].items():
            player_net[record.players[seat]] += net
        if out is not None:
            out.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
        if progress is not None:
            progress(done)
    elapsed = time.perf_counter() - start
    wins = games - draws
    return {
        "game": game,
        "hands": games,
        "seed": seed,
        "bots": names,
        "wins_by_seat": {s: wins_by_seat[s] for s in "ESWN"},
        "draws": draws,
        "draw_rate": draws / games if games else 0.0,
        "wins_by_hand_type": dict(types.most_common()),
        "wins_by_method": dict(methods.most_common()),
        "mean_winning_value": win_values / wins if wins else 0.0,
        "actions_per_hand": actions / games if games else 0.0,
        "hands_per_second": games / elapsed if elapsed > 0 else 0.0,
        "players": [
            {
                "player": p,
                "bot": names[p],
                "wins": player_wins[p],
                "mean_net": player_net[p] / games if games else 0.0,
            }
            for p in range(4)
        ],
    }
