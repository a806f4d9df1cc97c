"""The browser client in a real browser: Playwright driving Debian's Chromium against a live
``paiju serve`` on loopback. Screenshots of every step go to ``artifacts/``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "artifacts"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="Debian's chromium is not installed (.ci/run installs it)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "PAIJU_DATA_DIR": str(tmp_path_factory.mktemp("web")),
        "PAIJU_BOT_WAIT": "0.2",
        "PAIJU_BOT_DELAY": "0.02",
        "PAIJU_NEXT_HAND_SECONDS": "60",
    }
    env.pop("PAIJU_DATABASE_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "paiju.cli", "serve", "--port", str(port)],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


def _shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("room", "width", "height", "piece"),
    [("mazhan", 1100, 900, ".tile"), ("madiao", 390, 844, ".card")],
)
def test_a_new_player_plays_a_hand_and_sees_the_settlement(
    server: str, browser: object, room: str, width: int, height: int, piece: str
) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})  # type: ignore[attr-defined]
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.fill("#name", f"{room}玩家")
    page.fill("#password", "secret-pw")
    _shot(page, f"{room}-1-login")
    page.click("#do-register")
    page.wait_for_selector("#lobby:not([hidden])", timeout=15_000)
    assert "10000" in page.inner_text("#who")
    _shot(page, f"{room}-2-lobby")
    page.click(f"button[data-room={room}]")
    page.wait_for_selector("#table:not([hidden])")
    page.click("#ready")
    page.wait_for_selector(piece, timeout=20_000)
    _shot(page, f"{room}-3-table")
    page.check("#tuoguan")
    page.wait_for_selector("#balance-change", timeout=90_000)
    _shot(page, f"{room}-4-settlement")
    change = page.inner_text("#balance-change")
    assert "積分" in change or "Points" in change
    balance = int(change.rsplit(" ", 1)[-1])
    assert balance != 10_000 or "+0" in change or "0 ·" in change
    assert f"{balance}" in page.inner_text("#who")
    page.click("#lang")
    assert "Settlement" in page.inner_text("#result")
    _shot(page, f"{room}-5-english")
    page.click("#leave")
    page.wait_for_selector("#lobby:not([hidden])", timeout=15_000)
    page.wait_for_selector("#hands button", timeout=15_000)
    page.click("#hands button")
    page.wait_for_selector("#replay:not([hidden])")
    page.click("#replay-next")
    page.wait_for_timeout(300)
    assert "1/" in page.inner_text("#replay-head")
    _shot(page, f"{room}-6-replay")
    assert not errors, errors
    page.close()
