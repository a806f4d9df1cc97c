"""The games' calculators over HTTP (``POST /api/<route>``, each calculator's own path): a
finished hand, some draws, as JSON in, the answer out, for the browser's scorer pages. No
account is needed: they are calculators, and they store nothing.

Every calculator is a game's own (:attr:`paiju.games.Game.calculators`), asked through the
registry: this module names no game. A calculator the game marks ``heavy`` (a hand built to
be slow can take about 0.1 s, all of it holding the interpreter) never makes the tables
wait: such inputs are answered one at a time, in a worker thread, at most :data:`QUEUE`
waiting (``503 busy`` beyond); the others are answered at once. Each address may send
``PAIJU_SCORE_LIMITS_ADDRESS`` inputs (30 a minute, 300 an hour; ``429 rate_limited``).

>>> from paiju.games import game, names
>>> routes = {r.path for r in router.routes}
>>> all(f"/api{c.route}" in routes for n in names() for c in game(n).calculators.values())
True
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request

from paiju.errors import RulesError, json_kind
from paiju.games import Calculator, InputProblems, game, names, registration
from paiju.server.errors import ServerError
from paiju.server.security import client_address, security

__all__ = ["QUEUE", "calculate", "router"]

router = APIRouter(prefix="/api")

#: Inputs that may wait for a heavy calculator (one is answered at a time); more are
#: ``503 busy``.
QUEUE = 8


def calculate(game_name: str, calculator: str, data: object) -> dict[str, Any]:
    """The answer of ``game_name``'s ``calculator`` to ``data``.

    >>> from paiju.games import game, names
    >>> name, calc = next((n, c) for n in names() for c in game(n).calculators)
    >>> calculate(name, calc, "not an object")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: expected a JSON object, got a string

    Raises :class:`~paiju.server.errors.ServerError` ``invalid_hand`` (400) naming the
    first thing wrong with the input, with every problem a scorekeeper can fix at once in
    its ``problems`` when the game lists them (:class:`~paiju.games.InputProblems`).
    """
    if not isinstance(data, dict):
        raise ServerError("invalid_hand", f"expected a JSON object, got {json_kind(data)}", 400)
    try:
        return game(game_name).calculators[calculator](data)
    except InputProblems as err:
        raise _invalid(err.problems[0], err.problems) from None
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


def _route(game_name: str, name: str, calc: Calculator) -> None:
    """``POST /api<route>``: ``game_name``'s calculator ``name`` for anyone, throttled by
    address; a heavy one through the gate."""

    async def answer(request: Request) -> dict[str, Any]:
        await security(request).throttle.score(client_address(request))
        data = parse_body(await request.body())
        if not calc.heavy:
            return calculate(game_name, name, data)
        gate = _gate(request)
        if gate.waiting >= QUEUE:
            raise ServerError("busy", "the scorer is busy: try again in a moment", 503)
        gate.waiting += 1
        try:
            async with gate.lock:
                return await asyncio.to_thread(calculate, game_name, name, data)
        finally:
            gate.waiting -= 1

    answer.__name__ = f"api_{game_name}_{name}"
    answer.__doc__ = f"{registration(game_name).title}: {calc.help}. {calc.description}".strip()
    router.post(calc.route, name=answer.__name__)(answer)


for _game in names():
    for _name, _calc in game(_game).calculators.items():
        _route(_game, _name, _calc)
