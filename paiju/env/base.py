"""One PettingZoo AEC environment over any paiju game; each game supplies an encoding.

Agents are ``player_0`` … ``player_3``, sitting in seats E, S, W, N. The agent to act is the
game's acting seat; during a Mazhan claim window the seats that may claim are asked one after
another (each sees the same discard, none sees another's decision). Observations are
``{"observation": int16 vector, "action_mask": int8 vector}``; only the agent to act has a
non-zero mask. At the end of the hand every agent's reward is its net score (Mazhan 胡,
Ma Diao 注) and every agent is terminated.

``reset(seed=S)`` deals the hand from ``S``; a later ``reset()`` without a seed deals the next
hand of the same seeded sequence (a never-seeded environment starts from seed 0), so the same
seeds and the same actions always give the same episodes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from paiju.games import Game, game

__all__ = ["Encoding", "PaijuAECEnv"]

AGENTS = ["player_0", "player_1", "player_2", "player_3"]


class Encoding(Protocol):
    """How a game's views and actions become tensors (lives in the env, nowhere else)."""

    n_actions: int
    obs_size: int
    obs_high: int

    def encode(self, view: Any) -> npt.NDArray[np.int16]:
        """The observation vector of a view."""
        ...

    def action_index(self, action: Any) -> int:
        """The index of an action."""
        ...


@dataclass
class _Episode:
    state: Any
    index: dict[int, Any]


class PaijuAECEnv(AECEnv[str, dict[str, npt.NDArray[Any]], int]):
    """The AEC environment of one game (use the game modules' ``env()``)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game_name: str, encoding: Encoding, render_mode: str | None = None) -> None:
        super().__init__()
        self.metadata = {**PaijuAECEnv.metadata, "name": f"paiju_{game_name}_v0"}
        self.rules: Game[Any, Any, Any, Any] = game(game_name)
        self.ruleset = self.rules.default_ruleset()
        self.encoding = encoding
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: spaces.Discrete(encoding.n_actions) for a in AGENTS}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, encoding.obs_high, (encoding.obs_size,), np.int16),
                    "action_mask": spaces.Box(0, 1, (encoding.n_actions,), np.int8),
                }
            )
            for a in AGENTS
        }
        self._rng = random.Random(0)
        self._episode: _Episode | None = None
        self.hand_seed = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (from ``seed`` when given)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.hand_seed = self._rng.getrandbits(63)
        state = self.rules.new_hand(self.ruleset, self.hand_seed, {})
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._episode = _Episode(state, {})
        self._select()

    @property
    def state_(self) -> Any:
        """The game state of the hand being played (for inspection and tests)."""
        assert self._episode is not None, "call reset() first"
        return self._episode.state

    def _select(self) -> None:
        assert self._episode is not None
        state = self._episode.state
        if state.phase.value == "over":
            return
        seat = self.rules.acting(state)[0]
        self.agent_selection = AGENTS[seat.number - 1]
        legal = self.rules.legal_actions(state, seat)
        self._episode.index = {self.encoding.action_index(a): a for a in legal}

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The agent's observation and action mask."""
        assert self._episode is not None, "call reset() first"
        seat = self.rules.seats[AGENTS.index(agent)]
        view = self.rules.observe(self._episode.state, seat)
        mask = np.zeros(self.encoding.n_actions, dtype=np.int8)
        if agent == self.agent_selection and self._episode.state.phase.value != "over":
            mask[list(self._episode.index)] = 1
        return {"observation": self.encoding.encode(view), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (an index into its action space)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self._episode is not None, "call reset() first"
        chosen = self._episode.index.get(int(action)) if action is not None else None
        if chosen is None:
            raise ValueError(f"action {action} is not legal for {self.agent_selection} now")
        self._cumulative_rewards[self.agent_selection] = 0.0
        state, _events = self.rules.apply(self._episode.state, chosen)
        self._episode.state = state
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        if state.phase.value == "over":
            net = state.result.to_json()["net"]
            for i, agent in enumerate(AGENTS):
                self.rewards[agent] = float(net[self.rules.seats[i].value])
            self.terminations = dict.fromkeys(AGENTS, True)
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (render_mode ``"ansi"``)."""
        if self.render_mode != "ansi" or self._episode is None:
            return None
        return str(self._episode.state)

    def close(self) -> None:
        """Nothing to release."""
