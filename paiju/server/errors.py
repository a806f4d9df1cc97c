"""Server errors, each with a stable ``code`` (sent to clients) and an HTTP status.

>>> e = ServerError("name_taken", "the name 'ana' is taken", 409)
>>> e.code, e.status, str(e)
('name_taken', 409, "the name 'ana' is taken")
"""

from __future__ import annotations

__all__ = ["ServerError"]


class ServerError(Exception):
    """An error a client caused and can read.

    >>> ServerError("bad", "no").status
    400
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
