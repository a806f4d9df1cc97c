"""The browser client's bundle: ``client/`` (TypeScript) is built by Vite into
``paiju/web/dist/``, which is committed and shipped in the Python package, so ``pip install``
and ``make run`` serve it without Node. ``paiju/web/dist/build.json`` records a hash of the
sources it was built from and a hash of every file of the bundle.

    python scripts/client_bundle.py check    # exit 1 when the bundle is stale (no Node needed)
    python scripts/client_bundle.py ensure   # build when stale (in CI: fail instead)
    python scripts/client_bundle.py build    # build now (npm ci when the lockfile changed)

>>> len(source_hash()) == 64
True
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "client"
DIST = ROOT / "paiju" / "web" / "dist"
STAMP = DIST / "build.json"
# what the bundle is built from (tests, lint settings and scripts are not)
SOURCES = ("index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts")


def source_files() -> list[Path]:
    """The files the bundle is built from, in a fixed order.

    >>> any(p.name == "main.tsx" for p in source_files())
    True
    """
    files = [CLIENT / name for name in SOURCES]
    files += [p for p in (CLIENT / "src").rglob("*") if p.is_file()]
    return sorted(files, key=lambda p: p.relative_to(CLIENT).as_posix())


def source_hash() -> str:
    """SHA-256 over every source file's path and bytes (line endings as committed)."""
    h = hashlib.sha256()
    for p in source_files():
        h.update(p.relative_to(CLIENT).as_posix().encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def bundle_files() -> dict[str, str]:
    """Every file of the bundle (but the stamp) with its SHA-256."""
    return {
        p.relative_to(DIST).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(DIST.rglob("*"))
        if p.is_file() and p != STAMP
    }


def problems() -> list[str]:
    """Why the shipped bundle does not match the sources (empty: it does)."""
    if not STAMP.exists():
        return [f"{STAMP.relative_to(ROOT)} is missing"]
    stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    out = []
    if stamp.get("sources") != source_hash():
        out.append("client/ changed since the bundle was built")
    if stamp.get("files") != bundle_files():
        out.append("paiju/web/dist differs from the files the build recorded")
    return out


def _npm(*args: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("client_bundle: npm is needed to build the client (Node 20 and npm)")
    subprocess.run([npm, *args], cwd=CLIENT, check=True)


def build() -> None:
    """npm ci (when the lockfile is newer than node_modules), vite build, write the stamp."""
    marker = CLIENT / "node_modules" / ".installed"
    lock = CLIENT / "package-lock.json"
    if not marker.exists() or marker.stat().st_mtime < lock.stat().st_mtime:
        _npm("ci", "--no-audit", "--no-fund")
        marker.touch()
    _npm("run", "build", "--silent")
    STAMP.write_text(
        json.dumps({"sources": source_hash(), "files": bundle_files()}, indent=1) + "\n",
        encoding="utf-8",
    )


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "build":
        build()
        return 0
    found = problems()
    if not found:
        return 0
    if command == "ensure" and not os.environ.get("CI"):
        print("client: " + "; ".join(found) + ": building", file=sys.stderr)
        build()
        return 0
    print(
        "the shipped client bundle is stale: " + "; ".join(found) + ". Run `make client` and "
        "commit paiju/web/dist.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
