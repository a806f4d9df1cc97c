"""The ``slow`` list of tests/conftest.py names tests that exist: an entry left behind by a
move (tests/protocol/ became tests/views/) silently put two tests of 6–15 s back into
``make test-fast``."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent


def test_every_slow_entry_names_a_test_that_exists() -> None:
    for path, names in SLOW.items():
        file = ROOT / path
        assert file.is_file(), f"SLOW: no file {path} (moved? move the entry with it)"
        defined = {
            node.name
            for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        assert names <= defined, f"SLOW: {path} has no {sorted(names - defined)}"
