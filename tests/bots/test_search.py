"""The search bots: reproducible under a node budget, within a time budget, view-only."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from paiju.arena import arena, difference_lines
from paiju.bots.base import make_bot
from paiju.madiao import rules as md
from paiju.madiao.bots.heuristic import ExpertMadiaoBot, HeuristicBot, sample_madiao_world
from paiju.madiao.seats import Seat as MdSeat
from paiju.madiao.views import observe as md_observe
from paiju.mazhan.actions import ActionKind
from paiju.mazhan.bots.expert import ExpertBot, rate_with_value
from paiju.mazhan.bots.greedy import GreedyBot
from paiju.mazhan.bots.strong import rank_actions
from paiju.mazhan.rules import Phase, Ruleset, acting, apply, new_hand
from paiju.mazhan.seats import Seat
from paiju.mazhan.views import View, observe
from paiju.server.rooms import LEVELS, bot_display_name, bot_for
from paiju.stats import paired_difference


class FakeClock:
    """A clock that moves ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_the_expert_is_reproducible_under_a_node_budget() -> None:
    view = observe(new_hand(Ruleset(), seed=21), Seat.E)
    a = ExpertBot(nodes=600)
    b = ExpertBot(nodes=600)
    assert a.act(view, view.legal, random.Random(5)) == b.act(view, view.legal, random.Random(5))
    assert a.stats.searched == 1 and a.stats.nodes >= 600 and a.stats.worlds >= 2


def test_the_expert_stops_at_its_time_budget() -> None:
    view = observe(new_hand(Ruleset(), seed=21), Seat.E)
    clock = FakeClock(0.01)  # every reading 10 ms later: a world never seems free
    bot = ExpertBot(nodes=None, seconds=0.2, clock=clock)
    action = bot.act(view, view.legal, random.Random(1))
    assert action in view.legal
    assert clock.now <= 0.2 + 0.05  # stopped before the budget, not after a long overrun
    assert bot.stats.nodes > 0


def test_budgets_are_checked() -> None:
    with pytest.raises(ValueError, match="node budget or a time budget"):
        ExpertBot(nodes=None)
    with pytest.raises(ValueError, match="positive"):
        ExpertBot(nodes=0)
    with pytest.raises(ValueError, match="1–60000 milliseconds"):
        make_bot("mazhan", "expert@fast")
    with pytest.raises(ValueError, match="takes no time budget"):
        make_bot("madiao", "heuristic@100ms")
    assert make_bot("madiao", "expert@150ms").seconds == 0.15  # type: ignore[attr-defined]


def _chow_windows(seeds: range) -> Iterator[tuple[View, Seat]]:
    """Every claim window of greedy hands on these seeds where a seat may chow: its view."""
    for seed in seeds:
        state = new_hand(Ruleset(), seed)
        rng = random.Random(seed)
        while state.phase is not Phase.OVER:
            for seat in acting(state):
                view = observe(state, seat)
                if any(a.kind is ActionKind.CHI for a in view.legal):
                    yield view, seat
            seat = acting(state)[0]
            view = observe(state, seat)
            state, _ = apply(state, GreedyBot().act(view, view.legal, rng))


def test_a_chow_cost_lowers_only_the_chows() -> None:
    windows = list(_chow_windows(range(6)))
    assert len(windows) > 5
    for view, _ in windows:
        plain = {a: u for u, a in rank_actions(view, view.legal, 0.0)}
        costly = {a: u for u, a in rank_actions(view, view.legal, 0.0, chow=60.0)}
        for a, u in plain.items():
            expected = u - 60.0 if a.kind is ActionKind.CHI else u
            assert costly[a] == pytest.approx(expected)


def test_the_pair_weight_only_adds_acceptance() -> None:
    for seed in range(5):
        view = observe(new_hand(Ruleset(), seed=seed), Seat.E)
        plain = {a: u for u, a in rank_actions(view, view.legal)}
        assert plain == {a: u for u, a in rank_actions(view, view.legal, pairs=1.0)}
        doubled = {a: u for u, a in rank_actions(view, view.legal, pairs=2.0)}
        assert all(doubled[a] >= u for a, u in plain.items())
        assert any(doubled[a] > u for a, u in plain.items())


def test_claim_windows_are_decided_by_the_rating_not_the_rollouts() -> None:
    for k, (view, _) in enumerate(_chow_windows(range(4))):
        if any(a.kind.value == "hu" for a in view.legal):
            continue
        bot = ExpertBot(nodes=300)
        choice = bot.act(view, view.legal, random.Random(k))
        assert bot.stats.searched == 0
        ranked = rate_with_value(
            view,
            view.legal,
            bot.per_doubling,
            bot.danger,
            bot.chow,
            bot.pairs,
            bot.two_step,
            bot.loser,
        )
        assert choice == ranked[0][1]
        searching = ExpertBot(nodes=300, search_claims=True)
        assert searching.act(view, view.legal, random.Random(k)) in view.legal


def _madiao_decisions(seed: int) -> Iterator[tuple[md.State, MdSeat]]:
    state = md.new_hand(md.Ruleset(), seed)
    rng = random.Random(seed)
    while state.phase is not md.Phase.OVER:
        seat = md.acting(state)[0]
        yield state, seat
        view = md_observe(state, seat)
        state, _ = md.apply(state, HeuristicBot().act(view, view.legal, rng))


