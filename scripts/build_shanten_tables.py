"""Rebuild the packaged shanten suit tables: ``python scripts/build_shanten_tables.py
[--check]`` (about a minute).

``--check`` compares the shipped file with a fresh build and exits 1 when they differ.
"""

from __future__ import annotations

import sys
from pathlib import Path

from paiju.mazhan.shanten import build_suit_tables, pack_suit_tables, unpack_suit_tables

DATA = Path(__file__).resolve().parent.parent / "paiju" / "mazhan" / "data" / "shanten_suits.bin"


def main(argv: list[str]) -> int:
    built = build_suit_tables()
    if "--check" in argv:
        same = DATA.exists() and unpack_suit_tables(DATA.read_bytes()) == built
        print("tables match a fresh build" if same else "tables differ from a fresh build")
        return 0 if same else 1
    blob = pack_suit_tables(*built)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_bytes(blob)
    print(f"wrote {DATA} ({len(blob)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
