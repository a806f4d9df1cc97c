"""The batch complete-hand check (paiju.mazhan.fast.batch) agrees with the engine's, on hands from
real play: every seat's tiles of every state of a few random hands, the wild tiles split
off as the engine splits them."""

from __future__ import annotations

import random

import numpy as np

from paiju.mazhan.fast.batch import is_complete_counts_batch
from paiju.mazhan.hand import is_complete_counts
from paiju.mazhan.rules import Phase, Ruleset, State, acting, apply, legal_actions_for, new_hand


def _states(seeds: range) -> list[State]:
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        s = new_hand(Ruleset(), seed)
        out.append(s)
        while s.phase is not Phase.OVER:
            legal = legal_actions_for(s, acting(s)[0])
            s, _ = apply(s, legal[rng.randrange(len(legal))])
            out.append(s)
    return out


def test_the_batch_check_agrees_with_the_engine_on_played_hands() -> None:
    checked = 0
    for s in _states(range(6)):
        hands = np.array(s.hands, dtype=np.uint8)
        wilds = hands[:, s.wild].copy()
        naturals = hands.copy()
        naturals[:, s.wild] = 0
        got = is_complete_counts_batch(naturals, wilds).tolist()
        assert got == [is_complete_counts(naturals[k].tolist(), int(wilds[k])) for k in range(4)]
        checked += 4
    assert checked > 100
