"""Test options and markers.

``--soak`` runs the long checks (marked ``soak``). Every other test carries, besides its own
marks, the kinds of thing it needs, so that one kind can be left out or run alone
(``CONTRIBUTING.md``):

- ``db``: PostgreSQL on 127.0.0.1:5432 — a test that uses the ``postgres_url`` fixture (or
  one built on it: ``db``, …), a ``postgresql`` parameter (``sessions``, ``db_url``, …), or
  whose code or fixtures make a database of their own (``own_database``);
- ``redis``: Redis on 127.0.0.1:6379, or a ``redis-server`` of its own — a test whose code or
  fixtures name Redis (``REDIS``, ``redis.``, ``private_redis``, a ``redis://`` URL);
- ``browser``: Debian's Chromium and its fonts — a test that uses a ``browser`` fixture;
- ``slow``: more than about five seconds on this project's two cores (:data:`SLOW`, measured
  with ``pytest --durations``).

``make test-fast`` runs ``-m "not db and not redis and not browser and not slow"``.

Every Mazhan hand the tests play is validated and scored as it ends
(:func:`paiju.mazhan.rules.check_every_hand`), not only when its settlement is read."""

from __future__ import annotations

import inspect
import time
import types
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

#: Fixtures whose users need PostgreSQL (and so do users of fixtures built on them).
DB_FIXTURES = frozenset({"postgres_url"})
#: Names in a test's or a fixture's code that make a database of their own.
DB_NAMES = frozenset({"own_database"})
#: Names in a test's or a fixture's code that reach Redis.
REDIS_NAMES = frozenset({"REDIS", "REDIS_PORT", "redis", "private_redis"})
#: Fixtures whose users drive a browser.
BROWSER_FIXTURES = frozenset({"browser"})

#: Tests over about five seconds on two cores, by file and function name (every parameter of
#: the function), with the slowest parameter's time under ``pytest -n 2 --durations``: the
#: ones that no other marker leaves out of ``make test-fast`` from ``--durations=80 -m "not db
#: and not redis and not browser"``, the others from ``make test``'s fifteen slowest.
SLOW: dict[str, frozenset[str]] = {
    "tests/mazhan/test_engine_conformance.py": frozenset(
        {
            "test_playouts_keep_every_invariant",  # 7.5 s
        }
    ),
    "tests/mazhan/test_hand.py": frozenset(
        {
            "test_shipped_tables_equal_a_fresh_build",  # 7.1 s
            "test_table_check_agrees_with_a_plain_search",  # 9.8 s (load 7)
        }
    ),
    "tests/views/test_views_schema.py": frozenset(
        {
            "test_every_mazhan_view_and_event_of_random_hands_validates",  # 15.0 s (load 7)
            "test_every_madiao_view_and_event_of_random_hands_validates",  # 6.1 s (load 7)
        }
    ),
    "tests/server/test_backup.py": frozenset(
        {
            "test_a_dump_restored_elsewhere_is_whole_and_plays_on",  # 22 s (load 1.3)
        }
    ),
    "tests/server/test_cluster.py": frozenset(
        {
            "test_the_owner_dies_in_mid_hand_and_the_other_process_finishes_it",  # 12.4 s
        }
    ),
    "tests/server/test_rolling_restart.py": frozenset(
        {
            "test_a_rolling_restart_of_two_processes_loses_no_hand_and_charges_no_escape",  # 18 s
        }
    ),
    "tests/server/test_drain.py": frozenset(
        {
            "test_sigterm_in_mid_hand_drains_finishes_the_hand_and_exits_0",  # 7.2 s
        }
    ),
    "tests/server/test_faults.py": frozenset(
        {
            "test_redis_cut_with_two_processes_the_hand_finishes_once",  # 126.8 s
            "test_a_database_outage_at_the_settlement_settles_once_when_it_is_back",  # 32.6 s
            "test_a_database_outage_in_mid_hand_pauses_the_table_and_nothing_is_lost",  # 21.1 s
            "test_kill_9_at_random_step_boundaries",  # 12.1 s
            "test_a_restart_between_hands_tells_the_returning_player_the_table_closed",  # 5.7 s
        }
    ),
    "tests/server/test_faults_house.py": frozenset(
        {
            "test_tuoguan_outlives_a_cluster_take_over",  # 15.7 s
            "test_a_redis_cut_charges_nothing_to_a_player_on_the_other_process",  # 12.0 s
            "test_a_database_black_hole_pauses_the_table_and_charges_nobody",  # 10.5 s
            "test_a_lock_on_the_step_table_pauses_the_table_and_charges_nobody",  # 10.3 s
            "test_a_writer_connection_lost_without_a_word_is_replaced",  # 6.7 s
            "test_tuoguan_outlives_a_restart",  # 6.3 s
        }
    ),
    "tests/server/test_logs.py": frozenset(
        {
            "test_a_live_hands_logs_are_json_lines_with_their_fields",  # 6.3 s
        }
    ),
    "tests/server/test_live_tables.py": frozenset(
        {
            "test_friends_sit_together_at_a_private_table_by_its_code",  # 6.6 s
            "test_no_frame_to_a_seat_holds_another_seats_tiles",  # 6.4 s
            "test_a_restart_in_mid_hand_rebuilds_the_table",  # 5.6 s
            "test_reconnecting_resumes_the_hand_with_the_full_view",  # 5.6 s
            "test_a_hand_that_cannot_be_rebuilt_is_quarantined_and_the_server_starts",  # 5.5 s
        }
    ),
    "tests/server/test_security_sessions.py": frozenset(
        {
            "test_the_sessions_of_many_sockets_are_checked_together",  # 6.8 s
        }
    ),
    "tests/server/test_security_throttle.py": frozenset(
        {
            "test_three_hundred_wrong_passwords_then_the_right_one_is_refused",  # 8.4 s
        }
    ),
    "tests/test_arena_and_bots.py": frozenset(
        {
            "test_strong_beats_greedy_on_a_fixed_seed",  # 10.6 s
        }
    ),
    "tests/web/test_browser.py": frozenset(
        {
            "test_madiao_by_clicks_on_a_phone",  # 11.4 s
        }
    ),
}


