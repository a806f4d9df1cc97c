"""A table that fits the screen (issue 36), in Debian's Chromium: on a 1280×800 desktop and on
a phone held both ways, a Mazhan hand is played without scrolling the page, the hand's box
stays put whatever comes and goes (one's turn, a claim prompt, the timeout banner, the
reconnecting banner), a first tap raises a tile and says what it would leave (a second tap
plays it), and the settlement's first screen fits too. The prompt and the banners that the
server sends only now and then are put into the page's real socket (Playwright's WebSocket
route), copies of the frames it just sent; everything waits on the page, never on the clock.
Screenshots of every state land in ``artifacts/`` as ``fit-<device>-<state>.png``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM
from tests.web.test_browser import ARTIFACTS, _serve

DEVICES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "touch": False},
    "portrait": {"viewport": {"width": 390, "height": 844}, "touch": True},
    "landscape": {"viewport": {"width": 844, "height": 390}, "touch": True},
}
HAND = ".my-area .hand"
MY_DISCARD = ".hand button[data-action]:not([disabled])"
OVER = "#result, [data-escape]"

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(tmp_path_factory, PAIJU_SEED="36")


class Table:
    """One player at a table of bots on one device, the page's socket routed through the
    test: every frame the server sends is kept (``frames``), and a copy may be put back;
    while :meth:`hold` is on, the server's frames wait in the test, so that a state the
    test put on the page stays there until it is measured and photographed."""

    def __init__(self, browser: Any, base: str, device: str, name: str) -> None:
        spec = DEVICES[device]
        self.device = device
        self.context = browser.new_context(
            viewport=spec["viewport"],
            locale="zh-TW",
            has_touch=spec["touch"],
            is_mobile=spec["touch"],
        )
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.frames: list[dict[str, Any]] = []
        self.sockets: list[Any] = []
        self.refuse = False
        self.held: list[str | bytes] | None = None
        self.page.route_web_socket("**/ws", self._route)
        self.page.goto(base + "/")
        self.page.fill("#name", name)
        self.page.fill("#password", "secret-pw-1")
        self.page.click("#do-register")
        self.page.wait_for_selector("[data-room-card]", timeout=15_000)
        self.page.click("button[data-alone=mazhan]")
        self.page.wait_for_selector("#ready", timeout=15_000)
        self.page.click("#ready")
        self.page.wait_for_selector(".hand [data-tile]", timeout=20_000)

    def _route(self, ws: Any) -> None:
        if self.refuse:  # the server out of reach: the page keeps retrying
            ws.close()
            return
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            self.frames.append(json.loads(message))
            if self.held is not None:
                self.held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)
        self.sockets.append(ws)

    def hold(self) -> None:
        """Keep the server's frames from the page until :meth:`release` (the bots play on:
        without this, their next view could replace an injected state before its photo)."""
        self.held = []

    def release(self) -> None:
        """Send the page every frame held back, in order."""
        held, self.held = self.held or [], None
        for message in held:
            self.sockets[-1].send(message)

    def shot(self, state: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        # animations run to their end first: a tile still sliding into the river would be
        # photographed where it passes, not where it stays
        self.page.screenshot(
            path=str(ARTIFACTS / f"fit-{self.device}-{state}.png"), animations="disabled"
        )

    def box(self) -> tuple[float, float, float, float]:
        """The hand's box; every tile of the hand lies inside it (none spills over the
        plate above it or below the screen)."""
        b = self.page.locator(HAND).bounding_box()
        assert b is not None
        out = self.page.evaluate(
            """(h) => [...document.querySelectorAll('.hand .tile-button')]
                .map(e => e.getBoundingClientRect())
                .filter(r => r.top < h.y - 0.5 || r.bottom > h.y + h.height + 0.5
                    || r.left < h.x - 0.5 || r.right > h.x + h.width + 0.5)
                .map(r => [r.x, r.y])""",
            b,
        )
        assert not out, (b, out)
        return (round(b["x"], 1), round(b["y"], 1), round(b["width"], 1), round(b["height"], 1))

    def fits(self) -> None:
        """Nothing below the screen's edge: the page does not scroll."""
        height = self.page.evaluate("document.scrollingElement.scrollHeight")
        assert height <= self.page.viewport_size["height"], height

    def last_view(self, **where: Any) -> dict[str, Any]:
        views = [
            f
            for f in self.frames
            if f.get("type") == "view" and all(f["view"].get(k) == v for k, v in where.items())
        ]
        assert views, where
        copy: dict[str, Any] = json.loads(json.dumps(views[-1]))
        return copy

    def inject(self, frame: dict[str, Any]) -> None:
        self.sockets[-1].send(json.dumps(frame))

    def press(self, selector: str) -> None:
        """A tap on a touch screen, a click on a desktop."""
        if DEVICES[self.device]["touch"]:
            self.page.tap(selector)
        else:
            self.page.click(selector)

    def my_turn(self) -> None:
        """Play on (passing claims) until it is this player's turn to discard."""
        while True:
            self.page.wait_for_selector(
                f"{MY_DISCARD}, .prompt button[data-action$=' pass']:not([disabled])",
                timeout=30_000,
            )
            if self.page.query_selector(MY_DISCARD):
                return
            version = self.page.get_attribute(".table[data-version]", "data-version")
            self.press(".prompt button[data-action$=' pass']:not([disabled])")
            self.page.wait_for_selector(f".table[data-version]:not([data-version='{version}'])")


