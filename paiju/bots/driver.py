"""One driver for every game and use: a hand, or a match of many hands.

- **Mazhan** (§9): the first dealer is drawn with the match seed; the dealer keeps the deal by
  winning (連莊), otherwise the player to the dealer's right (South) becomes East, and the
  seat winds move with the players.
- **Ma Diao** (§2): the players sit in random seats (drawn with the match seed); the first
  banker comes from the first hand's 面張; after each hand the bank passes to the next seat.

Every hand gets its own seed from the match seed, and each seat's bot its own
``random.Random``, so a match is the same every time it is played.

>>> from paiju.bots.simple import RandomBot
>>> from paiju.mazhan.rules import Ruleset
>>> records = play_match(Ruleset(), [RandomBot()] * 4, seed=1, hands=3)
>>> [r.hand for r in records], records[0].game
([0, 1, 2], 'mazhan')
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.bots.base import Bot
from paiju.games import GameRules, game_of, rules_of

__all__ = ["HandRecord", "bot_rng", "iter_match", "play_hand", "play_match", "run_hand"]


def bot_rng(seed: int, seat: Any) -> random.Random:
    """The chance a seat's bot uses in the hand with this seed.

    >>> from paiju.mazhan.seats import Seat
    >>> bot_rng(5, Seat.S).random() == bot_rng(5, Seat.S).random()
    True
    """
    return random.Random(seed * 4 + seat.number - 1)


def run_hand(rules: GameRules, state: Any, bots: Sequence[Bot], seed: int) -> tuple[Any, list[Any]]:
    """Play ``state`` to its end with ``bots[i]`` in seat ``i``; the final state and actions.

    >>> from paiju.bots.simple import RandomBot
    >>> from paiju.madiao.rules import Ruleset, new_hand
    >>> state, actions = run_hand(rules_of("madiao"), new_hand(Ruleset(), 4), [RandomBot()] * 4, 4)
    >>> len(actions)
    32
    """
    rngs = [bot_rng(seed, s) for s in rules.seats]
    wants = [getattr(b, "needs_view", True) for b in bots]
    actions: list[Any] = []
    while state.phase.value != "over":
        seat = rules.acting(state)[0]
        i = seat.number - 1
        legal = rules.legal_actions_for(state, seat)
        view = rules.observe(state, seat) if wants[i] else None
        action = bots[i].act(view, legal, rngs[i])
        state, _events = rules.apply(state, action)
        actions.append(action)
    return state, actions


def play_hand(ruleset: Any, bots: Sequence[Bot], seed: int, **setup: Any) -> tuple[Any, list[Any]]:
    """Play one hand of the ruleset's game with ``bots[i]`` in seat ``i``.

    >>> from paiju.bots.simple import GreedyBot
    >>> from paiju.mazhan.rules import Ruleset
    >>> state, actions = play_hand(Ruleset(), [GreedyBot()] * 4, seed=2)
    >>> state.phase.value, len(actions) > 0
    ('over', True)
    """
    rules = rules_of(game_of(ruleset))
    return run_hand(rules, rules.new_hand(ruleset, seed, **setup), bots, seed)


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a match as a game record: enough to replay it, and its result.

    ``players`` maps each seat to the player (0–3) sitting there; ``setup`` holds what the
    hand needs besides its seed (Ma Diao: the banker).
    """

    game: str
    match_seed: int
    hand: int
    seed: int
    ruleset: dict[str, Any]
    setup: dict[str, Any]
    players: dict[str, int]
    bots: dict[str, str]
    actions: list[str]
    result: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (one line of a ``.jsonl`` file).

        >>> from paiju.bots.simple import RandomBot
        >>> from paiju.mazhan.rules import Ruleset
        >>> r = play_match(Ruleset(), [RandomBot()] * 4, seed=1, hands=1)[0]
        >>> sorted(r.to_json())[:5]
        ['actions', 'bots', 'game', 'hand', 'match_seed']
        """
        out: dict[str, Any] = {
            "game": self.game,
            "match_seed": self.match_seed,
            "hand": self.hand,
            "seed": self.seed,
            "ruleset": self.ruleset,
        }
        out.update(self.setup)
        out.update(players=self.players, bots=self.bots, actions=self.actions, result=self.result)
        return out


def iter_match(
    ruleset: Any, bots: Sequence[Bot], seed: int, hands: int
) -> Iterator[tuple[HandRecord, Any]]:
    """Play ``hands`` hands, yielding each record with its final state as it finishes;
    ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.simple import RandomBot
    >>> from paiju.madiao.rules import Ruleset
    >>> [r.setup["banker"] for r, _ in iter_match(Ruleset(), [RandomBot()] * 4, 8, 3)]
    ['E', 'S', 'W']

    Raises ``ValueError`` unless there are four bots.
    """
    game = game_of(ruleset)
    rules = rules_of(game)
    if len(bots) != 4:
        raise ValueError(f"a {game} match needs four bots, got {len(bots)}")
    rng = random.Random(seed)
    seats = rules.seats
    if game == "mazhan":
        east = rng.randrange(4)  # the player who deals first
        for k in range(hands):
            hand_seed = rng.getrandbits(63)
            seated = [(east + i) % 4 for i in range(4)]
            record, state = _record(
                rules, ruleset, [bots[p] for p in seated], seed, k, hand_seed, seated, {}
            )
            yield record, state
            if state.result.winner is not seats[0]:
                east = (east + 1) % 4
    else:
        seated = list(range(4))
        rng.shuffle(seated)  # CHOICE: random seats
        banker = None
        for k in range(hands):
            hand_seed = rng.getrandbits(63)
            state0 = rules.new_hand(ruleset, hand_seed, banker=banker)
            banker = seats[state0.banker]
            record, state = _record(
                rules,
                ruleset,
                [bots[p] for p in seated],
                seed,
                k,
                hand_seed,
                seated,
                {"banker": banker.value},
            )
            yield record, state
            banker = banker.next


def _record(
    rules: GameRules,
    ruleset: Any,
    seated_bots: list[Bot],
    match_seed: int,
    k: int,
    hand_seed: int,
    seated: list[int],
    setup: dict[str, Any],
) -> tuple[HandRecord, Any]:
    kwargs = {"banker": rules.seats["ESWN".index(setup["banker"])]} if setup else {}
    state, actions = run_hand(
        rules, rules.new_hand(ruleset, hand_seed, **kwargs), seated_bots, hand_seed
    )
    record = HandRecord(
        game=rules.name,
        match_seed=match_seed,
        hand=k,
        seed=hand_seed,
        ruleset=ruleset.to_json(),
        setup=setup,
        players={s.value: seated[i] for i, s in enumerate(rules.seats)},
        bots={s.value: seated_bots[i].name for i, s in enumerate(rules.seats)},
        actions=[str(a) for a in actions],
        result=state.result.to_json(),
    )
    return record, state


def play_match(ruleset: Any, bots: Sequence[Bot], seed: int, hands: int = 1) -> list[HandRecord]:
    """Play a match of ``hands`` hands; ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.simple import GreedyBot
    >>> from paiju.mazhan.rules import Ruleset
    >>> r = play_match(Ruleset(), [GreedyBot()] * 4, seed=3, hands=2)
    >>> r == play_match(Ruleset(), [GreedyBot()] * 4, seed=3, hands=2)
    True
    """
    return [record for record, _ in iter_match(ruleset, bots, seed, hands)]
