"""The table behind every environment: one game, four players, a hand or a match.

A :class:`Table` deals hands from a seeded sequence, seats the four players (``player_0`` …
``player_3``), applies actions by index, keeps the observations up to date and reports each
hand's net. The AEC, parallel and single-agent environments are thin layers over it.

Seating: in a **hand** episode the players move one seat on with every hand of the seeded
sequence when ``rotate_seats`` is on (so ``player_0`` is not always East, the seat that
deals, which may pay and receive more than the others); in a **match** episode seats follow
the game's rules, its :class:`~paiju.games.Game`'s ``first_deal`` and ``next_deal`` (who
deals first, whether a dealer keeps the deal, whether players move; ``docs/env.md`` §5 says
each game's).

>>> t = Table(registered()[0])
>>> t.reset(seed=1)
>>> t.seat_of  # each player's seat (0–3: E S W N); seed 1: player_0 sits North
[3, 0, 1, 2]
>>> len(t.deciders()), len(t.legal(t.deciders()[0])) > 0  # one seat opens the hand
(1, True)
"""

from __future__ import annotations

import functools
import operator
import random
import secrets
from collections.abc import Sequence
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

from paiju.env.registry import GameSpec, registered, spec_of
from paiju.games import Deal, registration

__all__ = [
    "AGENTS",
    "RENDER_MODES",
    "GameSpec",
    "Table",
    "action_in_space",
    "action_of",
    "check_flag",
    "check_render_mode",
    "render_table",
    "spec_of",
]

AGENTS = ("player_0", "player_1", "player_2", "player_3")


def action_of(action: Any) -> int:
    """An action index as a Python ``int``: an ``int`` or a NumPy integer. A float, a string
    or a ``bool`` is a ``TypeError`` (``int(1.7)`` would silently play action 1).

    >>> import numpy as np
    >>> action_of(5), action_of(np.int64(5))
    (5, 5)
    >>> action_of(1.7)
    Traceback (most recent call last):
    ...
    TypeError: an action is an integer index (int or a NumPy integer), got 1.7 (float)
    """
    if action.__class__ is int:
        return int(action)
    if not isinstance(action, bool | np.bool_):
        try:
            return operator.index(action)
        except TypeError:
            pass
    raise TypeError(
        "an action is an integer index (int or a NumPy integer), "
        f"got {action!r} ({type(action).__name__})"
    )


def action_in_space(action: Any, n: int, who: str) -> int:
    """An action index that lies in the action space ``Discrete(n)``: an index outside it, or
    ``None`` from an agent that must act, is a mistake in the caller, not a move, and raises
    whatever the ``illegal`` option says (an index inside the space that the rules do not
    allow now is a move, handled as ``illegal`` says).

    >>> action_in_space(3, 128, "player_0")
    3
    >>> action_in_space(999, 128, "player_0")
    Traceback (most recent call last):
    ...
    ValueError: player_0's action 999 is outside the action space (0–127)
    >>> action_in_space(None, 128, "player_2")
    Traceback (most recent call last):
    ...
    ValueError: player_2 must act now: None is the action of an agent that is done

    Raises ``TypeError`` as :func:`action_of` does.
    """
    if action is None:
        raise ValueError(f"{who} must act now: None is the action of an agent that is done")
    index = action_of(action)
    if not 0 <= index < n:
        raise ValueError(f"{who}'s action {index} is outside the action space (0–{n - 1})")
    return index


RENDER_MODES = ("ansi", "human")


def check_render_mode(mode: str | None) -> str | None:
    """A render mode of the environments: ``None``, ``"ansi"`` (``render()`` returns the table
    as text) or ``"human"`` (``render()`` prints it).

    >>> check_render_mode("rgb_array")
    Traceback (most recent call last):
    ...
    ValueError: render_mode must be None, 'ansi' or 'human', got 'rgb_array'
    """
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {mode!r}")
    return mode


def render_table(mode: str | None, state: Any) -> str | None:
    """What ``render()`` gives in ``mode``: the state as text (``"ansi"``), printed
    (``"human"``, returning ``None``), or ``None`` (no mode, or before a reset).

    >>> render_table("ansi", None) is None
    True
    """
    if mode is None or state is None:
        return None
    text = str(state)
    if mode == "human":
        print(text)
        return None
    return text


