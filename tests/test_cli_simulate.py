"""`paiju simulate` and `paiju replay` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def paiju(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "paiju.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )


def test_simulate_writes_byte_identical_records_for_the_same_seed(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (a, b):
        proc = paiju(
            "simulate",
            "mazhan",
            "--games",
            "40",
            "--seed",
            "9",
            "--bots",
            "greedy,random,greedy,random",
            "--out",
            str(out),
            "--json",
        )
        assert proc.returncode == 0, proc.stderr
    assert a.read_bytes() == b.read_bytes()
    lines = a.read_text().splitlines()
    assert len(lines) == 40
    record = json.loads(lines[0])
    assert {"seed", "actions", "result"} <= set(record)
    assert set(record["result"]["net"]) == {"E", "S", "W", "N"}
    summary = json.loads(proc.stdout)
    assert summary["hands"] == 40
    assert sum(summary["wins_by_seat"].values()) + summary["draws"] == 40
    assert {
        "draw_rate",
        "mean_winning_value",
        "actions_per_hand",
        "hands_per_second",
        "wins_by_hand_type",
    } <= set(summary)


def test_simulate_prints_a_summary_table() -> None:
    proc = paiju("simulate", "mazhan", "--games", "5", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    for fragment in ("wins per seat", "流局", "actions per hand", "hands per second"):
        assert fragment in proc.stdout


def test_replay_accepts_records_and_names_a_tampered_hand_and_action(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    assert (
        paiju("simulate", "mazhan", "--games", "6", "--seed", "3", "--out", str(out)).returncode
        == 0
    )
    ok = paiju("replay", str(out))
    assert ok.returncode == 0, ok.stderr
    assert "6 hands" in ok.stdout

    lines = out.read_text().splitlines()
    record = json.loads(lines[2])
    record["actions"][3] = record["actions"][3].rsplit(" ", 1)[0] + " hu"
    lines[2] = json.dumps(record)
    other = json.loads(lines[4])
    other["result"]["net"]["E"] += 10
    lines[4] = json.dumps(other)
    out.write_text("\n".join(lines) + "\n")
    bad = paiju("replay", str(out))
    assert bad.returncode == 1
    assert "Traceback" not in bad.stderr
    assert "line 3, hand 2: action 4" in bad.stderr
    assert "line 5, hand 4: the result differs: net" in bad.stderr


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    for args in (
        ("simulate", "mazhan", "--bots", "greedy,clever"),
        ("simulate", "mazhan", "--games", "-1"),
        ("replay", str(tmp_path / "missing.jsonl")),
    ):
        proc = paiju(*args)
        assert proc.returncode == 2, args
        assert proc.stderr.startswith("paiju: error: ") and proc.stderr.count("\n") == 1


def test_madiao_simulate_replay_and_chong(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    proc = paiju(
        "simulate",
        "madiao",
        "--games",
        "12",
        "--seed",
        "4",
        "--bots",
        "heuristic,random,heuristic,random",
        "--out",
        str(out),
        "--json",
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["game"] == "madiao" and summary["hands"] == 12
    assert summary["actions_per_hand"] == 32
    ok = paiju("replay", str(out))
    assert ok.returncode == 0, ok.stderr
    lines = out.read_text().splitlines()
    record = json.loads(lines[1])
    record["actions"][0], record["actions"][1] = record["actions"][1], record["actions"][0]
    lines[1] = json.dumps(record)
    out.write_text("\n".join(lines) + "\n")
    bad = paiju("replay", str(out))
    assert bad.returncode == 1 and "line 2, hand 1: action 1" in bad.stderr

    chong = subprocess.run(
        [sys.executable, "-m", "paiju.cli", "madiao", "chong"],
        input='{"table": "qt", "captured": {"qt": "bt"}, "draws": "29t"}',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert json.loads(chong.stdout) == {"points": [10, 4], "total": 14}
    worse = subprocess.run(
        [sys.executable, "-m", "paiju.cli", "madiao", "chong"],
        input='{"table": "9m", "draws": "9m"}',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert worse.returncode == 2 and worse.stderr.count("\n") == 1
    assert "already on the table" in worse.stderr
