"""Server errors, each with a stable ``code`` (sent to clients) and an HTTP status.

>>> e = ServerError("name_taken", "the name 'ana' is taken", 409)
>>> e.code, e.status, str(e)
('name_taken', 409, "the name 'ana' is taken")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["HandConflict", "ServerError"]


class ServerError(Exception):
    """An error a client caused and can read.

    >>> ServerError("bad", "no").status
    400
    """

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        *,
        detail: Mapping[str, object] | None = None,
        problems: Sequence[Mapping[str, object]] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        #: What is wrong in a form a client can word in its own language (the scorer's
        #: ``invalid_hand``: a rules error's :meth:`~paiju.errors.RulesError.detail`).
        self.detail = detail
        #: Every problem found, the first being ``message`` and ``detail`` (the scorer's
        #: ``invalid_hand``: each ``{"message", "detail"?}``), so a form can mark them all.
        self.problems = problems

    def body(self) -> dict[str, object]:
        """The error as the client reads it: ``{"error": {"code", "message", "detail"?}}``.

        >>> ServerError("bad", "no").body()
        {'error': {'code': 'bad', 'message': 'no'}}
        >>> ServerError("bad", "no", detail={"why": "x"}).body()["error"]["detail"]
        {'why': 'x'}
        >>> ServerError("bad", "no", problems=[{"message": "no"}]).body()["error"]["problems"]
        [{'message': 'no'}]
        """
        error: dict[str, object] = {"code": self.code, "message": self.message}
        if self.detail is not None:
            error["detail"] = dict(self.detail)
        if self.problems is not None:
            error["problems"] = [dict(p) for p in self.problems]
        return {"error": error}


class HandConflict(ServerError):
    """Another server process has written this hand on: this process must let the table go.

    The database is the fence: a hand's action log takes each sequence number once, and a
    hand is closed once, so of two processes that both believe they own a table, the second
    to write learns it here and steps down.

    >>> HandConflict(7).code
    'table_moved'
    """

    def __init__(self, hand_id: int) -> None:
        super().__init__(
            "table_moved",
            f"hand {hand_id} is now played by another server; reconnect to continue",
            409,
        )
        self.hand_id = hand_id
