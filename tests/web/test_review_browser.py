"""The hand review in Debian's Chromium against a live ``paiju serve`` (issue 38): a Mazhan hand
played by clicks on a phone (390×844), Review pressed on the settlement, the summary read, a
difference picked: the replay opens at that decision with both choices marked on the board,
and the previous and next differences step it. Then the replay's own Review button (the
review kept by the server answers at once). The server reviews with 2 worlds a
decision (``PAIJU_REVIEW_WORLDS``): the page is what is tested, not the estimate. Screenshots
land in ``artifacts/`` as ``review-*.png``; everything waits on the page, never on the clock."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.clicks import play_to_settlement
from tests.web.conftest import CHROMIUM
from tests.web.test_browser import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    Player,
    _named_controls,
    _no_horizontal_scroll,
    _serve,
)

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (.ci/run installs it)"
)

DONE = ".review-summary[data-review='done']"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from _serve(tmp_path_factory, PAIJU_SEED="38", PAIJU_REVIEW_WORLDS="2")


def _at_step(page: Any, step: int) -> None:
    page.wait_for_selector(f"#replay-head[data-step='{step}']", timeout=30_000)


def _both_marked(page: Any) -> None:
    """The decision shown has the player's choice and the expert's marked on the board."""
    page.wait_for_selector(".table [data-mark~='you']", timeout=30_000)
    page.wait_for_selector(".table [data-mark~='expert']", timeout=30_000)


def _review_touch_targets(page: Any) -> None:
    """Every control of the review is at least 40×40 (a finger's)."""
    small = page.evaluate(
        """() => [...document.querySelectorAll('.review-panel button:not([disabled])')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 40 || r.height < 40)
            .map(([h, r]) => h + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
    )
    assert not small, small


def _in_sight(page: Any, selector: str) -> None:
    """The element lies wholly inside the screen (the page scrolled as it is)."""
    box = page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom] }"
    )
    assert box[0] >= 0 and box[1] <= page.viewport_size["height"], (selector, box)


def test_review_from_the_settlement_steps_the_replay_to_a_difference(
    browser: Any, server: str
) -> None:
    me = Player(browser, server, "revu", PHONE)
    page = me.page
    me.register()
    me.sit_alone("mazhan")
    play_to_settlement(page)
    panel = "#result"
    page.wait_for_selector(f"{panel} button[data-action='review']")
    me.shot("review-phone-settlement")

    page.click(f"{panel} button[data-action='review']")
    page.wait_for_selector(f"{panel} .review-running, {panel} {DONE}", timeout=10_000)
    if page.query_selector(f"{panel} .review-running"):
        me.shot("review-phone-running")
    page.wait_for_selector(f"{panel} {DONE}", timeout=120_000)
    summary = page.inner_text(f"{panel} .review-summary")
    assert "%" in summary and "胡" in summary, summary
    items = page.query_selector_all(f"{panel} .review-item")
    assert items, "the tsumogiri player and the expert never differ?"
    _no_horizontal_scroll(page)
    _named_controls(page)
    _review_touch_targets(page)
    me.shot("review-phone-summary")

    # the largest loss first: its decision opens in the replay, both choices on the board
    first = int(items[0].get_attribute("data-step") or "-1")
    items[0].click()
    _at_step(page, first)
    _both_marked(page)
    page.wait_for_selector(f".review-current[data-step='{first}']")
    assert page.query_selector_all(".review-choice[data-who='you'] .review-worth")
    _no_horizontal_scroll(page)
    _named_controls(page)
    _review_touch_targets(page)
    me.shot("review-phone-replay-decision")

    # the next difference, then back
    hand = int(page.url.split("/replay/")[1].split("/")[0])
    steps = [first]
    page.screenshot(path=str(ARTIFACTS / "review-phone-replay-decision-screen.png"))
    nxt = page.query_selector("button[data-action='review-next']:not([disabled])")
    if nxt:
        nxt.click()
        page.wait_for_selector(f".review-current:not([data-step='{first}'])")
        second = int(page.get_attribute(".review-current", "data-step") or "-1")
        _at_step(page, second)
        _both_marked(page)
        steps.append(second)
        page.click("button[data-action='review-prev']")
        _at_step(page, first)
        _both_marked(page)
    shown = str(first)

    # through the differences to a discard: the two tiles of the hand marked, in sight on
    # the phone's screen together with the values and the ◀ ▶
    for _ in range(len(items)):
        if page.query_selector(".table .marked-piece[data-mark='you']"):
            break
        page.click("button[data-action='review-next']")
        page.wait_for_selector(f".review-current:not([data-step='{shown}'])")
        shown = page.get_attribute(".review-current", "data-step")
        _both_marked(page)
    tiles = page.query_selector_all(".table .marked-piece")
    assert len(tiles) == 2, "no discard among the differences"
    _in_sight(page, ".my-area .marked-piece[data-mark='you']")
    _in_sight(page, "button[data-action='review-next']")
    me.shot("review-phone-replay-discard")
    page.screenshot(path=str(ARTIFACTS / "review-phone-replay-discard-screen.png"))
    page.goto(f"{server}/#/replay/{hand}/{first}")
    _at_step(page, first)

    # a step that is not a difference: nothing is marked
    page.click("#replay-next")
    _at_step(page, first + 1)
    if not page.query_selector(".review-current"):
        assert not page.query_selector(".table [data-mark]")

    # the review closed, the replay's own button asks again: the server's kept review
    # answers, and the difference is marked again
    page.click("button[data-action='review-close']")
    page.wait_for_selector(".review-panel", state="detached")
    assert not page.query_selector(".table [data-mark]")
    page.goto(f"{server}/#/replay/{hand}/{first}")
    _at_step(page, first)
    page.click(".replay-controls button[data-action='review']")
    page.wait_for_selector(DONE, timeout=60_000)
    _both_marked(page)
    me.page.set_viewport_size({"width": 1280, "height": 900})
    me.shot("review-desktop-replay-decision")
    assert not me.errors, me.errors
    page.close()


def test_review_of_a_ma_diao_hand_in_english_on_a_desktop(browser: Any, server: str) -> None:
    """The other game, the other language, the other screen: the cards marked."""
    me = Player(browser, server, "revmd", DESKTOP)
    page = me.page
    page.add_init_script("localStorage.setItem('paiju-lang', 'en')")
    me.register()
    me.sit_alone("madiao")
    play_to_settlement(page)
    page.click("#result button[data-action='review']")
    page.wait_for_selector(f"#result {DONE}", timeout=120_000)
    summary = page.inner_text("#result .review-summary")
    assert "decisions" in summary and "× stake" in summary, summary
    me.shot("review-desktop-madiao-summary")
    items = page.query_selector_all("#result .review-item")
    if not items:  # every play as the expert's: nothing to step to
        assert "expert's" in page.inner_text("#result .review-panel")
        return
    step = int(items[0].get_attribute("data-step") or "-1")
    items[0].click()
    _at_step(page, step)
    _both_marked(page)
    assert page.query_selector(".table .marked-piece [data-card]")
    me.shot("review-desktop-madiao-decision")
    assert not me.errors, me.errors
    page.close()
