"""The tutorial's training run (``--soak``, needs the ``[rl]`` extra): ``examples/train_ppo.py``
with its defaults trains against ``greedy`` within 30 minutes and beats it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_the_ppo_baseline_beats_greedy(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib", reason="needs the [rl] extra")
    proc = subprocess.run(
        [sys.executable, "examples/train_ppo.py", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=3500,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["train_minutes"] <= 30
    low, _high = results["evaluation"]["ci95"]
    assert low > 0, results["evaluation"]
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert (tmp_path / "policy.zip").exists() and (tmp_path / "policy.zip.json").exists()
