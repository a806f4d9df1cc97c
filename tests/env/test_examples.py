"""The examples check their command lines before building anything (argparse errors), and the
PPO script's evaluation of a single deal reports no interval."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_random_loop_refuses_an_unknown_game() -> None:
    proc = subprocess.run(
        [sys.executable, "examples/rl_random_loop.py", "foo", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "invalid choice: 'foo'" in proc.stderr
    loop = _load("rl_random_loop")
    with pytest.raises(ValueError, match="unknown game 'foo'"):
        loop.main("foo", 1)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--eval-deals", "0"], "argument --eval-deals: must be at least 1, got 0"),
        (["--envs", "0"], "argument --envs: must be at least 1, got 0"),
        (["--workers", "0"], "argument --workers: must be at least 1"),
        (["--minutes", "0"], "argument --minutes: must be more than 0"),
        (["--seed", "-1"], "argument --seed: must be at least 0"),
        (["--imitate", "foo"], "argument --imitate: unknown mazhan bot 'foo'"),
        (
            ["--minutes", "10", "--imitate-minutes", "12"],
            "--imitate-minutes (12) must be within --minutes (10)",
        ),
    ],
)
def test_train_ppo_checks_its_arguments_up_front(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    train = _load("train_ppo")  # importable without the [rl] extra
    with pytest.raises(SystemExit) as exit_:
        train.parse_args(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_train_ppo_keeps_imitation_within_the_budget() -> None:
    train = _load("train_ppo")
    assert train.parse_args([]).imitate_minutes == 4.0
    assert train.parse_args(["--minutes", "3"]).imitate_minutes == 3.0  # the default, capped
    assert train.parse_args(["--imitate", "none", "--imitate-minutes", "1"]).imitate == "none"


def test_one_evaluation_deal_gives_no_interval() -> None:
    train = _load("train_ppo")
    ev = train.summarize([25.0], wins=1, hands=4)
    assert ev["ci95"] is None and ev["mean_net"] == 25.0
    assert train.interval_text(ev) == "(n < 2: no interval)"
    two = train.summarize([25.0, 5.0], wins=1, hands=8)
    lo, hi = two["ci95"]
    assert lo < 15.0 < hi and train.interval_text(two).startswith("[")