def mentions(
    func: Callable[..., Any],
    names: Iterable[str],
    text: str | None = None,
    seen: set[types.CodeType] | None = None,
) -> bool:
    """Whether ``func`` uses one of ``names`` as a global or an attribute, or holds a string
    constant containing ``text`` — in its own code, a function, lambda or comprehension inside
    it, or a helper of the tests' own (a function of a ``tests`` module) that it calls.

    >>> def uses() -> object:
    ...     return [REDIS for _ in range(2)]  # noqa: F821
    >>> def calls() -> object:
    ...     return uses()
    >>> mentions(uses, {"REDIS"}), mentions(calls, {"REDIS"}), mentions(uses, {"db"})
    (True, True, False)
    >>> mentions(lambda: "redis://x", (), "redis://")
    True
    """
    wanted = frozenset(names)
    seen = set() if seen is None else seen
    inner = inspect.unwrap(func)
    if not isinstance(inner, types.FunctionType):
        return False
    helpers = inner.__globals__

    def look(code: types.CodeType) -> bool:
        if code in seen:
            return False
        seen.add(code)
        if wanted.intersection(code.co_names):
            return True
        for const in code.co_consts:
            if isinstance(const, types.CodeType) and look(const):
                return True
            if text is not None and isinstance(const, str) and text in const:
                return True
        for name in code.co_names:
            helper = helpers.get(name)
            if (
                isinstance(helper, types.FunctionType)
                and helper.__module__.split(".")[0] == "tests"
                and mentions(helper, wanted, text, seen)
            ):
                return True
        return False

    return look(inner.__code__)


def _functions(item: pytest.Item) -> list[Callable[..., Any]]:
    """A test's function and the function of every fixture it uses."""
    funcs: list[Callable[..., Any]] = []
    function = getattr(item, "function", None)
    if callable(function):
        funcs.append(function)
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        funcs += [fixturedef.func for fixturedef in defs]
    return funcs


def kinds(item: pytest.Item) -> set[str]:
    """The markers of what ``item`` needs, of ``db``, ``redis``, ``browser`` and ``slow``
    (registered in ``pyproject.toml``; see the module's docstring)."""
    found: set[str] = set()
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    funcs = _functions(item)
    if (
        fixtures & DB_FIXTURES
        or "postgresql" in [p for p in params if isinstance(p, str)]
        or any(mentions(f, DB_NAMES) for f in funcs)
    ):
        found.add("db")
    if any(mentions(f, REDIS_NAMES, "redis://") for f in funcs):
        found.add("redis")
    if fixtures & BROWSER_FIXTURES:
        found.add("browser")
    path = item.nodeid.split("::", 1)[0]
    name = getattr(item, "originalname", item.name)
    if name in SLOW.get(path, ()):
        found.add("slow")
    return found


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="run the long soak checks")
    parser.addoption(
        "--by-file",
        action="store_true",
        help="show progress as a line per test file done (and per failure, and per test over "
        f"{LONG:.0f} s) instead of a character per test",
    )


