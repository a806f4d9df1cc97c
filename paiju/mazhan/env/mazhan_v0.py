"""PettingZoo environments for Mazhan: ``paiju.mazhan.env.mazhan_v0.env()`` (AEC) and
``parallel_env()`` (claims decided at once).

Observations, planes and the action table: :mod:`paiju.mazhan.env.obs`. Rewards, illegal
actions, seating and matches: :mod:`paiju.env.base`. Every keyword of :class:`~paiju.env.
base.PaijuAECEnv` is accepted: ``obs="flat"|"planes"``, ``reward_scale`` (default 1: net 胡),
``illegal``, ``illegal_reward`` (default −400, the limit), ``shaping``, ``shaping_gamma``,
``match_hands``, ``rotate_seats``, ``copy_obs``, ``render_mode``.

>>> raw_env().metadata["name"]
'paiju_mazhan_v0'
>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, term, trunc, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((1264,), True)
>>> env(obs="planes").observation_space("player_0")["observation"].shape
(75, 34, 4)
>>> p = parallel_env(); obs, infos = p.reset(seed=1); sorted(obs) == p.agents
True
"""

from __future__ import annotations

from paiju.env.pettingzoo import entry_points
from paiju.mazhan.env.obs import MazhanEncoder, action_index, index_action

__all__ = ["MazhanEncoder", "action_index", "env", "index_action", "parallel_env", "raw_env"]

raw_env, env, parallel_env = entry_points("mazhan", __name__)
