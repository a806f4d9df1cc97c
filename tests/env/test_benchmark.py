"""``benchmarks/env_steps.py`` runs and reports every contender (no speed is asserted here:
speed is measured by the benchmark, not by tests)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import env_steps


def test_the_env_benchmark_measures_every_contender() -> None:
    r = env_steps.measure(0.05, seed=1, repeats=1)
    for key, _label in env_steps.CONTENDERS:
        assert key in r
    assert r["mazhan_raw"]["steps_median"] > 0 and r["mazhan_aec"]["steps_median"] > 0
    assert r["mazhan_ratio"]["median"] > 0 and r["madiao_ratio"]["median"] > 0
    assert r["mazhan_ratio"]["min"] <= r["mazhan_ratio"]["median"]
    text = "\n".join(env_steps.markdown(r))
    assert "PettingZoo loop / raw engine loop" in text
