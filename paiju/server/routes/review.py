"""The hand review over HTTP (``GET /api/hands/{id}/review``): a finished hand the caller
sat in, reviewed for the caller's own seat (:func:`paiju.bots.review.review_hand`, docs/bots.md).

A review plays thousands of rollouts (seconds of work, all of it holding the interpreter),
so it never runs on the event loop nor on the tables' search thread (a table's ``hard`` bot
would wait behind it): the process has one thread of its own for reviews, at most
:data:`QUEUE` reviews wait for it (``503 busy`` beyond), and each (hand, seat) is reviewed
once: the answer is kept (:data:`KEPT` answers, the oldest forgotten first) and a second
request for a review under way waits for the same one. A review is the same for its seed,
so keeping it changes nothing but the wait.

The thread is the app's (:class:`Reviews`, made by ``create_app`` with the setting
``PAIJU_REVIEW_WORLDS``) and stops with it (:meth:`Reviews.stop`, from the lifespan): the
reviews waiting are dropped, the one running stops after the decision it is on, and both
answer ``503 unavailable``. A draining process (docs/operate.md) reviews nothing more: its
reviews stop the same way, so that the requests waiting for them do not hold it open.

How far a review has come is ``GET /api/hands/{id}/review/progress`` (the page shows it while
it waits): the decisions reviewed of the seat's decisions.

>>> sorted(r.path for r in router.routes)
['/api/hands/{hand_id}/review', '/api/hands/{hand_id}/review/progress']
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import threading
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from paiju.bots.review import review_hand
from paiju.server.errors import ServerError
from paiju.server.models import Account
from paiju.server.routes.deps import current_account, services

__all__ = ["KEPT", "QUEUE", "WORLDS", "Reviews", "router"]

router = APIRouter(prefix="/api")
Me = Annotated[Account, Depends(current_account)]

#: Reviews that may wait for the review thread (one runs at a time); more are ``503 busy``.
QUEUE = 4
#: Worlds per decision that differs by default (``PAIJU_REVIEW_WORLDS``): a loss known to
#: about ±160 胡 where one world's spread is 300 (docs/bots.md), at about 1 s a decision on
#: two busy cores.
WORLDS = 16
#: The seed of every review the server makes (a review is the same for a seed).
SEED = 0
#: Reviews kept, by (hand, seat).
KEPT = 256


class _Stopped(Exception):
    """The review was stopped: the app is stopping, or the process drains."""


class Reviews:
    """The process's review thread, the reviews under way and those kept; ``worlds`` per
    decision that differs, ``halt()`` true while the process drains (no review runs then).

    >>> r = Reviews(2); r.stop(); r.stopping.is_set()
    True
    """

    def __init__(self, worlds: int = WORLDS, halt: Callable[[], bool] = lambda: False) -> None:
        if worlds < 2:
            raise ValueError(f"worlds: at least 2 (an interval needs two), got {worlds}")
        self.worlds = worlds
        self.halt = halt
        self.stopping = threading.Event()
        self.pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="paiju-review")
        self.running: dict[tuple[int, str], asyncio.Future[dict[str, Any]]] = {}
        #: (decisions reviewed, the seat's decisions) of each review the thread is on
        self.progress: dict[tuple[int, str], tuple[int, int]] = {}
        self.kept: collections.OrderedDict[tuple[int, str], dict[str, Any]] = (
            collections.OrderedDict()
        )

    @property
    def closed(self) -> bool:
        """No review is started any more (stopped, or the process drains)."""
        return self.stopping.is_set() or self.halt()

    def keep(self, key: tuple[int, str], answer: dict[str, Any]) -> None:
        self.kept[key] = answer
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)

    def review(self, record: dict[str, Any], seat: str, hand: int = 0) -> dict[str, Any]:
        """The review of a stored record, as JSON (on the review thread), its progress kept
        under ``(hand, seat)``; it stops between two decisions once :attr:`closed`
        (``_Stopped``). A record the server stored replays: another error here is the
        server's own (``500 internal``)."""
        key = (hand, seat)

        def watch(done: int, total: int) -> None:
            self.progress[key] = (done, total)
            if self.closed:
                raise _Stopped

        if self.closed:
            raise _Stopped
        self.progress[key] = (0, 0)
        try:
            review = review_hand(record, seat, seed=SEED, worlds=self.worlds, progress=watch)
        finally:
            self.progress.pop(key, None)
        return review.to_json()

    def stop(self) -> None:
        """Stop the thread (blocking until it has): the reviews waiting are dropped, the one
        running ends after its current decision."""
        self.stopping.set()
        self.pool.shutdown(wait=True, cancel_futures=True)


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def _stopped() -> ServerError:
    return ServerError("unavailable", "the server is stopping: try again in a moment", 503)


