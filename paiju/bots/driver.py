"""One driver for every game and use: a hand, or a match of many hands, through the
:class:`~paiju.games.Game` protocol (the match level — who deals, who banks — is the game's
:meth:`~paiju.games.Game.first_deal` and :meth:`~paiju.games.Game.next_deal`).

Every hand gets its own seed from the match seed, and each seat's bot its own
``random.Random``, so a match is the same every time it is played.

>>> from paiju.bots.uniform import RandomBot
>>> from paiju.games import game, names
>>> g = game(names()[0])
>>> records = play_match(g.default_ruleset(), [RandomBot()] * 4, seed=1, hands=3)
>>> [r.hand for r in records], records[0].game == g.name
([0, 1, 2], True)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, SupportsIndex

from paiju.bots.base import Bot
from paiju.games import Game, game_of
from paiju.games.adapter import RulesGame
from paiju.games.records import RECORD_FORMAT, HandRecord  # the record, beside the protocol

__all__ = [
    "RECORD_FORMAT",
    "HandRecord",
    "bot_rng",
    "check_seed",
    "iter_match",
    "play_hand",
    "play_match",
    "run_hand",
]


def check_seed(seed: Any, what: str = "seed") -> int:
    """A seed as a Python ``int``, checked: a whole number ≥ 0 (a NumPy integer is
    converted). ``random.Random`` ignores a seed's sign, so a negative seed would silently
    repeat its positive twin; it is refused instead.

    >>> import numpy as np
    >>> check_seed(7), check_seed(np.int64(7))
    (7, 7)
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be 0 or more, got -1
    >>> check_seed(1.5)
    Traceback (most recent call last):
    ...
    TypeError: seed must be a whole number (an int), got 1.5

    Raises ``TypeError`` for anything but an integer (a ``bool``, a float or a string too)
    and ``ValueError`` for a negative one; ``what`` names the seed in the message.
    """
    if isinstance(seed, bool):
        raise TypeError(f"{what} must be a whole number (an int), got {seed!r}")
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"{what} must be a whole number (an int), got {seed!r}") from None
    if value < 0:
        raise ValueError(f"{what} must be 0 or more, got {value}")
    return value


def bot_rng(seed: int, seat: Any) -> random.Random:
    """The chance a seat's bot uses in the hand with this seed.

    >>> from paiju.games import game, names
    >>> south = game(names()[0]).seats[1]
    >>> bot_rng(5, south).random() == bot_rng(5, south).random()
    True
    """
    return random.Random(seed * 4 + seat.number - 1)


def run_hand(
    g: Game[Any, Any, Any, Any], state: Any, bots: Sequence[Bot], seed: SupportsIndex
) -> tuple[Any, list[Any]]:
    """Play ``state`` to its end with ``bots[i]`` in seat ``i``; the final state and actions.

    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game, names
    >>> g = game(names()[-1])
    >>> start = g.new_hand(g.default_ruleset(), 4, g.first_deal(random.Random(4)).setup)
    >>> state, actions = run_hand(g, start, [RandomBot()] * 4, 4)
    >>> g.is_over(state), len(actions) > 0
    (True, True)
    """
    hand_seed = check_seed(seed)
    rngs = [bot_rng(hand_seed, s) for s in g.seats]
    wants = [getattr(b, "needs_view", True) for b in bots]
    acts = [b.act for b in bots]
    actions: list[Any] = []
    if isinstance(g, RulesGame) and _forwards(type(g)):
        # the rules module's own functions, not the adapter's forwarding methods: the same
        # calls, one layer fewer per action (this loop is what simulations spend)
        rules = g.rules
        acting, legal_for, step = rules.acting, rules.legal_actions_for, rules.apply
        observe, over = type(g).viewer, rules.Phase.OVER
        while state.phase is not over:
            seat = acting(state)[0]
            i = seat.number - 1
            legal = legal_for(state, seat)
            action = acts[i](observe(state, seat) if wants[i] else None, legal, rngs[i])
            state, _events = step(state, action)
            actions.append(action)
        return state, actions
    while not g.is_over(state):
        seat = g.acting(state)[0]
        i = seat.number - 1
        legal = g.legal_actions(state, seat)
        view = g.observe(state, seat) if wants[i] else None
        action = acts[i](view, legal, rngs[i])
        state, _events = g.apply(state, action)
        actions.append(action)
    return state, actions


def _forwards(cls: type) -> bool:
    """True when a :class:`RulesGame` keeps the hand-level methods it inherits (so that its
    rules module's functions may be called directly)."""
    return all(
        getattr(cls, name) is getattr(RulesGame, name)
        for name in ("acting", "legal_actions", "apply", "observe", "is_over")
    )


def play_hand(
    ruleset: Any,
    bots: Sequence[Bot],
    seed: SupportsIndex,
    setup: Mapping[str, Any] | None = None,
) -> tuple[Any, list[Any]]:
    """Play one hand of the ruleset's game with ``bots[i]`` in seat ``i``.

    >>> from paiju.bots.base import make_bot
    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> bots = [make_bot(g.name, g.default_bot) for _ in range(4)]
    >>> state, actions = play_hand(g.default_ruleset(), bots, seed=2)
    >>> g.is_over(state), len(actions) > 0
    (True, True)

    Raises ``TypeError`` or ``ValueError`` for a seed that is not a whole number ≥ 0
    (:func:`check_seed`).
    """
    hand_seed = check_seed(seed)
    g = game_of(ruleset)
    return run_hand(g, g.new_hand(ruleset, hand_seed, setup or {}), bots, hand_seed)


def iter_match(
    ruleset: Any, bots: Sequence[Bot], seed: SupportsIndex, hands: int
) -> Iterator[tuple[HandRecord, Any]]:
    """Play ``hands`` hands, yielding each record with its final state as it finishes;
    ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.uniform import RandomBot
    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> [r.hand for r, _ in iter_match(g.default_ruleset(), [RandomBot()] * 4, 8, 3)]
    [0, 1, 2]

    Raises ``ValueError`` unless there are four bots, and ``TypeError`` or ``ValueError`` for
    a seed that is not a whole number ≥ 0 (:func:`check_seed`), when the first hand is asked
    for.
    """
    match_seed = check_seed(seed)
    g = game_of(ruleset)
    if len(bots) != 4:
        raise ValueError(f"a {g.name} match needs four bots, got {len(bots)}")
    rng = random.Random(match_seed)
    deal = g.first_deal(rng)
    for _ in range(hands):
        hand_seed = rng.getrandbits(63)
        seated = [bots[deal.player_in(i)] for i in range(4)]
        start = g.new_hand(ruleset, hand_seed, deal.setup)
        state, actions = run_hand(g, start, seated, hand_seed)
        record = HandRecord(
            game=g.name,
            match_seed=match_seed,
            hand=deal.hand,
            seed=hand_seed,
            ruleset=ruleset.to_json(),
            setup=g.setup_of(start),
            players={s.value: deal.player_in(i) for i, s in enumerate(g.seats)},
            bots={s.value: seated[i].name for i, s in enumerate(g.seats)},
            actions=[str(a) for a in actions],
            result=g.result_json(state),
            chance=g.chance_of(start),
        )
        yield record, state
        deal = g.next_deal(deal, state)


def play_match(
    ruleset: Any, bots: Sequence[Bot], seed: SupportsIndex, hands: int = 1
) -> list[HandRecord]:
    """Play a match of ``hands`` hands; ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.base import make_bot
    >>> from paiju.games import game, names
    >>> g = game(names()[0])
    >>> bots = [make_bot(g.name, g.default_bot) for _ in range(4)]
    >>> r = play_match(g.default_ruleset(), bots, seed=3, hands=2)
    >>> r == play_match(g.default_ruleset(), bots, seed=3, hands=2)
    True
    >>> play_match(g.default_ruleset(), bots, seed=-3)
    Traceback (most recent call last):
    ...
    ValueError: seed must be 0 or more, got -3

    Raises ``TypeError`` or ``ValueError`` for a seed that is not a whole number ≥ 0
    (:func:`check_seed`), and ``ValueError`` unless there are four bots.
    """
    return [record for record, _ in iter_match(ruleset, bots, check_seed(seed), hands)]
