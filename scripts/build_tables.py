"""Rebuild the packaged Mazhan tables: ``python scripts/build_tables.py [--check]`` (``make
tables``): the complete-hand tables (``data/suit_need.bin``) and the shanten suit tables
(``data/shanten_suits.bin``, about a minute).

``--check`` compares each shipped file with a fresh build and exits 1 when one differs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paiju.mazhan import shanten, tables

DATA = Path(__file__).resolve().parent.parent / "paiju" / "mazhan" / "data"
#: each file: how it is built, packed and read back
TABLES: list[tuple[str, Callable[[], Any], Callable[..., bytes], Callable[[bytes], Any]]] = [
    ("suit_need.bin", tables.build_tables, tables.pack_tables, tables.unpack_tables),
    (
        "shanten_suits.bin",
        shanten.build_suit_tables,
        shanten.pack_suit_tables,
        shanten.unpack_suit_tables,
    ),
]


def main(argv: list[str]) -> int:
    differ = 0
    for name, build, pack, unpack in TABLES:
        path = DATA / name
        built = build()
        if "--check" in argv:
            same = path.exists() and unpack(path.read_bytes()) == built
            print(f"{name}: " + ("matches a fresh build" if same else "differs from a fresh build"))
            differ += not same
            continue
        blob = pack(*built)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(blob)
        print(f"wrote {path} ({len(blob)} bytes)")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
