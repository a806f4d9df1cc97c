"""Does the expert's choice beat the alternatives it weighed? Paired continuations (issue 18).

    python benchmarks/expert_pairs.py run 301 600 /tmp/pairs_301.json
    python benchmarks/expert_pairs.py report /tmp/pairs_301.json /tmp/pairs_302.json

``run`` plays duplicate deals as the arena does (the expert's rating, no search, in one
seat; ``strong`` in the other three). At every decision of the expert's seat with two or
more candidates — the rating's best three within its margin on a turn, every option in a
claim window — it plays the rating's choice and one other candidate drawn at random, each
from the true state to the end of the hand with the same bots and the same chance, and
records the difference of the seat's net (chosen − other, 胡). The hand then goes on with
the rating's choice. Unlike a search, which must sample the hidden tiles and play a cheap
policy, each pair here is an unbiased sample of what the choice is worth against the
alternative under the bots' own play; unlike an arena, each decision is measured alone.

``report`` prints the mean difference with its 95% interval by kind of decision (which
action was chosen, which was the other, and by how much the chosen one lowered shanten) and
by the rating's margin between the two. A negative mean in a group is a place where the
rating chooses worse than its alternative.

One process, one core (about 40 pairs a second); run it under ``nice`` on a shared machine.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paiju.bots.base import Bot
from paiju.bots.driver import bot_rng
from paiju.games import game
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.bots.expert import CHOW, LOSER, MARGIN, ExpertBot, rate_with_value
from paiju.mazhan.bots.strong import StrongBot, rate_actions
from paiju.mazhan.rules import Phase, State, acting, apply, legal_actions_for
from paiju.mazhan.seats import SEATS
from paiju.mazhan.views import View, observe

Row = dict[str, Any]


def _seat_to_act(state: State) -> int:
    return state.current if state.phase is Phase.ACT else acting(state)[0].number - 1


def finish(state: State, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> State:
    """Play ``state`` to its end, ``bots[i]`` in seat ``i`` drawing from ``rngs[i]``.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> s = finish(new_hand(Ruleset(), 3), [StrongBot()] * 4, [random.Random(i) for i in range(4)])
    >>> s.phase.value
    'over'
    """
    while state.phase is not Phase.OVER:
        i = _seat_to_act(state)
        seat = SEATS[i]
        legal = legal_actions_for(state, seat)
        state, _ = apply(state, bots[i].act(observe(state, seat), legal, rngs[i]))
    return state


def candidates(view: View, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    """The expert's options at this decision, best first, with its ratings: the best three
    within ``MARGIN`` on a turn (those its search weighs), every option in a claim window.

    >>> from paiju.mazhan.rules import Ruleset, new_hand
    >>> from paiju.mazhan.seats import Seat
    >>> view = observe(new_hand(Ruleset(), 9), Seat.E)
    >>> 1 <= len(candidates(view, view.legal)) <= 3
    True
    """
    ranked = rate_with_value(view, legal, loser=LOSER, chow=CHOW)
    if view.phase is not Phase.ACT or not ranked:
        return ranked
    return [(u, a) for u, a in ranked[:3] if u >= ranked[0][0] - MARGIN]


def _shanten(view: View, legal: Sequence[Action]) -> dict[Action, int]:
    return {r.action: r.shanten for r in rate_actions(view, legal, chow=CHOW)}


def run(seed: int, deals: int, out: Path) -> list[Row]:
    """Measure every decision of the expert's seat over ``deals`` duplicate deals."""
    g = game("mazhan")
    ruleset = g.default_ruleset()
    expert, strong = ExpertBot(candidates=1), StrongBot()
    deal_rng, pick = random.Random(seed), random.Random(seed + 1)
    rows: list[Row] = []
    start = time.perf_counter()
    for d in range(deals):
        hand_seed = deal_rng.getrandbits(63)
        for rotation in range(4):
            me = (4 - rotation) % 4
            bots: list[Bot] = [strong] * 4
            bots[me] = expert
            state: State = g.new_hand(ruleset, hand_seed, {})
            rngs = [bot_rng(hand_seed, s) for s in SEATS]
            while state.phase is not Phase.OVER:
                i = _seat_to_act(state)
                seat = SEATS[i]
                legal = legal_actions_for(state, seat)
                view = observe(state, seat)
                if i == me and not any(a.kind in (ActionKind.HU, ActionKind.SHAZHU) for a in legal):
                    for row in _pair(view, legal, state, bots, rngs, pick):
                        rows.append({"hand": f"{seed}:{d}:{rotation}", **row})
                state, _ = apply(state, bots[i].act(view, legal, rngs[i]))
        if d % 20 == 19 or d == deals - 1:
            out.write_text(json.dumps(rows))
            print(f"{d + 1} deals, {len(rows)} pairs, {time.perf_counter() - start:.0f} s")
    return rows


