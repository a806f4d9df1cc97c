"""The browser client in a real browser: Playwright driving Debian's Chromium against a live
``paiju serve`` on loopback, every step played by clicks. Screenshots of each step go to
``artifacts/`` (look at them)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.clicks import play_to_settlement
from tests.web.conftest import CHROMIUM

ROOT = Path(__file__).resolve().parent.parent.parent
ARTIFACTS = ROOT / "artifacts"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason="Debian's chromium is not installed (.ci/run installs it)",
)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(tmp_path_factory: pytest.TempPathFactory, **timing: str) -> Iterator[str]:
    """A ``paiju serve`` on a free loopback port with short timings (``timing`` overrides
    them), until the tests of the module are done."""
    port = _free_port()
    env = {
        **os.environ,
        "PAIJU_DATA_DIR": str(tmp_path_factory.mktemp("web")),
        # tables of one's own fill with bots at once; a shared table waits for people
        "PAIJU_BOT_WAIT": "600",
        "PAIJU_REGISTER_LIMITS_ADDRESS": "1000/minute",
        "PAIJU_BOT_DELAY": "0.05",
        "PAIJU_CLAIM_PAUSE": "0.02",
        "PAIJU_NEXT_HAND_SECONDS": "600",
        "PAIJU_TURN_SECONDS": "60",
        # a test's stop is a stop: no waiting for live hands to end (tests/server/test_drain.py)
        "PAIJU_DRAIN_SECONDS": "0",
        **timing,
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
    # poll until the server answers (or dies): the interval is a poll, not a guess of speed
    end = time.monotonic() + 120
    while True:
        assert proc.poll() is None, "paiju serve exited"
        try:
            if httpx.get(base + "/api/health", timeout=5).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < end, "paiju serve did not answer"
        time.sleep(0.1)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(tmp_path_factory)


@pytest.fixture(scope="module")
def paused_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose claim pause (Mazhan §5 end) is long enough to look at the page during
    it: every discard is followed by 2 s of it."""
    yield from _serve(tmp_path_factory, PAIJU_CLAIM_PAUSE="2", PAIJU_SEED="35")


class Player:
    """One person at a browser: a page, their name, the sockets the page opened."""

    def __init__(
        self,
        browser: Any,
        base: str,
        name: str,
        viewport: dict[str, int],
        reduced_motion: str = "no-preference",
    ) -> None:
        self.page = browser.new_page(
            viewport=viewport, locale="zh-TW", reduced_motion=reduced_motion
        )
        self.name = name
        self.base = base
        self.errors: list[str] = []
        self.sockets = 0
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("websocket", lambda _ws: self._opened())

    def _opened(self) -> None:
        self.sockets += 1

    def shot(self, name: str) -> None:
        self.shot_of(self.page, name)

    @staticmethod
    def shot_of(page: Any, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        # animations run to their end first, so the photo shows where things stay
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, animations="disabled")

    def register(self, shot: str | None = None) -> None:
        self.page.goto(self.base + "/")
        self.page.fill("#name", self.name)
        self.page.fill("#password", "secret-pw-1")
        if shot:
            self.shot(shot)
        self.page.click("#do-register")
        self.page.wait_for_selector("#lobby", timeout=15_000)
        self.page.wait_for_selector("[data-room-card]")

    def sit_alone(self, room: str) -> None:
        self.page.click(f"button[data-alone={room}]")
        self.page.wait_for_selector("#table")
        self.page.wait_for_selector("#ready", timeout=15_000)
        self.page.click("#ready")
        self.page.wait_for_selector(".table", timeout=20_000)

    def balance(self) -> int:
        return int(self.page.get_attribute(".who-balance", "data-balance") or "0")

    def play_to_settlement(
        self, prompt_shot: str | None = None, when: str = ".prompt.claim"
    ) -> None:
        """Play by clicks to the settlement; the first page showing ``when`` (a claim
        prompt) is photographed."""
        shots: set[str] = set()

        def look(page: Any) -> None:
            if prompt_shot and not shots and page.query_selector(when):
                shots.add(prompt_shot)
                self.shot(prompt_shot)

        play_to_settlement(self.page, before=look)


