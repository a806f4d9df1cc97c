"""Rebuild the packaged complete-hand tables: ``python scripts/build_tables.py [--check]``.

``--check`` compares the shipped file with a fresh build and exits 1 when they differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from paiju.mazhan.tables import build_tables, pack_tables, unpack_tables

DATA = Path(__file__).resolve().parent.parent / "paiju" / "mazhan" / "data" / "suit_need.bin"


def main(argv: list[str]) -> int:
    number, honor = build_tables()
    if "--check" in argv:
        same = DATA.exists() and unpack_tables(DATA.read_bytes()) == (number, honor)
        print("tables match a fresh build" if same else "tables differ from a fresh build")
        return 0 if same else 1
    blob = pack_tables(number, honor)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_bytes(blob)
    print(f"wrote {DATA} ({len(blob)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
