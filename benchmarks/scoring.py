"""Scored hands per second on hands never scored before: paiju's §7 scorer against
`mahjong`'s ``estimate_hand_value``, interleaved, ratios per round.

The rules differ, so the inputs cannot be the same hands; each library scores what its rules
score, and this says what is compared:

- ``paiju``: :func:`paiju.mazhan.scoring.score` on finished Mazhan hands with a winner, from
  seeded ``greedy`` play: **every seat** scored (the winner over every decomposition, ★
  reading and place of the winning tile; the others' melds, triplets and bonus tiles), and
  the payments settled;
- ``paiju, winner only``: the winner's score alone (what ``mahjong`` computes);
- ``mahjong``: ``HandCalculator.estimate_hand_value`` on complete closed 14-tile riichi
  hands, declared riichi so that each has a yaku and is scored in full (han, fu, cost).

Like for like:

- **no hand is scored twice**: every contender's slice takes a batch of hands that no
  contender has scored before in that mode (``--hands`` per slice; paiju's pool comes from
  distinct deals, both pools are deduplicated);
- **the caches, both ways**: *cold* empties both libraries' caches before every slice
  (paiju's suit readings, :func:`paiju.mazhan.hand.clear_readings_cache`; mahjong's
  128-entry ``HandDivider`` cache); *warm* first scores ``--warm`` other hands on each side
  (untimed), then the rounds run without clearing. paiju's cache is bounded
  (:data:`paiju.mazhan.hand.READINGS_CACHE_SIZE`) and keyed by one suit's tiles, so a new
  hand hits it where one of its suits was seen before; mahjong's is keyed by the whole hand,
  so new hands never hit it (that is its design, not a handicap this benchmark adds);
- **ratios per round**: each round runs paiju (every seat), paiju (winner) and mahjong one
  after another on fresh batches; the ratio of a round is paiju's rate over mahjong's in
  that round; the table gives the median and the minimum over the rounds;
- **the same collector**: the input hands of both sides (and the warmed caches) are moved
  out of the garbage collector's walks (``gc.freeze``) before the rounds; what each scorer
  allocates while scoring is collected as usual;
- **CPU time**: each slice is timed by the process's CPU time (``time.process_time``), so
  that waiting for a core on a shared machine is left out of both sides.

    python benchmarks/scoring.py [--hands 400] [--repeats 5] [--warm 2000] [--seed 1]
                                 [--json] [--write]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interleave import fmt_rate, fmt_ratio, machine, race, ratio_summary, write_section

from paiju.bots.driver import play_hand
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.hand import READINGS_CACHE_SIZE, clear_readings_cache
from paiju.mazhan.record import FinishedHand
from paiju.mazhan.rules import Ruleset
from paiju.mazhan.scoring import _score_winner, score
from paiju.mazhan.seats import SEATS


def finished_hands(n: int, seed: int) -> list[FinishedHand]:
    """``n`` different finished hands with a winner, from seeded greedy play (one deal each).

    >>> hands = finished_hands(3, 1)
    >>> len(hands), all(h.winner is not None for h in hands)
    (3, True)
    """
    out: list[FinishedHand] = []
    seen: set[tuple[Any, ...]] = set()
    k = seed
    bots = [GreedyBot()] * 4
    ruleset = Ruleset()
    while len(out) < n:
        state, _ = play_hand(ruleset, bots, k)
        k += 1
        if state.result is not None and state.result.winner is not None:
            hand = state.result.finished
            key = (hand.wild, hand.win_tile, hand.win_by, hand.winner,
                   *(hand.players[s] for s in SEATS))  # fmt: skip
            if key not in seen:
                seen.add(key)
                out.append(hand)
    return out


def riichi_hands(n: int, seed: int) -> list[tuple[list[int], int]]:
    """``n`` different complete closed riichi hands (136-tile indices) with a winning tile.

    >>> hands = riichi_hands(50, 1)
    >>> len({(tuple(t // 4 for t in tiles), w // 4) for tiles, w in hands})
    50
    """
    rng = random.Random(seed)
    out: list[tuple[list[int], int]] = []
    seen: set[tuple[tuple[int, ...], int]] = set()
    while len(out) < n:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                s = rng.randrange(3) * 9 + rng.randrange(7)
                for i in range(3):
                    counts[s + i] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        tiles = [f * 4 + c for f in range(34) for c in range(counts[f])]
        win = rng.choice(tiles)
        key = (tuple(counts), win // 4)
        if key not in seen:
            seen.add(key)
            out.append((tiles, win))
    return out


def _batches(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for i in range(0, len(items) - size + 1, size):
        yield items[i : i + size]


def _contender(
    batches: Iterator[Sequence[Any]], f: Callable[[Any], Any], clear: Callable[[], None] | None
) -> Callable[[float], float]:
    """Each call scores the next batch (never one scored before), after ``clear`` if given
    (the cold mode); the slice's length is the batch's, not ``seconds``."""

    def run(seconds: float) -> float:
        batch = next(batches)
        if clear is not None:
            clear()
        for x in batch:
            f(x)
        return len(batch)

    return run


def _score_winner_only(h: FinishedHand) -> Any:
    winner = h.winner
    assert winner is not None  # the pool holds hands with a winner
    return _score_winner(h, winner, h.players[winner])


def measure(hands: int = 400, seed: int = 1, repeats: int = 5, warm: int = 2000) -> dict[str, Any]:
    """Every figure of this benchmark, cold and warm (``ratios[mode][key]``: the per-round
    ratios to mahjong of ``paiju`` and ``paiju_winner``)."""
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig

    config = HandConfig(is_riichi=True)  # every hand has a yaku, so every hand is scored
    estimate = HandCalculator.estimate_hand_value

    def mahjong_one(tw: tuple[list[int], int]) -> Any:
        return estimate(tw[0], tw[1], config=config)

    def mahjong_clear() -> None:
        HandDivider._divide_hand_impl.cache_clear()

    per_mode = 2 * repeats * hands  # two paiju contenders, a fresh batch each per round
    ours = finished_hands(warm + 2 * per_mode, seed)
    theirs = riichi_hands(warm + repeats * hands * 2, seed)  # one contender, two modes
    assert all(mahjong_one(tw).error is None for tw in theirs[:200])
    # imports and first allocations, on hands that are not measured: then the cache is emptied
    for h in ours[:20]:
        score(h)
    for tw in theirs[:20]:
        mahjong_one(tw)
    out: dict[str, Any] = {
        "hands_per_slice": hands,
        "repeats": repeats,
        "warm_hands": warm,
        "readings_cache_size": READINGS_CACHE_SIZE,
        "machine": machine(),
        "modes": {},
        "ratios": {},
    }
    for m, mode in enumerate(("cold", "warm")):
        pool = ours[warm + m * per_mode : warm + (m + 1) * per_mode]
        cold = mode == "cold"
        clear_readings_cache()
        mahjong_clear()
        if not cold:
            for h in ours[:warm]:
                score(h)
            for tw in theirs[:warm]:
                mahjong_one(tw)
        # both pools of input hands (and the warmed caches) out of the collector's walks:
        # otherwise every full collection during a slice walks the thousands of hands
        # waiting their turn, a cost of this benchmark, not of either scorer
        gc.collect()
        gc.freeze()
        r = race(
            {
                "paiju": _contender(_batches(pool[: per_mode // 2], hands), score,
                                    clear_readings_cache if cold else None),
                "paiju_winner": _contender(_batches(pool[per_mode // 2 :], hands),
                                           _score_winner_only,
                                           clear_readings_cache if cold else None),
                "mahjong": _contender(_batches(theirs[warm + m * repeats * hands :], hands),
                                      mahjong_one,
                                      mahjong_clear if cold else None),
            },
            seconds=0.0,
            repeats=repeats,
            warm_up=False,
            clock="cpu",
        )  # fmt: skip
        gc.unfreeze()
        out["modes"][mode] = r
        out["ratios"][mode] = {
            key: ratio_summary(r, key, "mahjong") for key in ("paiju", "paiju_winner")
        }
    # the shape run_all.py reads: the warm mode's medians
    warm_rates = out["modes"]["warm"]["rates"]
    out["paiju_per_second"] = warm_rates["paiju"]["median"]
    out["mahjong_per_second"] = warm_rates["mahjong"]["median"]
    out["ratio"] = out["ratios"]["warm"]["paiju"]["median"]
    return out


LABELS = (
    ("paiju", "paiju `score`: every seat, every reading, payments"),
    ("paiju_winner", "paiju, the winner's score only"),
    ("mahjong", "mahjong `HandCalculator.estimate_hand_value` (the winner)"),
)


def markdown(r: dict[str, Any]) -> list[str]:
    """This benchmark's section of ``benchmarks/RESULTS.md``."""
    cold, warm = r["modes"]["cold"], r["modes"]["warm"]
    lines = [
        "## Scored hands per second, hands never scored before, against `mahjong` "
        "(`benchmarks/scoring.py`)",
        "",
        f"{r['machine']}; load average {cold['load'][0]:.2f} at the start, "
        f"{warm['load'][1]:.2f} at the end. Each slice scores {r['hands_per_slice']:,} hands "
        f"no contender has scored before; {r['repeats']} rounds per mode, interleaved; "
        "rates in hands per CPU second of the process. "
        "paiju: finished Mazhan hands with a winner from seeded `greedy` play (distinct "
        "deals); mahjong: distinct complete closed riichi hands declared riichi (each scored "
        "in full). Different rules, so not the same hands. *Cold*: both libraries' caches "
        "emptied before every slice. *Warm*: each side first scores "
        f"{r['warm_hands']:,} other hands, untimed; paiju's readings cache is bounded at "
        f"{r['readings_cache_size']:,} entries (mahjong's at 128 whole hands).",
        "",
        "| scorer | cold: hands/s (median) | cold: ratio to mahjong per round "
        "| warm: hands/s (median) | warm: ratio to mahjong per round |",
        "|---|---:|---:|---:|---:|",
    ]
    for key, label in LABELS:
        cells = []
        for mode, m in (("cold", cold), ("warm", warm)):
            cells.append(fmt_rate(m["rates"][key]["median"]))
            cells.append("" if key == "mahjong" else fmt_ratio(r["ratios"][mode][key]))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per slice")
    parser.add_argument("--repeats", type=int, default=5, help="rounds per mode")
    parser.add_argument("--warm", type=int, default=2000, help="hands scored to warm up")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    start = time.perf_counter()
    r = measure(args.hands, args.seed, args.repeats, args.warm)
    r["command"] = "python benchmarks/scoring.py " + " ".join(sys.argv[1:])
    r["wall_seconds"] = time.perf_counter() - start
    lines = markdown(r)
    if args.write:
        write_section("scoring", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