class SocketPlayer:
    """Another person at the table, on a bare WebSocket (an API client with a bearer token):
    it reads every frame on a thread of its own and waits on them, never on the clock."""

    def __init__(self, base: str, name: str) -> None:
        from websockets.sync.client import connect

        body = {"name": name, "password": "secret-pw-1"}
        assert httpx.post(base + "/api/register", json=body).status_code == 201
        token = httpx.post(base + "/api/login", json={**body, "bearer": True}).json()["token"]
        self.token = token
        self.name = name
        self.base = base
        self.frames: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            connect(
                base.replace("http://", "ws://") + "/ws",
                additional_headers={"Authorization": f"Bearer {token}"},
            )
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        import json

        try:
            while True:
                text = self.ws.recv()
                with self._cond:
                    self.frames.append(json.loads(text))
                    self._cond.notify_all()
        except Exception:  # the socket closed
            pass

    def send(self, **message: Any) -> None:
        import json

        self.ws.send(json.dumps(message))

    def wait_for(self, type_: str, timeout: float = 20.0, **fields: Any) -> dict[str, Any]:
        """The first frame of this type (with these fields) received so far or next."""
        end = time.monotonic() + timeout
        seen = 0
        with self._cond:
            while True:
                for f in self.frames[seen:]:
                    if f.get("type") == type_ and all(f.get(k) == v for k, v in fields.items()):
                        return f
                seen = len(self.frames)
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.name}: no {type_} frame; got {self.frames[-5:]}")
                self._cond.wait(left)

    def ledger(self) -> list[dict[str, Any]]:
        headers = {"Authorization": f"Bearer {self.token}"}
        entries: list[dict[str, Any]] = httpx.get(
            self.base + "/api/ledger", headers=headers
        ).json()["entries"]
        return entries

    def close(self) -> None:
        self._stack.close()


def _api(page: Any, base: str, path: str) -> Any:
    """A GET of the API with the page's session cookie."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx.get(base + path, cookies=cookies).json()


def _no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def _nothing_cut_or_sideways(page: Any) -> None:
    """On a phone: the header shows the player's name whole, and no table of the settlement
    is wider than the settlement (none scrolls sideways inside it either)."""
    assert page.evaluate(
        "(e => !!e && e.scrollWidth <= e.clientWidth)(document.querySelector('.who-name'))"
    )
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.settlement-panel table')]
            .filter(t => t.scrollWidth > t.clientWidth + 1 || t.getBoundingClientRect().right
                > t.closest('.settlement-panel').getBoundingClientRect().right + 1)
            .map(t => t.className + ' ' + t.scrollWidth + '/' + t.clientWidth)"""
    )
    assert not wide, wide


