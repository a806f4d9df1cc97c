"""Ma Diao's environments: its observations and action table (:mod:`.obs`, registered with
:func:`paiju.env.registry.register_env` as it is imported), its PettingZoo module
(:mod:`.madiao_v0`) and its Gymnasium environment ``paiju/MaDiao-v0`` (:func:`single_env`).

>>> import gymnasium
>>> import paiju.env
>>> gymnasium.make("paiju/MaDiao-v0").unwrapped.game
'madiao'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from paiju.madiao.env import obs as _obs  # noqa: F401  (registers the environments' spec)

if TYPE_CHECKING:
    from paiju.env.single import PaijuSingleEnv

__all__ = ["single_env"]


def single_env(**kwargs: Any) -> PaijuSingleEnv:
    """``paiju/MaDiao-v0``: one learner against three opponents (keywords:
    :class:`~paiju.env.single.PaijuSingleEnv`).

    >>> int(single_env().action_space.n) > 0
    True
    """
    from paiju.env.single import PaijuSingleEnv

    return PaijuSingleEnv("madiao", **kwargs)
