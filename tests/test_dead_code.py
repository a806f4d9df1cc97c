"""No dead code in ``paiju/`` (issue 37): vulture finds nothing but what is listed here, each
with why it lives (an attribute a framework reads, a counter for a person to read, what a
test compares against). A new name that nothing uses fails this test: remove it, or list it
with its reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: read by frameworks (SQLAlchemy event hooks, Gymnasium/PettingZoo, stable-baselines3, rich,
#: pydantic) or by name at run time
FRAMEWORK = [
    "model_config", "forward", "possible_agents", "observation_spaces", "action_spaces",
    "state_space", "__module__", "__qualname__", "action_net", "optimizer", "caption",
    "caption_justify", "_pragmas", "_begin", "_connect", "isolation_level", "layout", "__doc__",
    "collect",  # a prometheus_client collector's, called at each scrape
    "should_exit",  # uvicorn's Server reads it in its main loop (paiju/server/drain.py)
]  # fmt: skip
#: counters and flags for a person (or a test) to read: the writer's batches and writes, a
#: socket that overflowed, the password gate's running hashes, the expert's search counts
READ_BY_PEOPLE = ["batches", "writes", "overflowed", "running", "searched", "switched"]
#: data: a hand's number; the scorer's example hand; the slow paths the fast ones are
#: checked against (tests/mazhan/test_fast_paths.py)
DATA = ["no", "EXAMPLE", "_readings_of_free_groups", "_win_placements"]
DECORATED = [
    "@router.*", "@field_validator", "@model_validator", "@app.*", "@*.exception_handler",
    "@event.listens_for", "@property", "@functools.*", "@staticmethod",
]  # fmt: skip
#: the wire's and the views' models (and each game's schema.py: fields read by pydantic and
#: the client), the migrations (read by Alembic), the built client
EXCLUDED = [
    "paiju/web", "paiju/server/migrations", "paiju/views.py", "paiju/server/protocol.py",
    "*/schema.py",
]  # fmt: skip


def test_vulture_finds_no_dead_code() -> None:
    found = subprocess.run(
        [sys.executable, "-m", "vulture", "paiju", "--min-confidence", "60",
         "--exclude", ",".join(EXCLUDED), "--ignore-decorators", ",".join(DECORATED),
         "--ignore-names", ",".join(FRAMEWORK + READ_BY_PEOPLE + DATA)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert found.returncode == 0, found.stdout + found.stderr
