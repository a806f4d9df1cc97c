"""Hands simulated per second with random players, paiju against its peers, interleaved.

Every contender plays whole hands with uniformly random legal actions, in one process, in
alternating slices (:mod:`interleave`, five rounds by default), timed in the process's CPU
time (waiting for a core on a shared machine left out); each comparison is the ratio of the
two contenders' rates **in the same round**, reported as the median and the worst round.

Like for like, the headline compares the same API level with the same logging:

- ``paiju, bots API``: :func:`paiju.bots.driver.play_hand` with four
  :class:`~paiju.bots.uniform.RandomBot` (as shipped: it reads no view, so none is built),
  the settlement read at the end (validated and scored);
- ``paiju, bots API, view built``: the same with a random bot that asks for its seat's
  view (``observe``) at every decision, as riichienv builds an ``Observation`` for every
  player that must act;
- ``riichienv``: riichienv's Rust core, one kyoku per ``reset``, its Python ``RandomAgent``
  choosing from ``obs.legal_actions()``; **its mjai log off** (``skip_mjai_logging=True``:
  paiju keeps no log either, its events are dropped) for the headline, and on (its default)
  beside. A riichienv hand is scored in Rust when someone wins.

Beside them, not compared with a peer: paiju's engine loop (``acting``,
``legal_actions_for``, a random pick, ``apply``: below any bot API), RLCard's mahjong
(``env.run`` with its random agents: an agent API, compared), Ma Diao, and ``greedy``.

The games differ (Mazhan: 144 tiles, 17-tile hands, ★; riichi: 136 tiles, 14-tile hands),
so the hands cannot be the same; every contender plays a new deal in every hand (paiju's
seeds count up; riichienv's and RLCard's generators move on at each reset).

The ``strong`` bot is timed on its own (no peer): every decision of four strong bots over
``--strong-hands`` hands after warm-up hands on other deals, p50 and p99 per decision (with
the number of decisions, and so of samples beyond the p99), and hands per second.

    python benchmarks/simulate.py [--seconds 1] [--repeats 5] [--strong-hands 50] [--seed 1]
                                  [--json] [--write]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interleave import fmt_rate, fmt_ratio, machine, race, ratio_summary, write_section

from paiju.bots.driver import bot_rng, play_hand
from paiju.bots.uniform import RandomBot
from paiju.mazhan.bots.greedy import GreedyBot

Run = Callable[[float], float]


def paiju_loop(seed: int, read_result: bool = True) -> Run:
    """The Mazhan engine with random picks; hands per slice."""
    from paiju.mazhan.rules import Phase, Ruleset, acting, apply, legal_actions_for, new_hand

    rng = random.Random(seed)
    ruleset = Ruleset()
    over = Phase.OVER
    box = [seed]

    def run(seconds: float) -> float:
        hands = 0
        end = time.process_time() + seconds
        k = box[0]
        while time.process_time() < end:
            state = new_hand(ruleset, k)
            k += 1
            while state.phase is not over:
                legal = legal_actions_for(state, acting(state)[0])
                state, _ = apply(state, legal[rng.randrange(len(legal))])
            if read_result:
                assert state.result is not None
                state.result.settlement  # noqa: B018 (validated and scored here)
            hands += 1
        box[0] = k
        return hands

    return run


class ViewingRandomBot(RandomBot):
    """:class:`RandomBot` that is given its seat's view at every decision (and ignores it):
    the bot API's cost when the view is built, as riichienv builds its observations."""

    needs_view = True


def driver_loop(seed: int, bot: Any = None) -> Run:
    """:func:`~paiju.bots.driver.play_hand` with four bots (random by default)."""
    from paiju.mazhan.rules import Ruleset

    bots = [bot or RandomBot()] * 4
    ruleset = Ruleset()
    box = [seed]

    def run(seconds: float) -> float:
        hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state, _ = play_hand(ruleset, bots, box[0])
            box[0] += 1
            assert state.result is not None
            state.result.settlement  # noqa: B018
            hands += 1
        return hands

    return run


def madiao_loop(seed: int) -> Run:
    """Ma Diao's engine with random picks; hands per slice."""
    from paiju.madiao import rules

    rng = random.Random(seed)
    ruleset = rules.Ruleset()
    box = [seed]

    def run(seconds: float) -> float:
        hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = rules.new_hand(ruleset, box[0])
            box[0] += 1
            while state.phase.value != "over":
                legal = rules.legal_actions_for(state, rules.acting(state)[0])
                state, _ = rules.apply(state, legal[rng.randrange(len(legal))])
            hands += 1
        return hands

    return run