def pytest_configure(config: pytest.Config) -> None:
    from paiju.mazhan.rules import check_every_hand

    check_every_hand(True)
    if config.getoption("--by-file") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(ByFile(config), "paiju-by-file")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    soak = config.getoption("--soak")
    skip = pytest.mark.skip(reason="a long check: run with --soak")
    for item in items:
        for kind in sorted(kinds(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(kind)
        if not soak and "soak" in item.keywords:
            item.add_marker(skip)


#: A test that takes longer gets a line of its own under ``--by-file`` (seconds).
LONG = 20.0


class ByFile:
    """Progress one line per test file, printed when the file's last test is done:

        [ 41%] 2:05  tests/mazhan/test_hand.py: 20 passed, 1 skipped in 8.2 s

    a line at once for each failure, and one for each test that takes over :data:`LONG`
    seconds, so that a long run is never silent for long; the dots are left out. It works
    with and without xdist (``-n``)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.start = time.monotonic()
        self.totals: Counter[str] = Counter()  # tests per file
        self.ended: Counter[str] = Counter()
        self.outcomes: dict[str, Counter[str]] = {}
        self.seconds: dict[str, float] = {}  # per file, and per test until it ends
        self.failed: set[str] = set()
        self.skipped: set[str] = set()
        self.xfailed: set[str] = set()

    def _expect(self, nodeids: Iterable[str]) -> None:
        if not self.totals:  # every xdist worker collects the same tests
            self.totals.update(nodeid.split("::", 1)[0] for nodeid in nodeids)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self._expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self._expect(ids)

    def pytest_report_teststatus(
        self, report: pytest.TestReport, config: pytest.Config
    ) -> tuple[str, str, str] | None:
        """No character per test: the same categories and words as pytest's own."""
        if hasattr(report, "wasxfail"):
            return None
        if report.failed:
            return ("failed", "", "FAILED") if report.when == "call" else ("error", "", "ERROR")
        if report.passed and report.when == "call":
            return "passed", "", "PASSED"
        if report.skipped:
            return "skipped", "", "SKIPPED"
        return None

    def _kinds(self) -> list[tuple[str, set[str]]]:
        return [("failed", self.failed), ("xfailed", self.xfailed), ("skipped", self.skipped)]

    def _line(self, text: str) -> None:
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(text, flush=True)

    def _elapsed(self) -> str:
        minutes, seconds = divmod(int(time.monotonic() - self.start), 60)
        return f"{minutes}:{seconds:02d}"

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        path = report.nodeid.split("::", 1)[0]
        for key in (path, report.nodeid):
            self.seconds[key] = self.seconds.get(key, 0.0) + report.duration
        if report.failed and report.nodeid not in self.failed:
            self.failed.add(report.nodeid)
            word = "FAILED" if report.when == "call" else f"ERROR at {report.when} of"
            self._line(f"{word} {report.nodeid}")
        if report.skipped:
            self.skipped.add(report.nodeid)
        if hasattr(report, "wasxfail"):
            self.xfailed.add(report.nodeid)
        if report.when != "teardown":
            return
        took = self.seconds.pop(report.nodeid)
        if took > LONG:
            self._line(f"       {self._elapsed()}  {report.nodeid}: {took:.1f} s")
        outcome = next((word for word, ids in self._kinds() if report.nodeid in ids), "passed")
        self.outcomes.setdefault(path, Counter())[outcome] += 1
        self.ended[path] += 1
        if self.ended[path] == self.totals[path]:
            counts = self.outcomes[path]
            order = ["passed"] + [word for word, _ in self._kinds()]
            words = ", ".join(f"{counts[w]} {w}" for w in order if counts[w])
            done = sum(self.ended.values()) * 100 // max(1, sum(self.totals.values()))
            self._line(
                f"[{done:3d}%] {self._elapsed():>5}  {path}: {words} in {self.seconds[path]:.1f} s"
            )