def _named_controls(page: Any) -> None:
    """Every button, link and field has an accessible name; every tile and card too."""
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll(
                'button, a[href], input, select, [data-tile][role], [data-card][role]')]
            .filter(e => e.offsetParent !== null)
            .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim()
                || (e.labels && e.labels.length) || e.getAttribute('title')))
            .map(e => e.outerHTML.slice(0, 100))"""
    )
    assert not unnamed, unnamed


def _touch_targets(page: Any) -> None:
    small = page.evaluate(
        """() => [...document.querySelectorAll('button:not([disabled]), input, a[href]')]
            .filter(e => e.offsetParent !== null)
            .map(e => e.type === 'checkbox' && e.closest('label') ? e.closest('label') : e)
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.right > 0 && r.bottom > 0)
            .filter(([, r]) => r.width < 40 || r.height < 40)
            .map(([h, r]) => h + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert not small, small


def test_mazhan_by_clicks_on_a_desktop(server: str, browser: Any) -> None:
    me = Player(browser, server, "桌面玩家", DESKTOP)
    me.register(shot="mazhan-1-login")
    assert me.balance() == 10_000
    me.shot("mazhan-2-lobby")
    me.sit_alone("mazhan")
    me.page.wait_for_selector(".hand [data-tile]")
    me.shot("mazhan-3-table")
    _named_controls(me.page)
    # the dealer's first turn: the hand is live and waits for this player (bots cannot end
    # it meanwhile). Switch language mid-hand: the socket stays, the screen stays.
    me.page.wait_for_selector(".hand button[data-action]:not([disabled])")
    # alone with bots a hint is offered: the normal bot's move, said and outlined
    me.page.click("#hint")
    me.page.wait_for_selector(".hint-said[data-hint]:not([data-hint=''])")
    hinted = me.page.get_attribute(".hint-said", "data-hint")
    assert me.page.get_attribute(".hinted", "data-action") == hinted
    assert me.page.inner_text(".hint-said").startswith("提示：")
    assert me.page.is_disabled("#hint")  # once per view
    me.shot("mazhan-3b-hint")
    sockets = me.sockets
    me.page.click("#lang")
    assert me.page.inner_text(".hint-said").startswith("Hint: ")
    assert me.page.inner_text("#lang") == "中文"
    assert "Moves" in me.page.inner_text(".move-log")
    assert me.page.query_selector(".hand button[aria-label^='Discard']") is not None
    me.shot("mazhan-4-english-mid-hand")
    me.page.click("#lang")
    assert me.sockets == sockets
    # reload mid-hand: back at the same table, no ready button while the hand is live, the
    # move log as it was (a connection's first view carries the hand so far)
    logged = me.page.eval_on_selector_all(".move-log li", "items => items.map(i => i.textContent)")
    me.page.reload()
    me.page.wait_for_selector(".hand button[data-action]:not([disabled])", timeout=15_000)
    assert me.page.query_selector("#ready") is None
    again = me.page.eval_on_selector_all(".move-log li", "items => items.map(i => i.textContent)")
    assert again == logged
    me.shot("mazhan-5-reloaded")
    # one discard by the keyboard, with no click first: the turn put the keyboard on the
    # drawn tile; ← picks the tile left of it, Enter discards it; the move log names it
    me.page.wait_for_selector(".hand :focus")
    assert me.page.query_selector(".keys-hint") is not None
    me.page.keyboard.press("ArrowLeft")
    picked = me.page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert picked and picked.startswith("打 "), picked
    me.page.keyboard.press("Enter")
    me.page.wait_for_selector(".move-log li[data-kind=discard]")
    me.play_to_settlement(prompt_shot="mazhan-5b-claim-prompt")
    # a win's settlement turns up its parts one by one: then it is all there
    me.page.wait_for_selector("#result[data-shown=true]")
    me.shot("mazhan-6-settlement")
    panel = me.page.inner_text("#result")
    assert "結算" in panel and "誰付誰" in panel
    change = int(me.page.get_attribute("#balance-change", "data-change") or "0")
    assert me.balance() == 10_000 + change
    sockets = me.sockets
    me.page.click("#lang")
    assert "Who pays whom" in me.page.inner_text("#result")
    assert me.sockets == sockets
    me.shot("mazhan-7-settlement-english")
    me.page.click("#lang")
    # the settlement stays until the player leaves; leaving between hands costs nothing
    balance = me.balance()
    me.page.click("#result [data-action=leave]")
    me.page.wait_for_selector("#lobby", timeout=15_000)
    me.page.wait_for_selector("#hands [data-action=replay]")
    assert me.balance() == balance
    # nothing but the hand's own lines: the fee and the settlement, no escape
    assert _api(me.page, server, "/api/me")["balance"] == balance
    ledger = _api(me.page, server, "/api/ledger")["entries"]
    assert {e["reason"] for e in ledger} <= {"issue", "fee", "hand"}, ledger
    assert balance == 10_000 + sum(e["amount"] for e in ledger if e["reason"] != "issue")
    me.shot("mazhan-8-lobby-after")
    # the replay: every hand shown, ← → step, the settlement at the end
    me.page.click("#hands [data-action=replay]")
    me.page.wait_for_selector("#replay .table")
    me.page.keyboard.press("ArrowRight")
    me.page.wait_for_selector("#replay-head[data-step='1']")
    me.page.keyboard.press("End")
    me.page.wait_for_selector("#replay .settlement")
    assert me.page.query_selector("#replay .revealed-hand [data-tile]") is not None
    me.shot("mazhan-9-replay-end")
    # a language switch in the replay keeps the screen and the step
    step = me.page.get_attribute("#replay-head", "data-step")
    me.page.click("#lang")
    assert "Who pays whom" in me.page.inner_text("#replay .settlement")
    assert me.page.get_attribute("#replay-head", "data-step") == step
    me.page.click("#lang")
    assert not me.errors, me.errors
    me.page.close()


def test_madiao_by_clicks_on_a_phone(server: str, browser: Any) -> None:
    me = Player(browser, server, "手機玩家", PHONE)
    me.register()
    _no_horizontal_scroll(me.page)
    # the bots of a table of one's own at the level the player picks
    me.page.select_option("select[data-level=madiao]", "hard")
    me.shot("madiao-1-lobby-phone")
    me.sit_alone("madiao")
    me.page.wait_for_selector(".table", timeout=20_000)
    assert len(me.page.query_selector_all(".seat-badge [data-level=hard]")) == 3
    me.shot("madiao-2-table-phone")
    _no_horizontal_scroll(me.page)
    _touch_targets(me.page)
    _named_controls(me.page)
    me.play_to_settlement(
        prompt_shot="madiao-2b-trick-phone", when=".trick-plays .trick-play:nth-child(2)"
    )
    # the 開沖 draws are revealed one by one (this page keeps its animations)
    me.page.wait_for_selector("#result .chong[data-revealed=true]", timeout=30_000)
    me.shot("madiao-3-settlement-phone")
    _no_horizontal_scroll(me.page)
    _nothing_cut_or_sideways(me.page)
    assert "開沖" in me.page.inner_text("#result")
    assert not me.errors, me.errors
    me.page.close()


def test_mazhan_on_a_phone_and_leaving_during_a_hand(server: str, browser: Any) -> None:
    me = Player(browser, server, "逃跑玩家", PHONE)
    me.register()
    me.sit_alone("mazhan")
    me.page.wait_for_selector(".hand [data-tile]")
    _no_horizontal_scroll(me.page)
    _touch_targets(me.page)
    me.shot("mazhan-phone-1-table")
    before = me.balance()
    stake = int(me.page.get_attribute("[data-stake]", "data-stake") or "0")
    me.page.click("#leave")
    dialog = me.page.wait_for_selector("dialog.confirm")
    text = dialog.inner_text()
    assert str(400 * stake) in text, text
    me.shot("mazhan-phone-2-leave-confirm")
    me.page.click("dialog.confirm [data-action=cancel]")
    assert me.page.query_selector("dialog.confirm") is None
    me.page.click("#leave")
    me.page.click("dialog.confirm [data-action=confirm]")
    me.page.wait_for_selector("#lobby", timeout=15_000)
    me.page.wait_for_selector("[data-toast=youLeftPaid]")
    me.page.wait_for_selector(f".who-balance[data-balance='{before - 400 * stake}']")
    me.shot("mazhan-phone-3-after-escape")
    cookies = {c["name"]: c["value"] for c in me.page.context.cookies()}
    ledger = httpx.get(server + "/api/ledger", cookies=cookies).json()["entries"]
    escapes = [e for e in ledger if e["reason"] == "escape"]
    # the penalty once: one hand's lines (to the three others and the house), 400 × 底注
    assert len({e["hand"] for e in escapes}) == 1, escapes
    assert sum(e["amount"] for e in escapes) == -400 * stake, escapes
    assert me.balance() == before - 400 * stake
    # the escaped hand is in My hands, said to be one, with its cost; the ledger says it once
    hand = escapes[0]["hand"]
    row = me.page.wait_for_selector(f"#hands tr[data-hand='{hand}']")
    assert "逃跑" in row.inner_text()
    assert row.query_selector(f"[data-points='{-400 * stake - stake}']") is not None
    assert row.query_selector("[data-action=replay]") is None
    lines = me.page.eval_on_selector_all(
        "#ledger tr[data-ledger]", "rows => rows.map(r => r.textContent)"
    )
    assert sum("逃跑" in line for line in lines) == 1, lines
    assert not me.errors, me.errors
    me.page.close()


def test_an_opponents_escape_seen_at_the_table(server: str, browser: Any) -> None:
    me = Player(browser, server, "看逃跑的人", DESKTOP)
    me.register()
    me.page.click("button[data-action=join][data-room=mazhan]")
    me.page.wait_for_selector("#table .waiting")
    # three other people sit down (on bare sockets), hand play to 托管 and confirm
    others = [SocketPlayer(server, f"對手{i}") for i in range(3)]
    for o in others:
        o.send(type="join", room="mazhan")
        o.wait_for("seated")
        o.send(type="tuoguan", on=True)
        o.send(type="ready")
    me.page.wait_for_selector("#table .confirmations[data-confirmed='3']")
    me.shot("escape-1-waiting-for-me")
    me.page.click("#ready")
    me.page.wait_for_selector(".table[data-game=mazhan]", timeout=20_000)
    me.shot("escape-2-live")
    before = _api(me.page, server, "/api/me")["balance"]
    # one of them leaves during the live hand: an escape, seen by everyone at once
    escaper = others[0]
    escaper.wait_for("view")
    escaper.send(type="leave", escape=True)
    escape = escaper.wait_for("escape")
    assert escape["name"] == escaper.name and escape["why"] == "left"
    notice = me.page.wait_for_selector(f"[data-escape='{escape['seat']}']")
    text = notice.inner_text()
    assert escaper.name in text and str(escape["penalty"]) in text, text
    # the board of the aborted hand is gone, the header balance follows the ledger
    assert me.page.query_selector(".table[data-game=mazhan]") is None
    after = _api(me.page, server, "/api/me")["balance"]
    share = sum(m["amount"] for m in escape["moves"] if m["to"] == me.name)
    assert share > 0 and after == before + share
    me.page.wait_for_selector(f".who-balance[data-balance='{after}']")
    # the escaper paid once: 400 × 底注 on one hand's lines
    lines = [e for e in escaper.ledger() if e["reason"] == "escape"]
    assert len({e["hand"] for e in lines}) == 1
    assert sum(e["amount"] for e in lines) == -escape["penalty"]
    # the table waits for a new fourth; this player is back in the waiting room
    me.page.wait_for_selector("#table .waiting")
    assert me.page.query_selector("#ready") is not None
    me.shot("escape-3-notice")
    me.page.click("#lang")
    assert escaper.name in me.page.inner_text("[data-escape]")
    me.shot("escape-4-notice-english")
    me.page.click("#lang")
    for o in others:
        o.close()
    assert not me.errors, me.errors
    me.page.close()


def test_madiao_in_english_on_a_desktop_to_the_replay(server: str, browser: Any) -> None:
    """A whole Ma Diao hand in English with reduced motion (the 開沖 draws shown at once), then
    its replay to the settlement."""
    me = Player(browser, server, "desk-madiao", DESKTOP, reduced_motion="reduce")
    me.register()
    me.page.click("#lang")
    me.sit_alone("madiao")
    me.page.wait_for_selector(".table[data-game=madiao]", timeout=20_000)
    _named_controls(me.page)
    me.shot("madiao-desk-1-table-english")
    # this player's first card by the keyboard (focus the hand, ←, Enter); a card with two
    # plays (capture or face down) asks, and Enter takes the first
    me.page.wait_for_selector(".hand button[tabindex='0']:not([disabled])", timeout=30_000)
    seat = me.page.get_attribute(".my-area[data-seat]", "data-seat")
    me.page.focus(".hand button[tabindex='0']")
    me.page.keyboard.press("ArrowLeft")
    me.page.keyboard.press("Enter")
    if me.page.query_selector(".my-area .prompt:not(.quiet) button"):
        me.page.wait_for_selector(".my-area .prompt:not(.quiet) button:focus")
        me.page.keyboard.press("Enter")
    me.page.wait_for_selector(
        f".move-log li[data-seat={seat}]:is([data-kind=fa], [data-kind=zhuo], [data-kind=mie])"
    )
    me.play_to_settlement()
    # while the 開沖 is being turned up, neither the scores nor the move log tell its draws
    # (read in one go: what the page shows at one moment)
    revealed, scores, lines = me.page.evaluate(
        """() => [
            document.querySelector('#result .chong')?.dataset.revealed === 'true',
            !!document.querySelector('#result .md-scores, #result .my-result'),
            document.querySelectorAll(
                '.move-log li:is([data-kind=chong], [data-kind=claim], [data-kind=dead])'
            ).length,
        ]"""
    )
    assert revealed or (not scores and lines < 8), (revealed, scores, lines)
    me.page.wait_for_selector("#result .chong[data-revealed=true]")
    assert (
        me.page.locator(
            ".move-log li:is([data-kind=chong], [data-kind=claim], [data-kind=dead])"
        ).count()
        == 8
    )
    text = me.page.inner_text("#result")
    assert "Kai chong" in text and "Who pays whom" in text, text
    assert "開沖" not in text and "誰付誰" not in text
    change = int(me.page.get_attribute("#balance-change", "data-change") or "0")
    assert me.balance() == 10_000 + change
    me.shot("madiao-desk-2-settlement-english")
    me.page.click("#result [data-action=leave]")
    me.page.wait_for_selector("#hands [data-action=replay]")
    me.page.click("#hands [data-action=replay]")
    me.page.wait_for_selector("#replay .table[data-game=madiao]")
    me.page.click("[data-action=end]")
    me.page.wait_for_selector("#replay .settlement.madiao")
    me.page.wait_for_selector(f"#replay #balance-change[data-change='{change}']")
    me.shot("madiao-desk-3-replay-end")
    assert not me.errors, me.errors
    me.page.close()


def test_a_whole_mazhan_hand_on_a_phone(server: str, browser: Any) -> None:
    me = Player(browser, server, "手機麻將", PHONE)
    me.register()
    me.sit_alone("mazhan")
    me.page.wait_for_selector(".hand [data-tile]")
    me.play_to_settlement(prompt_shot="mazhan-phone-4-claim-prompt")
    me.page.wait_for_selector("#result[data-shown=true]")
    _no_horizontal_scroll(me.page)
    _touch_targets(me.page)
    me.shot("mazhan-phone-5-settlement")
    me.page.click("#lang")
    _no_horizontal_scroll(me.page)
    me.shot("mazhan-phone-6-settlement-english")
    _nothing_cut_or_sideways(me.page)
    # wherever the player is reading, the bar at the foot shows the Ready button and its clock
    for y in (0, 1500, 4000):
        me.page.evaluate(f"window.scrollTo(0, {y})")
        ready = me.page.locator(".sticky-actions [data-action=ready]")
        box = ready.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            y,
            box,
        )
    me.page.evaluate("window.scrollTo(0, 1500)")
    me.page.screenshot(path=str(ARTIFACTS / "mazhan-phone-7-settlement-scrolled.png"))
    change = int(me.page.get_attribute("#balance-change", "data-change") or "0")
    assert me.balance() == 10_000 + change
    assert not me.errors, me.errors
    me.page.close()


