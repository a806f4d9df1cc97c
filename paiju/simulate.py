"""Seeded simulations: play many hands with bots, write game records, summarise.

>>> summary = simulate("mazhan", games=5, seed=1, bot_names=["random"])
>>> summary["hands"], sum(summary["wins_by_seat"].values()) + summary["draws"]
(5, 5)
>>> simulate("madiao", games=3, seed=1, bot_names=["heuristic"])["hands"]
3
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import IO, Any

from paiju.bots.base import make_bot
from paiju.bots.driver import HandRecord, iter_match
from paiju.games import GAMES, rules_of
from paiju.madiao.scoring import diao_name

__all__ = ["DEFAULT_BOTS", "parse_bots", "simulate"]

DEFAULT_BOTS = {"mazhan": "greedy", "madiao": "heuristic"}


def parse_bots(game: str, text: str | None) -> list[str]:
    """Bot names for the four players: one name for all, or four separated by commas.

    >>> parse_bots("mazhan", "greedy,random,greedy,random")
    ['greedy', 'random', 'greedy', 'random']
    >>> parse_bots("madiao", None)
    ['heuristic', 'heuristic', 'heuristic', 'heuristic']
    >>> parse_bots("mazhan", "greedy,random")
    Traceback (most recent call last):
    ...
    ValueError: --bots takes one name or four, separated by commas; got 2
    """
    names = [DEFAULT_BOTS[game]] if not text else [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"--bots takes one name or four, separated by commas; got {len(names)}")
    for name in names:
        make_bot(game, name)  # raises ValueError for an unknown name
    return names


class _Tally:
    """Per-game counters over the hands of a simulation."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.counts: dict[str, Counter[str]] = {}
        self.sums: Counter[str] = Counter()

    def count(self, table: str, key: str) -> None:
        self.counts.setdefault(table, Counter())[key] += 1

    def add(self, record: HandRecord) -> None:
        r = record.result
        if self.game == "mazhan":
            winner = r["winner"]
            if winner is None:
                self.sums["draws"] += 1
                return
            self.count("wins_by_seat", winner)
            self.count("wins_by_method", r["win_by"])
            for name in r["hand"] or ["胡頭"]:
                self.count("wins_by_hand_type", name)
            self.sums["win_values"] += r["value"]
            return
        banker = r["banker"]
        self.sums["banker_net"] += r["net"][banker]
        tricks = [r["seats"][s]["tricks"] for s in "ESWN"]
        self.count("diao_outcomes", diao_name(tricks))
        for seat, s in r["seats"].items():
            self.sums["zhengben"] += s["zhengben"]
            self.sums["chong"] += s["chong"]
            self.sums[f"net_{seat}"] += r["net"][seat]
            for b in s["bonuses"]:
                if b["name"] in ("大活百", "小活百", "死百"):
                    self.count("bailao", b["name"])

    def summary(self, hands: int) -> dict[str, Any]:
        n = hands or 1
        if self.game == "mazhan":
            draws = self.sums["draws"]
            wins = hands - draws
            seats = self.counts.get("wins_by_seat", Counter())
            return {
                "wins_by_seat": {s: seats[s] for s in "ESWN"},
                "draws": draws,
                "draw_rate": draws / n,
                "wins_by_hand_type": dict(self.counts.get("wins_by_hand_type", {}).items()),
                "wins_by_method": dict(self.counts.get("wins_by_method", {}).items()),
                "mean_winning_value": self.sums["win_values"] / wins if wins else 0.0,
            }
        return {
            "mean_net_by_seat": {s: self.sums[f"net_{s}"] / n for s in "ESWN"},
            "banker_mean_net": self.sums["banker_net"] / n,
            "zhengben_rate": self.sums["zhengben"] / (4 * n),
            "chong_points_per_hand": self.sums["chong"] / n,
            "diao_outcomes": dict(self.counts.get("diao_outcomes", {}).items()),
            "bailao": dict(self.counts.get("bailao", {}).items()),
        }


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
    tally = _Tally(game)
    player_net = [0.0] * 4
    actions = 0
    start = time.perf_counter()
    ruleset = rules_of(game).default_ruleset()
    for done, (record, _state) in enumerate(iter_match(ruleset, bots, seed, games), 1):
        actions += len(record.actions)
        tally.add(record)
        for seat, net in record.result["net"].items():
            player_net[record.players[seat]] += net
        if out is not None:
            out.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
        if progress is not None:
            progress(done)
    elapsed = time.perf_counter() - start
    n = games or 1
    return {
        "game": game,
        "hands": games,
        "seed": seed,
        "bots": names,
        **tally.summary(games),
        "actions_per_hand": actions / n,
        "hands_per_second": games / elapsed if elapsed > 0 else 0.0,
        "players": [
            {"player": p, "bot": names[p], "mean_net": player_net[p] / n} for p in range(4)
        ],
    }
