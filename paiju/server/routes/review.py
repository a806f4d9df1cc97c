"""The hand review over HTTP (``GET /api/hands/{id}/review``): a finished hand the caller
sat in, reviewed for the caller's own seat (:func:`paiju.bots.review.review_hand`, docs/bots.md).

A review plays thousands of rollouts (seconds of work, all of it holding the interpreter),
so it never runs on the event loop nor on the tables' search thread (a table's ``hard`` bot
would wait behind it): the process has one thread of its own for reviews, at most
:data:`QUEUE` reviews wait for it (``503 busy`` beyond), and each (hand, seat) is reviewed
once: the answer is kept (:data:`KEPT` answers, the oldest forgotten first) and a second
request for a review under way waits for the same one. A review is the same for its seed,
so keeping it changes nothing but the wait.

>>> sorted(r.path for r in router.routes)
['/api/hands/{hand_id}/review']
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from paiju.bots.review import review_hand
from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.routes.deps import current_account, services

__all__ = ["KEPT", "QUEUE", "WORLDS", "router"]

router = APIRouter(prefix="/api")
Me = Annotated[Account, Depends(current_account)]

#: Reviews that may wait for the review thread (one runs at a time); more are ``503 busy``.
QUEUE = 4
#: Worlds per decision that differs: a loss known to about ±160 胡 where one world's spread is
#: 300 (docs/bots.md), at about 1 s a decision on two busy cores.
WORLDS = 16
#: The seed of every review the server makes (a review is the same for a seed).
SEED = 0
#: Reviews kept, by (hand, seat).
KEPT = 256


class _Reviews:
    """The process's review thread, the reviews under way and those kept."""

    def __init__(self) -> None:
        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="paiju-review")
        self.running: dict[tuple[int, str], asyncio.Future[dict[str, Any]]] = {}
        self.kept: collections.OrderedDict[tuple[int, str], dict[str, Any]] = (
            collections.OrderedDict()
        )

    def keep(self, key: tuple[int, str], answer: dict[str, Any]) -> None:
        self.kept[key] = answer
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)


def _reviews(request: Request) -> _Reviews:
    reviews: _Reviews | None = getattr(request.app.state, "reviews", None)
    if reviews is None:
        reviews = request.app.state.reviews = _Reviews()
    return reviews


def _review(record: dict[str, Any], seat: str) -> dict[str, Any]:
    """The review of a stored record, as JSON (on the review thread). A record the server
    stored replays: an error here is the server's own (``500 internal``)."""
    return review_hand(record, seat, seed=SEED, worlds=WORLDS).to_json()


@router.get("/hands/{hand_id}/review")
async def api_review(
    acc: Me,
    request: Request,
    hand_id: Annotated[int, Path(ge=1, le=2**62)],
    seat: Annotated[str | None, Query(pattern=r"^[ESWN]$")] = None,
) -> dict[str, Any]:
    """The review of a finished hand the caller played, for the caller's seat (``seat``,
    when given, must be it): every decision the seat made, the expert's choice, and where
    they differ both values and the loss with 95% intervals (docs/bots.md, the hand review).

    Raises :class:`~paiju.server.errors.ServerError` ``unknown_hand`` (404) for a hand the
    caller did not play or that is not finished, ``forbidden`` (403) for another seat,
    ``busy`` (503) when :data:`QUEUE` reviews are waiting.
    """
    found = await asyncio.to_thread(services(request).store.hand_record, hand_id, acc.id)
    if found is None:
        raise ServerError("unknown_hand", f"you played no finished hand {hand_id}", 404)
    record, mine = found
    if seat is not None and seat != mine:
        # the page does not ask for another seat: "forbidden" (no words on the page yet)
        raise ServerError("forbidden", f"you sat in {mine}: only your seat is reviewed", 403)
    key = (hand_id, mine)
    reviews = _reviews(request)
    if key in reviews.kept:
        reviews.kept.move_to_end(key)
        return reviews.kept[key]
    running = reviews.running.get(key)
    if running is None:
        if len(reviews.running) >= QUEUE:
            raise ServerError("busy", "the reviewer is busy: try again in a moment", 503)
        loop = asyncio.get_running_loop()
        running = asyncio.ensure_future(loop.run_in_executor(reviews.pool, _review, record, mine))
        reviews.running[key] = running

        def done(f: asyncio.Future[dict[str, Any]]) -> None:
            reviews.running.pop(key, None)
            if not f.cancelled() and f.exception() is None:
                reviews.keep(key, f.result())

        running.add_done_callback(done)
    return await asyncio.shield(running)
