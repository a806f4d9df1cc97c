"""The search the games' expert bots share (each game's ``bots`` package has one): play every
candidate in sampled worlds with common random numbers, then keep the base action unless
another one beats it by a paired z-test.

>>> import random
>>> values, worlds, nodes = play_worlds(
...     ["a", "b"], lambda rng: rng.random(), lambda world, a, chance: (world + (a == "b"), 1),
...     seed=7, start=0.0, clock=lambda: 0.0, seconds=None, worlds=3)
>>> worlds, nodes, paired_best(["a", "b"], values, "a", z=1.0)
(3, 6, 'b')
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = ["paired_best", "play_worlds"]

A = TypeVar("A")


def play_worlds(
    candidates: Sequence[A],
    sample: Callable[[random.Random], Any],
    play: Callable[[Any, A, random.Random], tuple[float, int]],
    *,
    seed: int,
    start: float,
    clock: Callable[[], float],
    seconds: float | None,
    worlds: int | None = None,
    nodes: int | None = None,
) -> tuple[list[list[float]], int, int]:
    """Each candidate's outcomes in worlds ``sample`` draws (world ``w`` from
    ``Random(seed + w)``), every candidate of a world played with the same chance stream;
    ``play(world, candidate, chance)`` gives the outcome and the nodes it cost. Stops after
    ``worlds`` worlds, once ``nodes`` are spent, or before a world that would overrun 90 % of
    ``seconds`` counted from ``start`` (judged by the last world's cost). Returns the
    outcomes (``[candidate][world]``), the worlds played and the nodes spent."""
    values: list[list[float]] = [[] for _ in candidates]
    n = spent = 0
    last = 0.0  # what the last world cost, in seconds
    while worlds is None or n < worlds:
        began = clock()
        if seconds is not None and began - start + last > seconds * 0.9:
            break
        world = sample(random.Random(seed + n))
        chance = random.Random(seed ^ (n * 0x9E3779B97F4A7C15 + 1))
        state0 = chance.getstate()
        for k, a in enumerate(candidates):
            chance.setstate(state0)
            outcome, cost = play(world, a, chance)
            values[k].append(outcome)
            spent += cost
        n += 1
        last = clock() - began
        if nodes is not None and spent >= nodes:
            break
    return values, n, spent


def paired_best(candidates: Sequence[A], values: Sequence[Sequence[float]], base: A, z: float) -> A:
    """The candidate whose mean gain over ``base``, world by world, is the largest of those
    more than ``z`` standard errors above zero; ``base`` when none is (two worlds or more)."""
    n = len(values[0])
    b = candidates.index(base)
    best, best_score = base, 0.0
    for k, a in enumerate(candidates):
        if k == b:
            continue
        diffs = [x - y for x, y in zip(values[k], values[b], strict=True)]
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        if mean > z * se and mean > best_score:
            best, best_score = a, mean
    return best
