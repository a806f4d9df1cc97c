"""The shipped client bundle (paiju/web/dist) is the build of the committed client sources:
a change to client/ without `make client` fails here, with no Node needed."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent


def _bundle_module() -> Any:
    spec = importlib.util.spec_from_file_location(
        "client_bundle", ROOT / "scripts" / "client_bundle.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_bundle_matches_the_client_sources() -> None:
    assert _bundle_module().problems() == []


def test_the_server_serves_the_bundle() -> None:
    from fastapi.testclient import TestClient

    from paiju.server.app import create_app
    from paiju.server.config import Settings

    app = create_app(Settings.from_env({"PAIJU_DATABASE_URL": "sqlite://"}))
    with TestClient(app) as client:
        page = client.get("/")
        assert page.status_code == 200 and '<div id="app">' in page.text
        for line in page.text.splitlines():
            if "/static/assets/" in line:
                path = next(p for p in line.split('"') if p.startswith("/static/assets/"))
                assert client.get(path).status_code == 200, path


def test_the_client_romanises_every_house_bot() -> None:
    """An English page names a bot "Xiayu 夏雨": the client's table (SeatBadge.tsx's
    BOT_ROMAN) must hold every name the server gives its bots, or a bot shows untranslated."""
    import re

    from paiju.server.table import BOT_NAMES

    source = (ROOT / "client" / "src" / "widgets" / "SeatBadge.tsx").read_text("utf-8")
    block = source[source.index("BOT_ROMAN") :].split("};", 1)[0]
    romanised = dict(re.findall(r'(\S+): "([A-Za-z]+)"', block))
    assert sorted(romanised) == sorted(BOT_NAMES)
