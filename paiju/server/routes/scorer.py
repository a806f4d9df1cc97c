"""The scorer over HTTP (``POST /api/score``): a finished Mazhan hand as §11's JSON object in,
its settlement out, laid out as the table's settlement (every hand, each seat's items, 台
and formula, the payments), for the browser's scorer page. No account is needed: it is a
calculator, and it stores nothing.

>>> sorted(r.path for r in router.routes)
['/api/score']
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body

from paiju.errors import RulesError
from paiju.mazhan.record import FinishedHand
from paiju.mazhan.views import scored_json
from paiju.server.errors import ServerError

__all__ = ["router", "score_hand"]

router = APIRouter(prefix="/api")


def score_hand(data: object) -> dict[str, Any]:
    """Score a finished hand given as §11's JSON object; ``{"result": ...}``.

    >>> from paiju.mazhan.record import EXAMPLE
    >>> score_hand(EXAMPLE)["result"]["net"]
    {'E': -640, 'S': 1280, 'W': -320, 'N': -320}
    >>> score_hand({**EXAMPLE, "wild": "9x"})
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: wild: unknown suit letter 'x' in '9x' at position 1

    Raises :class:`~paiju.server.errors.ServerError` ``invalid_hand`` (400) naming the
    first thing wrong with the hand.
    """
    try:
        return {"result": scored_json(FinishedHand.from_json(data))}
    except (RulesError, ValueError) as err:
        raise ServerError("invalid_hand", str(err)[:300], 400) from None


@router.post("/score")
def api_score(hand: Any = Body(None)) -> dict[str, Any]:  # noqa: B008 (FastAPI's idiom)
    """Score one finished Mazhan hand (rules §11's input; the answer's ``result`` is the
    shape of a finished hand's view result, ``docs/protocol.md``)."""
    return score_hand(hand)