def riichienv_loop(seed: int, mjai_log: bool) -> Run | None:
    """riichienv's Rust core, one kyoku per ``reset``, its random agents."""
    try:
        import riichienv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    env = riichienv.RiichiEnv(seed=seed, skip_mjai_logging=not mjai_log)
    agents = [RandomAgent(seed=seed + i) for i in range(4)]

    def run(seconds: float) -> float:
        hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            obs = env.reset()
            while not env.done():
                obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
            hands += 1
        return hands

    return run


def rlcard_loop(seed: int) -> Run | None:
    """RLCard's mahjong with its random agents."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run(seconds: float) -> float:
        hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            env.run(is_training=False)
            hands += 1
        return hands

    return run


#: In the order they run in each round: the headline's two sides next to each other, as are
#: the views' row and its peer, so that the load a round's ratio sees is the same on both
#: sides (on a shared host the speed of both swings by a fifth from one second to the next).
CONTENDERS = (
    ("paiju_bots", "paiju Mazhan, bots API: `play_hand`, 4 `RandomBot` (no view built)"),
    ("riichienv_nolog", "riichienv (Rust), one kyoku, `RandomAgent`, mjai log off"),
    ("paiju_bots_view", "paiju Mazhan, bots API, each seat's view built per decision"),
    ("riichienv", "riichienv (Rust), one kyoku, `RandomAgent`, mjai log on (its default)"),
    ("rlcard", "RLCard mahjong, `env.run` with its random agents"),
    ("paiju", "paiju Mazhan, engine loop (below the bots API; no peer)"),
    ("madiao", "paiju Ma Diao, engine loop (no peer)"),
    ("greedy", "paiju Mazhan, `play_hand` with 4 `GreedyBot` (no peer)"),
)

#: The comparisons: (numerator, peer, label).
COMPARISONS = (
    ("paiju_bots", "riichienv_nolog", "bots API / riichienv agent, logging off (headline)"),
    ("paiju_bots_view", "riichienv_nolog", "bots API with views / riichienv agent, log off"),
    ("paiju_bots", "riichienv", "bots API / riichienv agent, its mjai log on"),
    ("paiju_bots", "rlcard", "bots API / RLCard agents"),
)


def _actions_per_hand(bot: Any, seed: int, hands: int = 50) -> float:
    """The mean number of actions in ``hands`` hands with four ``bot`` (random if None)."""
    from paiju.mazhan.rules import Ruleset

    total = 0
    for k in range(hands):
        _state, actions = play_hand(Ruleset(), [bot or RandomBot()] * 4, seed + k)
        total += len(actions)
    return total / hands


def strong_bots(hands: int, seed: int, warm: int = 3) -> dict[str, Any]:
    """Four ``strong`` bots: every decision timed; p50/p99 per decision and hands/s, after
    ``warm`` hands on other deals (as every contender of :func:`interleave.race` is)."""
    from paiju.mazhan.bots.strong import StrongBot
    from paiju.mazhan.rules import Phase, Ruleset, acting, apply, legal_actions_for, new_hand
    from paiju.mazhan.seats import SEATS
    from paiju.mazhan.views import observe

    bot = StrongBot()
    ruleset = Ruleset()
    for k in range(warm):  # warm up (tables, the shanten caches), on deals not measured
        play_hand(ruleset, [bot] * 4, seed + hands + k)
    times: list[float] = []
    cpu: list[float] = []
    start = time.perf_counter()
    start_cpu = time.thread_time()
    for k in range(hands):
        state = new_hand(ruleset, seed + k)
        rngs = [bot_rng(seed + k, s) for s in SEATS]
        while state.phase is not Phase.OVER:
            seat = acting(state)[0]
            legal = legal_actions_for(state, seat)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            action = bot.act(observe(state, seat), legal, rngs[seat.number - 1])
            times.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0)
            state, _ = apply(state, action)
        assert state.result is not None
        state.result.settlement  # noqa: B018
    elapsed = time.perf_counter() - start
    elapsed_cpu = time.thread_time() - start_cpu
    times.sort()
    cpu.sort()
    return {
        "hands": hands,
        "beyond_p99": len(times) - min(len(times) - 1, int(len(times) * 0.99)),
        "warm_up_hands": warm,
        "decisions": len(times),
        "hands_per_second": hands / elapsed,
        "p50_ms": 1e3 * times[len(times) // 2],
        "p99_ms": 1e3 * times[min(len(times) - 1, int(len(times) * 0.99))],
        "mean_ms": 1e3 * statistics.fmean(times),
        "cpu_p50_ms": 1e3 * cpu[len(cpu) // 2],
        "cpu_p99_ms": 1e3 * cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))],
        "hands_per_cpu_second": hands / elapsed_cpu,
    }


def measure(
    seconds: float = 1.0, seed: int = 1, repeats: int = 10, strong_hands: int = 50
) -> dict[str, Any]:
    """Every figure of this benchmark. The keys ``paiju_random``, ``paiju_greedy``,
    ``rlcard_random`` and ``ratio_random_vs_rlcard`` keep the shape ``run_all.py`` reads."""
    r = race(
        {  # in the order of CONTENDERS
            "paiju_bots": driver_loop(seed),
            "riichienv_nolog": riichienv_loop(seed, mjai_log=False),
            "paiju_bots_view": driver_loop(seed, ViewingRandomBot()),
            "riichienv": riichienv_loop(seed, mjai_log=True),
            "rlcard": rlcard_loop(seed),
            "paiju": paiju_loop(seed),
            "madiao": madiao_loop(seed),
            "greedy": driver_loop(seed, GreedyBot()),
        },
        seconds,
        repeats,
        clock="cpu",
    )
    rates = r["rates"]
    r["ratios"] = {f"{a}/{b}": ratio_summary(r, a, b) for a, b, _ in COMPARISONS}
    r["strong"] = strong_bots(strong_hands, seed) if strong_hands else None
    r["machine"] = machine()
    # the shape run_all.py reads; actions/s: hands/s times the actions of a hand, counted
    # on the first hands the loops play (the same seeds)
    per_hand = {
        "random": _actions_per_hand(None, seed),
        "greedy": _actions_per_hand(GreedyBot(), seed),
    }
    for key, name in (("paiju_random", "paiju_bots"), ("paiju_greedy", "greedy")):
        rate = rates[name]["median"]
        bot = "random" if name == "paiju_bots" else "greedy"
        r[key] = {"hands_per_second": rate, "actions_per_second": rate * per_hand[bot]}
    rl = rates["rlcard"]
    r["rlcard_random"] = None if rl is None else {"hands_per_second": rl["median"]}
    q = r["ratios"]["paiju_bots/rlcard"]
    r["ratio_random_vs_rlcard"] = None if q is None else q["median"]
    return r


def markdown(r: dict[str, Any]) -> list[str]:
    """This benchmark's section of ``benchmarks/RESULTS.md``."""
    lo, hi = r["load"]
    lines = [
        "## Hands simulated per second, against the peers (`benchmarks/simulate.py`)",
        "",
        f"{r['machine']}; one process, slices of {r['seconds']:g} s of CPU time "
        f"interleaved, {r['repeats']} rounds (load average {lo:.2f} before, {hi:.2f} after; "
        "2 cores shared with other work). Random legal actions; a hand is one deal played "
        "out under each library's own rules (Mazhan: 144 tiles, 17-tile hands, ★; riichi: "
        "136 tiles, 14-tile hands), a new deal every hand.",
        "",
        "| contender | hands per CPU s (median) | (min) |",
        "|---|---:|---:|",
    ]
    for key, label in CONTENDERS:
        x = r["rates"].get(key)
        if x is None:
            lines.append(f"| {label} | not installed | |")
        else:
            lines.append(f"| {label} | {fmt_rate(x['median'])} | {fmt_rate(x['min'])} |")
    lines += ["", "| ratio, per round | median (worst round) |", "|---|---:|"]
    for a, b, label in COMPARISONS:
        lines.append(f"| {label} | {fmt_ratio(r['ratios'][f'{a}/{b}'])} |")
    s = r.get("strong")
    if s:
        lines += [
            "",
            f"Four `strong` bots, {s['hands']} hands after {s.get('warm_up_hands', 0)} warm-up "
            f"hands on other deals ({s['decisions']:,} decisions, so the p99 rests on "
            f"{s['beyond_p99']} samples at or beyond it; each timed from `observe` to the "
            "chosen action; not interleaved, so the load weighs on it alone): "
            f"p50 **{s['p50_ms']:.2f} ms**, p99 "
            f"**{s['p99_ms']:.2f} ms** per decision (mean {s['mean_ms']:.2f} ms); "
            f"**{s['hands_per_second']:.1f} hands/s**. In CPU time of the deciding thread: "
            f"p50 {s['cpu_p50_ms']:.2f} ms, p99 **{s['cpu_p99_ms']:.2f} ms**; "
            f"**{s['hands_per_cpu_second']:.1f} hands per CPU second**. Warm, in a process "
            "that has played before: the first hands of a fresh process are another figure.",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per slice")
    parser.add_argument(
        "--repeats", type=int, default=10, help="rounds (ten: a median of five swung by 0.3)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong-hands", type=int, default=50)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    r = measure(args.seconds, args.seed, args.repeats, args.strong_hands)
    r["command"] = "python benchmarks/simulate.py " + " ".join(sys.argv[1:])
    lines = markdown(r)
    if args.write:
        write_section("simulate", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
