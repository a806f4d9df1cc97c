"""PettingZoo AEC environment for Mazhan: ``paiju.env.mazhan_v0.env()``.

Actions (``Discrete(128)``), one index per kind and tile:

| index | action |
|---|---|
| 0–33 | ``discard`` face 0–33 (1m … 9m, 1p … 9p, 1s … 9s, 1z … 7z) |
| 34 | ``hu`` |
| 35 | ``shazhu`` |
| 36–69 | ``angang`` face 0–33 |
| 70–103 | ``jiagang`` face 0–33 |
| 104 | ``gang`` (on a discard) |
| 105 | ``peng`` |
| 106–126 | ``chi``: 7 chows of 萬 (lowest 1m … 7m), then 筒, then 索 |
| 127 | ``pass`` |

Observation (``int16``, 432 values), from the agent's seat, other seats in play order after it
(relative seat 0 = self, 1 = next, 2 = opposite, 3 = previous):

| offset | size | content |
|---|---|---|
| 0 | 34 | own concealed tiles, counts by face (★ counted at the wild face) |
| 34 | 34 | own drawn tile (one-hot) |
| 68 | 34 | the wild face (one-hot) |
| 102 | 4 × 34 | melded tiles of each relative seat, counts |
| 238 | 4 × 34 | unclaimed discards of each relative seat, counts |
| 374 | 4 | bonus tiles laid out by each relative seat |
| 378 | 4 | concealed tile count of each relative seat |
| 382 | 34 | the discard (or added kong) open to claims (one-hot) |
| 416 | 4 | which relative seat it came from (one-hot) |
| 420 | 4 | phase: act, claim, rob, over (one-hot) |
| 424 | 4 | own seat wind E S W N (one-hot) |
| 428 | 1 | tiles left in the wall |
| 429 | 3 | reserved (0) |

>>> e = env()
>>> e.reset(seed=1)
>>> obs, reward, term, trunc, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((432,), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo.utils import wrappers

from paiju.env.base import PaijuAECEnv
from paiju.mazhan.actions import Action, ActionKind
from paiju.mazhan.views import View

__all__ = ["MazhanEncoding", "env", "raw_env"]

_PHASES = {"act": 0, "claim": 1, "rob": 2, "over": 3}


class MazhanEncoding:
    """The action table and the observation layout of the module docstring.

    >>> MazhanEncoding().action_index(Action.parse("S chi 345p"))
    115
    """

    n_actions = 128
    obs_size = 432
    obs_high = 144

    def action_index(self, action: Action) -> int:
        """The index of an action.

        >>> MazhanEncoding().action_index(Action.parse("E discard 7z"))
        33
        """
        kind = action.kind
        tile = -1 if action.tile is None else action.tile.index
        if kind is ActionKind.DISCARD:
            return tile
        if kind is ActionKind.HU:
            return 34
        if kind is ActionKind.SHAZHU:
            return 35
        if kind is ActionKind.ANGANG:
            return 36 + tile
        if kind is ActionKind.JIAGANG:
            return 70 + tile
        if kind is ActionKind.GANG:
            return 104
        if kind is ActionKind.PENG:
            return 105
        if kind is ActionKind.CHI:
            return 106 + (tile // 9) * 7 + tile % 9
        return 127

    def encode(self, view: View) -> npt.NDArray[np.int16]:
        """The observation vector.

        >>> from paiju.mazhan.rules import Ruleset, new_hand
        >>> from paiju.mazhan.views import observe
        >>> from paiju.mazhan.seats import Seat
        >>> int(MazhanEncoding().encode(observe(new_hand(Ruleset(), 1), Seat.S))[:34].sum())
        16
        """
        o = np.zeros(self.obs_size, dtype=np.int16)
        for t in view.hand:
            o[t.index] += 1
        if view.drawn is not None:
            o[34 + view.drawn.index] = 1
        o[68 + view.wild.index] = 1
        me = view.seat.number - 1
        seats = list(view.melds)
        for seat in seats:
            rel = (seat.number - 1 - me) % 4
            for m in view.melds[seat]:
                for t in m.tiles:
                    o[102 + rel * 34 + t.index] += 1
            for t, claimed in view.discards[seat]:
                if not claimed:
                    o[238 + rel * 34 + t.index] += 1
            o[374 + rel] = len(view.bonus[seat])
            o[378 + rel] = view.hand_sizes[seat]
        if view.claim_tile is not None and view.claim_from is not None:
            o[382 + view.claim_tile.index] = 1
            o[416 + (view.claim_from.number - 1 - me) % 4] = 1
        o[420 + _PHASES[view.phase.value]] = 1
        o[424 + me] = 1
        o[428] = view.wall_left
        return o


def raw_env(render_mode: str | None = None) -> PaijuAECEnv:
    """The environment without wrappers.

    >>> raw_env().metadata["name"]
    'paiju_mazhan_v0'
    """
    return PaijuAECEnv("mazhan", MazhanEncoding(), render_mode)


def env(render_mode: str | None = None, illegal_reward: float = -400.0) -> Any:
    """The wrapped environment: an illegal action ends the hand with ``illegal_reward`` for
    the agent that played it (PettingZoo's ``TerminateIllegalWrapper``).

    >>> env().possible_agents
    ['player_0', 'player_1', 'player_2', 'player_3']
    """
    e: Any = raw_env(render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
