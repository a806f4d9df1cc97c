"""The bots' pace at a table (:mod:`paiju.bots.think`): think times drawn from a log-normal
whose median grows with how hard a decision is, bounded inside the turn clock; how hard
a decision is, as a game judges it (Mazhan: :mod:`paiju.mazhan.bots.pace`) or by its
number of legal actions."""

from __future__ import annotations

import logging
import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

import pytest

from paiju.bots import registry, think
from paiju.bots.uniform import RandomBot
from paiju.games import game
from paiju.mazhan.actions import ActionKind
from paiju.mazhan.bots import pace
from paiju.mazhan.bots.strong import StrongBot
from paiju.mazhan.rules import Phase


def draws(hard: float, n: int = 4000, scale: float = 1.0, seed: int = 7) -> list[float]:
    rng = random.Random(seed)
    return [think.think_seconds(hard, scale, rng, turn=15) for _ in range(n)]


@pytest.mark.parametrize("hard", [0.0, 0.5, 1.0])
def test_the_median_grows_with_hardness_and_the_tail_is_log_normal(hard: float) -> None:
    times = sorted(draws(hard))
    median = think.EASIEST + (think.HARDEST - think.EASIEST) * hard
    assert times[len(times) // 2] == pytest.approx(median, rel=0.05)
    # log-normal with σ = SPREAD: P(t > 2 × median) = P(Z > ln 2 / σ), 8.3% at σ = 0.5
    beyond = sum(t > 2 * median for t in times) / len(times)
    want = 0.5 * math.erfc(math.log(2) / think.SPREAD / math.sqrt(2))
    assert abs(beyond - want) < 0.02
    logs = [math.log(t) for t in times if t < think.LONGEST]
    assert statistics.stdev(logs) == pytest.approx(think.SPREAD, rel=0.1)


def test_think_times_are_bounded_inside_the_turn_clock() -> None:
    assert max(draws(1.0, scale=1.2)) == think.LONGEST * 1.2  # 4.8 s: inside 15 / 3
    rng = random.Random(1)
    slow = [think.think_seconds(1.0, 10.0, rng, turn=6) for _ in range(500)]
    assert max(slow) == pytest.approx(6 * think.TURN_SHARE)
    assert min(draws(0.0, n=500)) > 0


def test_the_same_chance_gives_the_same_times_and_a_harder_choice_a_longer_one() -> None:
    assert draws(0.3, n=50) == draws(0.3, n=50)
    quick, slow = draws(0.2, n=200, seed=3), draws(0.9, n=200, seed=3)
    assert all(q < s or s == think.LONGEST for q, s in zip(quick, slow, strict=True))


@pytest.mark.parametrize(
    ("hard", "scale", "turn"), [(-0.1, 1.0, 15.0), (1.5, 1.0, 15.0), (0.5, -1.0, 15.0)]
)
def test_bad_arguments_are_refused(hard: float, scale: float, turn: float) -> None:
    with pytest.raises(ValueError, match=r"at least 0|is 0–1"):
        think.think_seconds(hard, scale, random.Random(1), turn)
    with pytest.raises(ValueError, match="at least one legal action"):
        think.by_count(0)


def _register(monkeypatch: pytest.MonkeyPatch, judge: registry.Hardness | None) -> str:
    """A game of one bot, ``toy``, judged by ``judge``."""
    entry = registry.GameBots(
        {"random": RandomBot}, {}, dict.fromkeys(registry.LEVELS, "random"), judge
    )
    monkeypatch.setitem(registry._REGISTRY, "toy", entry)
    return "toy"


def test_a_game_without_a_judgement_is_judged_by_its_number_of_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    toy = _register(monkeypatch, None)
    assert think.hardness(toy, None, ["a"]) == 0.0
    assert think.hardness(toy, None, list("ab")) == pytest.approx(0.25)
    assert think.hardness(toy, None, list("abcd")) == pytest.approx(0.5)
    assert think.hardness(toy, None, [str(i) for i in range(40)]) == 1.0


def test_a_games_judgement_is_clamped_and_a_failing_one_stops_nothing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    answers: list[Any] = [3.0, -1.0, math.nan]

    def judge(view: Any, legal: Sequence[Any]) -> float:
        if not answers:
            raise RuntimeError("a defect")
        return float(answers.pop(0))

    toy = _register(monkeypatch, judge)
    assert [think.hardness(toy, None, "ab") for _ in range(3)] == [1.0, 0.0, 0.5]
    with caplog.at_level(logging.ERROR, logger="paiju.bots"):
        assert think.hardness(toy, None, "ab") == 0.5
    assert "hardness failed" in caplog.text
    assert think.hardness(toy, None, "a") == 0.0  # one choice: not even asked


def test_mazhan_judges_a_drawn_tile_thrown_as_nothing_to_weigh() -> None:
    """Over some hands of ``strong``: each decision on the seat's turn is judged 0–1; with
    one choice 0, with a win on offer :data:`pace.WIN`; a choice among several judged 0
    is always the drawn tile thrown (and ``strong`` throws it), and such decisions, clear
    ones and close ones all happen."""
    g = game("mazhan")
    bot = StrongBot()
    judged: list[float] = []
    thrown = 0
    for seed in range(12):
        state = g.new_hand(g.default_ruleset(), seed, {})
        rng = random.Random(seed)
        while not g.is_over(state):
            seat = g.acting(state)[0]
            legal = g.legal_actions(state, seat)
            view = g.observe(state, seat)
            action = bot.act(view, legal, rng)
            h = pace.hardness(view, legal)
            assert 0.0 <= h <= 1.0
            if len(legal) == 1:
                assert h == 0.0
            elif any(a.kind in (ActionKind.HU, ActionKind.SHAZHU) for a in legal):
                assert h == pace.WIN
            elif view.phase is Phase.ACT:
                judged.append(h)
                if h == 0.0:
                    assert action.kind is ActionKind.DISCARD and action.tile == view.drawn
                    thrown += 1
            state, _ = g.apply(state, action)
    assert thrown > 10
    assert sum(h == pace.CLEAR for h in judged) > 10 and sum(h > 0.7 for h in judged) > 10
    assert game("mazhan").name in registry.registered()
    assert registry.bots_of("mazhan").hardness is pace.hardness
