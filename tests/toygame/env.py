"""The toy game's environment description: a flat observation of 20 values (the seat's
cards, the cards of the round being played, the rounds won by each seat relative to it),
action ``i`` = play card ``i``."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.env.registry import register_env
from tests.toygame.game import CARDS, SEATS, Action, State

SIZE = 2 * CARDS + 4


class ToyEncoder:
    def __init__(self, planes: bool = False) -> None:
        self.planes = planes
        self.shape: tuple[int, ...] = (2, SIZE // 2) if planes else (SIZE,)

    def set_context(
        self, scores: Sequence[float], hand_no: int, hands_left: int, repeat: int
    ) -> None:
        pass

    def reset(self, state: Any) -> None:
        pass

    def update(self, before: Any, state: Any, events: Sequence[Any]) -> None:
        pass

    def encode(
        self, state: Any, me: int, out: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        flat = np.zeros(SIZE, dtype=np.float32)
        flat[list(state.hands[me])] = 1.0
        for _s, c in state.played:
            flat[CARDS + c] = 1.0
        for r in range(4):
            flat[2 * CARDS + r] = state.won[(me + r) % 4]
        obs = flat.reshape(self.shape)
        if out is not None:
            out[...] = obs
            return out
        return obs


def action_index(action: Action) -> int:
    return action.card


def index_action(index: int, seat: Any) -> Action:
    return Action(seat, index)


def state_of_view(view: Any, encoder: ToyEncoder) -> Any:
    me = view.seat.number - 1
    hands = [view.hand if k == me else () for k in range(4)]
    state = SimpleNamespace(hands=hands, played=view.played, won=view.won)
    encoder.reset(state)
    return state


def unseen(state: State) -> npt.NDArray[np.float32]:
    return np.zeros(0, dtype=np.float32)


def register_toy_env() -> None:
    register_env(
        "toy",
        encoder=ToyEncoder,
        action_index=action_index,
        index_action=index_action,
        n_actions=CARDS,
        net_scale=4.0,
        state_of_view=state_of_view,
        unseen=unseen,
    )


__all__ = ["SEATS", "ToyEncoder", "register_toy_env"]
