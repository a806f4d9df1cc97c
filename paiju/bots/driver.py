"""One driver for every use: a hand, or a match of many hands with dealer rotation (§9).

A match seats four players; the first dealer is drawn with the match seed. The dealer keeps
the deal by winning (連莊); otherwise the player to the dealer's right (South) becomes East.
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
from paiju.mazhan.actions import Action
from paiju.mazhan.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand
from paiju.mazhan.seats import SEATS, Seat
from paiju.mazhan.views import observe

__all__ = ["HandRecord", "bot_rng", "iter_match", "play_hand", "play_match"]


def bot_rng(seed: int, seat: Seat) -> random.Random:
    """The chance a seat's bot uses in the hand with this seed.

    >>> bot_rng(5, Seat.S).random() == bot_rng(5, Seat.S).random()
    True
    """
    return random.Random(seed * 4 + seat.number - 1)


def play_hand(ruleset: Ruleset, bots: Sequence[Bot], seed: int) -> tuple[State, list[Action]]:
    """Play one hand with ``bots[i]`` in seat ``i`` (E S W N); the final state and actions.

    >>> from paiju.bots.simple import GreedyBot
    >>> state, actions = play_hand(Ruleset(), [GreedyBot()] * 4, seed=2)
    >>> state.phase.value, len(actions) > 0
    ('over', True)
    """
    state = new_hand(ruleset, seed)
    rngs = [bot_rng(seed, s) for s in SEATS]
    wants = [getattr(b, "needs_view", True) for b in bots]
    actions: list[Action] = []
    while state.phase is not Phase.OVER:
        seat = acting(state)[0]
        i = seat.number - 1
        legal = legal_actions_for(state, seat)
        view = observe(state, seat) if wants[i] else None
        action = bots[i].act(view, legal, rngs[i])
        state, _events = apply(state, action)
        actions.append(action)
    return state, actions


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand of a match as a game record: enough to replay it, and its result.

    ``players`` maps each seat to the player (0–3) sitting there.
    """

    game: str
    match_seed: int
    hand: int
    seed: int
    ruleset: dict[str, Any]
    players: dict[str, int]
    bots: dict[str, str]
    actions: list[str]
    result: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (one line of a ``.jsonl`` file).

        >>> from paiju.bots.simple import RandomBot
        >>> r = play_match(Ruleset(), [RandomBot()] * 4, seed=1, hands=1)[0]
        >>> sorted(r.to_json())
        ['actions', 'bots', 'game', 'hand', 'match_seed', 'players', 'result', 'ruleset', 'seed']
        """
        return {
            "game": self.game,
            "match_seed": self.match_seed,
            "hand": self.hand,
            "seed": self.seed,
            "ruleset": self.ruleset,
            "players": self.players,
            "bots": self.bots,
            "actions": self.actions,
            "result": self.result,
        }


def iter_match(
    ruleset: Ruleset, bots: Sequence[Bot], seed: int, hands: int
) -> Iterator[tuple[HandRecord, State]]:
    """Play ``hands`` hands, yielding each record with its final state as it finishes.

    ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.simple import RandomBot
    >>> len(list(iter_match(Ruleset(), [RandomBot()] * 4, seed=8, hands=2)))
    2
    """
    if len(bots) != 4:
        raise ValueError(f"a Mazhan match needs four bots, got {len(bots)}")
    rng = random.Random(seed)
    east = rng.randrange(4)  # the player who deals first
    for k in range(hands):
        hand_seed = rng.getrandbits(63)
        seated = [bots[(east + i) % 4] for i in range(4)]
        state, actions = play_hand(ruleset, seated, hand_seed)
        assert state.result is not None
        record = HandRecord(
            game="mazhan",
            match_seed=seed,
            hand=k,
            seed=hand_seed,
            ruleset=ruleset.to_json(),
            players={s.value: (east + i) % 4 for i, s in enumerate(SEATS)},
            bots={s.value: seated[i].name for i, s in enumerate(SEATS)},
            actions=[str(a) for a in actions],
            result=state.result.to_json(),
        )
        yield record, state
        if state.result.winner is not Seat.E:
            east = (east + 1) % 4


def play_match(
    ruleset: Ruleset, bots: Sequence[Bot], seed: int, hands: int = 1
) -> list[HandRecord]:
    """Play a match of ``hands`` hands; ``bots[p]`` is player ``p``'s bot.

    >>> from paiju.bots.simple import GreedyBot
    >>> r = play_match(Ruleset(), [GreedyBot()] * 4, seed=3, hands=2)
    >>> r == play_match(Ruleset(), [GreedyBot()] * 4, seed=3, hands=2)
    True
    """
    return [record for record, _ in iter_match(ruleset, bots, seed, hands)]
