"""``benchmarks/expert_pairs.py``: paired continuations measure one decision against another
(issue 18). No strength is asserted here: the benchmark measures it."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import expert_pairs

from paiju.mazhan.bots.strong import StrongBot
from paiju.mazhan.rules import Ruleset, apply, new_hand
from paiju.mazhan.seats import Seat
from paiju.mazhan.views import observe


def test_the_same_choice_from_the_same_chance_ends_the_same() -> None:
    """What makes a pair's difference the choice's alone: with the same state and the same
    chance, the continuation is the same hand."""
    state = new_hand(Ruleset(), 12)
    view = observe(state, Seat.E)
    action = expert_pairs.candidates(view, view.legal)[0][1]
    ends = []
    for _ in range(2):
        rngs = [random.Random(i) for i in range(4)]
        end = expert_pairs.finish(apply(state, action)[0], [StrongBot()] * 4, rngs)
        assert end.result is not None
        ends.append(dict(end.result.settlement.net))
    assert ends[0] == ends[1]


def test_a_run_is_reproducible_and_measures_the_expert_seat(tmp_path: Path) -> None:
    first = expert_pairs.run(7, 1, tmp_path / "a.json")
    second = expert_pairs.run(7, 1, tmp_path / "b.json")
    assert first == second and first
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    for row in first:
        assert row["chosen"] != row["other"]
        assert row["margin"] >= 0  # the rating's choice is its best
        assert row["chosen"].split()[0] == row["other"].split()[0]  # one seat decides
    assert {r["hand"] for r in first} <= {f"7:0:{k}" for k in range(4)}


def test_the_interval_counts_a_hands_decisions_together() -> None:
    # two hands, each with two decisions that moved together: the interval is wider than
    # four independent values would give
    values = [("a", 10.0), ("a", 10.0), ("b", -10.0), ("b", -10.0)]
    n, mean, half = expert_pairs.summary(values)
    assert (n, mean) == (4, 0.0)
    independent = 1.96 * (sum(v * v for _, v in values) / 3) ** 0.5 / 2
    assert half > independent
