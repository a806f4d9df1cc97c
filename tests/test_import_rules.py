"""The import rules are the project's own test: import-linter checks the contracts of
pyproject.toml's ``[tool.importlinter]`` (who may import whom among paiju's packages) on
every ``make test``. ``.venv/bin/lint-imports`` runs the same check by hand; the cores'
standard-library-only rule is checked in full by tests/test_core_purity.py.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

#: The layers, highest first: each package may import only those below it (``|``: siblings
#: that know nothing of each other; ``:``: siblings that may import each other).
LAYERS = [
    "mazhan | madiao",
    "cli",
    "server",
    "explain : arena : simulate : positions",
    "env",
    "bots",
    "records",
    "views",
    "games",
    "(kit)",
    "errors | stats",
]
#: the layers inside each game's folder (its core, below them all, is checked by
#: tests/test_core_purity.py)
FOLDER_LAYERS = ["env", "bots", "game", "schema | (fast) | (explain)"]


def _lint(*config: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` over ``config`` (default pyproject.toml), without its cache (a test
    leaves no files behind, and workers running at once share none)."""
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo", *config],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def _contracts() -> list[dict[str, Any]]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        contracts: list[dict[str, Any]] = tomllib.load(f)["tool"]["importlinter"]["contracts"]
    return contracts


def test_every_import_contract_is_kept() -> None:
    result = _lint()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_wanted_contracts_are_declared() -> None:
    """Removing or loosening a rule is a change to this test too, never a quiet edit."""
    by_name = {c["name"]: c for c in _contracts()}
    layers = {tuple(c["containers"]): c for c in by_name.values() if c["type"] == "layers"}
    assert layers[("paiju",)]["layers"] == LAYERS and layers[("paiju",)]["exhaustive"] is True
    assert layers[("paiju.mazhan", "paiju.madiao")]["layers"] == FOLDER_LAYERS
    forbidden = {
        (source, target, bool(c.get("allow_indirect_imports")))
        for c in by_name.values()
        if c["type"] == "forbidden"
        for source in c["source_modules"]
        for target in c["forbidden_modules"]
    }
    wanted = {
        *(("paiju.views", p, False) for p in ("paiju.bots", "paiju.env", "paiju.server")),
        *((bots, env, False)
          for bots in ("paiju.bots", "paiju.mazhan.bots", "paiju.madiao.bots", "paiju.mazhan.fast")
          for env in ("paiju.env", "paiju.mazhan.env", "paiju.madiao.env")),
        ("paiju.server", "paiju.mazhan", True),
        ("paiju.server", "paiju.madiao", True),
    }  # fmt: skip
    assert wanted <= forbidden, sorted(wanted - forbidden)


def test_a_broken_rule_is_caught(tmp_path: Path) -> None:
    """The check sees the real imports: a rule the code breaks (the server knows the games'
    registry) fails, naming the import."""
    config = tmp_path / "broken.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "paiju"\n\n'
        "[[tool.importlinter.contracts]]\n"
        'name = "the server knows no game"\ntype = "forbidden"\n'
        'source_modules = ["paiju.server"]\nforbidden_modules = ["paiju.games"]\n',
        encoding="utf-8",
    )
    result = _lint(str(config))
    assert result.returncode != 0
    assert "paiju.server.routes.scorer -> paiju.games" in result.stdout
