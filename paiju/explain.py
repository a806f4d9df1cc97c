"""Readable tables of what ``paiju simulate`` and ``paiju arena`` found, for a terminal.
(A game's own printouts, such as a settlement's ``--explain``, live in its folder: its
:attr:`~paiju.games.Calculator.explain`.)

>>> from paiju.games import names
>>> from paiju.simulate import simulate
>>> print_summary(simulate(names()[0], games=2, seed=1, bot_names=["random"]))
... # doctest: +ELLIPSIS
<BLANKLINE>
...
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table

from paiju.games import registration

__all__ = ["print_arena", "print_summary"]


def print_summary(summary: dict[str, Any]) -> None:
    """Print a simulation summary (see :func:`paiju.simulate.simulate`) as tables.

    >>> from paiju.games import names
    >>> from paiju.simulate import simulate
    >>> print_summary(simulate(names()[-1], games=2, seed=1, bot_names=["random"]))
    ... # doctest: +ELLIPSIS
    <BLANKLINE>
    ...
    """
    Console().print(_summary_tables(summary))


def _summary_tables(s: dict[str, Any]) -> Group:
    head = Table(
        title=f"{s['game']}: {s['hands']} hands, seed {s['seed']}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_header=False,
    )
    head.add_column("")
    head.add_column("", justify="right")
    tables: list[Table] = [head]
    report = registration(s["game"]).report
    if report is not None:
        r = report(s)
        for label, text in r.head:
            head.add_row(label, text)
        if r.row:
            row = Table(title=r.row_title, title_justify="left", box=box.SIMPLE_HEAD)
            for column in r.row:
                row.add_column(column, justify="right")
            row.add_row(*r.row.values())
            tables.append(row)
        for title, label, counts in r.counts:
            tables.append(_counts(title, label, dict(counts)))
    head.add_row("actions per hand", f"{s['actions_per_hand']:.1f}")
    head.add_row("hands per second", f"{s['hands_per_second']:.0f}")
    players = Table(title="players", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("player", "bot", "mean net per hand"):
        players.add_column(col, justify="right" if col != "bot" else "left")
    for p in s["players"]:
        players.add_row(str(p["player"]), p["bot"], f"{p['mean_net']:+.2f}")
    tables.append(players)
    return Group(*tables)


def _counts(title: str, label: str, counts: dict[str, int]) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column(label)
    table.add_column("hands", justify="right")
    for name, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        table.add_row(name, str(n))
    return table


def _interval(ci95: list[float] | None) -> str:
    """A 95% interval as the arena prints it; ``None`` (one deal gives none) as a dash.

    >>> _interval([-1.5, 2.0]), _interval(None)
    ('[-1.50, +2.00]', '—')
    """
    if ci95 is None:
        return "—"
    lo, hi = ci95
    return f"[{lo:+.2f}, {hi:+.2f}]"


def print_arena(report: dict[str, Any]) -> None:
    """Print an arena report (see :func:`paiju.arena.arena`) as tables.

    >>> from paiju.arena import arena
    >>> from paiju.games import game, names
    >>> g = game(names()[-1])
    >>> print_arena(arena(g.name, 4, 1, [g.default_bot, "random", "random", "random"]))
    ... # doctest: +ELLIPSIS
    <BLANKLINE>
    ...
    """
    title = (
        f"{report['game']} arena: {report['hands']} hands ({report['deals']} deals × 4 "
        f"seatings), seed {report['seed']}"
    )
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("bot", "hands", "mean net", "95% interval", "win rate", "deal-in rate"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for name, b in sorted(report["bots"].items(), key=lambda kv: -kv[1]["mean_net"]):
        deal_in = "—" if b["deal_in_rate"] is None else f"{b['deal_in_rate']:.1%}"
        table.add_row(
            name,
            str(b["hands"]),
            f"{b['mean_net']:+.2f}",
            _interval(b["ci95"]),
            f"{b['win_rate']:.1%}",
            deal_in,
        )
    diffs = Table(title="differences (per deal)", title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("pair", "mean", "95% interval", ""):
        diffs.add_column(col, justify="left" if col in ("pair", "") else "right")
    for pair, d in report["differences"].items():
        if d["ci95"] is None:
            verdict = "no interval (one deal)"
        else:
            lo, hi = d["ci95"]
            verdict = "significant" if lo > 0 or hi < 0 else "not significant"
        diffs.add_row(pair, f"{d['mean']:+.2f}", _interval(d["ci95"]), verdict)
    from paiju.arena import difference_lines

    console = Console()
    if report["differences"]:
        console.print(Group(table, diffs))
    else:  # one bot in every seat: nothing to compare
        console.print(table)
        console.print("differences: none (every seat plays the same bot)", highlight=False)
    for line in difference_lines(report):
        console.print(line, highlight=False)
