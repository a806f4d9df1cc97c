"""PettingZoo environments for Ma Diao: ``paiju.madiao.env.madiao_v0.env()`` (AEC) and
``parallel_env()`` (one player decides at each step).

Observations, planes and the action table: :mod:`paiju.madiao.env.obs`. Rewards, illegal
actions, seating and matches: :mod:`paiju.env.base`. Every keyword of :class:`~paiju.env.
base.PaijuAECEnv` is accepted: ``obs="flat"|"planes"``, ``reward_scale`` (default 1: net 注),
``illegal``, ``illegal_reward`` (default −10: minus the net scale),
``match_hands``, ``rotate_seats``, ``copy_obs``, ``render_mode``.

>>> raw_env().metadata["name"]
'paiju_madiao_v0'
>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, term, trunc, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((738,), True)
>>> env(obs="planes").observation_space("player_0")["observation"].shape
(75, 4, 11)
>>> p = parallel_env(); obs, infos = p.reset(seed=1); sorted(obs) == p.agents
True
"""

from __future__ import annotations

from paiju.env.pettingzoo import entry_points
from paiju.madiao.env.obs import MadiaoEncoder, action_index, index_action

__all__ = ["MadiaoEncoder", "action_index", "env", "index_action", "parallel_env", "raw_env"]

raw_env, env, parallel_env = entry_points("madiao", __name__)
