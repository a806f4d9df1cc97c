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

from collections.abc import Callable, Mapping
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
    "public_of",
    "public_view",
    "public_view_type",
    "register_views",
    "typed_games",
    "view_type",
    "watchable",
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


#: Seat views' JSON by seat letter → the public view's JSON (see :func:`public_view`).
Spectate = Callable[[Mapping[str, dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class TypedViews:
    """A game's typed view (a model whose ``game`` field is the game's name) and its events'
    type (a model or a union of them); and, for a game spectators may watch, its public view
    (what every seat sees alike: a model with the same ``game`` field) and how it is made
    from seat views (``spectate``)."""

    view: type[BaseModel]
    event: Any
    public: type[BaseModel] | None = None
    spectate: Spectate | None = None


_VIEWS: LazyRegistry[TypedViews] = LazyRegistry("views")


def register_views(
    game: str,
    view: type[BaseModel],
    event: Any,
    *,
    public: type[BaseModel] | None = None,
    spectate: Spectate | None = None,
) -> TypedViews:
    """Register ``game``'s typed view and events, and its public view (again: replaced); the
    registration.

    Raises ``ValueError`` when a view's ``game`` field is not the literal ``game``, or a
    public view comes without its ``spectate`` (or the other way round).
    """
    for model in (view, public) if public is not None else (view,):
        field = model.model_fields.get("game")
        if field is None or get_args(field.annotation) != (game,):
            raise ValueError(f"{model.__name__}.game must be Literal[{game!r}]")
    if (public is None) != (spectate is None):
        raise ValueError(f"{game}: a public view needs its spectate function, and back")
    entry = TypedViews(view, event, public, spectate)
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
    return _union([e.view for _, e in _typed()])


def _union(models: list[Any]) -> Any:
    """The models told apart by ``game`` (one alone as it is)."""
    if len(models) == 1:
        return models[0]
    union: Any = models[0]
    for m in models[1:]:
        union = union | m
    return Annotated[union, Field(discriminator="game")]


def public_view_type() -> Any:
    """Any watchable game's public view (:func:`public_view`), told apart by ``game``.

    >>> TypeAdapter(public_view_type()).json_schema()["discriminator"]["propertyName"]
    'game'
    """
    return _union([e.public for _, e in _typed() if e.public is not None])


def watchable(game: str) -> bool:
    """Whether ``game`` has a public view (spectators may watch its tables).

    >>> watchable("go")
    False
    """
    entry = _VIEWS.get(game)
    return entry is not None and entry.spectate is not None


def public_view(views: Mapping[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The table as a spectator sees it, from the views of one state of at least two seats
    (seat letter → ``View.to_json()``), by the game's own ``spectate``; ``None`` for a game
    without a public view (it cannot be watched), or fewer than two views.

    >>> public_view({"E": {"game": "go"}, "S": {"game": "go"}}) is None
    True
    """
    first = next(iter(views.values()), {})
    entry = _VIEWS.get(str(first.get("game")))
    if entry is None or entry.spectate is None or len(views) < 2:
        return None
    return entry.spectate(views)


def public_of(
    views: Mapping[str, dict[str, Any]], public: type[BaseModel], private_last: tuple[str, str]
) -> dict[str, Any]:
    """What a game's ``spectate`` starts from: the fields of the ``public`` model every seat
    is shown alike (from the first view), each seat's block as another seat sees it, and the
    last action with its face hidden when it is of a kind only its own seat sees
    (``private_last``: the kind, and the field holding the face).

    >>> views = {
    ...     "E": {"game": "g", "wall": 9, "hand": ["x"], "last": {"kind": "draw", "tile": "x"},
    ...           "seats": {"E": {"hand": ["x"]}, "S": {"size": 2}}},
    ...     "S": {"game": "g", "wall": 9, "hand": ["y"], "last": {"kind": "draw", "tile": None},
    ...           "seats": {"E": {"size": 1}, "S": {"hand": ["y"]}}},
    ... }
    >>> class Public(Model):
    ...     game: str
    ...     wall: int
    ...     seats: dict[str, Any]
    ...     last: dict[str, Any] | None
    >>> seen = public_of(views, Public, ("draw", "tile"))
    >>> seen["seats"], seen["last"], "hand" in seen
    ({'E': {'size': 1}, 'S': {'size': 2}}, {'kind': 'draw', 'tile': None}, False)
    """
    first = next(iter(views.values()))
    out = {f: first[f] for f in public.model_fields if f not in ("seats", "last")}
    out["seats"] = {
        k: next(v for s, v in views.items() if s != k)["seats"][k] for k in first["seats"]
    }
    last = first["last"]
    kind, face = private_last
    if last is not None and last["kind"] == kind:
        last = {**last, face: None}
    out["last"] = last
    return out


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
