"""Complete-hand checks per second: paiju against the `mahjong` library, on the same hands.

Both libraries check the **same 14-tile hands** (four sets and a pair when complete; no ★,
no 白, which Mazhan keeps out of hands), of three kinds: random tiles from the wall, one tile
off a complete hand (what most draws in play bring), and complete hands. Each library gets
them in three forms, prepared outside the timer:

- a 34-count list: paiju ``is_complete_counts(c, 0)``, mahjong ``Agari().is_agari(c)``;
- a parsed tile list: paiju a list of :class:`~paiju.mazhan.tiles.Tile` to
  ``is_complete``, mahjong its 136-index list through ``TilesConverter.to_34_array`` to
  ``is_agari``;
- a string, the same text for both (``"123m456p789s11122z"``): paiju ``is_complete``,
  mahjong ``TilesConverter.one_line_string_to_34_array`` then ``is_agari``.

The answers differ only where riichi also accepts seven pairs or thirteen orphans (the
complete shares are reported). Beside them, paiju's own forms (no peer): 17-tile Mazhan hands
with 0–3 ★ from suit keys and from 34-count lists, and the NumPy batch check
(``paiju.mazhan.fast``).
Timing: :mod:`interleave` (alternating slices of CPU time; ratios per round, median and
worst round).

    python benchmarks/win_check.py [--hands 20000] [--seconds 1] [--repeats 3] [--write]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interleave import fmt_rate, machine, race, ratio, write_section

from paiju.mazhan.fast.batch import is_complete_batch, is_complete_counts_batch
from paiju.mazhan.hand import (
    is_complete,
    is_complete_counts,
    is_complete_keys,
    suit_keys,
)
from paiju.mazhan.tiles import ALL_TILES, PLAYABLE_FACES, format_tiles

KINDS = ("random", "one off", "complete")
FACES = [t.index for t in PLAYABLE_FACES]  # 33 faces: no 白 (31)


def _complete(rng: random.Random, sets: int) -> list[int]:
    """``sets`` random sets (chows or pungs) and a pair, as 34 counts, no face five times."""
    while True:
        counts = [0] * 34
        for _ in range(sets):
            if rng.random() < 0.5:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for k in range(3):
                    counts[start + k] += 1
            else:
                counts[rng.choice(FACES)] += 3
        counts[rng.choice(FACES)] += 2
        if max(counts) <= 4:
            return counts


def _one_off(rng: random.Random, counts: list[int]) -> list[int]:
    """Swap one tile for another face: what a draw usually brings."""
    c = list(counts)
    out = rng.choice([f for f in FACES if c[f]])
    into = rng.choice([f for f in FACES if f != out and c[f] < 4])
    c[out] -= 1
    c[into] += 1
    return c


def hands14(kind: str, n: int, seed: int) -> list[list[int]]:
    """14-tile hands as 34-count lists (no 白): random, one tile off complete, complete."""
    rng = random.Random(seed)
    wall = [f for f in FACES for _ in range(4)]
    out = []
    for _ in range(n):
        if kind == "random":
            counts = [0] * 34
            for f in rng.sample(wall, 14):
                counts[f] += 1
        else:
            counts = _complete(rng, 4)
            if kind == "one off":
                counts = _one_off(rng, counts)
        out.append(counts)
    return out


def hands17(kind: str, n: int, seed: int) -> list[tuple[list[int], int]]:
    """17-tile Mazhan hands, natural counts and 0–3 ★ (uniform)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        wilds = rng.randrange(4)
        if kind == "random":
            pool = [f for f in FACES for _ in range(4)]
            counts = [0] * 34
            for f in rng.sample(pool, 17 - wilds):
                counts[f] += 1
        else:
            counts = _complete(rng, 5)
            for _ in range(wilds):
                counts[rng.choice([f for f in FACES if counts[f]])] -= 1
            if kind == "one off":
                counts = _one_off(rng, counts)
        out.append((counts, wilds))
    return out