def _states(t: Table) -> dict[str, tuple[float, float, float, float]]:
    """The hand's box in every state, each photographed, the page never scrolling."""
    page = t.page
    boxes: dict[str, tuple[float, float, float, float]] = {}
    t.my_turn()
    page.wait_for_selector(".dock .turn-clock")
    # one "your turn" only
    assert page.locator(".turn-hint").count() == 1
    boxes["own-turn"] = t.box()
    t.fits()
    t.shot("1-own-turn")
    # a discard, then the others' turns: waiting
    version = page.get_attribute(".table[data-version]", "data-version")
    drawn = ".hand-drawn " + MY_DISCARD
    target = drawn if page.query_selector(drawn) else MY_DISCARD + " >> nth=-1"
    if DEVICES[t.device]["touch"]:
        # the first tap raises the tile and says what it would leave; nothing is played
        page.tap(target)
        page.wait_for_selector(".tile-button.raised")
        page.wait_for_selector(".dock .preview[data-preview]")
        assert page.get_attribute(".table[data-version]", "data-version") == version
        assert page.query_selector(".move-log li[data-kind=discard][data-seat=E]") is None
        boxes["raised"] = t.box()
        t.shot("2-raised")
        # a tap elsewhere lowers it; the next two play it
        page.tap(".table-center")
        page.wait_for_selector(".tile-button.raised", state="detached")
        page.tap(target)
        page.wait_for_selector(".tile-button.raised")
        page.tap(".tile-button.raised")
    else:
        page.click(target)
    page.wait_for_selector(f".table[data-version]:not([data-version='{version}'])")
    page.wait_for_selector(".table:not([data-phase=claim])")
    boxes["waiting"] = t.box()
    t.fits()
    t.shot("3-waiting")
    # a claim prompt (a copy of the last view, with a window on a tile and a pass), the
    # server's own frames held back until it and the banner below are photographed
    t.hold()
    frame = t.last_view(my_turn=False)
    view = frame["view"]
    seat = view["seat"]
    tile = view["hand"][0]
    view.update(
        window={"kind": "discard", "tile": tile, "from": "S" if seat != "S" else "W"},
        phase="claim",
        turn=None,
        legal=[
            {
                "action": f"{seat} peng {tile}",
                "kind": "peng",
                "tile": tile,
                "tiles": [tile, tile, tile],
            },
            {"action": f"{seat} pass", "kind": "pass", "tile": None, "tiles": []},
        ],
    )
    frame["events"] = []
    frame["clock"] = {"seat": None, "seconds": 10, "left": 10}
    t.inject(frame)
    page.wait_for_selector(".dock .prompt.claim")
    boxes["claim-prompt"] = t.box()
    t.fits()
    t.shot("4-claim-prompt")
    assert page.query_selector(".dock .prompt.claim"), "the prompt was measured and shown"
    # the timeout banner (this player's turns timed out once)
    frame = t.last_view(my_turn=False)
    frame["timeouts"] = 1
    frame["events"] = []
    t.inject(frame)
    page.wait_for_selector(".banner[data-timeouts]")
    boxes["timeout-banner"] = t.box()
    t.fits()
    t.shot("5-timeout-banner")
    assert page.query_selector(".banner[data-timeouts]"), "the banner was measured and shown"
    t.release()
    # the server out of reach: the page says it is reconnecting
    t.refuse = True
    t.sockets[-1].close()
    page.wait_for_selector("[data-connection=retrying]")
    boxes["reconnecting"] = t.box()
    t.fits()
    t.shot("6-reconnecting")
    t.refuse = False
    page.wait_for_selector("[data-connection]", state="detached", timeout=30_000)
    return boxes


