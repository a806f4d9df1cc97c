"""A features extractor for stable-baselines3 (needs the ``[rl]`` extra): the flat
observation divided by the game's ``SCALE``, so that every input is about [0, 1].

Saved with the model (the divisors are a buffer of the network), so a policy trained with it
plays from the raw observation everywhere, the arena's policy bots included.

>>> import pytest; torch = pytest.importorskip("torch")
>>> import numpy as np
>>> from gymnasium import spaces
>>> from paiju.env.mazhan_obs import FLAT_SIZE, SCALE
>>> box = spaces.Box(-np.inf, np.inf, (FLAT_SIZE,), np.float32)
>>> ext = ScaledFlat(box, game="mazhan")
>>> bool(torch.allclose(ext(torch.as_tensor(SCALE)[None]), torch.ones(1, FLAT_SIZE)))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from paiju.env import madiao_obs, mazhan_obs

try:
    import torch
    from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

    HAVE_RL = True
except ImportError:  # the [rl] extra is not installed
    BaseFeaturesExtractor = object  # type: ignore[assignment,misc]
    HAVE_RL = False

__all__ = ["HAVE_RL", "ScaledFlat"]


class ScaledFlat(BaseFeaturesExtractor):  # type: ignore[misc,valid-type]
    """``observation / SCALE`` of the game's flat layout.

    Raises ``ValueError`` for another observation shape, ``ImportError`` without the extra.
    """

    def __init__(self, observation_space: Any, game: str = "mazhan", hints: bool = False) -> None:
        if not HAVE_RL:
            raise ImportError("ScaledFlat needs the [rl] extra: pip install 'paiju[rl]'")
        super().__init__(observation_space, features_dim=int(observation_space.shape[0]))
        scale = (mazhan_obs if game == "mazhan" else madiao_obs).SCALE
        if hints:
            tops = np.ones(mazhan_obs.N_HINTS, dtype=np.float32)
            tops[:35] = 10.0  # shanten + 2; the legal actions are 0/1
            scale = np.concatenate((scale, tops))
        if scale.shape != observation_space.shape:
            raise ValueError(f"ScaledFlat needs the flat {game} observation {scale.shape}")
        self.register_buffer("inv_scale", torch.as_tensor(1.0 / scale))

    def forward(self, observations: Any) -> Any:
        """The scaled observations."""
        return observations * self.inv_scale
