"""The PettingZoo AEC environment of any paiju game (use the game's ``<game>_v0.env()``,
made by :mod:`paiju.env.pettingzoo`).

Agents are ``player_0`` … ``player_3``. The agent to act is the player in the game's acting
seat; when several seats must decide at once (a claim window, in a game whose discards may
be claimed) they are asked one after another, each seeing the same discard and nothing of
the others' options or answers (no observation changes while the window is open).
Observations are ``{"observation": float32 array, "action_mask": int8 vector}``; only the
agent to act has a non-zero mask.

**Rewards.** At the end of a hand each agent receives its net (in the game's unit) times
``reward_scale``. With ``shaping`` > 0 (a game that registers a ``potential``: how far a
hand is from winning) an agent also receives, between two of its own decisions,
``gamma · Φ(s') − Φ(s)`` with ``Φ = shaping · potential`` of its hand (0 at the end of the
hand): a potential-based term, which changes no policy's ranking (Ng, Harada and Russell
1999): over an episode the terms telescope to ``−Φ(s₀)``, the same for every policy, so the
optimal policy is unchanged while the learner gets a signal before the hand ends. Set
``shaping_gamma`` to the learner's discount.

**Illegal actions.** ``illegal="zero_sum"`` (default) ends the episode: the offender gets
``illegal_reward`` (scaled) and the three others a third of its opposite each, so rewards
still sum to zero; ``"offender"`` penalises the offender alone (PettingZoo's
``TerminateIllegalWrapper``); ``"raise"`` raises ``ValueError``.

**Hints.** ``hints=True`` (a game that registers ``hints``; flat observations) appends the
game's hints, computed from what the seat alone knows. ``lookahead=True`` (likewise) then
appends the game's look-ahead features: for each candidate action, ratings of the hand it
leaves, from the seat's view. The game's ``obs`` module and ``docs/env.md`` §4 say what
they hold; asking a game without them is a ``ValueError`` naming the games that have them.

**Episodes.** ``match_hands=None``: one hand; players move one seat on with every hand when
``rotate_seats`` is on (default), so ``player_0`` is not always East. ``match_hands=N``: a
match of ``N`` hands with the game's seating rules (its ``first_deal`` and ``next_deal``:
who deals first, who keeps or passes the deal); rewards come at the end of every hand, and
the observation carries the match scores, the hand number and the hands left.

**Seeding.** ``reset(seed=S)`` starts the seeded sequence ``S`` (a whole number ≥ 0; a NumPy
integer is taken); a later ``reset()`` deals the next hand of it, so the same seeds and the
same actions give the same episodes. A never-seeded environment starts a sequence from fresh
entropy, as Gymnasium and PettingZoo environments do: unseeded environments deal different
hands.

**Actions** are integer indices (``int`` or a NumPy integer); a float, a string or a
``bool`` is a ``TypeError``, whatever ``illegal`` says. ``None`` is the action of an agent
that is done (PettingZoo's convention); from the agent to act it is a ``ValueError``, as is an
index outside the action space (slips of the caller, not moves).

>>> g = registered()[0]
>>> env = PaijuAECEnv(g)
>>> env.reset(seed=1)
>>> obs, reward, term, trunc, info = env.last()
>>> obs["observation"].shape == env.table.obs_shape, obs["action_mask"].dtype.name
(True, 'int8')
>>> env.metadata["name"] == f"paiju_{g}_v0", env.agent_selection, bool(obs["action_mask"].any())
(True, 'player_...', True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, SupportsIndex, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from paiju.env.registry import registered, spec_of
from paiju.env.spaces import box, discrete, observation_dict
from paiju.env.table import (
    AGENTS,
    RENDER_MODES,
    Table,
    action_in_space,
    action_of,
    check_flag,
    check_render_mode,
    render_table,
)
from paiju.games import registration

__all__ = ["PaijuAECEnv", "RewardRules"]

_PLAYER = {agent: p for p, agent in enumerate(AGENTS)}


@functools.cache
def _metadata(cls: Any, game: str) -> dict[str, Any]:
    """An environment class's metadata with the game's name in it, one per class and game
    (PettingZoo's metadata is a class's, shared by its instances)."""
    return {**cls.metadata, "name": cls._name.format(game=game)}


@functools.cache
def _no_mask(n: int) -> bytes:
    """``n`` zero bytes (a mask cleared in one copy), one per size."""
    return bytes(n)


@functools.cache
def _zero_mask(n: int) -> npt.NDArray[np.int8]:
    """The all-zero mask of ``n`` actions, one per size and read-only (it is copied out)."""
    mask = np.zeros(n, dtype=np.int8)
    mask.setflags(write=False)
    return mask


_ILLEGAL = ("zero_sum", "offender", "raise")


class RewardRules:
    """Reward options shared by every environment (see the module docstring).

    >>> RewardRules(registered()[0], illegal="nope")
    Traceback (most recent call last):
    ...
    ValueError: illegal must be one of zero_sum, offender, raise; got 'nope'
    """

    def __init__(
        self,
        game: str,
        *,
        reward_scale: float = 1.0,
        illegal: str = "zero_sum",
        illegal_reward: float = -400.0,
        shaping: float = 0.0,
        shaping_gamma: float = 1.0,
    ) -> None:
        if illegal not in _ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(_ILLEGAL)}; got {illegal!r}")
        if shaping < 0 or not 0 < shaping_gamma <= 1:
            raise ValueError("shaping must be ≥ 0 and shaping_gamma in (0, 1]")
        self._potential = spec_of(game).potential
        if shaping and self._potential is None:
            have = [registration(n).title for n in registered() if spec_of(n).potential]
            only = " and ".join(have) or "no game"
            raise ValueError(f"shaping (distance to a complete hand) exists for {only} only")
        self.scale = float(reward_scale)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.shaping = float(shaping)
        self.gamma = float(shaping_gamma)

    def illegal_rewards(self, offender: int) -> list[float]:
        """Each player's reward when ``offender`` plays an illegal action.

        >>> RewardRules(registered()[0], reward_scale=0.0025).illegal_rewards(1)
        [0.3333333333333333, -1.0, 0.3333333333333333, 0.3333333333333333]
        """
        r = self.illegal_reward * self.scale
        share = -r / 3 if self.illegal == "zero_sum" else 0.0
        return [r if p == offender else share for p in range(4)]

    def potential(self, table: Table, player: int) -> float:
        """Φ of the player's hand now: shaping × the game's ``potential`` (≤ 0: how far the
        hand is from winning); 0 without shaping.

        >>> g = next(name for name in registered() if spec_of(name).potential)
        >>> t = Table(g); t.reset(seed=3)
        >>> RewardRules(g, shaping=0.01).potential(t, 0) < 0, RewardRules(g).potential(t, 0)
        (True, 0.0)
        """
        if not self.shaping or self._potential is None:
            return 0.0
        return self.shaping * self._potential(table.state, table.seat_of[player])


def table_and_rewards(
    game: str,
    *,
    obs: str,
    match_hands: int | None,
    rotate_seats: bool,
    hints: bool,
    reward_scale: float,
    illegal: str,
    illegal_reward: float | None,
    shaping: float,
    shaping_gamma: float,
    lookahead: bool = False,
) -> tuple[Table, RewardRules]:
    """The table and the reward rules an environment (AEC or parallel) is built on, from its
    options; an unknown ``obs`` is a ``ValueError``. ``illegal_reward`` ``None``: minus the
    game's net scale (its registered ``net_scale``, a typical hand's size).

    >>> g = registered()[0]
    >>> table, rules = table_and_rewards(g, obs="flat", match_hands=None,
    ...     rotate_seats=True, hints=False, reward_scale=1.0, illegal="zero_sum",
    ...     illegal_reward=None, shaping=0.0, shaping_gamma=1.0)
    >>> rules.illegal_reward == -table.spec.net_scale
    True
    >>> table_and_rewards(g, obs="png", match_hands=None, rotate_seats=True,
    ...     hints=False, reward_scale=1.0, illegal="zero_sum", illegal_reward=-10.0,
    ...     shaping=0.0, shaping_gamma=1.0)
    Traceback (most recent call last):
    ...
    ValueError: obs must be 'flat' or 'planes', got 'png'
    """
    if obs not in ("flat", "planes"):
        raise ValueError(f"obs must be 'flat' or 'planes', got {obs!r}")
    table = Table(
        game, planes=obs == "planes", match_hands=match_hands, rotate_seats=rotate_seats,
        hints=hints, lookahead=lookahead,
    )  # fmt: skip
    if illegal_reward is None:
        illegal_reward = -float(table.spec.net_scale)
    rules = RewardRules(
        game, reward_scale=reward_scale, illegal=illegal, illegal_reward=illegal_reward,
        shaping=shaping, shaping_gamma=shaping_gamma,
    )  # fmt: skip
    return table, rules


class TableEnv:
    """What the AEC and the parallel environment share: the options, the table and the reward
    rules, the agents and the spaces. A subclass sets ``metadata`` and ``_name`` (the
    environment's name, a format of ``game``) and adds its own state in :meth:`_init_more`."""

    metadata: dict[str, Any] = {}  # noqa: RUF012
    _name = "paiju_{game}"

    def __init__(
        self,
        game: str,
        *,
        obs: str = "flat",
        reward_scale: float = 1.0,
        illegal: str = "zero_sum",
        illegal_reward: float | None = None,
        shaping: float = 0.0,
        shaping_gamma: float = 1.0,
        match_hands: int | None = None,
        rotate_seats: bool = True,
        hints: bool = False,
        lookahead: bool = False,
        copy_obs: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.copy_obs = check_flag(copy_obs, "copy_obs")
        self.table, self.reward_rules = table_and_rewards(
            game, obs=obs, match_hands=match_hands, rotate_seats=rotate_seats, hints=hints,
            reward_scale=reward_scale, illegal=illegal, illegal_reward=illegal_reward,
            shaping=shaping, shaping_gamma=shaping_gamma, lookahead=lookahead,
        )  # fmt: skip
        self.metadata = _metadata(cast(Any, type(self)), game)
        self.render_mode = check_render_mode(render_mode)
        self._human = render_mode == "human"  # printed at every reset and step
        self._obs_shape = self.table.obs_shape
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        # the spaces are made when first asked for, over arrays shared by every environment
        # of the same shapes (paiju.env.spaces): most loops never ask
        self._obs_space: spaces.Dict | None = None
        self._act_space: spaces.Discrete | None = None
        self._state_space: spaces.Box | None = None
        self._phi: dict[int, float] = {}
        self._reset_done = False
        self._init_more(self.table.spec.n_actions)

    def _init_more(self, n: int) -> None:
        """What a subclass adds to :meth:`__init__` (``n``: the number of actions)."""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of an agent (the same object for every agent).

        >>> env = PaijuAECEnv(registered()[0])
        >>> env.observation_space("player_0")["observation"].shape == env.table.obs_shape
        True
        """
        space = self._obs_space
        if space is None:
            table = self.table
            space = self._obs_space = observation_dict(table.obs_shape, table.spec.n_actions)
        return space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of an agent (the same object for every agent).

        >>> env = PaijuAECEnv(registered()[0])
        >>> int(env.action_space("player_3").n) == env.table.spec.n_actions
        True
        """
        space = self._act_space
        if space is None:
            space = self._act_space = discrete(self.table.spec.n_actions)
        return space

    @property
    def state_space(self) -> spaces.Box:
        """The space of :meth:`state` (a centralised critic's input)."""
        space = self._state_space
        if space is None:
            space = self._state_space = box((self.table.state_size(),), np.float32)
        return space


class PaijuAECEnv(TableEnv, AECEnv[str, dict[str, npt.NDArray[Any]], int]):
    """The AEC environment of one game (see the module docstring for the options)."""

    # not parallelizable by PettingZoo's aec_to_parallel (not every agent acts every cycle):
    # the parallel form is PaijuParallelEnv
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}  # noqa: RUF012
    _name = "paiju_{game}_v0"

    def _init_more(self, n: int) -> None:
        self._no_mask = _no_mask(n)
        self._zero_mask = _zero_mask(n)
        # the selected agent's mask, written once per step (observe returns copies of it):
        # a NumPy view of a bytearray, whose cells are the cheapest Python stores
        self._mask_cells = bytearray(n)
        self._mask = np.frombuffer(self._mask_cells, dtype=np.int8)
        self._mask_on: Sequence[int] = ()  # the indices set in the mask
        self._player = 0
        self._live = False  # a hand is being played (no agent terminated): step's fast path
        self._shaping = bool(self.reward_rules.shaping)
        self._dirty = False  # rewards to clear at the next step

    @property
    def observation_spaces(self) -> dict[str, spaces.Space[Any]]:
        """Every agent's observation space (PettingZoo's attribute)."""
        return dict.fromkeys(AGENTS, self.observation_space(AGENTS[0]))

    @property
    def action_spaces(self) -> dict[str, spaces.Space[Any]]:
        """Every agent's action space (PettingZoo's attribute)."""
        return dict.fromkeys(AGENTS, self.action_space(AGENTS[0]))

    # --- episodes ---------------------------------------------------------------------------

    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None:
        """Deal a new episode (from ``seed`` when given: a whole number ≥ 0).

        >>> env = PaijuAECEnv(registered()[0]); env.reset(seed=np.int64(3))
        >>> env.agent_selection
        'player_...'
        >>> env.reset(seed="abc")
        Traceback (most recent call last):
        ...
        TypeError: seed must be a whole number (an int), got 'abc'

        Raises ``TypeError`` for a seed that is not an integer and ``ValueError`` for a
        negative one.
        """
        self.table.reset(seed)
        self._reset_done = True
        self.agents = list(AGENTS)
        self._dirty = False
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._phi = {}
        self._live = True
        self._select()
        if self._human:
            self.render()

    def _select(self) -> None:
        table = self.table
        player = table.first
        self._player = player
        self.agent_selection = AGENTS[player]
        mask = self._mask_cells
        for i in self._mask_on:  # clear the last mask's cells, set this one's
            mask[i] = 0
        on = self._mask_on = table.first_legal
        for i in on:
            mask[i] = 1
        if self._shaping:
            self._shape_on_turn(player)

    def _shape_on_turn(self, player: int) -> None:
        rules = self.reward_rules
        phi = rules.potential(self.table, player)
        last = self._phi.get(player)
        if last is not None:
            self.rewards[AGENTS[player]] += rules.gamma * phi - last
            self._dirty = True
        self._phi[player] = phi

    # --- observing --------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """The agent's observation and action mask (a new mask array every time; the
        observation is a new array too unless ``copy_obs=False``)."""
        if not self._reset_done:
            raise RuntimeError("call reset() before observe()")
        out = np.empty(self._obs_shape, np.float32) if self.copy_obs else None
        obs = self.table.encode(_PLAYER[agent], out)
        # the selected agent's mask (all zeros once the episode is over), else none
        mask = (self._mask if agent == self.agent_selection else self._zero_mask).copy()
        return {"observation": obs, "action_mask": mask}

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (``None`` when ``observe`` is false), its reward
        since it last acted, termination, truncation and info (PettingZoo's ``last``).

        >>> PaijuAECEnv(registered()[0]).last()
        Traceback (most recent call last):
        ...
        RuntimeError: call reset() before last()

        Raises ``RuntimeError`` before :meth:`reset` and once every agent is done.
        """
        if not self._reset_done:
            raise RuntimeError("call reset() before last()")
        agent = self.agent_selection
        if not self.agents:
            raise RuntimeError("the episode is over (every agent is done): call reset()")
        if observe:  # observe(agent), inlined: the hot path
            table = self.table
            # a new array written whole (copy_obs), else the table's buffer for the seat
            out = np.empty(self._obs_shape, np.float32) if self.copy_obs else None
            if table._plain:
                obs = table.encoder.encode(table.state, table.seat_of[_PLAYER[agent]], out)
            else:
                obs = table.encode(_PLAYER[agent], out)
            seen: dict[str, npt.NDArray[Any]] | None = {
                "observation": obs,
                "action_mask": self._mask.copy(),
            }
        else:
            seen = None
        return (
            seen,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> npt.NDArray[np.float32]:
        """The whole state for a centralised critic: every seat's observation (E S W N),
        then what is not dealt out yet (the tiles left in the wall, the cards left in the
        stock), by face: :meth:`~paiju.env.table.Table.global_state`.

        >>> env = PaijuAECEnv(registered()[0]); env.reset(seed=2)
        >>> env.state().shape == env.state_space.shape
        True
        """
        if not self._reset_done:
            raise RuntimeError("call reset() before state()")
        return self.table.global_state()

    # --- acting -----------------------------------------------------------------------------

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (an index into its action space; ``None`` for an
        agent that is done).

        >>> env = PaijuAECEnv(registered()[0]); env.reset(seed=1)
        >>> env.step(1.7)
        Traceback (most recent call last):
        ...
        TypeError: an action is an integer index (int or a NumPy integer), got 1.7 (float)

        Raises ``TypeError`` for an action that is not an integer index or ``None``,
        ``RuntimeError`` before :meth:`reset` and once every agent is done (the loop of
        ``agent_iter`` stops there), and ``ValueError`` for an index outside the action
        space or ``None`` from the agent to act (whatever ``illegal`` says: they are the
        caller's slips, not moves), for an illegal action under ``illegal="raise"``, or for a
        dead agent's action other than ``None``.
        """
        if not self._live:
            if not self._reset_done:
                raise RuntimeError("call reset() before step()")
            if not self.agents:
                raise RuntimeError("the episode is over (every agent is done): call reset()")
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
        agent = self.agent_selection
        player = self._player
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        if self._dirty:
            rewards = self.rewards
            for a in AGENTS:
                rewards[a] = 0.0
            self._dirty = False
        # an int is the hot path; None and indices outside the space raise in _illegal
        index = action if type(action) is int else -1 if action is None else action_of(action)
        if index not in self._mask_on:
            self._illegal(player, action)
            return
        nets = table.step(player, index, checked=True)
        if nets is None:
            self._select()
        else:
            self._end_hand(nets)
        if self._human:
            self.render()
        if self._dirty:
            self._accumulate_rewards()

    def _end_hand(self, nets: list[float]) -> None:
        rules = self.reward_rules
        self._dirty = True
        self._mask_on = ()
        self._mask_cells[:] = self._no_mask
        for p in range(4):
            self.rewards[AGENTS[p]] += nets[p] * rules.scale
        if self.table.next_hand(nets):
            self._select()  # a match goes on: Φ carries over to the next hand's first turn
            return
        for p in range(4):
            self.rewards[AGENTS[p]] -= self._phi.pop(p, 0.0)  # Φ = 0 at the end
        self.terminations = dict.fromkeys(AGENTS, True)
        self._live = False
        for p in range(4):
            self.infos[AGENTS[p]] = {"net": nets[p], "score": self.table.scores[p]}

    def _illegal(self, player: int, action: Any) -> None:
        action_in_space(action, self.table.spec.n_actions, AGENTS[player])  # a caller's slip
        rules = self.reward_rules
        if rules.illegal == "raise":
            raise ValueError(f"action {action!r} is not legal for {AGENTS[player]} now")
        self._dirty = True
        for p, r in enumerate(rules.illegal_rewards(player)):
            self.rewards[AGENTS[p]] = r
        self.terminations = dict.fromkeys(AGENTS, True)
        self._live = False
        self._mask_on = ()
        self._mask_cells[:] = self._no_mask
        self.infos[AGENTS[player]] = {"illegal_action": action}
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (render_mode ``"ansi"``), or printed (``"human"``)."""
        return render_table(self.render_mode, self.table.state)

    def close(self) -> None:
        """Nothing to release."""

    @property
    def state_(self) -> Any:
        """The game state of the hand being played (for inspection and tests)."""
        return self.table.state
