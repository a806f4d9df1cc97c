"""``benchmarks/ladder.py``: pairs pooled over seeds, the Bradley–Terry rating and the
section it writes (a few hands of the cheap pairs; no strength is asserted here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import ladder


def test_pairs_pool_over_seeds_and_the_section_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = [ladder.play_pair("madiao", "heuristic", "random", 8, seed) for seed in (1, 2)]
    assert runs[0] == ladder.play_pair("madiao", "heuristic", "random", 8, 1)  # seeded
    games = ladder.summarise(runs)
    (pair,) = games["madiao"]["pairs"]
    assert pair["hands"] == 16 and pair["deals"] == 4 and pair["seeds"] == [1, 2]
    assert pair["lo"] <= pair["mean"] <= pair["hi"]
    assert pair["a_won"] + pair["b_won"] == 4
    assert games["madiao"]["rating"]["heuristic"] == 0.0  # the normal level's bot
    data = {
        "run": {"date": "2026-12-06", "command": "x", "seconds": 60.0, "workers": 1,
                "cpus": 2, "load": [1.0, 1.0]},
        "games": games,
    }  # fmt: skip
    results, docs = tmp_path / "RESULTS.md", tmp_path / "bots.md"
    results.write_text("# Results\n", encoding="utf-8")
    docs.write_text(f"# Bots\n\n{ladder.BEGIN}\nold\n{ladder.END}\n\nafter\n", encoding="utf-8")
    monkeypatch.setattr(ladder, "RESULTS", results)
    monkeypatch.setattr(ladder, "DOCS", docs)
    ladder.write(data)
    ladder.write(data)  # again: replaced, not added
    for path in (results, docs):
        text = path.read_text(encoding="utf-8")
        assert text.count(ladder.BEGIN) == 1 and "| heuristic − random | 16 (2) |" in text
    assert "old" not in docs.read_text(encoding="utf-8")
    assert docs.read_text(encoding="utf-8").endswith("after\n")


def test_bradley_terry_orders_by_deals_won() -> None:
    wins = {("a", "b"): 30.0, ("b", "a"): 10.0, ("b", "c"): 30.0, ("c", "b"): 10.0}
    s = ladder.bradley_terry(wins, ["a", "b", "c"])
    assert s["a"] > s["b"] > s["c"]
    assert abs(s["a"] / s["b"] - 3.0) < 1e-6


def test_a_policy_pair_needs_the_policy_and_the_session_names_it() -> None:
    with pytest.raises(ValueError, match="needs --policy"):
        ladder.play_pair("mazhan", ladder.POLICY, "greedy", 4, 1)
    runs = [ladder.play_pair("madiao", "heuristic", "random", 4, 1)]
    session = {"date": "2026-12-06", "command": "x", "seconds": 60.0, "workers": 1,
               "cpus": 2, "load": [1.0, 1.0],
               "policy": {"path": "runs/ppo/policy.zip", "sha256": "ab" * 32}}  # fmt: skip
    text = "\n".join(ladder.markdown({"sessions": [session], "games": ladder.summarise(runs)}))
    assert "(`ppo`: `runs/ppo/policy.zip`, SHA-256 abababababab…)" in text
