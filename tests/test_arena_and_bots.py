"""The arena and the strong bots (issue: strong bots, an arena, the RL environments)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paiju.arena import arena, mean_ci

ROOT = Path(__file__).resolve().parent.parent


def test_each_bot_plays_every_seat_equally() -> None:
    r = arena("mazhan", 40, 3, ["greedy", "random", "greedy", "random"])
    assert r["hands"] == 40 and r["deals"] == 10
    assert r["bots"]["greedy"]["hands"] == r["bots"]["random"]["hands"] == 80
    for b in r["bots"].values():
        lo, hi = b["ci95"]
        assert lo <= b["mean_net"] <= hi


def test_the_same_seed_gives_the_same_ratings() -> None:
    a = arena("madiao", 16, 9, ["heuristic", "random", "random", "random"])
    assert a == arena("madiao", 16, 9, ["heuristic", "random", "random", "random"])


def test_mean_ci() -> None:
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and lo < 2.5 < hi


def test_strong_beats_greedy_on_a_fixed_seed() -> None:
    r = arena("mazhan", 600, 2024, ["strong", "greedy", "greedy", "greedy"])
    assert r["bots"]["strong"]["mean_net"] > r["bots"]["greedy"]["mean_net"]
    assert r["bots"]["strong"]["win_rate"] > r["bots"]["greedy"]["win_rate"]


def test_heuristic_beats_random_at_ma_diao() -> None:
    r = arena("madiao", 400, 11, ["heuristic", "random", "random", "random"])
    diff = r["differences"]["heuristic - random"]
    assert diff["ci95"][0] > 0


@pytest.mark.soak
@pytest.mark.timeout(3600)  # a long run by design
def test_soak_strong_beats_greedy_over_2000_hands() -> None:
    r = arena("mazhan", 2000, 77, ["strong", "greedy", "greedy", "greedy"])
    assert r["differences"]["strong - greedy"]["ci95"][0] > 0


def test_arena_cli_json() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "paiju.cli",
            "arena",
            "madiao",
            "--games",
            "8",
            "--seed",
            "1",
            "--bots",
            "heuristic,random,random,random",
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out["bots"]["heuristic"]) == {
        "hands",
        "mean_net",
        "ci95",
        "win_rate",
        "deal_in_rate",
    }
