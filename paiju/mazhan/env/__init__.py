"""Mazhan's environments: its observations and action table (:mod:`.obs`, registered with
:func:`paiju.env.registry.register_env` as it is imported), its look-ahead features
(:mod:`.lookahead`), its PettingZoo module (:mod:`.mazhan_v0`) and its Gymnasium
environment ``paiju/Mazhan-v0`` (:func:`single_env`).

>>> import gymnasium
>>> import paiju.env
>>> env = gymnasium.make("paiju/Mazhan-v0", opponents="random")
>>> env.unwrapped.game
'mazhan'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paiju.mazhan.env import obs as _obs  # noqa: F401  (registers the environments' spec)

if TYPE_CHECKING:
    from paiju.env.single import PaijuSingleEnv

__all__ = ["single_env"]


def single_env(**kwargs: Any) -> PaijuSingleEnv:
    """``paiju/Mazhan-v0``: one learner against three opponents (keywords:
    :class:`~paiju.env.single.PaijuSingleEnv`).

    >>> single_env(opponents="greedy").observation_space.shape
    (1264,)
    """
    from paiju.env.single import PaijuSingleEnv

    return PaijuSingleEnv("mazhan", **kwargs)
