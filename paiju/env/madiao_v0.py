"""PettingZoo AEC environment for Ma Diao: ``paiju.env.madiao_v0.env()``.

Actions (``Discrete(120)``): ``kind × 40 + card`` with kind 0 ``fa`` (lead), 1 ``zhuo``
(capture), 2 ``mie`` (discard face down) and card the index 0–39 (十字 0–10 from 二十 up to
萬萬, 萬 11–19, 索 20–28, 文 29–39 from 九文 up to 空沒文).

Observation (``int16``, 336 values), relative seats as in Mazhan (0 = self, 1 = next, …):

| offset | size | content |
|---|---|---|
| 0 | 40 | own hand (one-hot) |
| 40 | 40 | face-up cards of the trick being played |
| 80 | 4 | the led suit (one-hot; zeros before the lead) |
| 84 | 40 | the best face-up card of the trick (one-hot) |
| 124 | 40 | cards seen face up so far (left play or 上桌) |
| 164 | 4 × 40 | 上桌 cards of each relative seat |
| 324 | 4 | tricks won by each relative seat |
| 328 | 4 | the banker's relative seat (one-hot) |
| 332 | 1 | the 面張 (card index + 1) |
| 333 | 1 | tricks played |
| 334 | 1 | cards played in the current trick |
| 335 | 1 | face-down cards in the current trick |

>>> e = env()
>>> e.reset(seed=3)
>>> obs, *_ = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())
((336,), 8)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from pettingzoo.utils import wrappers

from paiju.env.base import PaijuAECEnv
from paiju.madiao.rules import Action, ActionKind
from paiju.madiao.views import View

__all__ = ["MadiaoEncoding", "env", "raw_env"]

_KINDS = {ActionKind.FA: 0, ActionKind.ZHUO: 1, ActionKind.MIE: 2}


class MadiaoEncoding:
    """The action table and the observation layout of the module docstring.

    >>> MadiaoEncoding().action_index(Action.parse("E mie wt"))
    90
    """

    n_actions = 120
    obs_size = 336
    obs_high = 40

    def action_index(self, action: Action) -> int:
        """The index of a play.

        >>> MadiaoEncoding().action_index(Action.parse("N fa 2t"))
        0
        """
        return _KINDS[action.kind] * 40 + action.card.index

    def encode(self, view: View) -> npt.NDArray[np.int16]:
        """The observation vector.

        >>> from paiju.madiao.rules import Ruleset, new_hand
        >>> from paiju.madiao.views import observe
        >>> from paiju.madiao.seats import Seat
        >>> int(MadiaoEncoding().encode(observe(new_hand(Ruleset(), 1), Seat.W))[:40].sum())
        8
        """
        o = np.zeros(self.obs_size, dtype=np.int16)
        for c in view.hand:
            o[c.index] = 1
        me = view.seat.number - 1
        ups = [c for _, c, up in view.trick if up and c is not None]
        for c in ups:
            o[40 + c.index] = 1
        if ups:
            o[80 + list(type(ups[0].suit)).index(ups[0].suit)] = 1
            o[84 + ups[-1].index] = 1
        for c in view.seen:
            o[124 + c.index] = 1
        for seat, cards in view.table.items():
            rel = (seat.number - 1 - me) % 4
            for c in cards:
                o[164 + rel * 40 + c.index] = 1
            o[324 + rel] = view.tricks_won[seat]
        o[328 + (view.banker.number - 1 - me) % 4] = 1
        o[332] = view.mian.index + 1
        o[333] = view.trick_no
        o[334] = len(view.trick)
        o[335] = sum(1 for _, _, up in view.trick if not up)
        return o


def raw_env(render_mode: str | None = None) -> PaijuAECEnv:
    """The environment without wrappers.

    >>> raw_env().metadata["name"]
    'paiju_madiao_v0'
    """
    return PaijuAECEnv("madiao", MadiaoEncoding(), render_mode)


def env(render_mode: str | None = None, illegal_reward: float = -10.0) -> Any:
    """The wrapped environment: an illegal play ends the hand with ``illegal_reward`` for the
    agent that played it (PettingZoo's ``TerminateIllegalWrapper``).

    >>> env().possible_agents[0]
    'player_0'
    """
    e: Any = raw_env(render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
