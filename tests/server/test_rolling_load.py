"""``benchmarks/load.py`` as tests. A rolling restart under load (``--soak``): at a small
size, its two servers (PostgreSQL, Redis) each drained by SIGTERM and restarted in turn
while people play at a human pace, each at a table of their own. The drain's bound is shorter
than a hand, so some hands end on the draining server and some are handed over: none is
lost, no escape is charged, no player whose hand ended in the drain saw their socket lost in
mid-hand, both servers exit 0, and the books balance (``paiju admin check``). And the
documented default store, SQLite, with a ramp and a settle, measures every table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.server.conftest import PG_ADMIN
from tests.server.test_cluster import REDIS

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import load


@pytest.mark.soak
@pytest.mark.db
def test_a_rolling_restart_under_load_loses_no_hand_and_cuts_no_finished_hand() -> None:
    args = load.parser().parse_args(
        ["--tables", "16", "--seconds", "20", "--pace", "human", "--processes", "2",
         "--clients", "1", "--postgres", PG_ADMIN, "--redis-url", REDIS,
         "--rolling-restart", "--drain-seconds", "25"]
    )  # fmt: skip
    r = load.run(args)
    assert r["tables_held"] == 16
    assert [x["exit_code"] for x in r["restarts"]] == [0, 0]
    assert r["hands_live_at_a_sigterm"] > 0 and r["hands_lost"] == 0, r
    assert r["escapes_charged"] == 0 and r["client_counts"]["escapes_seen"] == 0
    assert r["reconnects_finished_hand_players"] == 0 and r["reconnects_other"] == 0, r
    # every player cut in mid-hand was shown that hand again, on the server that took it
    assert r["client_counts"]["never_seen_again"] == 0
    assert r["client_failures"] == 0
    assert r["books"]["ok"] is True, r["books"]


@pytest.mark.slow
def test_the_load_run_on_the_sqlite_default_with_a_ramp_measures_every_table() -> None:
    # the documented first command's store (no --postgres): it once failed at its end on a
    # PostgreSQL-only query; a ramp and a settle before the window, as the 2,000-table run
    args = load.parser().parse_args(
        ["--tables", "3", "--seconds", "2", "--pace", "fast", "--clients", "1",
         "--ramp", "1", "--settle", "1"]
    )  # fmt: skip
    r = load.run(args)
    assert r["tables_held"] == 3 and r["errors"] == 0 and r["client_failures"] == 0, r
    assert r["ramp_seconds"] == 1 and r["settle_seconds"] == 1
    assert r["table_actions_per_second"] > 0 and r["latency_p99_ms"] is not None