def test_a_second_page_of_the_account_takes_over_without_a_fight(server: str, browser: Any) -> None:
    """Two pages of one account: the newer takes the socket (4009); the older says so and
    does not take it back by itself (they would chase each other), until the player asks."""
    first = Player(browser, server, "兩個分頁", DESKTOP)
    first.register()
    # a second page with the same session cookie (one context holds one page here)
    context = browser.new_context(viewport=DESKTOP, locale="zh-TW")
    context.add_cookies(first.page.context.cookies())
    second = context.new_page()
    second.goto(server + "/")
    second.wait_for_selector("#lobby")
    first.page.wait_for_selector("[data-connection=taken-over]")
    first.shot("takeover-1-first-page")
    assert second.query_selector("[data-connection]") is None
    first.page.click("[data-action=reconnect]")
    second.wait_for_selector("[data-connection=taken-over]")
    first.page.wait_for_selector("[data-connection]", state="detached")
    assert not first.errors, first.errors
    context.close()
    first.page.close()


def test_a_pause_and_an_unknown_frame_in_the_browser(server: str, browser: Any) -> None:
    """Frames injected into the page's real socket (Playwright's WebSocket route passes
    everything else through): ``paused`` shows a banner and stops the clock, ``resumed``
    clears it; a frame type the client does not know is logged, not fatal."""
    me = Player(browser, server, "暫停的人", DESKTOP)
    sockets: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    me.page.route_web_socket("**/ws", route)
    warnings: list[str] = []
    me.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    me.register()
    me.sit_alone("mazhan")
    me.page.wait_for_selector(".my-area .clock-seconds")
    sockets[-1].send('{"type": "paused", "why": "storage"}')
    me.page.wait_for_selector("#table[data-paused=true] [data-paused]")
    assert me.page.query_selector(".my-area .clock.stopped") is not None
    me.shot("paused-1-banner")
    sockets[-1].send('{"type": "resumed"}')
    me.page.wait_for_selector("[data-paused]", state="detached")
    assert me.page.query_selector(".my-area .clock.stopped") is None
    # the table's server out of reach (the cluster's Redis away): a banner of its own
    sockets[-1].send('{"type": "paused", "why": "peers"}')
    banner = me.page.wait_for_selector(".banner[data-paused=peers]")
    assert "與牌桌伺服器暫時失去聯繫" in banner.inner_text()
    assert me.page.query_selector(".my-area .clock.stopped") is not None
    me.shot("paused-2-peers-banner")
    sockets[-1].send('{"type": "resumed"}')
    me.page.wait_for_selector("[data-paused]", state="detached")
    sockets[-1].send('{"type": "brand_new_frame", "x": 1}')
    # the page goes on: a discard by a click still plays
    me.page.query_selector_all(".hand button[data-action]:not([disabled])")[-1].click()
    me.page.wait_for_selector(".move-log li[data-kind=discard]")
    assert any("brand_new_frame" in w for w in warnings), warnings
    assert not me.errors, me.errors
    me.page.close()


