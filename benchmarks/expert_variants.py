"""Two versions of the expert's rating compared on the same hands (issue 18).

    python benchmarks/expert_variants.py run base 13 4000 '{}'
    python benchmarks/expert_variants.py run chow30 13 4000 '{"chow": 30}'
    python benchmarks/expert_variants.py compare chow30 base 13

``run`` plays duplicate deals as the arena does (each deal four times, the expert in each
seat in turn, ``strong`` in the other three) with an :class:`~paiju.mazhan.bots.expert.ExpertBot`
made from the JSON options (``candidates`` 1 unless given: the rating alone, no search), and
saves the expert's net of every hand in ``/tmp/expert_variants/NAME_SEED.json``.
``compare A B SEED`` prints, per deal, A's mean net minus B's, in the arena's units
(expert − strong = 4/3 × the expert's net, the hand being zero-sum) with its 95% interval.

Every seat draws its choices from its own seeded stream, so where two versions decide alike
the hands are the same and their difference is exactly zero: the comparison is far less
noisy than two arenas against ``strong`` (a change of one decision in twenty measured to
about ±3 胡/hand over 4,000 hands, where each arena's interval is ±11).

One process, one core; run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from paiju.bots.driver import run_hand
from paiju.games import game
from paiju.mazhan.bots.expert import ExpertBot
from paiju.mazhan.bots.strong import StrongBot

STORE = Path("/tmp/expert_variants")


def run(name: str, seed: int, hands: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play ``hands`` hands (whole deals) with the variant in one seat; the record saved."""
    options = {"candidates": 1, **options}
    g = game("mazhan")
    ruleset = g.default_ruleset()
    expert, strong = ExpertBot(**options), StrongBot()
    rng = random.Random(seed)
    start, load = time.process_time(), os.getloadavg()[0]
    nets: list[float] = []
    for _ in range((hands + 3) // 4):
        hand_seed = rng.getrandbits(63)
        for rotation in range(4):
            seat = (4 - rotation) % 4  # the arena's seating, the expert named first
            bots: list[Any] = [strong] * 4
            bots[seat] = expert
            state, _ = run_hand(g, g.new_hand(ruleset, hand_seed, {}), bots, hand_seed)
            nets.append(float(g.outcome(state, seat).net))
    record = {
        "name": name,
        "options": options,
        "seed": seed,
        "nets": nets,
        "cpu": time.process_time() - start,
        "load": [load, os.getloadavg()[0]],
    }
    STORE.mkdir(exist_ok=True)
    (STORE / f"{name}_{seed}.json").write_text(json.dumps(record))
    return record


def _interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def per_deal(nets: list[float]) -> list[float]:
    """Expert − strong per deal: 4/3 × the expert's mean net over the deal's four hands.

    >>> per_deal([30.0, -30.0, 0.0, 60.0])
    [20.0]
    """
    return [sum(nets[i : i + 4]) / 3 for i in range(0, len(nets) - 3, 4)]


def main(argv: list[str]) -> None:
    """The command line (see the module docstring)."""
    if argv[:1] == ["run"] and len(argv) == 5:
        r = run(argv[1], int(argv[2]), int(argv[3]), json.loads(argv[4]))
        m, lo, hi = _interval(per_deal(r["nets"]))
        print(
            f"{r['name']} seed {r['seed']} hands {len(r['nets'])} {r['options']}: "
            f"expert − strong = {m:+.2f} [{lo:+.2f}, {hi:+.2f}] 胡/hand; "
            f"cpu {r['cpu']:.0f} s, load {r['load'][0]:.2f}/{r['load'][1]:.2f}"
        )
    elif argv[:1] == ["compare"] and len(argv) == 4:
        a, b = (json.loads((STORE / f"{n}_{argv[3]}.json").read_text()) for n in argv[1:3])
        n = min(len(a["nets"]), len(b["nets"]))
        da, db = per_deal(a["nets"][:n]), per_deal(b["nets"][:n])
        m, lo, hi = _interval([x - y for x, y in zip(da, db, strict=True)])
        same = sum(x == y for x, y in zip(a["nets"][:n], b["nets"][:n], strict=True)) / n
        print(
            f"{argv[1]} − {argv[2]} = {m:+.2f} [{lo:+.2f}, {hi:+.2f}] 胡/hand "
            f"(seed {argv[3]}, {n} hands, {same:.0%} of hands alike)"
        )
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
