"""The fair way to time two libraries on one machine: in one process, in alternating slices.

Each contender is a function ``run(seconds) -> units`` that works for about ``seconds`` and
says how much it did (hands, checks, steps). :func:`race` warms every contender up (or not,
for contenders that must see fresh work in every slice), then runs them one after another
in slices of ``seconds``, ``repeats`` rounds, so that a change of machine load touches every
contender alike; each gets its rate per slice. A comparison is made **per round**
(:func:`ratio`): contender a's rate over b's in the same round, then the minimum and the
median of those per-round ratios (never min(a) over min(b), which mixes rounds and can
exceed the median). :func:`write_section` puts a benchmark's Markdown into its own section
of ``benchmarks/RESULTS.md`` (between two marker comments), leaving the rest.

Importing this module puts the repository root first on ``sys.path``, so that a benchmark
run from a checkout times that checkout's ``paiju`` (not an installed copy).

>>> r = race({"a": lambda s: 10, "b": lambda s: 20}, seconds=0.0, repeats=3)
>>> sorted(r["rates"]), len(r["rates"]["a"]["slices"])
(['a', 'b'], 3)
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

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
    contenders: Mapping[str, Contender | None],
    seconds: float = 1.0,
    repeats: int = 3,
    warm_up: bool = True,
    clock: str = "wall",
) -> dict[str, Any]:
    """Rates (units per second) of every contender, measured in interleaved slices.

    A contender given as ``None`` (a peer library that is not installed) is reported as
    ``None``. The result holds, per contender, every slice's rate (in round order), the
    median and the minimum, and the load average before and after. With ``warm_up`` every
    contender first runs once untimed (imports, tables, the first allocations); without,
    the first round is the first call (a contender that warms itself, or must not).
    ``clock`` is ``"wall"`` (``perf_counter``) or ``"cpu"`` (``process_time``: the CPU
    time of every thread of this process, so that time spent waiting for a core on a
    shared machine is left out, and a library's worker threads would be counted).

    >>> r = race({"x": lambda s: 1.0, "y": None}, seconds=0.0, repeats=1)
    >>> r["rates"]["y"] is None, r["repeats"]
    (True, 1)
    """
    live = {k: run for k, run in contenders.items() if run is not None}
    if warm_up:
        for run in live.values():  # imports, tables, caches, the first allocation
            run(min(seconds, 0.2))
    slices: dict[str, list[float]] = {k: [] for k in live}
    before = load_average()
    now = {"wall": time.perf_counter, "cpu": time.process_time}[clock]
    for _ in range(repeats):
        for key, run in live.items():
            start = now()
            units = run(seconds)
            elapsed = now() - start
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
        "clock": clock,
        "load": [before, load_average()],
        "rates": rates,
    }


def round_ratios(r: dict[str, Any], a: str, b: str) -> list[float] | None:
    """``a``'s rate over ``b``'s in each round (both measured in that round), or ``None`` if
    either is missing.

    >>> round_ratios({"rates": {"a": {"slices": [6.0, 4.0]}, "b": {"slices": [3.0, 4.0]}}},
    ...              "a", "b")
    [2.0, 1.0]
    """
    x, y = r["rates"].get(a), r["rates"].get(b)
    if x is None or y is None:
        return None
    return [p / q for p, q in zip(x["slices"], y["slices"], strict=True) if q]


def ratio(r: dict[str, Any], a: str, b: str, stat: str = "median") -> float | None:
    """The median (or ``"min"``) of the per-round ratios ``a`` over ``b``
    (:func:`round_ratios`), or ``None`` if either is missing.

    >>> r = {"rates": {"a": {"slices": [6.0, 3.0, 5.0]}, "b": {"slices": [3.0, 3.0, 2.0]}}}
    >>> ratio(r, "a", "b"), ratio(r, "a", "b", "min")
    (2.0, 1.0)
    """
    rounds = round_ratios(r, a, b)
    if not rounds:
        return None
    return float(min(rounds) if stat == "min" else statistics.median(rounds))


def ratio_summary(r: dict[str, Any], a: str, b: str) -> dict[str, Any] | None:
    """``{"min", "median", "rounds"}`` of the per-round ratios ``a`` over ``b``.

    >>> ratio_summary({"rates": {"a": {"slices": [2.0]}, "b": {"slices": [1.0]}}}, "a", "b")
    {'min': 2.0, 'median': 2.0, 'rounds': [2.0]}
    """
    rounds = round_ratios(r, a, b)
    if not rounds:
        return None
    return {"min": min(rounds), "median": statistics.median(rounds), "rounds": rounds}


def fmt_ratio(q: dict[str, Any] | None) -> str:
    """A ratio summary as a table cell: median in bold, the worst round after it.

    >>> fmt_ratio({"min": 1.2, "median": 1.5, "rounds": [1.2, 1.5, 1.6]}), fmt_ratio(None)
    ('**1.50×** (min 1.20×, 3 rounds)', '—')
    """
    if q is None:
        return "—"
    return f"**{q['median']:.2f}×** (min {q['min']:.2f}×, {len(q['rounds'])} rounds)"


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