def _settle(t: Table) -> None:
    """托管 plays the rest of the hand; the settlement's first screen fits the screen, and
    again once it is all shown."""
    page = t.page
    if DEVICES[t.device]["touch"] and page.query_selector("#tuoguan") is None:
        page.click("#settings")
        page.click("#tuoguan-menu")
    else:
        page.click("#tuoguan")
    page.wait_for_selector(OVER, timeout=60_000)
    t.fits()
    t.shot("7-settlement-first")
    page.wait_for_selector("#result[data-shown=true]", timeout=30_000)
    t.fits()
    t.shot("8-settlement-shown")


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_table_fits_the_screen_and_the_hand_stays_put(
    server: str, browser: Any, device: str
) -> None:
    t = Table(browser, server, device, f"fit-{device}")
    boxes = _states(t)
    first = boxes["own-turn"]
    moved = {state: b for state, b in boxes.items() if b != first}
    assert not moved, (first, moved)
    print(device, first)  # the figures of the report (pytest -s)
    _settle(t)
    assert not t.errors, t.errors
    t.context.close()


def test_back_works_without_an_account_and_an_invite_seats_a_new_player(
    server: str, browser: Any
) -> None:
    """Logged out, Back from How to play and from the scorer returns to the login page; an
    invite link brings a newly registered friend straight to the table (not the lobby)."""
    page = browser.new_page(viewport=DEVICES["portrait"]["viewport"], locale="zh-TW")
    page.goto(server + "/")
    page.wait_for_selector("#login")
    for link, screen in (("#to-rules", "#rules"), ("#to-scorer", "#scorer")):
        page.click(link)
        page.wait_for_selector(screen)
        page.go_back()
        page.wait_for_selector("#login")
    # a table for friends: its link opened before registering
    opener = browser.new_page(viewport=DEVICES["desktop"]["viewport"], locale="zh-TW")
    opener.goto(server + "/")
    opener.fill("#name", "開桌的人")
    opener.fill("#password", "secret-pw-1")
    opener.click("#do-register")
    opener.wait_for_selector("[data-room-card]")
    opener.click("button[data-private=mazhan]")
    opener.wait_for_selector(".friends-panel")
    link = opener.input_value(".invite-link")
    page.goto(link)
    page.fill("#name", "被邀請的人")
    page.fill("#password", "secret-pw-1")
    page.click("#do-register")
    code = link.rsplit("/", 1)[1]
    page.wait_for_selector(f"#table .friends-panel[data-code='{code}']", timeout=15_000)
    assert page.query_selector("#lobby") is None
    opener.close()
    page.close()
