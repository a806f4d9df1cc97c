"""The rules cores import only the standard library (their own core modules, paiju.errors and
paiju.kit, the pieces the cores share; tests/test_kit.py holds paiju.kit to the same). A
game's folder holds its core and its parts for the other layers (:data:`PARTS`): the core is
every module of the folder but those, and it imports none of them."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORES = [ROOT / "paiju" / "mazhan", ROOT / "paiju" / "madiao"]
#: a game folder's modules that are not its core (they may import the layers below them)
PARTS = {"game", "schema", "bots", "env", "fast", "explain"}
ALLOWED = {
    "mazhan": ("paiju.errors", "paiju.kit", "paiju.mazhan"),
    "madiao": ("paiju.errors", "paiju.kit", "paiju.madiao"),
}


def core_files(core: Path) -> list[Path]:
    """The core's modules: the folder's, less its parts for the other layers."""
    return [
        p for p in sorted(core.rglob("*.py"))
        if p.relative_to(core).parts[0].removesuffix(".py") not in PARTS
    ]  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_sources_import_only_the_standard_library() -> None:
    for core in CORES:
        for path in core_files(core):
            for name in imported_modules(path):
                top = name.split(".")[0]
                if top == "paiju":
                    assert name.startswith(ALLOWED[core.name]), f"{path}: imports {name}"
                    part = name.split(".")[2] if name.count(".") >= 2 else ""
                    assert part not in PARTS, f"{path}: the core imports its folder's {name}"
                else:
                    assert top in sys.stdlib_module_names or top == "__future__", (
                        f"{path}: imports {name}, not in the standard library"
                    )


def test_importing_the_core_loads_no_third_party_module() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import paiju.mazhan.rules, paiju.mazhan.views, paiju.mazhan.scoring\n"
        "import paiju.madiao.rules, paiju.madiao.views, paiju.madiao.chong\n"
        "new = set(sys.modules) - before\n"
        "bad = sorted(m for m in new if m.split('.')[0] not in sys.stdlib_module_names"
        " and m.split('.')[0] != 'paiju')\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == ""


def test_each_folder_has_a_core_and_its_parts() -> None:
    for core in CORES:
        assert len(core_files(core)) >= 5
        assert {"game", "schema", "bots", "env"} <= {
            p.name.removesuffix(".py") for p in core.iterdir()
        }
