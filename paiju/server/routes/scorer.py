"""The scorer over HTTP (``POST /api/score``): a finished Mazhan hand as §11's JSON object in,
its settlement out, laid out as the table's settlement (every hand, each seat's items, 台
and formula, the payments), for the browser's scorer page. No account is needed: it is a
calculator, and it stores nothing.

A hand costs well under a millisecond as a rule, but a hand built to be slow (three ★ over
a long one-suit run) takes up to about 0.1 s, all of it holding the interpreter. So the
tables never wait for the scorer: hands are scored one at a time, in a worker thread, at
most :data:`QUEUE` waiting (``503 busy`` beyond), and each address may send
``PAIJU_SCORE_LIMITS_ADDRESS`` hands (30 a minute, 300 an hour; ``429 rate_limited``).

Ma Diao's 開沖 (``POST /api/score/chong``, rules §7 of Ma Diao: one player's draws in, the
points of each out) costs microseconds and is answered at once, under the same per-address
limit.

Both are the games' own calculators (:attr:`paiju.games.Game.calculators`), asked through
the registry: this module names no game module.

>>> sorted(r.path for r in router.routes)
['/api/score', '/api/score/chong']
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request

from paiju.errors import RulesError, json_kind
from paiju.games import InputProblems, game
from paiju.server.errors import ServerError
from paiju.server.security import client_address, security

__all__ = ["QUEUE", "router", "score_chong", "score_hand"]

router = APIRouter(prefix="/api")

#: Hands that may wait for the scorer (one is scored at a time); more are ``503 busy``.
QUEUE = 8


def score_hand(data: object) -> dict[str, Any]:
    """Score a finished hand given as §11's JSON object; ``{"result": ...}``.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> score_hand(EXAMPLE)["result"]["net"]
    {'E': -640, 'S': 1280, 'W': -320, 'N': -320}
    >>> score_hand({**EXAMPLE, "wild": "9x"})
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: wild: unknown suit letter 'x' in '9x' at position 1

    >>> try:
    ...     score_hand({**EXAMPLE, "wild": "9x", "win_by": "ron"})
    ... except ServerError as err:
    ...     [p["message"][:30] for p in err.problems or ()]
    ["wild: unknown suit letter 'x' ", 'win_by: expected one of self_d']

    Raises :class:`~paiju.server.errors.ServerError` ``invalid_hand`` (400) naming the
    first thing wrong with the hand, with every problem a scorekeeper can fix at once in
    its ``problems`` (:class:`~paiju.games.InputProblems`).
    """
    try:
        return game("mazhan").calculators["score"](data)
    except InputProblems as err:
        raise _invalid(err.problems[0], err.problems) from None
    except (RulesError, ValueError) as err:
        raise _invalid(err) from None


def score_chong(data: object) -> dict[str, Any]:
    """One player's 開沖 draws scored (Ma Diao rules §7's input): the points of each draw (0:
    斷沖, the card is not added) and their total.

    >>> score_chong({"table": "9m", "draws": "76854m"})
    {'points': [1, 1, 2, 2, 2], 'total': 8}
    >>> score_chong({"table": "9m", "draws": "9m"})
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: draws: 9m (九萬) is already on the table
    >>> try:
    ...     score_chong({"table": "9m", "draws": "9m"})
    ... except ServerError as err:
    ...     err.detail
    {'why': 'drawn_on_table', 'field': 'draws', 'params': {'card': '9m'}}

    Raises :class:`~paiju.server.errors.ServerError` ``invalid_hand`` (400) naming the
    first thing wrong.
    """
    try:
        return game("madiao").calculators["chong"](data)
    except (RulesError, ValueError) as err:
        raise _invalid(err) from None


def _invalid(err: ValueError, problems: Sequence[RulesError] = ()) -> ServerError:
    """A rules error as ``400 invalid_hand``: its message, and its ``detail`` (what is wrong,
    for the browser to say in the page's language) when it has one; with ``problems``, each
    of them so (the first is ``err``)."""
    listed = [_problem(p) for p in problems] if problems else None
    first = _problem(err)
    detail = first.get("detail")
    return ServerError(
        "invalid_hand",
        str(first["message"]),
        400,
        detail=detail if isinstance(detail, dict) else None,
        problems=listed,
    )


def _problem(err: ValueError) -> dict[str, object]:
    """One problem on the wire: ``{"message", "detail"?}``."""
    problem: dict[str, object] = {"message": str(err)[:300]}
    detail = err.detail() if isinstance(err, RulesError) else None
    if detail is not None:
        problem["detail"] = detail
    return problem


def parse_body(body: bytes) -> object:
    """The request's body as JSON, whatever its content type said (``curl -d @hand.json``
    sends a form's type).

    >>> parse_body(b'{"wild": "9s"}')
    {'wild': '9s'}
    >>> parse_body(b"wild=9s")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: the body is not JSON: Expecting value at line 1 column 1

    Raises :class:`~paiju.server.errors.ServerError` ``invalid_hand`` (400).
    """
    try:
        return json.loads(body)
    except UnicodeDecodeError:
        raise ServerError("invalid_hand", "the body is not UTF-8 text", 400) from None
    except json.JSONDecodeError as err:
        where = f"{err.msg} at line {err.lineno} column {err.colno}"
        raise ServerError("invalid_hand", f"the body is not JSON: {where}", 400) from None
    except (RecursionError, ValueError):  # nested too deep, a number too long
        raise ServerError("invalid_hand", "the body is not a finished hand", 400) from None


class _Gate:
    """One hand scored at a time, at most :data:`QUEUE` waiting."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.waiting = 0


def _gate(request: Request) -> _Gate:
    gate: _Gate | None = getattr(request.app.state, "score_gate", None)
    if gate is None:
        gate = request.app.state.score_gate = _Gate()
    return gate


@router.post("/score")
async def api_score(request: Request) -> dict[str, Any]:
    """Score one finished Mazhan hand (rules §11's input; the answer's ``result`` is the
    shape of a finished hand's view result, ``docs/protocol.md``)."""
    await security(request).throttle.score(client_address(request))
    data = parse_body(await request.body())
    if not isinstance(data, dict):
        raise ServerError("invalid_hand", f"expected a JSON object, got {json_kind(data)}", 400)
    gate = _gate(request)
    if gate.waiting >= QUEUE:
        raise ServerError("busy", "the scorer is busy: try again in a moment", 503)
    gate.waiting += 1
    try:
        async with gate.lock:
            return await asyncio.to_thread(score_hand, data)
    finally:
        gate.waiting -= 1


@router.post("/score/chong")
async def api_score_chong(request: Request) -> dict[str, Any]:
    """Score one Ma Diao player's 開沖 draws (Ma Diao rules §7: ``table``, ``draws``,
    ``captured``); ``{"points": [...], "total": n}``."""
    await security(request).throttle.score(client_address(request))
    return score_chong(parse_body(await request.body()))