# what a claim pause must not show (Mazhan §5 end): a prompt, a clock, a seat on the move, or
# words that say someone may be deciding on the discard
_NO_PAUSE_SIGNS = (
    ".dock > *, .prompt, .turn-clock, .countdown, .clock-seconds, .seat-badge.active,"
    " .clock.active, .compass.on, .hint-said"
)
_THINKING_WORDS = ("思考", "等待", "考慮", "決定", "過", "thinking", "waiting for", "deciding")
_PASS = ".prompt button[data-action$=' pass']:not([disabled])"
_DISCARD = ".hand button[data-action]:not([disabled])"


def _board_at(page: Any) -> list[int]:
    """Where the board sits on the page: the table's top, the felt's, and the hand's place in
    the player's own area (a layout jump moves one of them)."""
    at: list[int] = page.evaluate(
        """() => {
            const y = s => document.querySelector(s).getBoundingClientRect().top + scrollY;
            return [y('.table'), y('.felt'), y('.my-area .hand') - y('.my-area')]
                .map(Math.round);
        }"""
    )
    return at


def _settling(page: Any, seat: str, tile: str, board: list[int], shot: str | None = None) -> None:
    """The page during the claim pause after ``seat`` discarded ``tile``: the tile laid in
    that seat's pond as the last discard, and nothing else: no prompt, no clock, no seat on
    the move, no word of anyone deciding; the board where it was (``board``), during the
    pause and after it. Photographed (``shot``) while the pause holds."""
    during = f".table[data-phase=claim] .pond[data-seat={seat}] .tile.last[data-tile='{tile}']"
    page.wait_for_selector(during, timeout=15_000)
    shown = page.eval_on_selector_all(
        _NO_PAUSE_SIGNS, "es => es.map(e => e.outerHTML.slice(0, 120))"
    )
    assert not shown, shown
    text = page.inner_text("#table")
    if page.query_selector(".keys-hint"):  # the keys' help is always there ("Esc passes")
        text = text.replace(page.inner_text(".keys-hint"), "")
    assert not [w for w in _THINKING_WORDS if w in text.lower()], text
    assert _board_at(page) == board
    if shot:
        # the tile's short drop-in done, then the photograph
        page.eval_on_selector(during, "e => Promise.all(e.getAnimations().map(a => a.finished))")
        Player.shot_of(page, shot)
    # all of it while the pause held: the discard still the last thing on the table
    assert page.query_selector(during) is not None, "the pause was over before it was seen"
    # the view after the pause: the board stays where it was
    page.wait_for_selector(during, state="detached", timeout=15_000)
    if page.query_selector(".table") is not None:
        assert _board_at(page) == board