def _cycle(items: Sequence[Any], check: Callable[[Any], Any]) -> Callable[[float], float]:
    """A contender: ``check`` over ``items`` again and again for about ``seconds``."""

    def run(seconds: float) -> float:
        done = 0
        end = time.process_time() + seconds
        while True:
            for x in items:
                check(x)
            done += len(items)
            if time.process_time() >= end:
                return done

    return run


def _tiles136(counts: list[int]) -> list[int]:
    return [f * 4 + k for f in range(34) for k in range(counts[f])]


def _tiles(counts: list[int]) -> list[Any]:
    return [ALL_TILES[f] for f in range(34) for _ in range(counts[f])]


def measure_kind(kind: str, hands: int, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    from mahjong.agari import Agari
    from mahjong.tile import TilesConverter

    counts = hands14(kind, hands, seed)
    tiles = [_tiles(c) for c in counts]
    t136 = [_tiles136(c) for c in counts]
    text = [format_tiles(t) for t in tiles]
    native = hands17(kind, hands, seed)
    keyed = [(*suit_keys(c), w) for c, w in native]
    agari = Agari().is_agari
    to34 = TilesConverter.to_34_array
    from_text = TilesConverter.one_line_string_to_34_array
    ours = sum(map(lambda c: is_complete_counts(c, 0), counts))
    assert ours == sum(map(is_complete, tiles)) == sum(map(is_complete, text))
    assert sum(1 for c, w in native if is_complete_counts(c, w)) == sum(
        1 for k in keyed if is_complete_keys(*k)
    )
    r = race(
        {
            "paiju_counts": _cycle(counts, lambda c: is_complete_counts(c, 0)),
            "mahjong_counts": _cycle(counts, agari),
            "paiju_tiles": _cycle(tiles, is_complete),
            "mahjong_tiles": _cycle(t136, lambda t: agari(to34(t))),
            "paiju_text": _cycle(text, is_complete),
            "mahjong_text": _cycle(text, lambda s: agari(from_text(s))),
            "paiju17_keys": _cycle(keyed, lambda k: is_complete_keys(*k)),
            "paiju17_counts": _cycle(native, lambda cw: is_complete_counts(cw[0], cw[1])),
        },
        seconds,
        repeats,
        clock="cpu",
    )
    r["complete_share"] = {
        "paiju": ours / hands,
        "mahjong": sum(map(agari, counts)) / hands,
    }
    r["ratios"] = {
        form: {
            "median": ratio(r, f"paiju_{form}", f"mahjong_{form}"),
            "min": ratio(r, f"paiju_{form}", f"mahjong_{form}", "min"),
        }
        for form in ("counts", "tiles", "text")
    }
    return r


def measure_batch(hands: int, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    ours = hands17("random", hands, seed)
    reps = max(1, 1_000_000 // hands)
    counts_arr = np.tile(np.array([c for c, _ in ours], dtype=np.uint8), (reps, 1))
    wilds_arr = np.tile(np.array([w for _, w in ours], dtype=np.uint8), reps)
    keys_arr = np.tile(np.array([suit_keys(c) for c, _ in ours], dtype=np.int32), (reps, 1))
    n = len(wilds_arr)
    expected = sum(1 for c, w in ours if is_complete_counts(c, w)) * reps
    assert int(is_complete_batch(keys_arr, wilds_arr).sum()) == expected
    assert int(is_complete_counts_batch(counts_arr, wilds_arr).sum()) == expected

    def batch(f: Callable[[], Any]) -> Callable[[float], float]:
        def run(seconds: float) -> float:
            done = 0
            end = time.process_time() + seconds
            while True:
                f()
                done += n
                if time.process_time() >= end:
                    return done

        return run

    r = race(
        {
            "from_keys": batch(lambda: is_complete_batch(keys_arr, wilds_arr)),
            "from_counts": batch(lambda: is_complete_counts_batch(counts_arr, wilds_arr)),
        },
        seconds,
        repeats,
        clock="cpu",
    )
    r["hands"] = n
    return r


def measure(
    hands: int = 20_000, repeats: int = 3, seed: int = 1, seconds: float = 1.0
) -> dict[str, Any]:
    """Every figure of this benchmark. ``per_call[kind]`` and ``batch`` also carry the
    keys ``run_all.py`` reads (``paiju_keys``, ``paiju_counts``, ``mahjong``, ratios)."""
    per_call = {k: measure_kind(k, hands, seconds, repeats, seed) for k in KINDS}
    for r in per_call.values():  # the shape run_all.py reads
        rates = r["rates"]
        r["paiju_keys"] = rates["paiju17_keys"]["median"]
        r["paiju_counts"] = rates["paiju_counts"]["median"]
        r["mahjong"] = rates["mahjong_counts"]["median"]
        r["ratio_keys"] = r["paiju_keys"] / r["mahjong"]
        r["ratio_counts"] = r["ratios"]["counts"]["median"]
    b = measure_batch(hands, seconds, repeats, seed)
    b["from_keys"] = b["rates"]["from_keys"]["median"]
    b["from_counts"] = b["rates"]["from_counts"]["median"]
    return {"hands": hands, "machine": machine(), "per_call": per_call, "batch": b}


FORMS = (
    ("counts", "34-count list"),
    ("tiles", "parsed tile list"),
    ("text", "string"),
)


def markdown(r: dict[str, Any]) -> list[str]:
    """This benchmark's section of ``benchmarks/RESULTS.md``."""
    first = r["per_call"]["random"]
    lo, hi = first["load"]
    lines = [
        "## Complete-hand checks, against `mahjong` on the same hands (`benchmarks/win_check.py`)",
        "",
        f"{r['machine']}; {r['hands']:,} hands of each kind, the same 14-tile hands (no ★, "
        "no 白) for both libraries, in the same three forms; slices of "
        f"{first['seconds']:g} s of CPU time interleaved, {first['repeats']} rounds (load "
        f"average {lo:.2f} before the first, {hi:.2f} after). Median rates per CPU second "
        "(minimum in brackets); the ratio is paiju / mahjong in each round: the median of "
        "the rounds (the worst round). Both libraries check each hand many times (the same "
        "hands cycled): neither keeps a per-hand cache.",
        "",
        "| hands | form | paiju | mahjong | ratio |",
        "|---|---|---:|---:|---:|",
    ]
    for kind in KINDS:
        k = r["per_call"][kind]
        rates = k["rates"]
        for form, label in FORMS:
            p, m = rates[f"paiju_{form}"], rates[f"mahjong_{form}"]
            q = k["ratios"][form]
            lines.append(
                f"| {kind} | {label} | {fmt_rate(p['median'])}/s ({fmt_rate(p['min'])}) | "
                f"{fmt_rate(m['median'])}/s ({fmt_rate(m['min'])}) | "
                f"**{q['median']:.2f}×** ({q['min']:.2f}×) |"
            )
    lines += [
        "",
        "Complete shares (paiju / mahjong): "
        + ", ".join(
            f"{kind} {r['per_call'][kind]['complete_share']['paiju']:.1%} / "
            f"{r['per_call'][kind]['complete_share']['mahjong']:.1%}"
            for kind in KINDS
        )
        + ".",
        "",
        "paiju's own forms (no peer): 17-tile Mazhan hands with 0–3 ★, median checks/s.",
        "",
        "| hands | from suit keys | from a 34-count list |",
        "|---|---:|---:|",
    ]
    for kind in KINDS:
        rates = r["per_call"][kind]["rates"]
        lines.append(
            f"| {kind} | {fmt_rate(rates['paiju17_keys']['median'])}/s | "
            f"{fmt_rate(rates['paiju17_counts']['median'])}/s |"
        )
    b = r["batch"]
    lines += [
        "",
        f"Batch check (NumPy, `paiju.mazhan.fast`), {b['hands']:,} random 17-tile hands: "
        f"**{fmt_rate(b['from_keys'])} hands/s** from suit keys, "
        f"{fmt_rate(b['from_counts'])} hands/s from 34-count rows.",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    r = measure(args.hands, args.repeats, args.seed, args.seconds)
    lines = markdown(r)
    if args.write:
        write_section("win_check", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
