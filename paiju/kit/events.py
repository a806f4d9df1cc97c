"""Events as a seat may see them: each event says, for a viewer, its JSON or ``None`` (not
for them); the seat's list keeps the others in order.

>>> class Seen:
...     def __init__(self, to: str | None) -> None:
...         self.to = to
...     def to_json(self, viewer: object) -> dict[str, object] | None:
...         return None if self.to not in (None, viewer) else {"to": self.to}
>>> events_json([Seen(None), Seen("E"), Seen("S")], "E")
[{'to': None}, {'to': 'E'}]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

__all__ = ["SeenBy", "events_json"]


class SeenBy(Protocol):
    """An event that says what a viewer may see of it."""

    def to_json(self, viewer: Any) -> dict[str, Any] | None:
        """The event as ``viewer`` may see it, or ``None`` if it is not for them."""
        ...


def events_json(events: Iterable[SeenBy], viewer: Any) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, as JSON, in order (the others left out)."""
    out = []
    for e in events:
        j = e.to_json(viewer)
        if j is not None:
            out.append(j)
    return out
