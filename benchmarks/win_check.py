"""Complete-hand checks per second: paiju against the `mahjong` library, in one run.

paiju checks 17-tile Mazhan hands with 0–3 wilds (uniform), the `mahjong` library's
``Agari.is_agari`` 14-tile riichi hands, of three kinds each: random tiles, one tile off a
complete hand (what most draws in play bring), and complete hands. Inputs are prepared outside
the timer: paiju's as its native suit keys and, separately, as a 34-count list (the keys are
then computed inside the timer); mahjong's as its 34-count list. The batch check (NumPy,
``paiju.fast``) runs over a million hands.

    python benchmarks/win_check.py [--hands 200000] [--repeat 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from paiju.fast.batch import is_complete_batch, is_complete_counts_batch
from paiju.mazhan.hand import is_complete_counts, is_complete_keys, suit_keys
from paiju.mazhan.tiles import PLAYABLE_FACES


def _complete_mazhan(rng: random.Random) -> tuple[list[int], int]:
    """A complete 17-tile hand: five random sets and a pair, then 0–3 tiles turned to ★."""
    while True:
        counts = [0] * 34
        for _ in range(5):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for k in range(3):
                    counts[start + k] += 1
            else:
                counts[rng.choice(FACES)] += 3
        counts[rng.choice(FACES)] += 2
        if max(counts) <= 4 and counts[31] == 0:
            break
    wilds = rng.randrange(4)
    for _ in range(wilds):
        i = rng.choice([f for f in FACES if counts[f]])
        counts[i] -= 1
    return counts, wilds


def _complete_riichi(rng: random.Random) -> list[int]:
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for k in range(3):
                    counts[start + k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


def _one_off(rng: random.Random, counts: list[int], faces: Sequence[int]) -> list[int]:
    """Swap one tile for a random other face: what a draw usually brings."""
    c = list(counts)
    out = rng.choice([f for f in faces if c[f]])
    into = rng.choice([f for f in faces if f != out and c[f] < 4])
    c[out] -= 1
    c[into] += 1
    return c


FACES = [t.index for t in PLAYABLE_FACES]


def mazhan_hands(kind: str, n: int, seed: int) -> list[tuple[list[int], int]]:
    """17-tile hands with 0–3 ★ (uniform): random, one tile off complete, or complete."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        if kind == "random":
            wild = rng.choice(FACES)
            wilds = rng.randrange(4)
            pool = [f for f in FACES if f != wild for _ in range(4)]
            counts = [0] * 34
            for f in rng.sample(pool, 17 - wilds):
                counts[f] += 1
            out.append((counts, wilds))
            continue
        counts, wilds = _complete_mazhan(rng)
        if kind == "one off":
            counts = _one_off(rng, counts, FACES)
        out.append((counts, wilds))
    return out


def riichi_hands(kind: str, n: int, seed: int) -> list[list[int]]:
    """14-tile riichi hands as 34-count lists: random, one tile off complete, or complete."""
    rng = random.Random(seed)
    wall = [i // 4 for i in range(136)]
    out = []
    for _ in range(n):
        if kind == "random":
            counts = [0] * 34
            for f in rng.sample(wall, 14):
                counts[f] += 1
        else:
            counts = _complete_riichi(rng)
            if kind == "one off":
                counts = _one_off(rng, counts, range(34))
        out.append(counts)
    return out


def best_rate(run: Callable[[], int], n: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return n / best


def measure_kind(kind: str, hands: int, repeat: int, seed: int) -> dict[str, float]:
    from mahjong.agari import Agari

    ours = mazhan_hands(kind, hands, seed)
    keyed = [(*suit_keys(c), w) for c, w in ours]
    theirs = riichi_hands(kind, hands, seed)
    agari = Agari.is_agari

    def run_keys() -> int:
        f = is_complete_keys
        return sum(1 for args in keyed if f(*args))

    def run_counts() -> int:
        f = is_complete_counts
        return sum(1 for c, w in ours if f(c, w))

    def run_mahjong() -> int:
        return sum(1 for c in theirs if agari(c))

    assert run_keys() == run_counts()
    keys = best_rate(run_keys, hands, repeat)
    counts = best_rate(run_counts, hands, repeat)
    mahjong = best_rate(run_mahjong, hands, repeat)
    return {
        "paiju_complete_share": run_keys() / hands,
        "mahjong_complete_share": run_mahjong() / hands,
        "paiju_keys": keys,
        "paiju_counts": counts,
        "mahjong": mahjong,
        "ratio_keys": keys / mahjong,
        "ratio_counts": counts / mahjong,
    }


def measure_batch(hands: int, repeat: int, seed: int) -> dict[str, float]:
    ours = mazhan_hands("random", hands, seed)
    reps = max(1, 1_000_000 // hands)
    counts_arr = np.tile(np.array([c for c, _ in ours], dtype=np.uint8), (reps, 1))
    wilds_arr = np.tile(np.array([w for _, w in ours], dtype=np.uint8), reps)
    keys_arr = np.tile(np.array([suit_keys(c) for c, _ in ours], dtype=np.int32), (reps, 1))
    n = len(wilds_arr)
    expected = sum(1 for c, w in ours if is_complete_counts(c, w)) * reps
    assert int(is_complete_batch(keys_arr, wilds_arr).sum()) == expected
    assert int(is_complete_counts_batch(counts_arr, wilds_arr).sum()) == expected
    return {
        "hands": n,
        "from_keys": best_rate(
            lambda: int(is_complete_batch(keys_arr, wilds_arr).sum()), n, repeat
        ),
        "from_counts": best_rate(
            lambda: int(is_complete_counts_batch(counts_arr, wilds_arr).sum()), n, repeat
        ),
    }


def measure(hands: int, repeat: int, seed: int) -> dict[str, Any]:
    """Every figure of this benchmark, as a dict (used by ``make bench``)."""
    return {
        "hands": hands,
        "repeat": repeat,
        "per_call": {k: measure_kind(k, hands, repeat, seed) for k in KINDS},
        "batch": measure_batch(hands, repeat, seed),
    }


KINDS = ("random", "one off", "complete")


def report(r: dict[str, Any]) -> str:
    m = 1e6
    lines = [
        f"complete-hand checks per second, {r['hands']:,} hands of each kind, "
        f"best of {r['repeat']}",
        "  paiju: 17 tiles, 0–3 ★; mahjong (Agari.is_agari): 14 tiles; inputs prepared outside",
        "  the timer (paiju: suit keys, or a 34-count list; mahjong: its 34-count list)",
        "",
        f"  {'hands':<10}{'paiju keys':>12}{'paiju list':>12}{'mahjong':>10}"
        f"{'ratio keys':>12}{'ratio list':>12}",
    ]
    for kind in KINDS:
        k = r["per_call"][kind]
        lines.append(
            f"  {kind:<10}{k['paiju_keys'] / m:>10.2f} M{k['paiju_counts'] / m:>10.2f} M"
            f"{k['mahjong'] / m:>8.2f} M{k['ratio_keys']:>11.2f}x{k['ratio_counts']:>11.2f}x"
        )
    b = r["batch"]
    lines += [
        "",
        f"  paiju batch (NumPy) over {b['hands']:,} random hands: "
        f"{b['from_keys'] / m:.1f} M/s from suit keys, {b['from_counts'] / m:.1f} M/s "
        "from 34-count rows",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = measure(args.hands, args.repeat, args.seed)
    print(json.dumps(r, indent=2) if args.json else report(r))


if __name__ == "__main__":
    main()
