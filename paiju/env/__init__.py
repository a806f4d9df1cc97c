"""paiju's reinforcement-learning kit (see ``docs/env.md``).

- PettingZoo AEC and parallel environments: :mod:`paiju.env.mazhan_v0`,
  :mod:`paiju.env.madiao_v0` (``env()``, ``parallel_env()``);
- Gymnasium single-agent environments ``paiju/Mazhan-v0`` and ``paiju/MaDiao-v0``
  (:mod:`paiju.env.single`), registered by ``import paiju`` (:func:`paiju.register_envs`);
- observations and action tables: :mod:`paiju.env.mazhan_obs`, :mod:`paiju.env.madiao_obs`;
- a saved policy as a bot: :mod:`paiju.env.policy`.

>>> import gymnasium as gym
>>> from paiju.env import madiao_v0, mazhan_v0
>>> mazhan_v0.env().metadata["name"], madiao_v0.env().metadata["name"]
('paiju_mazhan_v0', 'paiju_madiao_v0')
>>> gym.spec("paiju/MaDiao-v0").kwargs
{'game': 'madiao'}
"""

from paiju import register_envs
from paiju.env import madiao_v0, mazhan_v0

__all__ = ["madiao_v0", "mazhan_v0"]

register_envs()  # importing paiju did, unless Gymnasium's registry was replaced since
