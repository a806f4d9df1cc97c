"""The fair way to time two libraries on one machine: in one process, in alternating slices.

Each contender is a function ``run(seconds) -> units`` that works for about ``seconds`` and
says how much it did (hands, checks, steps). :func:`race` warms every contender up, then
runs them one after another in slices of ``seconds``, ``repeats`` rounds, so that a change
of machine load touches every contender alike; each gets its rate per slice, and the report
gives the median and the minimum. :func:`write_section` puts a benchmark's Markdown into its
own section of ``benchmarks/RESULTS.md`` (between two marker comments), leaving the rest.

>>> r = race({"a": lambda s: 10, "b": lambda s: 20}, seconds=0.0, repeats=3)
>>> sorted(r["rates"]), len(r["rates"]["a"]["slices"])
(['a', 'b'], 3)
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"

Contender = Callable[[float], float]


def load_average() -> float:
    """The one-minute load average (0.0 where the system does not say).

    >>> load_average() >= 0.0
    True
    """
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def race(
    contenders: Mapping[str, Contender | None], seconds: float = 1.0, repeats: int = 3
) -> dict[str, Any]:
    """Rates (units per second) of every contender, measured in interleaved slices.

    A contender given as ``None`` (a peer library that is not installed) is reported as
    ``None``. The result holds, per contender, every slice's rate, the median and the
    minimum, and the load average before and after.

    >>> r = race({"x": lambda s: 1.0, "y": None}, seconds=0.0, repeats=1)
    >>> r["rates"]["y"] is None, r["repeats"]
    (True, 1)
    """
    live = {k: run for k, run in contenders.items() if run is not None}
    for run in live.values():  # warm up: imports, tables, caches, the first allocation
        run(min(seconds, 0.2))
    slices: dict[str, list[float]] = {k: [] for k in live}
    before = load_average()
    for _ in range(repeats):
        for key, run in live.items():
            start = time.perf_counter()
            units = run(seconds)
            elapsed = time.perf_counter() - start
            slices[key].append(units / elapsed if elapsed > 0 else float("inf"))
    rates: dict[str, Any] = {}
    for key in contenders:
        if key not in live:
            rates[key] = None
            continue
        s = slices[key]
        rates[key] = {"median": statistics.median(s), "min": min(s), "slices": s}
    return {
        "seconds": seconds,
        "repeats": repeats,
        "load": [before, load_average()],
        "rates": rates,
    }


def ratio(r: dict[str, Any], a: str, b: str, stat: str = "median") -> float | None:
    """``a``'s rate over ``b``'s (median or min), or ``None`` if either is missing.

    >>> ratio({"rates": {"a": {"median": 6.0}, "b": {"median": 3.0}}}, "a", "b")
    2.0
    """
    x, y = r["rates"].get(a), r["rates"].get(b)
    if x is None or y is None or not y[stat]:
        return None
    return float(x[stat] / y[stat])


def machine() -> str:
    """The CPU, its cores and the Python version.

    >>> "Python" in machine()
    True
    """
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def fmt_rate(x: float) -> str:
    """A rate, readable: ``1.23 M``, ``45.6 k`` or ``789``.

    >>> fmt_rate(1_234_567), fmt_rate(45_600), fmt_rate(789.2)
    ('1.23 M', '45.6 k', '789')
    """
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e4:
        return f"{x / 1e3:.1f} k"
    return f"{x:,.0f}"


def write_section(name: str, lines: list[str], path: Path = RESULTS) -> None:
    """Replace (or append) the section ``name`` of ``path``: the text between
    ``<!-- name:start -->`` and ``<!-- name:end -->``.

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "R.md"
    >>> _ = p.write_text("# R\\n")
    >>> write_section("x", ["one"], p); write_section("x", ["two"], p)
    >>> p.read_text().count("two"), "one" in p.read_text()
    (1, False)
    """
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = "\n".join([start, *lines, end])
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if start in text and end in text:
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = before + block + after
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")
