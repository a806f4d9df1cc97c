"""``paiju position RECORD N`` and ``paiju legal POSITION``: what could I do here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.bots.driver import play_match
from paiju.bots.uniform import RandomBot
from paiju.cli import main
from paiju.games import game
from paiju.madiao.rules import Ruleset as MadiaoRuleset
from paiju.mazhan.rules import Ruleset, State, legal_actions


def _records(tmp_path: Path, ruleset: object, hands: int = 2) -> tuple[Path, list[dict[str, Any]]]:
    records = [r.to_json() for r in play_match(ruleset, [RandomBot()] * 4, seed=7, hands=hands)]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path, records


def test_position_after_n_actions_and_its_legal_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, records = _records(tmp_path, Ruleset())
    n = 9
    assert main(["position", str(path), str(n), "--line", "2"]) == 0
    text = capsys.readouterr().out.strip()
    g = game("mazhan")
    rec = records[1]
    state = g.new_hand(g.ruleset_from_json(rec["ruleset"]), rec["seed"], rec.get("setup", {}))
    for action in rec["actions"][:n]:
        state, _ = g.apply(state, g.parse_action(action))
    assert State.from_position(text) == state
    assert main(["legal", text]) == 0
    listed = capsys.readouterr().out.split("\n")[:-1]
    assert listed == [str(a) for a in legal_actions(state)]
    assert rec["actions"][n] in listed
    assert main(["legal", *text.split()]) == 0  # unquoted fields work too
    assert capsys.readouterr().out.split("\n")[:-1] == listed


def test_a_madiao_position_and_the_end_of_a_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _records(tmp_path, MadiaoRuleset(), hands=1)
    assert main(["position", str(path), "32"]) == 0
    text = capsys.readouterr().out.strip()
    assert text.startswith("madiao v=32")
    assert main(["legal", text]) == 0
    assert capsys.readouterr().out == ""  # over: nobody may act


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["position", "{path}", "5"], "holds 2 records: choose one with --line"),
        (["position", "{path}", "5", "--line", "3"], "--line must be 1–2"),
        (["position", "{path}", "9999", "--line", "1"], "N must be 0–"),
        (["position", "no-such-file", "1"], "cannot read no-such-file"),
        (["legal", "mazhan", "v=0"], "one of act, claim, rob or over is needed"),
        (["legal", "chess"], "must start with mazhan or madiao"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    path, _ = _records(tmp_path, Ruleset())
    assert main([a.format(path=path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("paiju: error: ") and message in err and err.count("\n") == 1