def check_flag(value: Any, name: str) -> bool:
    """A keyword that must be ``True`` or ``False`` (``"no"`` would be true).

    >>> check_flag(False, "rotate_seats")
    False
    >>> check_flag("no", "rotate_seats")
    Traceback (most recent call last):
    ...
    TypeError: rotate_seats must be True or False, got 'no'
    """
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _only(game: str, flag: str, what: str) -> str:
    """The message for an extra the game lacks (or that planes lack)."""
    have = [n for n in registered() if getattr(spec_of(n), flag) is not None]
    titles = " and ".join(registration(n).title + "'s" for n in have) or "no game's"
    return f"{what} exist for {titles} flat observation only"


@functools.cache
def _alone(game: str) -> tuple[tuple[Any], ...]:
    """``((seat,), …)`` for each of the game's seats, one per game (every table shares it)."""
    return tuple((seat,) for seat in spec_of(game).rules.seats)


class Table:
    """A seeded sequence of hands (or matches) with four players (see the module docstring).

    ``match_hands``: ``None`` for one hand per episode, else the number of hands in a match.

    >>> t = Table(registered()[0], match_hands=4); t.reset(seed=2)
    >>> t.hand_no, t.hands_left
    (0, 3)
    """

    # slots, not a __dict__: a table is most of an environment's memory beside its encoder
    __slots__ = (
        "_acting", "_actions", "_alone", "_apply", "_apply_checked", "_deciding",
        "_hands_dealt", "_legal", "_legal_indices", "_nets", "_plain", "_played", "_rng",
        "_turn_legal", "deal", "encoder", "first", "first_legal", "hand_no", "hand_seed",
        "hints", "lookahead", "match_hands", "over", "player_at", "repeat", "rotate_seats",
        "rules", "ruleset", "scores", "seat_of", "spec", "state",
    )  # fmt: skip

    def __init__(
        self,
        game: str,
        *,
        planes: bool = False,
        match_hands: int | None = None,
        rotate_seats: bool = True,
        ruleset: Any = None,
        hints: bool = False,
        lookahead: bool = False,
    ) -> None:
        if match_hands is not None and (
            not isinstance(match_hands, int) or isinstance(match_hands, bool) or match_hands < 1
        ):
            raise ValueError(
                f"match_hands must be a whole number of hands ≥ 1, got {match_hands!r}"
            )
        self.spec = spec_of(game)
        rotate_seats = check_flag(rotate_seats, "rotate_seats")
        hints = check_flag(hints, "hints")
        lookahead = check_flag(lookahead, "lookahead")
        if hints and (self.spec.hints is None or planes):
            raise ValueError(_only(game, "hints", "hints"))
        if lookahead and (self.spec.lookahead is None or planes):
            raise ValueError(_only(game, "lookahead", "look-ahead features"))
        self.hints = hints
        self.lookahead = lookahead
        self.rules = self.spec.rules
        self.ruleset = ruleset if ruleset is not None else self.rules.default_ruleset()
        self.encoder = self.spec.encoder(planes=planes)
        self.match_hands = match_hands
        self.rotate_seats = rotate_seats
        engine = self.spec.engine
        self._acting = engine.acting
        self._apply: Any = engine.apply  # with checked=True where apply_checked
        self._legal_indices = self.spec.legal_indices
        self._actions = self.spec.actions
        self._nets = self.rules.nets
        self._turn_legal = self.spec.turn_legal
        self._apply_checked = self.spec.apply_checked
        # one seat to decide: the tuple of the engine's seats that ``_deciding`` holds
        self._alone = _alone(game)
        # the encoder's update from the action's index, where it has one
        self._played = getattr(self.encoder, "played", None)
        self._plain = not hints and not lookahead
        self._rng: random.Random | None = None  # none until seeded or first reset
        self._hands_dealt = 0
        self.state: Any = None
        self.seat_of = [0, 1, 2, 3]  # player -> seat index
        self.player_at = [0, 1, 2, 3]  # seat index -> player
        self.scores = [0.0] * 4  # match net of each player before this hand
        self.hand_no = 0
        self.repeat = 0
        self.hand_seed = 0
        self.over = True
        # the seats that must decide now (the engine's, in order), and the legal indices of
        # the others than the first, by player, when asked
        self._deciding: tuple[Any, ...] = ()
        self._legal: dict[int, Sequence[int]] = {}
        self.deal = Deal(0, (0, 1, 2, 3))
        self.first = 0  # the first player to decide now, and its legal indices
        self.first_legal: Sequence[int] = ()

    # --- dealing ----------------------------------------------------------------------------

    def reset(self, seed: SupportsIndex | None = None) -> None:
        """Start an episode: from ``seed`` when given, else the next of the seeded sequence.
        A table never seeded starts a sequence from fresh entropy (as Gymnasium and
        PettingZoo environments do), so unseeded tables deal different hands.

        With ``rotate_seats``, seed ``S`` starts the rotation at ``S mod 4``: ``player_0``
        sits East for seed 0, North for 1, West for 2 and South for 3, so a loop that reseeds
        every episode (``reset(seed=episode)``) rotates the seats as an unbroken sequence does.

        >>> t = Table(registered()[0]); t.reset(seed=5); a = t.hand_seed
        >>> t.reset(seed=5); t.hand_seed == a
        True
        >>> [(t.reset(seed=s), "ESWN"[t.seat_of[0]])[1] for s in range(5)]
        ['E', 'N', 'W', 'S', 'E']
        >>> t.reset(seed=-5)
        Traceback (most recent call last):
        ...
        ValueError: seed must be 0 or more, got -5

        Raises ``TypeError`` for a seed that is not an integer (a NumPy integer is taken)
        and ``ValueError`` for a negative one.
        """
        if seed is not None:
            from paiju.bots.driver import check_seed

            start = check_seed(seed)
            self._rng = random.Random(start)
            self._hands_dealt = start % 4  # where the rotation starts (see above)
        elif self._rng is None:
            self._rng = random.Random(secrets.randbits(63))
            self._hands_dealt = 0
        self.scores = [0.0] * 4
        self.hand_no = 0
        self.repeat = 0
        if self.match_hands is not None:
            self._seat(self.rules.first_deal(self._rng))  # the game's seating rules
        else:
            east = self._hands_dealt % 4 if self.rotate_seats else 0
            self._seat(Deal(0, ((east) % 4, (east + 1) % 4, (east + 2) % 4, (east + 3) % 4)))
        self._deal()

    def _seat(self, deal: Deal) -> None:
        self.deal = deal
        self.player_at = list(deal.seating)
        self.seat_of = [deal.seat_of(p) for p in range(4)]

    def _deal(self) -> None:
        assert self._rng is not None  # reset() made it
        self.hand_seed = self._rng.getrandbits(63)
        self._hands_dealt += 1
        self.state = self.rules.new_hand(self.ruleset, self.hand_seed, self.deal.setup)
        self.over = False
        self.encoder.reset(self.state)
        self._context()
        self._refresh()

    def _context(self) -> None:
        scale = self.spec.net_scale
        scores = [self.scores[self.player_at[seat]] / scale for seat in range(4)]
        self.encoder.set_context(scores, self.hand_no, self.hands_left, self.repeat)

    @property
    def hands_left(self) -> int:
        """Hands still to play after this one (0 in a hand episode)."""
        return 0 if self.match_hands is None else self.match_hands - self.hand_no - 1

    def _refresh(self) -> None:
        state = self.state
        turn_legal = self._turn_legal
        if turn_legal is not None:  # one seat at a time: its index and legal indices at once
            seat_index, legal = turn_legal(state)
            self.first_legal = legal
            if seat_index < 0:
                self._deciding = ()
            else:
                self._deciding = self._alone[seat_index]
                self.first = self.player_at[seat_index]
            return
        seats = self._acting(state)
        self._deciding = seats
        self._legal = {}
        if seats:
            seat = seats[0]
            self.first = self.player_at[seat.number - 1]
            self.first_legal = self._legal_indices(state, seat)
        else:
            self.first_legal = ()

    def _entry(self, player: int) -> Sequence[int] | None:
        """The player's legal indices; ``None`` when it has nothing to decide."""
        if player == self.first and self._deciding:
            return self.first_legal
        on = self._legal.get(player)
        if on is None:
            i = self.seat_of[player]
            seat = next((s for s in self._deciding if s.number - 1 == i), None)
            if seat is None:
                return None
            on = self._legal[player] = self._legal_indices(self.state, seat)
        return on

    # --- playing ----------------------------------------------------------------------------

    def deciders(self) -> list[int]:
        """The players who must decide now, in play order (several in a claim window).

        >>> t = Table(registered()[0]); t.reset(seed=1)
        >>> t.deciders() == [t.first], [p for p in range(4) if t.legal(p)] == t.deciders()
        (True, True)
        """
        player_at = self.player_at
        return [player_at[seat.number - 1] for seat in self._deciding]

    def legal(self, player: int) -> list[int]:
        """The indices of the player's legal actions (empty when it has nothing to decide).

        >>> t = Table(registered()[0]); t.reset(seed=1); p = t.deciders()[0]
        >>> all(0 <= i < t.spec.n_actions for i in t.legal(p)), t.legal((p + 1) % 4)
        (True, [])
        """
        on = self._entry(player)
        return [] if on is None else list(on)

    def legal_actions(self, player: int) -> tuple[Any, ...]:
        """The player's legal actions, in the order of :meth:`legal`.

        >>> t = Table(registered()[0]); t.reset(seed=1); p = t.deciders()[0]
        >>> [t.spec.action_index(a) for a in t.legal_actions(p)] == t.legal(p)
        True
        """
        actions = self._actions[self.seat_of[player]]
        return tuple([actions[i] for i in self.legal(player)])

    def step(self, player: int, index: int, *, checked: bool = False) -> list[float] | None:
        """Play the player's action with this index; each player's net when a hand ended.
        ``checked``: the caller has made sure that the index is legal for the player now.

        Raises ``KeyError`` when the player has nothing to decide and ``ValueError`` when the
        index is not legal for it now (the environments check first).
        """
        if not checked:
            on = self._entry(player)
            if on is None:
                raise KeyError(f"player {player} has nothing to decide now")
            if index not in on:
                raise ValueError(f"action {index} is not legal for player {player} now")
        seat = self.seat_of[player]
        before = self.state
        if self._apply_checked:  # the index is legal (checked above or by the caller)
            state, events = self._apply(before, self._actions[seat][index], checked=True)
        else:
            state, events = self._apply(before, self._actions[seat][index])
        self.state = state
        played = self._played
        if played is not None:
            played(seat, index, state, events)
        else:
            self.encoder.update(before, state, events)
        self._refresh()
        if self._deciding:
            return None
        nets = self._nets(state)
        return [nets[seat] for seat in self.seat_of]

    def next_hand(self, nets: list[float]) -> bool:
        """After a hand: add its nets and, in a match with hands left, deal the next one
        (seats moving as the rules say). False when the episode is over.
        """
        for p in range(4):
            self.scores[p] += nets[p]
        if self.hands_left <= 0:
            self.over = True
            return False
        deal = self.rules.next_deal(self.deal, self.state)
        same = deal.seating == self.deal.seating and deal.setup == self.deal.setup
        self.repeat = self.repeat + 1 if same else 0  # the dealer keeps the deal
        self._seat(deal)
        self.hand_no += 1
        self._deal()
        return True

    def encode(self, player: int, out: npt.NDArray[np.float32] | None = None) -> Any:
        """The player's observation (from its current seat), written whole into ``out`` (of
        :attr:`obs_shape`) when given, else the encoder's buffer for that seat, valid until
        the next call (copy it to keep it)."""
        seat = self.seat_of[player]
        if self._plain:
            return self.encoder.encode(self.state, seat, out)
        flat = self.encoder.encode(self.state, seat, None)
        parts = [flat]
        spec = self.spec
        if self.hints:
            assert spec.hints is not None  # checked when made
            parts.append(spec.hints(self.state, seat, self.legal(player)))
        if self.lookahead:
            assert spec.lookahead is not None
            if not self.legal(player):
                parts.append(np.zeros(spec.n_lookahead, dtype=np.float32))
            else:
                parts.append(spec.lookahead(self.state, seat))
        joined = np.concatenate(parts)
        if out is not None and out.shape == joined.shape:
            out[:] = joined
            return out
        return joined

    @property
    def obs_shape(self) -> tuple[int, ...]:
        """The shape of an observation (hints and look-ahead features included)."""
        shape: tuple[int, ...] = self.encoder.shape
        extra = self.spec.n_hints * self.hints + self.spec.n_lookahead * self.lookahead
        return (shape[0] + extra,) if extra else shape

    def global_state(self) -> npt.NDArray[np.float32]:
        """Everything, for a centralised critic: the four seats' observations in seat order
        (E S W N) followed by the tiles or cards not yet dealt out, by face.
        """
        shape = self.obs_shape
        parts = [
            self.encode(self.player_at[s], np.empty(shape, np.float32)).ravel() for s in range(4)
        ]
        parts.append(self.unseen())
        return np.concatenate(parts)

    def unseen(self) -> npt.NDArray[np.float32]:
        """Counts of what is not dealt out yet, by face (the game's ``unseen``: the tiles left
        in the wall, the cards left in the stock; ``n_unseen`` values, none for a game
        without it).

        >>> t = Table(registered()[0]); t.reset(seed=1)
        >>> t.unseen().shape == (t.spec.n_unseen,)
        True
        """
        unseen = self.spec.unseen
        if unseen is None:
            return np.zeros(0, dtype=np.float32)
        return unseen(self.state)

    def state_size(self) -> int:
        """The length of :meth:`global_state`."""
        per = int(np.prod(self.obs_shape))
        return 4 * per + self.spec.n_unseen