def test_the_claim_pause_is_the_discard_settling(paused_server: str, browser: Any) -> None:
    """Mazhan §5 end: after every discard each seat that cannot claim sees the same pause,
    shown as the discard settling into its pond: no prompt, no clock, nobody's turn, no
    word of a claim window, and the board does not move. On a phone: this player's own
    discard, then a bot's discard they cannot claim; a claim prompt on the way is passed,
    and goes with the tap, the board staying where it was."""
    me = Player(browser, paused_server, "看牌落定", PHONE)
    me.register()
    me.sit_alone("mazhan")
    page = me.page
    seat = page.get_attribute(".my-area[data-seat]", "data-seat") or ""

    def pass_prompt() -> None:
        board = _board_at(page)
        page.click(_PASS)
        page.wait_for_selector(".prompt", state="detached", timeout=5_000)
        assert _board_at(page) == board
        page.wait_for_selector(".table[data-phase=claim]", state="detached", timeout=15_000)

    # to this player's turn (passing any claim prompt on the way), then a discard
    while not page.query_selector(_DISCARD):
        page.wait_for_selector(f"{_PASS}, {_DISCARD}", timeout=60_000)
        if page.query_selector(_PASS):
            pass_prompt()
    page.wait_for_selector(".dock .turn-clock .countdown")
    me.shot("claim-pause-0-my-turn-phone")
    board = _board_at(page)
    button = page.query_selector(".hand-drawn " + _DISCARD) or page.query_selector_all(_DISCARD)[-1]
    tile = button.get_attribute("data-tile") or ""
    button.click()
    _settling(page, seat, tile, board, shot="claim-pause-1-own-discard-phone")
    # the next discards are the bots': the first this player cannot claim pauses the same
    for _ in range(12):
        page.wait_for_selector(
            f".table[data-phase=claim] .pond:not([data-seat={seat}]) .tile.last, {_PASS}",
            timeout=30_000,
        )
        if page.query_selector(_PASS):
            pass_prompt()
            continue
        last = page.query_selector(".table[data-phase=claim] .pond .tile.last")
        if last is None:
            continue  # the pause ended between the two looks
        pond = last.evaluate("e => e.closest('.pond').dataset.seat")
        tile = last.get_attribute("data-tile") or ""
        _settling(page, pond, tile, _board_at(page), "claim-pause-2-bot-discard-phone")
        break
    else:
        raise AssertionError("no bot discarded a tile this player could not claim")
    _no_horizontal_scroll(page)
    assert not me.errors, me.errors
    page.close()