async def _played(
    request: Request, acc: Account, hand_id: int, seat: str | None
) -> tuple[dict[str, Any], str]:
    """The record of a finished hand the caller played and the caller's seat in it (``seat``,
    when given, must be it): else ``unknown_hand`` (404) or ``forbidden`` (403)."""
    found = await asyncio.to_thread(services(request).store.hand_record, hand_id, acc.id)
    if found is None:
        raise ServerError("unknown_hand", f"you played no finished hand {hand_id}", 404)
    record, mine = found
    if seat is not None and seat != mine:
        raise ServerError("forbidden", f"you sat in {mine}: only your seat is reviewed", 403)
    return record, mine


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
    ``busy`` (503) when :data:`QUEUE` reviews are waiting, ``unavailable`` (503) when the
    server stops or drains before the review is done.
    """
    record, mine = await _played(request, acc, hand_id, seat)
    key = (hand_id, mine)
    reviews = _reviews(request)
    if key in reviews.kept:
        reviews.kept.move_to_end(key)
        return reviews.kept[key]
    running = reviews.running.get(key)
    if running is None:
        if reviews.closed:
            raise _stopped()
        if len(reviews.running) >= QUEUE:
            raise ServerError("busy", "the reviewer is busy: try again in a moment", 503)
        loop = asyncio.get_running_loop()
        running = asyncio.ensure_future(
            loop.run_in_executor(reviews.pool, reviews.review, record, mine, hand_id)
        )
        reviews.running[key] = running

        def done(f: asyncio.Future[dict[str, Any]]) -> None:
            reviews.running.pop(key, None)
            if not f.cancelled() and f.exception() is None:
                reviews.keep(key, f.result())

        running.add_done_callback(done)
    try:
        return await asyncio.shield(running)
    except _Stopped:
        raise _stopped() from None
    except asyncio.CancelledError:
        if running.cancelled():  # dropped from the queue by the stop, not this request gone
            raise _stopped() from None
        raise


@router.get("/hands/{hand_id}/review/progress")
async def api_review_progress(
    acc: Me,
    request: Request,
    hand_id: Annotated[int, Path(ge=1, le=2**62)],
    seat: Annotated[str | None, Query(pattern=r"^[ESWN]$")] = None,
) -> dict[str, Any]:
    """How far the review of a finished hand the caller played has come, for the caller's
    seat: ``{"state", "done", "total"}``, the state ``done`` (kept: asking for it answers at
    once), ``running`` (``done`` of the seat's ``total`` decisions reviewed; ``total`` is 0
    until the thread has counted them), ``waiting`` (behind other reviews) or ``none``.

    Raises what ``GET /api/hands/{id}/review`` raises for the hand and the seat.
    """
    _record, mine = await _played(request, acc, hand_id, seat)
    key = (hand_id, mine)
    reviews = _reviews(request)
    kept = reviews.kept.get(key)
    if kept is not None:
        n = int(kept.get("decisions", 0))
        return {"state": "done", "done": n, "total": n}
    if key not in reviews.running:
        return {"state": "none", "done": 0, "total": 0}
    at = reviews.progress.get(key)
    if at is None:
        return {"state": "waiting", "done": 0, "total": 0}
    return {"state": "running", "done": at[0], "total": at[1]}
