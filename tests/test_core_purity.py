"""The rules cores import only the standard library (their own package, paiju.errors and
paiju.kit, the pieces both cores share; tests/test_kit.py holds paiju.kit to the same)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORES = [ROOT / "paiju" / "mazhan", ROOT / "paiju" / "madiao"]
ALLOWED = {
    "mazhan": ("paiju.errors", "paiju.kit", "paiju.mazhan"),
    "madiao": ("paiju.errors", "paiju.kit", "paiju.madiao"),
}


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
        for path in sorted(core.rglob("*.py")):
            for name in imported_modules(path):
                top = name.split(".")[0]
                if top == "paiju":
                    assert name.startswith(ALLOWED[core.name]), f"{path}: imports {name}"
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
