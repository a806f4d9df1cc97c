"""The view and event JSON of every game (``docs/views.md``, format 2) as pydantic models:
the pieces the games' typed views share (:class:`Model`, :class:`PerSeat`, :data:`Seat`),
and the registry of each game's models (its folder's ``schema`` module calls
:func:`register_views`), from which the server's frames are typed and their JSON Schema
(:func:`json_schema`) generates the client's TypeScript types. The cores never import this:
they stay standard-library Python.

>>> from paiju.games import names
>>> names()[0] in typed_games()
True
>>> adapter = TypeAdapter(view_type())
>>> adapter.validate_python({"game": "go"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for tagged-union[...]
...
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from paiju.games.lazy_registry import LazyRegistry

__all__ = [
    "Model",
    "PerSeat",
    "Seat",
    "TypedViews",
    "event_type",
    "json_schema",
    "register_views",
    "typed_games",
    "view_type",
]

T = TypeVar("T")

Seat = Literal["E", "S", "W", "N"]


class Model(BaseModel):
    """A part of a view: exact (no field more), frozen, documented by its fields' docstrings."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class PerSeat(Model, Generic[T]):
    """One value for each seat."""

    E: T
    """East."""
    S: T
    """South."""
    W: T
    """West."""
    N: T
    """North."""


@dataclass(frozen=True, slots=True)
class TypedViews:
    """A game's typed view (a model whose ``game`` field is the game's name) and its events'
    type (a model or a union of them)."""

    view: type[BaseModel]
    event: Any


_VIEWS: LazyRegistry[TypedViews] = LazyRegistry("views")


def register_views(game: str, view: type[BaseModel], event: Any) -> TypedViews:
    """Register ``game``'s typed view and events (again: replaced); the registration.

    Raises ``ValueError`` when the view's ``game`` field is not the literal ``game``.
    """
    field = view.model_fields.get("game")
    if field is None or get_args(field.annotation) != (game,):
        raise ValueError(f"{view.__name__}.game must be Literal[{game!r}]")
    entry = TypedViews(view, event)
    _VIEWS.entries[game] = entry
    _typed.cache_clear()
    return entry


@cache
def _typed() -> tuple[tuple[str, TypedViews], ...]:
    return tuple((n, e) for n in _VIEWS.ordered(others=True) if (e := _VIEWS.get(n)))


def typed_games() -> frozenset[str]:
    """The games whose views are typed (another registered game's view is its own JSON)."""
    return frozenset(n for n, _ in _typed())


def view_type() -> Any:
    """Any typed game's view: the union of the registered views, told apart by ``game``."""
    views = [e.view for _, e in _typed()]
    if len(views) == 1:
        return views[0]
    union: Any = views[0]
    for v in views[1:]:
        union = union | v
    return Annotated[union, Field(discriminator="game")]


def event_type() -> Any:
    """Any typed game's event, as a seat may see it."""
    events = [e.event for _, e in _typed()]
    union: Any = events[0]
    for e in events[1:]:
        union = union | e
    return union


def json_schema() -> dict[str, Any]:
    """The views and the events of every typed game as one JSON Schema document (every model
    in ``$defs``), for generating the client's types (``python -m paiju.views`` prints it).

    >>> schema = json_schema()
    >>> schema["title"], "view" in schema["properties"]
    ('paiju views', True)
    >>> sorted(schema["properties"]) == sorted(["view", *(f"{g}_event" for g in typed_games())])
    True
    """
    parts: dict[str, TypeAdapter[Any]] = {"view": TypeAdapter(view_type())}
    for name, entry in _typed():
        parts[f"{name}_event"] = TypeAdapter(entry.event)
    properties: dict[str, Any] = {}
    defs: dict[str, Any] = {}
    for name, adapter in parts.items():
        schema = adapter.json_schema(ref_template="#/$defs/{model}", by_alias=True)
        defs.update(schema.pop("$defs", {}))
        properties[name] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "paiju views",
        "type": "object",
        "properties": properties,
        "$defs": defs,
    }


if __name__ == "__main__":  # pragma: no cover - a command
    import json

    print(json.dumps(json_schema(), ensure_ascii=False, indent=2))
