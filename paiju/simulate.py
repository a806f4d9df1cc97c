"""Seeded simulations: play many hands with bots, write game records, summarise.

>>> from paiju.games import names
>>> summary = simulate(names()[0], games=5, seed=1, bot_names=["random"])
>>> summary["hands"], sum(summary["wins_by_seat"].values()) + summary["draws"]
(5, 5)
>>> simulate(names()[-1], games=3, seed=1, bot_names=["random"])["hands"]
3
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from paiju.bots.base import Bot, make_bot
from paiju.bots.driver import iter_match
from paiju.games import game

__all__ = ["make_player", "parse_bots", "simulate"]


def make_player(game: str, name: str) -> Bot:
    """A player of ``game`` by name: a bot (:func:`~paiju.bots.base.make_bot`: ``greedy``,
    ``expert@200ms``, ...) or ``policy:PATH``, a policy saved by ``examples/train_ppo.py``
    (:class:`paiju.env.policy.PolicyBot`; needs the ``[rl]`` extra).

    >>> from paiju.games import game as game_named, names
    >>> g = game_named(names()[0])
    >>> make_player(g.name, g.default_bot).name == g.default_bot
    True
    >>> make_player(g.name, "policy:/nowhere.zip")
    Traceback (most recent call last):
    ...
    ValueError: no saved policy at /nowhere.zip ...

    Raises ``ValueError`` for an unknown game or bot, or a policy that cannot be loaded.
    """
    if name.startswith("policy:"):
        # paiju.env costs about 0.3 s to import (PettingZoo, Gymnasium): only for a policy
        from paiju.env.policy import PolicyBot

        return PolicyBot.load(name[len("policy:") :], game=game)
    return make_bot(game, name)


def parse_bots(name: str, text: str | None) -> list[str]:
    """Bot names for the four players: one name for all, or four separated by commas.

    >>> from paiju.games import names
    >>> g = game(names()[0])
    >>> parse_bots(g.name, f"random,{g.default_bot},random,random")[:2] == ["random", g.default_bot]
    True
    >>> parse_bots(g.name, None) == [g.default_bot] * 4
    True
    >>> parse_bots(g.name, "random,random")
    Traceback (most recent call last):
    ...
    ValueError: --bots takes one name or four, separated by commas; got 2
    """
    g = game(name)
    names = [g.default_bot] if not text else [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names = names * 4
    if len(names) != 4:
        raise ValueError(f"--bots takes one name or four, separated by commas; got {len(names)}")
    for bot in names:
        make_player(g.name, bot)  # raises ValueError for an unknown name
    return names


def simulate(
    name: str,
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
    g = game(name)
    if games < 0:
        raise ValueError(f"--games must be 0 or more, got {games}")
    names = parse_bots(g.name, ",".join(bot_names))
    bots = [make_player(g.name, n) for n in names]
    tally = g.tally()
    player_net = [0.0] * 4
    actions = 0
    start = time.perf_counter()
    ruleset = g.default_ruleset()
    for done, (record, state) in enumerate(iter_match(ruleset, bots, seed, games), 1):
        actions += len(record.actions)
        tally.add(record.result)
        for seat, net in zip(g.seats, g.nets(state), strict=True):
            player_net[record.players[seat.value]] += net
        if out is not None:
            out.write(json.dumps(record.to_json(), ensure_ascii=False, separators=(",", ":")))
            out.write("\n")
        if progress is not None:
            progress(done)
    elapsed = time.perf_counter() - start
    n = games or 1
    return {
        "game": g.name,
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
