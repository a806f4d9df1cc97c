"""The PettingZoo parallel environment: the players that must decide act in one step.

In a game whose discards may be claimed, the claim window is a simultaneous decision in the
engine: every seat that may claim a discard answers without seeing the others. Here every
live agent gets an observation at every step; the agents that must decide have a non-zero
``action_mask`` (in a claim window, each sees only its own options), the others an all-zero
mask, and whatever action they send is ignored. Out of a claim window one agent decides per
step (the player to move). Rewards, seating, matches and illegal actions are as in
:mod:`paiju.env.base`.

PettingZoo's ``aec_to_parallel`` does not apply to the AEC environment (its agents do not all
act every cycle); this class is the parallel form, and ``parallel_to_aec`` of it works.

Hidden information: in a claim window every seat is shown the window (phase, tile, from
whom), the seats with no decision with an all-zero mask: a player at a real table sees the
same pause and the same tile, and so learns that somebody may claim, never who
(``docs/views.md``; the server's views say the same). What a seat with a decision sees does
not depend on which other seats may claim or have answered (a test).

>>> from paiju.env.registry import registered
>>> env = PaijuParallelEnv(registered()[0])
>>> obs, infos = env.reset(seed=4)
>>> deciders = [a for a in env.agents if obs[a]["action_mask"].any()]
>>> len(deciders), sorted(obs) == env.agents, env.metadata["name"]  # one seat opens the hand
(1, True, 'paiju_..._parallel_v0')
"""

from __future__ import annotations

from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
from pettingzoo import ParallelEnv

from paiju.env.base import TableEnv
from paiju.env.table import (
    AGENTS,
    RENDER_MODES,
    action_in_space,
    render_table,
)

__all__ = ["PaijuParallelEnv"]


class PaijuParallelEnv(TableEnv, ParallelEnv[str, dict[str, npt.NDArray[Any]], int]):
    """The parallel environment of one game (options as :class:`~paiju.env.base.PaijuAECEnv`)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012

    _name = "paiju_{game}_parallel_v0"

    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a new episode; every agent's observation and an empty info. ``seed``: as the
        AEC environment's (a whole number ≥ 0; none: the next hand, or fresh entropy for an
        environment never seeded)."""
        self.table.reset(seed)
        self._reset_done = True
        self.agents = list(AGENTS)
        self._phi = {}
        rewards = [0.0] * 4
        self._shape(rewards)
        if self._human:
            self.render()
        return self._observations(), {a: {} for a in AGENTS}

    def _observations(self) -> dict[str, Any]:
        """Every agent's observation (new arrays, or the table's own buffers, one per seat,
        with ``copy_obs=False``) and a new mask."""
        table = self.table
        n = table.spec.n_actions
        copy = self.copy_obs
        shape = self._obs_shape
        out = {}
        for p, agent in enumerate(AGENTS):
            mask = np.zeros(n, dtype=np.int8)
            legal = table.legal(p)
            if legal:
                mask[legal] = 1
            obs = table.encode(p, np.empty(shape, np.float32) if copy else None)
            out[agent] = {"observation": obs, "action_mask": mask}
        return out

    def _shape(self, rewards: list[float]) -> None:
        rules = self.reward_rules
        if not rules.shaping:
            return
        for p in self.table.deciders():
            phi = rules.potential(self.table, p)
            last = self._phi.get(p)
            if last is not None:
                rewards[p] += rules.gamma * phi - last
            self._phi[p] = phi

    def step(self, actions: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        """Apply the deciding agents' actions (others' are ignored). An action is an integer
        index (``int`` or a NumPy integer).

        >>> from paiju.env.registry import registered
        >>> env = PaijuParallelEnv(registered()[0]); _ = env.reset(seed=1)
        >>> env.step({"bob": 3})
        Traceback (most recent call last):
        ...
        ValueError: unknown agent 'bob' (the agents are player_0, player_1, player_2, player_3)

        Raises ``RuntimeError`` before :meth:`reset` and after the end; ``ValueError`` for a
        key that is not a live agent, when a deciding agent has no action (or ``None``), for
        an index outside the action space (whatever ``illegal`` says), and for an illegal
        action under ``illegal="raise"``; ``TypeError`` when a deciding agent's action is not
        an integer index.
        """
        if not self._reset_done:
            raise RuntimeError("call reset() before step()")
        if not self.agents:
            raise RuntimeError("the episode is over (every agent is done): call reset()")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(
                f"unknown agent {', '.join(repr(a) for a in unknown)} "
                f"(the agents are {', '.join(self.agents)})"
            )
        table = self.table
        rules = self.reward_rules
        rewards = [0.0] * 4
        done = False
        infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        deciders = table.deciders()
        missing = [AGENTS[p] for p in deciders if AGENTS[p] not in actions]
        if missing:
            raise ValueError(f"no action for {', '.join(missing)}, who must decide now")
        n = table.spec.n_actions
        # every decider's action checked before any is played: an error leaves the step undone
        chosen = [(p, action_in_space(actions[AGENTS[p]], n, AGENTS[p])) for p in deciders]
        if rules.illegal == "raise":
            for p, index in chosen:
                if index not in table.legal(p):
                    raise ValueError(f"action {index} is not legal for {AGENTS[p]} now")
        for p, index in chosen:
            if index not in table.legal(p):
                rewards = rules.illegal_rewards(p)
                infos[AGENTS[p]] = {"illegal_action": index}
                done = True
                break
            nets = table.step(p, index)
            if nets is None:
                continue
            for q in range(4):
                rewards[q] += nets[q] * rules.scale
            if not table.next_hand(nets):
                for q in range(4):
                    rewards[q] -= self._phi.pop(q, 0.0)
                    infos[AGENTS[q]] = {"net": nets[q], "score": table.scores[q]}
                done = True
            break
        if not done:
            self._shape(rewards)
        obs = self._observations()
        agents = self.agents
        terms = dict.fromkeys(agents, done)
        truncs = dict.fromkeys(agents, False)
        rew = {a: rewards[AGENTS.index(a)] for a in agents}
        if done:
            self.agents = []
        if self._human:
            self.render()
        return obs, rew, terms, truncs, infos

    def state(self) -> npt.NDArray[np.float32]:
        """The whole state for a centralised critic (as the AEC environment's).

        Raises ``RuntimeError`` before :meth:`reset`.
        """
        if not self._reset_done:
            raise RuntimeError("call reset() before state()")
        return self.table.global_state()

    def render(self) -> str | None:
        """The table as text (render_mode ``"ansi"``), or printed (``"human"``)."""
        return render_table(self.render_mode, self.table.state)

    def close(self) -> None:
        """Nothing to release."""