def test_friends_meet_at_a_table_by_its_link(server: str, browser: Any) -> None:
    """A table for friends: the host opens it and gets its code and link; a friend opens
    the link on a phone (not yet registered: the code waits through the registration), sees
    before logging in whose table it is, and sits at it as soon as registered; the host
    fills the other seats with bots and the hand starts on both pages."""
    host = Player(browser, server, "東道主", DESKTOP)
    host.register()
    host.page.click("button[data-private=mazhan]")
    host.page.wait_for_selector(".friends-panel")
    code = host.page.inner_text("#table-code-shown")
    link = host.page.input_value(".invite-link")
    assert len(code) == 8 and link == f"{server}/#/join/{code}"
    host.shot("friends-1-host-waits")
    friend = Player(browser, server, "好朋友", PHONE)
    friend.page.goto(link)
    # before logging in, the invitation names the table: its room and who sits there
    friend.page.wait_for_selector("#invitation:has-text('東道主')")
    friend.shot("friends-1b-invitation-before-login")
    friend.page.fill("#name", friend.name)
    friend.page.fill("#password", "secret-pw-1")
    friend.page.click("#do-register")
    # registered, the friend sits at the table at once (not in the lobby with the code)
    friend.page.wait_for_selector(f".friends-panel[data-code='{code}']")
    friend.shot("friends-2-friend-at-the-table")
    host.page.wait_for_selector(".waiting-seats li[data-seat=S]:has-text('好朋友')")
    friend.page.click("#ready")
    host.page.click("#ready")
    host.page.click("[data-action=fill]")
    host.page.wait_for_selector(".table", timeout=20_000)
    friend.page.wait_for_selector(".table", timeout=20_000)
    # during the hand the code stays in the table bar, for a friend who comes late
    assert host.page.inner_text(f".table-bar .code-chip[data-code='{code}']").endswith(code)
    host.shot("friends-3-hand-live")
    _no_horizontal_scroll(friend.page)
    assert not host.errors and not friend.errors, host.errors + friend.errors
    host.page.close()
    friend.page.close()


