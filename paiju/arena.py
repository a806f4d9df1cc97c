"""Arena: bots against each other on the same deals, every bot in every seat.

Hands come in deals of four: one seed, played four times with the bots rotated one seat each
time (duplicate play), so that each bot meets the same tiles or cards from every seat and the
luck of the deal cancels out. The 95% confidence interval of a bot's mean net per hand is
taken over deals (the four hands of a deal are not independent), and so is each paired
difference between two bots (:func:`paiju.stats.paired_difference`): per deal, the mean of
bot A's seats minus the mean of bot B's.

>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> r = arena(g.name, games=8, seed=1, bot_names=[g.default_bot, "random", "random", "random"])
>>> r["bots"][g.default_bot]["hands"], r["bots"]["random"]["hands"], r["hands"]
(8, 24, 8)
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.base import Bot
from paiju.bots.driver import run_hand
from paiju.games import game, registration
from paiju.simulate import make_player
from paiju.stats import Interval, format_difference, mean_interval, paired_difference

__all__ = ["arena", "difference_lines", "mean_ci"]


def mean_ci(samples: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation) of independent samples; with fewer
    than two samples there is no interval (NaN bounds), never a zero-width one.

    >>> mean_ci([1.0, 3.0])
    (2.0, 0.04..., 3.96)
    >>> mean_ci([5.0])
    (5.0, nan, nan)
    """
    n = len(samples)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = statistics.fmean(samples)
    if n < 2:
        return m, math.nan, math.nan
    half = 1.96 * statistics.stdev(samples) / math.sqrt(n)
    return m, m - half, m + half


def arena(
    name: str,
    games: int,
    seed: int,
    bot_names: Sequence[str],
    progress: Callable[[int], None] | None = None,
    factory: Callable[[str], Bot] | None = None,
) -> dict[str, Any]:
    """Play ``games`` hands (rounded up to whole deals of four) and rate each bot.

    Returns ``{"game", "hands", "deals", "seed", "seating", "unit", "bots": {NAME: {"hands",
    "mean_net", "ci95", "win_rate", "deal_in_rate"}}, "differences": {"A - B": {"mean",
    "ci95"}}}``; the pairs of ``differences`` are in the order the bots are first named
    (``expert,strong,strong,strong`` gives ``"expert - strong"``). What a win and dealing in
    are is the game's own (:meth:`paiju.games.Game.outcome`): winning the hand and
    discarding the winning tile, say, or a hand with a positive net and nobody dealing in.

    ``factory`` makes a bot from its name (default :func:`~paiju.simulate.make_player` for
    the game): a bot configured by hand (a search budget, say) can play under its own name.

    Raises ``ValueError`` for an unknown game or bot, or not four bots.
    """
    g = game(name)
    if len(bot_names) != 4:
        raise ValueError(f"the arena seats four bots, got {len(bot_names)}")
    if games < 1:
        raise ValueError(f"--games must be 1 or more, got {games}")
    ruleset = g.default_ruleset()
    made: dict[str, Bot] = {}
    for n in bot_names:
        if n not in made:
            made[n] = factory(n) if factory is not None else make_player(g.name, n)
    bots = [made[n] for n in bot_names]
    names = sorted(set(bot_names))
    deals = math.ceil(games / 4)
    rng = random.Random(seed)
    net_sum = dict.fromkeys(names, 0.0)
    hands = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    deal_ins: dict[str, int | None] = dict.fromkeys(names, None)
    per_deal: dict[str, list[float]] = {n: [] for n in names}
    done = 0
    for _ in range(deals):
        hand_seed = rng.getrandbits(63)
        deal_net = dict.fromkeys(names, 0.0)
        deal_count = dict.fromkeys(names, 0)
        for rotation in range(4):
            seated = [bots[(i + rotation) % 4] for i in range(4)]
            state, _ = run_hand(g, g.new_hand(ruleset, hand_seed, {}), seated, hand_seed)
            for i in range(4):
                bot = bot_names[(i + rotation) % 4]
                outcome = g.outcome(state, i)
                net = float(outcome.net)
                net_sum[bot] += net
                hands[bot] += 1
                deal_net[bot] += net
                deal_count[bot] += 1
                wins[bot] += outcome.won
                if outcome.dealt_in is not None:
                    deal_ins[bot] = (deal_ins[bot] or 0) + outcome.dealt_in
            done += 1
            if progress is not None:
                progress(done)
        for n in names:
            per_deal[n].append(deal_net[n] / deal_count[n])
    report: dict[str, Any] = {}
    for n in names:
        m = mean_interval(per_deal[n])
        dealt_in = deal_ins[n]
        report[n] = {
            "hands": hands[n],
            "mean_net": net_sum[n] / hands[n],
            # one deal gives no interval: null (JSON has no NaN), never a zero-width one
            "ci95": [m.lo, m.hi] if m.defined else None,
            "win_rate": wins[n] / hands[n],
            "deal_in_rate": None if dealt_in is None else dealt_in / hands[n],
        }
    order = list(dict.fromkeys(bot_names))
    differences = {}
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            d = paired_difference(per_deal[a], per_deal[b])
            differences[f"{a} - {b}"] = {
                "mean": d.mean,
                "ci95": [d.lo, d.hi] if d.defined else None,
            }
    return {
        "game": g.name,
        "hands": deals * 4,
        "deals": deals,
        "seed": seed,
        "seating": list(bot_names),
        "unit": f"{registration(g.name).unit}/hand",
        "bots": report,
        "differences": differences,
    }


def difference_lines(report: dict[str, Any]) -> list[str]:
    """Each paired difference of an arena report as ``A − B = +X [lo, hi] UNIT``.

    >>> from paiju.games import game, names
    >>> g = game(names()[-1])
    >>> r = arena(g.name, 8, 1, [g.default_bot, "random", "random", "random"])
    >>> difference_lines(r)[0].startswith(f"{g.default_bot} − random = ")
    True
    >>> difference_lines(arena(g.name, 4, 1, [g.default_bot, "random", "random", "random"]))[0]
    '... − random = ...hand (n < 2: no interval)'
    """
    out = []
    for pair, d in report["differences"].items():
        a, b = pair.split(" - ")
        lo, hi = d["ci95"] if d["ci95"] is not None else (math.nan, math.nan)
        interval = Interval(d["mean"], lo, hi, report["deals"])
        out.append(format_difference(a, b, interval, report.get("unit", "/hand")))
    return out
