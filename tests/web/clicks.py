"""Playing a hand in the browser by clicks only, waiting on the page (a selector, the
table's ``data-version``), never on the wall clock: a test that sleeps passes alone and
fails under load."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Error as PlaywrightError

# what a player clicks, in order: pass a claim, capture in Ma Diao, else the rightmost tile
PLAYABLE = (
    ".prompt button[data-action$=' pass']:not([disabled])",
    ".prompt button.act-zhuo:not([disabled])",
    ".hand-drawn button:not([disabled])",
    ".hand button:not([disabled])",
)
OVER = "#result, [data-escape]"


def _moved_on(version: str | None) -> str:
    """A selector for the page once it shows a version other than ``version``, or the hand
    is over, or the click opened the choice of a Ma Diao card with two plays (no message is
    sent for that). A selector, not a script: the page's CSP refuses scripts built from
    strings, which a waiting function may need.

    >>> _moved_on("7").endswith(".table[data-version]:not([data-version='7'])")
    True
    """
    moved = (
        ".table[data-version]"
        if version is None
        else (f".table[data-version]:not([data-version='{version}'])")
    )
    return f"{OVER}, .my-area .prompt:not(.quiet) .act-zhuo:not([disabled]), {moved}"


def act_once(page: Any, timeout: float = 60_000) -> bool:
    """Wait until this player may act (or the hand is over), then click one legal move and
    wait for the server's answer (the next view, or the settlement). False when the hand
    is over."""
    page.wait_for_selector(f"{OVER}, {', '.join(PLAYABLE)}", timeout=timeout)
    if page.query_selector(OVER):
        return False
    version = page.get_attribute(".table[data-version]", "data-version")
    for selector in PLAYABLE:
        buttons = page.query_selector_all(selector)
        if buttons:
            # the view may move on under the click: then the next view is here already
            with contextlib.suppress(PlaywrightError):
                buttons[-1].click(timeout=5_000)
            break
    page.wait_for_selector(_moved_on(version), timeout=timeout)
    return True


def play_to_settlement(
    page: Any, moves: int = 400, before: Callable[[Any], None] | None = None
) -> None:
    """Click moves until the settlement shows; ``before(page)`` looks at the page before
    each move (a screenshot of a claim prompt, say)."""
    for _ in range(moves):
        page.wait_for_selector(f"{OVER}, {', '.join(PLAYABLE)}", timeout=60_000)
        if before is not None:
            before(page)
        if not act_once(page):
            page.wait_for_selector("#result")
            return
    raise AssertionError(f"the hand did not end in {moves} moves")