def test_a_scorekeeper_scores_a_hand_without_an_account(server: str, browser: Any) -> None:
    """The scorer page from the login page, no account: the rules' example 1 (South self-draws,
    H = 320, the dealer pays double) scored and shown as a settlement; a seat with too few tiles
    gets its problem in the page's words, under the field; Ma Diao's 開沖 tab scores its rules'
    example (14); all on a phone in Chinese. Then How to play from the login page's link (both
    games' tabs, on the phone in Chinese) and from the address on a desktop in English (the
    contents jump to a section); the 開沖 scorer from its address, its help's link to the guide's
    開沖 section."""
    page = browser.new_page(viewport=PHONE, locale="zh-TW")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/")
    page.click("#to-scorer")
    page.wait_for_selector("#scorer")
    page.click("[data-action=example]")
    page.click("#sc-score")
    page.wait_for_selector("#sc-result")
    nets = {seat: page.inner_text(f"#sc-result .nets [data-seat={seat}]") for seat in "ESWN"}
    assert nets == {"E": "東 -640", "S": "南 +1280", "W": "西 -320", "N": "北 -320"}
    assert "320 胡" in page.inner_text("#sc-result .score-card[data-seat=S]")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "scorer-1-example.png"), full_page=True)
    page.fill("#sc-E-concealed", "11m")
    page.click("#sc-score")
    page.wait_for_selector("#sc-error[data-field=sc-E-concealed]")
    assert page.inner_text("#sc-error").startswith("東：共 2 張")
    assert "holds" not in page.inner_text("#sc-error")  # the page's words, not the server's
    assert page.get_attribute("#sc-E-concealed", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "sc-E-concealed"
    # on the phone the problem shows under the field that took the focus, in sight
    problem = page.locator("#sc-E-concealed-problem")
    assert problem.inner_text().startswith("共 2 張")
    box = problem.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    page.screenshot(path=str(ARTIFACTS / "scorer-1b-problem-phone.png"))
    assert page.query_selector("#sc-result") is None
    # two mistakes at once: both said, each under its own field, counted by the Score button
    page.fill("#sc-N-melds", "pong 555p")
    page.click("#sc-score")
    page.wait_for_selector("#sc-error li[data-field=sc-N-melds]")
    listed = page.query_selector_all("#sc-error li")
    # in the form's order, the first focused
    assert [li.get_attribute("data-field") for li in listed] == ["sc-E-concealed", "sc-N-melds"]
    assert page.inner_text("#sc-error p").startswith("有 2 處要改")
    assert page.get_attribute("#sc-E-concealed", "aria-invalid") == "true"
    assert page.get_attribute("#sc-N-melds", "aria-invalid") == "true"
    assert page.inner_text("#sc-E-concealed-problem").startswith("共 2 張")
    assert page.evaluate("document.activeElement.id") == "sc-E-concealed"
    page.screenshot(path=str(ARTIFACTS / "scorer-1c-problems-phone.png"), full_page=True)
    _no_horizontal_scroll(page)
    # Ma Diao's 開沖 on its tab: the rules' example (千萬 that captured 百萬), 10 + 4
    page.click(".scorer-tabs a[data-game=madiao]")
    page.wait_for_selector("#scorer[data-game=madiao] #chong")
    assert page.evaluate("location.hash") == "#/score/madiao"
    page.click("[data-action=example]")
    page.click("#ch-score")
    page.wait_for_selector("#ch-result")
    draws = page.query_selector_all("#ch-result .chong-draw")
    assert [d.get_attribute("data-points") for d in draws] == ["10", "4"]
    assert page.inner_text("#ch-total") == "合計 14 注"
    page.screenshot(path=str(ARTIFACTS / "scorer-2-chong-phone.png"), full_page=True)
    _no_horizontal_scroll(page)
    _named_controls(page)
    # How to play, from the login page's link: Mazhan first, then Ma Diao's tab, in Chinese
    page.click("[data-action=back]")
    page.click("#to-rules")
    page.wait_for_selector("#rules[data-game=mazhan]")
    assert page.inner_text("#rules-title") == "玩法"
    assert page.inner_text("#rules-mazhan-base-title") == "計分：基礎分"
    page.screenshot(path=str(ARTIFACTS / "rules-1-mazhan-phone.png"), full_page=True)
    _no_horizontal_scroll(page)
    page.click(".howto-tab[data-game=madiao]")
    page.wait_for_selector("#rules[data-game=madiao]")
    assert page.evaluate("location.hash") == "#/rules/madiao"
    assert page.inner_text("#rules-madiao-cards-title") == "四十張牌"
    page.screenshot(path=str(ARTIFACTS / "rules-2-madiao-phone.png"), full_page=True)
    _no_horizontal_scroll(page)
    _named_controls(page)
    assert not errors, errors
    page.close()
    # on a desktop in English, straight from the address: the contents jump to a section
    desk = browser.new_page(viewport=DESKTOP, locale="en-US")
    desk.on("pageerror", lambda e: errors.append(str(e)))
    desk.goto(server + "/#/rules")
    desk.wait_for_selector("#rules[data-game=mazhan]")
    assert desk.inner_text("#rules-title") == "How to play"
    desk.click(".howto-toc a[data-section=example]")
    assert desk.evaluate("document.activeElement.id") == "rules-mazhan-example-title"
    assert desk.evaluate("location.hash") == "#/rules"
    desk.screenshot(path=str(ARTIFACTS / "rules-3-mazhan-desktop.png"), full_page=True)
    desk.click(".howto-tab[data-game=madiao]")
    desk.wait_for_selector("#rules[data-game=madiao]")
    assert desk.inner_text("#rules-madiao-chong-title") == "開沖: turning up the stock"
    desk.screenshot(path=str(ARTIFACTS / "rules-4-madiao-desktop.png"), full_page=True)
    _no_horizontal_scroll(desk)
    # the 開沖 scorer from its address; its help leads to the guide's 開沖 section
    desk.goto(server + "/#/score/madiao")
    desk.click("#scorer[data-game=madiao] [data-action=example]")
    desk.click("#ch-score")
    desk.wait_for_selector("#ch-result")
    assert desk.inner_text("#ch-total") == "Total: 14 points"
    desk.screenshot(path=str(ARTIFACTS / "scorer-3-chong-desktop.png"), full_page=True)
    desk.click("#ch-rules")
    desk.wait_for_selector("#rules[data-game=madiao]")
    assert desk.evaluate("document.activeElement.id") == "rules-madiao-chong-title"
    assert not errors, errors
    desk.close()
