"""What the environments need of each game besides the :class:`~paiju.games.Game`
protocol (its encoder, its action table, its reward scale, its optional extras), registered
by the game's own environment module (``paiju/<game>/env/obs.py`` for a built-in game):
:func:`register_env` there, :func:`spec_of` here.

>>> g = registered()[0]; spec = spec_of(g)
>>> spec.name == g, len(spec.actions[0]) == spec.n_actions
(True, True)
>>> spec_of("go")
Traceback (most recent call last):
...
ValueError: unknown game 'go' (choose from ...)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from paiju.games import Game, game
from paiju.games.lazy_registry import LazyRegistry

__all__ = ["Encoder", "Engine", "GameSpec", "load", "register_env", "registered", "spec_of"]

Vector = npt.NDArray[np.float32]


class Encoder(Protocol):
    """A game's observation encoder: one per table, kept up to date as the hand goes on."""

    #: An observation's shape (flat: ``(n,)``).
    shape: tuple[int, ...]

    def set_context(
        self, scores: Sequence[float], hand_no: int, hands_left: int, repeat: int
    ) -> None:
        """The match around the hand: scores (E S W N, scaled), hand number, hands left,
        repeats."""
        ...

    def reset(self, state: Any) -> None:
        """Start from ``state``."""
        ...

    def update(self, before: Any, state: Any, events: Sequence[Any]) -> None:
        """Follow one action (``before`` → ``state`` with ``events``)."""
        ...

    def encode(self, state: Any, me: int, out: Vector | None = None) -> Vector:
        """Seat ``me``'s (0–3) observation, written whole into ``out`` when given (a new
        observation), else into the encoder's own buffer for the seat (valid until the next
        call for that seat)."""
        ...


class Engine(Protocol):
    """The hot path's two functions of a game (its rules module, or the game itself)."""

    def acting(self, state: Any) -> tuple[Any, ...]: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...


@dataclass(frozen=True)
class GameSpec:
    """What the environments need to know of a game besides its protocol.

    ``encoder(planes=...)`` makes an :class:`Encoder`; ``action_index`` / ``index_action``
    map actions and indices ``0 … n_actions − 1`` (``index_action(i, seat)``); ``net_scale``
    is a typical hand's size (the default reward scale and score scale); ``scale`` divides a
    flat observation into about [0, 1] (``None``: ones); ``unseen(state)`` counts what is not
    dealt out yet, by face (``n_unseen`` values, the centralised critic's extra);
    ``state_of_view(view, encoder)`` builds what the encoder reads from a seat's view (and
    resets the encoder on it: a policy playing from views); ``default_opponent`` plays the
    single-agent environment's other seats.

    The hot path: ``engine`` (``acting``, ``apply``; the game by default), ``legal_indices
    (state, seat)`` in the engine's order and ``actions[seat][index]`` (built from
    ``index_action`` by default); ``turn_legal(state)``, for a game where one seat decides at
    a time, the seat index and its legal indices at once (``(-1, ())`` once over);
    ``apply_checked``: the engine's ``apply`` takes ``checked=True``.

    Extras (``None``: the game has none): ``hints(state, me, legal)`` (``n_hints`` values,
    flat only; ``hints_scale`` their typical tops), ``lookahead(state, me)`` and
    ``lookahead_of_view(view)`` (``n_lookahead`` values, already scaled, flat only),
    ``potential(state, me)`` (reward shaping: how far the seat is from winning, ≤ 0).
    """

    name: str
    rules: Game[Any, Any, Any, Any]
    encoder: Callable[..., Encoder]
    action_index: Callable[[Any], int]
    index_action: Callable[[int, Any], Any]
    n_actions: int
    net_scale: float
    engine: Engine
    legal_indices: Callable[[Any, Any], Sequence[int]]
    actions: Sequence[Sequence[Any]]
    turn_legal: Callable[[Any], tuple[int, Sequence[int]]] | None = None
    apply_checked: bool = False
    scale: Vector | None = None
    n_unseen: int = 0
    unseen: Callable[[Any], Vector] | None = None
    state_of_view: Callable[[Any, Any], Any] | None = None
    default_opponent: str = ""
    hints: Callable[[Any, int, Sequence[int]], Vector] | None = None
    n_hints: int = 0
    hints_scale: Vector | None = None
    lookahead: Callable[[Any, int], Vector] | None = None
    lookahead_of_view: Callable[[Any], Vector] | None = None
    n_lookahead: int = 0
    potential: Callable[[Any, int], float] | None = None


_SPECS: LazyRegistry[GameSpec] = LazyRegistry("env")
_REGISTRY = _SPECS.entries


def register_env(
    name: str,
    *,
    encoder: Callable[..., Encoder],
    action_index: Callable[[Any], int],
    index_action: Callable[[int, Any], Any],
    n_actions: int,
    net_scale: float,
    engine: Engine | None = None,
    legal_indices: Callable[[Any, Any], Sequence[int]] | None = None,
    actions: Sequence[Sequence[Any]] | None = None,
    **extras: Any,
) -> GameSpec:
    """Register the environments' description of the game ``name`` (registered with
    :func:`paiju.games.register` first); the spec. What is left out is built from the game:
    ``engine`` is the game, ``actions`` every index's action for each seat, ``legal_indices``
    the indices of the game's legal actions; ``default_opponent`` is the game's default bot.
    ``extras`` are :class:`GameSpec`'s other fields.
    """
    g = game(name)
    table = (
        tuple(tuple(index_action(i, seat) for i in range(n_actions)) for seat in g.seats)
        if actions is None
        else actions
    )
    if legal_indices is None:

        def legal_indices(state: Any, seat: Any) -> list[int]:
            return [action_index(a) for a in g.legal_actions(state, seat)]

    extras.setdefault("default_opponent", g.default_bot)
    spec = GameSpec(
        name,
        g,
        encoder,
        action_index,
        index_action,
        n_actions,
        net_scale,
        g if engine is None else engine,
        legal_indices,
        table,
        **extras,
    )
    _REGISTRY[name] = spec
    return spec


#: Register the built-in games' environments, once (the look-ups call it).
load = _SPECS.load


def registered() -> tuple[str, ...]:
    """The games with environments, in :func:`paiju.games.names`' order.

    >>> from paiju.games import names
    >>> list(registered()) == [name for name in names() if name in registered()]
    True
    """
    return _SPECS.ordered()


def spec_of(name: str) -> GameSpec:
    """The environments' description of the game ``name``.

    >>> spec_of(registered()[0]).n_actions > 0
    True

    Raises ``ValueError`` for a game without environments.
    """
    spec = _SPECS.get(name)
    if spec is None:
        raise ValueError(f"unknown game {name!r} (choose from {', '.join(registered())})")
    return spec
