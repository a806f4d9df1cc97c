"""Gymnasium single-agent environments: one learner against three opponents.

Registered as ``paiju/<Game>-v0``, one for each installed game (``paiju.gymnasium_envs()``
lists them, read from the games' entry points), when :mod:`paiju.env` is imported::

    import gymnasium as gym
    import paiju
    import paiju.env  # registers the environments
    env_id = paiju.gymnasium_envs()[0][0]
    env = gym.make(env_id, seat="rotate")

- ``opponents``: one spec for all three or a list of three; by default the game's own
  (its registered ``default_opponent``, :data:`DEFAULT_OPPONENTS`). A spec is a bot name of
  the game (``paiju arena``'s names, :func:`paiju.bots.registry.bots_of`),
  ``"policy:PATH"`` (a saved policy, :mod:`paiju.env.policy`), an object
  with ``act(view, legal, rng)`` (a :class:`~paiju.bots.base.Bot`), or any callable
  ``f(view, legal, rng) -> action`` where ``legal`` is the seat's legal actions.
- ``seat``: ``"rotate"`` (default: East, North, West, South in turn over the hands of the
  seeded sequence, so the learner deals a quarter of the hands) or a fixed ``"E"``, ``"S"``,
  ``"W"``, ``"N"``. In a match (``match_hands``) seats follow the game's rules, so a fixed
  seat there is a ``ValueError`` (``"rotate"`` is taken: the learner's seat moves as the
  rules move it).
- ``reward_scale``: default 1 / the game's net scale (a hand's net in units of a typical
  hand; ``docs/env.md`` §3 gives each game's); ``shaping``/``shaping_gamma``: the
  potential-based term of :mod:`paiju.env.base`; ``illegal``: ``"zero_sum"``/``"offender"``
  end the episode with ``illegal_reward`` × scale for the learner, ``"raise"`` raises.
- ``hints`` (a game that has them, flat): the game's hints appended to the observation
  (``n_hints`` values, from what the seat alone knows).
- ``lookahead`` (likewise): the game's look-ahead features appended after those
  (``n_lookahead`` values, by action index: ratings of the hand each candidate action
  leaves, from the seat's view). The game's ``obs`` module and ``docs/env.md`` §4 say what
  both hold.
- ``obs``: ``"flat"`` or ``"planes"``. The observation is the array alone; the legal actions
  come from :meth:`PaijuSingleEnv.action_masks` (what sb3-contrib's ``MaskablePPO`` calls)
  and from ``info["action_mask"]``.
- Seeding: ``reset(seed=S)`` starts the seeded sequence of hands (``S`` a whole number ≥ 0;
  a NumPy integer is taken); opponents draw their chance from each hand's seed as
  ``paiju arena``'s driver does, so a seeded run repeats exactly. An environment never
  seeded starts from fresh entropy (Gymnasium's convention), so unseeded copies differ.
- Actions are integer indices (``int`` or a NumPy integer); a float, a string or a ``bool``
  is a ``TypeError``.

Vector environments (tested)::

    envs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id) for _ in range(4)])
    envs = gym.vector.AsyncVectorEnv([lambda: gym.make(env_id) for _ in range(2)])

>>> env = PaijuSingleEnv(registered()[0])
>>> obs, info = env.reset(seed=3)  # seed 3 seats the learner South first
>>> obs.shape == env.observation_space.shape, bool(info["action_mask"].any()), env.seat
(True, True, 'S')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsIndex

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from paiju.env.base import RewardRules
from paiju.env.registry import registered, spec_of
from paiju.env.spaces import box, discrete
from paiju.env.table import (
    RENDER_MODES,
    Table,
    action_in_space,
    check_render_mode,
    render_table,
)
from paiju.games.lazy_registry import ByGame

__all__ = ["DEFAULT_OPPONENTS", "PaijuSingleEnv", "make_opponent"]

_SEATS = "ESWN"
_SEAT_CHOICES = ("rotate", "E", "S", "W", "N")


#: The opponents of ``opponents=None``: each game's own baseline bot, as each game's
#: environment registered it.
DEFAULT_OPPONENTS: Mapping[str, str] = ByGame(registered, lambda g: spec_of(g).default_opponent)


def _name(bot: Any) -> str:
    """A bot's name for messages: its ``name``, else its type's."""
    return str(getattr(bot, "name", type(bot).__name__))


class _CallableBot:
    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")
        self.needs_view = True

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return self.fn(view, legal, rng)


def make_opponent(game: str, spec: Any) -> Any:
    """A bot from a spec: a name, ``"policy:PATH"``, a bot object or a callable.

    >>> g = registered()[0]; default = spec_of(g).default_opponent
    >>> make_opponent(g, default).name == default
    True
    >>> make_opponent(g, lambda view, legal, rng: legal[0]).name
    '<lambda>'
    >>> make_opponent(g, 3)
    Traceback (most recent call last):
    ...
    ValueError: an opponent is a bot name, 'policy:PATH', a bot or a callable; got 3

    Raises ``ValueError`` for anything else or an unknown name.
    """
    if isinstance(spec, str):
        if spec.startswith("policy:"):
            from paiju.env.policy import PolicyBot

            return PolicyBot.load(spec[len("policy:") :], game=game)
        from paiju.bots.base import make_bot

        return make_bot(game, spec)
    if hasattr(spec, "act"):
        return spec
    if callable(spec):
        return _CallableBot(spec)
    raise ValueError(f"an opponent is a bot name, 'policy:PATH', a bot or a callable; got {spec!r}")


class PaijuSingleEnv(gym.Env[npt.NDArray[np.float32], int]):
    """One learner against three opponents (see the module docstring).

    >>> g = registered()[0]
    >>> [bot.name for bot in PaijuSingleEnv(g).opponents] == [DEFAULT_OPPONENTS[g]] * 3
    True
    >>> PaijuSingleEnv(g, seat="ES")
    Traceback (most recent call last):
    ...
    ValueError: seat must be 'rotate' or one of E, S, W, N; got 'ES'
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: Any = None,
        seat: str = "rotate",
        *,
        obs: str = "flat",
        reward_scale: float | None = None,
        shaping: float = 0.0,
        shaping_gamma: float = 0.99,
        illegal: str = "zero_sum",
        illegal_reward: float | None = None,
        match_hands: int | None = None,
        hints: bool = False,
        lookahead: bool = False,
        render_mode: str | None = None,
    ) -> None:
        if obs not in ("flat", "planes"):
            raise ValueError(f"obs must be 'flat' or 'planes', got {obs!r}")
        if not isinstance(seat, str) or seat not in _SEAT_CHOICES:
            raise ValueError(f"seat must be 'rotate' or one of E, S, W, N; got {seat!r}")
        if match_hands is not None and seat != "rotate":
            raise ValueError(
                f"seat={seat!r} cannot hold in a match (match_hands={match_hands!r}): seats "
                "follow the game's rules there; leave seat at 'rotate'"
            )
        #: The game's name.
        self.game = game
        self.table = Table(
            game,
            planes=obs == "planes",
            match_hands=match_hands,
            rotate_seats=seat == "rotate",
            hints=hints,
            lookahead=lookahead,
        )
        spec = self.table.spec
        scale = 1.0 / spec.net_scale if reward_scale is None else reward_scale
        self.reward_rules = RewardRules(
            game,
            reward_scale=scale,
            illegal=illegal,
            illegal_reward=-spec.net_scale if illegal_reward is None else illegal_reward,
            shaping=shaping,
            shaping_gamma=shaping_gamma,
        )
        if opponents is None:
            opponents = spec.default_opponent
        specs = list(opponents) if isinstance(opponents, list | tuple) else [opponents] * 3
        if len(specs) != 3:
            raise ValueError(f"give one opponent or three, got {len(specs)}")
        self.opponents = [make_opponent(game, s) for s in specs]
        # the learner is the player sitting at a fixed seat (hands) or player 0 (rotation)
        self.me = 0 if seat == "rotate" or match_hands is not None else _SEATS.index(seat)
        self.render_mode = check_render_mode(render_mode)
        self._human = render_mode == "human"  # printed at every reset and step
        # over arrays shared by every environment of the same shape (paiju.env.spaces)
        self.observation_space = box(self.table.obs_shape, np.float32)  # type: ignore[assignment]
        self.action_space: spaces.Discrete = discrete(spec.n_actions)  # type: ignore[assignment]
        self._rules = spec.rules
        self._rngs: list[random.Random] = []
        self._phi = 0.0
        self._ready = False
        self._started = False
        self._last_net = 0.0
        self._carry = 0.0

    @property
    def seat(self) -> str:
        """The learner's seat in the hand being played: E, S, W or N."""
        return _SEATS[self.table.seat_of[self.me]]

    def _bots_of(self) -> list[Any]:
        """The bot sitting at each seat (``None`` at the learner's)."""
        others = iter(self.opponents)
        by_player = [None if p == self.me else next(others) for p in range(4)]
        return [by_player[self.table.player_at[s]] for s in range(4)]

    def reset(
        self, *, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new episode and play the opponents up to the learner's first decision.

        >>> env = PaijuSingleEnv(registered()[0])
        >>> env.reset(seed=-1)
        Traceback (most recent call last):
        ...
        ValueError: seed must be 0 or more, got -1

        A hand that ends before the learner has a decision (in a game where another seat
        can win on the deal: ``docs/env.md`` §3) is not an episode: the next hand of
        the sequence is dealt, and the learner's reward in each such hand is in
        ``info["skipped"]`` (a list), so that an evaluation can count it. In a match
        (``match_hands``) a hand that ends before the learner's first decision is part of the
        episode: its reward comes with the first step's, so the episode's rewards sum to the
        learner's match score.

        Raises ``TypeError`` for a seed that is not an integer (a NumPy integer is taken)
        and ``ValueError`` for a negative one.
        """
        from paiju.bots.driver import check_seed

        start = None if seed is None else check_seed(seed)
        super().reset(seed=start)
        self.table.reset(start)
        skipped: list[float] = []
        while True:
            self._new_hand_rngs()
            self._phi = 0.0
            reward, done = self._advance()
            if not done:
                break
            # the hand ended before the learner had a decision (another seat won on the deal):
            # its reward is reported, not lost, and the next hand of the sequence is dealt
            skipped.append(reward)
            self.table.reset()
        self._carry = reward  # a match's hand that ended before the first decision
        self._ready = True
        self._started = True
        self._phi = self.reward_rules.potential(self.table, self.me)
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8)}
        if skipped:
            info["skipped"] = skipped
        if self._human:
            self.render()
        return self._obs(), info

    def _new_hand_rngs(self) -> None:
        from paiju.bots.driver import bot_rng

        seed = self.table.hand_seed
        self._rngs = [bot_rng(seed, s) for s in self._rules.seats]
        self._bots = self._bots_of()

    def _advance(self) -> tuple[float, bool]:
        """Let the opponents play until the learner must decide; its reward on the way."""
        table = self.table
        rules = self._rules
        reward = 0.0
        while True:
            deciders = table.deciders()
            if self.me in deciders:
                return reward, False
            p = deciders[0]
            seat_index = table.seat_of[p]
            seat = rules.seats[seat_index]
            bot = self._bots[seat_index]
            legal = rules.legal_actions(table.state, seat)
            view = rules.observe(table.state, seat) if getattr(bot, "needs_view", True) else None
            action = bot.act(view, legal, self._rngs[seat_index])
            index = self._opponent_index(action, bot, seat)
            try:
                nets = table.step(p, index)
            except ValueError:
                raise ValueError(
                    f"opponent {_name(bot)!r} at seat {seat} chose {action}, which is not legal "
                    "now: an opponent returns one of the legal actions it is given"
                ) from None
            if nets is not None:
                self._last_net = nets[self.me]
                reward += nets[self.me] * self.reward_rules.scale
                if not table.next_hand(nets):
                    return reward, True
                self._new_hand_rngs()

    def _opponent_index(self, action: Any, bot: Any, seat: Any) -> int:
        """The index of an opponent's action (an opponent returns one of the legal actions
        it was given: an action object, not an index)."""
        try:
            return int(self.table.spec.action_index(action))
        except Exception:
            raise TypeError(
                f"opponent {_name(bot)!r} at seat {seat} returned {action!r}: an opponent returns "
                "one of the legal actions it is given (an action object, not an index)"
            ) from None

    def step(
        self, action: int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play the learner's action, then the opponents' until its next decision.

        Raises ``TypeError`` for an action that is not an integer index (``int`` or a NumPy
        integer), ``RuntimeError`` before :meth:`reset` or after the end, and ``ValueError``
        for an index outside the action space (whatever ``illegal`` says) or an illegal
        action under ``illegal="raise"``.
        """
        if not self._ready:
            if not self._started:
                raise RuntimeError("call reset() before step()")
            raise RuntimeError("the episode is over: call reset() to play on")
        table = self.table
        rules = self.reward_rules
        index = action_in_space(action, table.spec.n_actions, "the learner")
        if index not in table.legal(self.me):
            if rules.illegal == "raise":
                raise ValueError(f"action {index} is not legal now")
            self._ready = False
            reward, self._carry = rules.illegal_rewards(0)[0] + self._carry, 0.0
            return self._obs(), reward, True, False, {"illegal_action": index}
        reward, self._carry = self._carry, 0.0
        nets = table.step(self.me, index)
        done = False
        if nets is not None:
            self._last_net = nets[self.me]
            reward += nets[self.me] * rules.scale
            if table.next_hand(nets):
                self._new_hand_rngs()
            else:
                done = True
        if not done:
            more, done = self._advance()
            reward += more
        if rules.shaping:
            phi = 0.0 if done else rules.potential(table, self.me)
            reward += (0.0 if done else rules.gamma * phi) - self._phi
            self._phi = phi
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8)}
        if done:
            self._ready = False
            info["score"] = table.scores[self.me]
            info["net"] = self._last_net  # the last hand's (the AEC environment's too)
        if self._human:
            self.render()
        return self._obs(), reward, done, False, info

    def _obs(self) -> npt.NDArray[np.float32]:
        obs: npt.NDArray[np.float32] = self.table.encode(
            self.me, np.empty(self.table.obs_shape, np.float32)
        )
        return obs

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions as a boolean mask (all False when it is over)."""
        mask = np.zeros(self.table.spec.n_actions, dtype=bool)
        legal = self.table.legal(self.me)
        if legal:
            mask[list(legal)] = True
        return mask

    def render(self) -> str | None:
        """The table as text (render_mode ``"ansi"``), or printed (``"human"``)."""
        return render_table(self.render_mode, self.table.state)