def _pair(
    view: View,
    legal: Sequence[Action],
    state: State,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    pick: random.Random,
) -> list[Row]:
    ranked = candidates(view, legal)
    if len(ranked) < 2:
        return []
    (u1, a1), (u2, a2) = ranked[0], ranked[pick.randrange(1, len(ranked))]
    sf = _shanten(view, legal)
    snapshot = [r.getstate() for r in rngs]
    nets = []
    for a in (a1, a2):
        chance = [random.Random() for _ in rngs]
        for r, s in zip(chance, snapshot, strict=True):
            r.setstate(s)
        end = finish(apply(state, a)[0], bots, chance)
        assert end.result is not None
        nets.append(end.result.settlement.net[view.seat])
    return [
        {
            "chosen": str(a1),
            "other": str(a2),
            "kinds": [a1.kind.value, a2.kind.value],
            "lower": sf.get(a2, 0) - sf.get(a1, 0),
            "margin": u1 - u2,
            "turn": view.phase is Phase.ACT,
            "left": view.wall_left - view.dead_wall,
            "diff": nets[0] - nets[1],
        }
    ]


def summary(values: list[tuple[str, float]]) -> tuple[int, float, float]:
    """Count, mean and the half-width of its 95% interval of (hand, difference) pairs. The
    decisions of one hand are not independent (one decision changes the next ones), so the
    variance is summed over hands (a cluster-robust standard error).

    >>> summary([("a", 1.0), ("a", 3.0), ("b", 2.0)])[:2]
    (3, 2.0)
    """
    n = len(values)
    mean = sum(v for _, v in values) / n
    by_hand: dict[str, float] = defaultdict(float)
    for hand, v in values:
        by_hand[hand] += v - mean
    var = sum(x * x for x in by_hand.values()) / (n * n)
    if len(by_hand) > 1:
        var *= len(by_hand) / (len(by_hand) - 1)
    return n, mean, 1.96 * math.sqrt(var)


def report(rows: list[Row]) -> None:
    """Print the mean difference (chosen − other) by kind of decision and by margin."""

    def group(title: str, key: Callable[[Row], str | None]) -> None:
        groups: dict[str, list[tuple[str, float]]] = defaultdict(list)
        for r in rows:
            k = key(r)
            if k is not None:
                groups[k].append((r["hand"], float(r["diff"])))
        print(title)
        for k in sorted(groups):
            if len(groups[k]) >= 20:
                n, mean, half = summary(groups[k])
                print(
                    f"  {k:<34} n {n:6d}  {mean:+8.2f} [{mean - half:+8.2f}, {mean + half:+8.2f}]"
                )

    print(f"{len(rows)} pairs; chosen − other, 胡, 95% interval")
    group("all decisions", lambda r: "turn" if r["turn"] else "claim window")
    group(
        "claim windows: chosen / other, shanten lowered by the chosen",
        lambda r: None if r["turn"] else f"{r['kinds'][0]} / {r['kinds'][1]}, {r['lower']:+d}",
    )
    group("turns: shanten lowered by the chosen discard, wall", _turn_key)
    group("turns: the rating's margin", _margin_key)


def _turn_key(r: Row) -> str | None:
    if not r["turn"]:
        return None
    return f"{r['lower']:+d}, {'wall < 30' if r['left'] < 30 else 'wall >= 30'}"


def _margin_key(r: Row) -> str | None:
    if not r["turn"]:
        return None
    if r["margin"] < 1e-6:
        return "tie"
    return f"< {10 * (1 + min(int(r['margin'] // 10), 10)):3d}"


def main(argv: list[str]) -> None:
    """The command line (see the module docstring)."""
    if argv[:1] == ["run"] and len(argv) == 4:
        run(int(argv[1]), int(argv[2]), Path(argv[3]))
    elif argv[:1] == ["report"] and len(argv) >= 2:
        report([r for p in argv[1:] for r in json.loads(Path(p).read_text())])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
