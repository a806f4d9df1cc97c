"""paiju.bots.uniform: the random bot chooses what ``rng.randrange`` would, from any
generator, and refuses an empty choice as ``randrange`` does."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.bots.uniform import RandomBot


@given(st.integers(0, 2**64), st.integers(1, 70))
def test_its_choices_are_randranges_draws(seed: int, n: int) -> None:
    legal = list(range(n))
    mine, theirs = random.Random(seed), random.Random(seed)
    picks = [RandomBot().act(None, legal, mine) for _ in range(20)]
    assert picks == [theirs.randrange(n) for _ in range(20)]
    assert mine.random() == theirs.random()  # the generator left where randrange leaves it


class _Counting(random.Random):
    """A generator of another kind: the bot must go through its ``randrange``."""

    calls = 0

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        self.calls += 1
        return super().randrange(*args)


def test_another_generator_is_asked_through_its_randrange() -> None:
    rng = _Counting(4)
    assert RandomBot().act(None, "abc", rng) in "abc" and rng.calls == 1


def test_no_legal_action_is_an_error_not_a_choice() -> None:
    with pytest.raises(ValueError, match="empty range"):
        RandomBot().act(None, [], random.Random(1))
