"""A Mazhan settlement (rules §11's output, :func:`paiju.mazhan.scoring.score_json`) as
readable tables, for ``paiju mazhan score --explain``: each seat's items, base, 台 and
formula, then the payments.

>>> from paiju.mazhan.record import EXAMPLE
>>> from paiju.mazhan.scoring import score_json
>>> text = render_settlement(score_json(EXAMPLE), width=100)
>>> "320" in text and "混一色" in text
True
"""

from __future__ import annotations

import io
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

__all__ = ["render_settlement"]

_SEAT_NAMES = {"E": "東 East (dealer)", "S": "南 South", "W": "西 West", "N": "北 North"}
_ROLES = {"winner": "winner 胡家", "loser": "non-winner", "drawn": "drawn hand 流局"}


def _seat_table(seat: str, p: dict[str, Any]) -> Table:
    title = f"{_SEAT_NAMES[seat]} · {_ROLES.get(p['role'], p['role'])}"
    if p["hand"]:
        hands = ", ".join(f"{zh} ({en})" for zh, en in zip(p["hand"], p["hand_en"], strict=True))
        title += f" · {hands}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, expand=False)
    table.add_column("item")
    table.add_column("", style="dim")
    table.add_column("points", justify="right")
    for item in p["items"]:
        table.add_row(item["name"], item["en"], str(item["points"]))
    table.add_row(Text("基礎分 base", style="bold"), "", str(p["base"]), end_section=True)
    table.add_row("進一 rounded up", "", str(p["rounded"]))
    for t in p["tai_items"]:
        table.add_row(f"台 {t['name']}", t["en"], f"+{t['tai']} 台")
    mult = 2 ** p["tai"]
    if p["role"] == "winner":
        formula = _winner_formula(p, mult)
    else:
        formula = f"{p['rounded']} × {mult} = {p['rounded'] * mult}"
        if p["capped"] and p["uncapped"] > p["value"]:
            formula += f" → capped at {p['value']} (辣子)"
    table.add_row(Text("value 胡", style="bold"), formula, Text(str(p["value"]), style="bold"))
    if p["sets"]:
        table.caption = "sets: " + " · ".join(p["sets"])
        table.caption_justify = "left"
    return table


#: The limit hands (辣子) as the value line names them.
_LIMIT_HANDS = {
    "天胡": "天胡",
    "地胡": "地胡",
    "殺豬": "殺豬",
    "清一色": "清一色",
    "四台": "4 台 or more",
}


def _winner_formula(p: dict[str, Any], mult: int) -> str:
    """How the winner's value is reached.

    >>> hand = {"hand": ["四台"], "rounded": 20, "tai": 4, "value": 400, "uncapped": 640}
    >>> _winner_formula(hand, 16)
    '4 台 or more: limit (辣子) 400 (胡頭 (20 + 20) × 16 = 640)'
    >>> _winner_formula({**hand, "hand": ["天胡"]}, 16)
    '天胡: limit (辣子) 400'
    >>> _winner_formula({"hand": ["平胡"], "rounded": 0, "value": 400, "uncapped": 400}, 1)
    '平胡 holding two or more ★: 400'
    >>> _winner_formula({"hand": [], "rounded": 70, "value": 400, "uncapped": 720}, 8)
    '胡頭 (70 + 20) × 8 = 720 → capped at 400 (辣子)'
    """
    if "平胡" in p["hand"]:
        computed = f"平胡 100 × {mult} = {100 * mult}"
    else:
        computed = f"胡頭 ({p['rounded']} + 20) × {mult} = {(p['rounded'] + 20) * mult}"
    limits = [name for zh, name in _LIMIT_HANDS.items() if zh in p["hand"]]
    if limits:
        formula = f"{', '.join(limits)}: limit (辣子) {p['value']}"
        if "天胡" in p["hand"] or "殺豬" in p["hand"]:
            return formula  # no shape is scored: 400 whatever the items
        return f"{formula} ({computed})"
    if "平胡" in p["hand"] and p["value"] > 100 * mult:
        return f"平胡 holding two or more ★: {p['value']}"
    if p["uncapped"] > p["value"]:
        computed += f" → capped at {p['value']} (辣子)"
    return computed


def _payments_table(result: dict[str, Any]) -> Table:
    table = Table(title="payments", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("from")
    table.add_column("to")
    table.add_column("amount", justify="right")
    table.add_column("why", style="dim")
    for pay in result["payments"]:
        why = "the winner's value" if pay["reason"] == "win" else "difference of values"
        if "E" in (pay["from"], pay["to"]):
            why += ", ×2 with the dealer"
        table.add_row(pay["from"], pay["to"], str(pay["amount"]), why)
    if not result["payments"]:
        table.add_row("—", "—", "0", "流局: a drawn hand pays nothing")
    net = "  ".join(f"{s} {v:+d}" for s, v in result["net"].items())
    table.caption = f"net: {net}"
    table.caption_justify = "left"
    return table


def _renderables(result: dict[str, Any]) -> Group:
    parts: list[Table] = [_seat_table(s, p) for s, p in result["players"].items()]
    parts.append(_payments_table(result))
    return Group(*parts)


def render_settlement(result: dict[str, Any], width: int = 100) -> str:
    """The settlement as plain text tables.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> from paiju.mazhan.scoring import score_json
    >>> "net: E -640  S +1280  W -320  N -320" in render_settlement(score_json(EXAMPLE))
    True
    """
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(_renderables(result))
    return console.export_text()