def test_madiao_worlds_hold_the_forty_cards_and_the_same_plays() -> None:
    for seed in range(6):
        for k, (state, seat) in enumerate(_madiao_decisions(seed)):
            view = md_observe(state, seat)
            world = sample_madiao_world(view, random.Random(k))
            cards = [c for h in world.hands for c in h] + list(world.stock)
            cards += [c for t in world.table for c in t] + world.out_up + world.out_down
            cards += [c for _s, c, _up in world.trick]
            assert sorted(cards) == list(range(40))
            assert md.legal_actions_for(world, seat) == view.legal
            assert md_observe(world, seat).hand == view.hand
            assert world.mian == view.mian


def test_the_madiao_expert_reads_only_its_view() -> None:
    """Two other seats swap a card they hold: nothing this seat may see changes, nor its play."""
    state, seat = list(_madiao_decisions(7))[9]
    me = seat.number - 1
    a, b = [k for k in range(4) if k != me and state.hands[k]][:2]
    other = state.copy()
    x = next(c for c in other.hands[a] if c != 8)  # not 百老: who was dealt it is settled
    y = next(c for c in other.hands[b] if c != 8)
    other.hands[a] = sorted([*(c for c in other.hands[a] if c != x), y])
    other.hands[b] = sorted([*(c for c in other.hands[b] if c != y), x])
    assert other.hands != state.hands
    view, again = md_observe(state, seat), md_observe(other, seat)
    assert again == view
    bot = ExpertMadiaoBot(worlds=4)
    assert bot.act(view, view.legal, random.Random(3)) == bot.act(
        again, again.legal, random.Random(3)
    )


def test_levels_pick_the_bots_and_name_them() -> None:
    assert [bot_for("mazhan", lv) for lv in ("easy", "normal", "hard")] == [
        "greedy",
        "strong",
        "expert@200ms",
    ]
    assert bot_for("madiao", "hard") == "expert@200ms"
    for game, levels in LEVELS.items():
        for bot in levels.values():
            make_bot(game, bot)  # every level's bot exists
    assert bot_display_name("秋月", "easy") == "秋月（初級）"
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        bot_for("mazhan", "expert")


def test_arena_pairs_follow_the_order_the_bots_are_named() -> None:
    r = arena("madiao", 16, 4, ["random", "heuristic", "heuristic", "heuristic"])
    assert list(r["differences"]) == ["random - heuristic"]
    line = difference_lines(r)[0]
    assert line.startswith("random − heuristic = ") and line.endswith("注/hand")


def test_paired_differences_cancel_the_deal() -> None:
    luck = [100.0, -250.0, 40.0, 0.0, 310.0]
    d = paired_difference([x + 3 for x in luck], luck)
    assert d.mean == pytest.approx(3.0) and d.half_width == pytest.approx(0.0)


@pytest.mark.soak
@pytest.mark.timeout(7200)  # a long run by design (about 15 minutes on one core)
def test_soak_expert_against_strong() -> None:
    """The expert is ahead of strong over 2,000 hands (+4.35 [−8.70, +17.39] measured on
    this seed by its first version; the second measured +13.15 [−0.30, +26.61] and +4.24
    [−10.40, +18.88] on seeds 7001 and 8117). Issue 18 asks for the interval above 0 and
    +20; not reached yet, so this guards the mean only."""
    r = arena("mazhan", 2000, 2027, ["expert", "strong", "strong", "strong"])
    d = r["differences"]["expert - strong"]
    assert d["mean"] > 0


def test_the_arena_command_prints_the_paired_difference() -> None:
    import subprocess
    import sys
    from pathlib import Path

    command = [sys.executable, "-m", "paiju.cli", "arena", "madiao", "--games", "8"]
    command += ["--seed", "2", "--bots", "heuristic,random,random,random"]
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "heuristic − random = " in proc.stdout and "注/hand" in proc.stdout


def test_t_quantiles_match_the_tables() -> None:
    from paiju.stats import t_quantile

    # two-sided 95% points of Student's t (any statistics table)
    for df, t in ((1, 12.706), (5, 2.571), (22, 2.074), (40, 2.021), (60, 2.000), (120, 1.980)):
        assert t_quantile(df) == pytest.approx(t, abs=0.002)


def test_the_loser_weight_favours_keeping_a_triplet() -> None:
    for seed in (15, 23):  # East is dealt a natural triplet
        view = observe(new_hand(Ruleset(), seed=seed), Seat.E)
        plain = {a: u for u, a in rate_with_value(view, view.legal)}
        weighed = {a: u for u, a in rate_with_value(view, view.legal, loser=1.0)}
        counts = view.hand_counts
        triplet = [a for a in plain if a.tile is not None and counts[a.tile.index] == 3]
        assert triplet and view.wild not in [a.tile for a in triplet]
        # U never falls by keeping more, and breaking the triplet gains the least (here
        # the same: the bonus tile and the triplet round to 10 as the bonus tile alone)
        gains = {a: weighed[a] - u for a, u in plain.items()}
        assert all(g >= 0 for g in gains.values())
        assert all(gains[a] <= min(gains.values()) for a in triplet)


def test_the_rating_with_nothing_added_is_strongs() -> None:
    for view, _ in _chow_windows(range(3)):
        ours = rate_with_value(view, view.legal, 0.0, loser=0.0)
        theirs = rank_actions(view, view.legal, 1.0, chow=60.0, pairs=2.0)
        assert [a for _, a in ours] == [a for _, a in theirs]
        assert [u for u, _ in ours] == pytest.approx([u for u, _ in theirs])
    for seed in range(4):
        view = observe(new_hand(Ruleset(), seed=seed), Seat.S if seed % 2 else Seat.E)
        if view.phase is Phase.ACT and view.my_turn:
            ours = rate_with_value(view, view.legal, 0.0, loser=0.0)
            theirs = rank_actions(view, view.legal, 1.0, chow=60.0, pairs=2.0)
            assert [u for u, _ in ours] == pytest.approx([u for u, _ in theirs])
