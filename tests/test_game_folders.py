"""A game is one folder (issue 37): no Python file of ``paiju/`` outside a game's folder
names a game — not in code, not in a docstring, not in a comment — so that what shared code
knows of a game it learns from the game's registration (:mod:`paiju.games`), and adding a
game is a change to its folder and one entry point."""

from __future__ import annotations

import re
from pathlib import Path

from paiju.games import names, registration

ROOT = Path(__file__).resolve().parent.parent
PAIJU = ROOT / "paiju"


def _folders() -> set[Path]:
    """The folders of the installed games (where each registration's game is defined)."""
    out = set()
    for name in names():
        module = type(registration(name).game).__module__
        if module.startswith("paiju."):
            out.add(PAIJU / module.split(".")[1])
    return out


def _words() -> re.Pattern[str]:
    """Each game's name and its title (without spaces, any case): ``mazhan``, ``Ma Diao``…"""
    words = set()
    for name in names():
        words.add(re.escape(name))
        words.add(r"\s*".join(re.escape(w) for w in registration(name).title.split()))
    return re.compile("|".join(sorted(words)), re.IGNORECASE)


def offending_lines() -> list[str]:
    """Every line of a Python file in ``paiju/`` outside the games' folders that names a
    game, as ``path:line: text``."""
    folders = _folders()
    pattern = _words()
    found = []
    for path in sorted(PAIJU.rglob("*.py")):
        if any(folder in path.parents for folder in folders):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return found


def test_the_built_in_games_live_in_their_folders() -> None:
    assert {p.name for p in _folders()} == {"mazhan", "madiao"}


def test_no_file_outside_a_games_folder_names_a_game() -> None:
    found = offending_lines()
    assert not found, f"{len(found)} lines name a game:\n" + "\n".join(found)


def test_the_check_sees_a_name(tmp_path: Path) -> None:
    assert _words().search("a Mazhan hand") and _words().search("MaDiao-v0")
    assert _words().search("ma diao") and not _words().search("mahjong")
