"""paiju's reinforcement-learning kit (see ``docs/env.md``), the same for every game.

- PettingZoo AEC and parallel environments: each game's ``<game>_v0`` module in its folder
  (``paiju/<game>/env/``), ``env()`` and ``parallel_env()`` (:mod:`paiju.env.pettingzoo`);
- Gymnasium single-agent environments ``paiju/<Game>-v0`` (:mod:`paiju.env.single`),
  registered by ``import paiju`` (:func:`paiju.register_envs`);
- observations and action tables: each game's ``obs`` module, described to the
  environments by :func:`paiju.env.registry.register_env`;
- a saved policy as a bot: :mod:`paiju.env.policy`.

>>> import gymnasium as gym
>>> import paiju.env
>>> from paiju.env.registry import registered
>>> all(gym.spec(env_id) for env_id, _ in paiju.gymnasium_envs())
True
"""

from paiju import register_envs

__all__: list[str] = []

register_envs()  # importing paiju did, unless Gymnasium's registry was replaced since
