"""Hands simulated per second with random players, paiju against its peers, interleaved.

Every contender plays whole hands with uniformly random legal actions, in one process, in
alternating slices (:mod:`interleave`, three rounds by default; median and minimum):

- ``paiju``: the Mazhan engine's own loop (``acting``, ``legal_actions_for``, a random pick,
  ``apply``), the settlement read at the end of every hand (validated and scored, as a
  peer that scores its hands does); ``paiju, result not read``: the same without reading
  it (the engine then neither validates nor scores it); ``paiju, bots API``:
  :func:`paiju.bots.driver.play_hand` with four :class:`~paiju.bots.uniform.RandomBot`;
- ``riichienv``: riichienv's Rust core, one kyoku per ``reset``, its ``RandomAgent`` choosing
  from ``obs.legal_actions()``; with its mjai log (its default) and without
  (``skip_mjai_logging=True``);
- ``RLCard``: RLCard's mahjong with its random agents;
- ``Ma Diao``: paiju's Ma Diao engine's loop (reported beside, no peer).

The games differ (Mazhan: 144 tiles, 17-tile hands, ★; riichi: 136 tiles, 14-tile hands),
so a "hand" is one deal played out by each library's rules; both record what happened
(paiju its events, riichienv its mjai log when on).

The ``strong`` bot is timed on its own (no peer): every decision of four strong bots over
``--strong-hands`` hands, p50 and p99 per decision, and hands per second.

    python benchmarks/simulate.py [--seconds 2] [--repeats 3] [--strong-hands 20] [--write]
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

from interleave import fmt_rate, machine, race, ratio, write_section

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
        end = time.perf_counter() + seconds
        k = box[0]
        while time.perf_counter() < end:
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


def driver_loop(seed: int, bot: Any = None) -> Run:
    """:func:`~paiju.bots.driver.play_hand` with four bots (random by default)."""
    from paiju.mazhan.rules import Ruleset

    bots = [bot or RandomBot()] * 4
    ruleset = Ruleset()
    box = [seed]

    def run(seconds: float) -> float:
        hands = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
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
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
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
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
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
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            env.run(is_training=False)
            hands += 1
        return hands

    return run


CONTENDERS = (
    ("paiju", "paiju Mazhan, engine loop, settlement read"),
    ("paiju_unread", "paiju Mazhan, engine loop, result not read"),
    ("paiju_bots", "paiju Mazhan, `play_hand` with 4 `RandomBot`"),
    ("riichienv", "riichienv (Rust), one kyoku, mjai log on (its default)"),
    ("riichienv_nolog", "riichienv (Rust), one kyoku, `skip_mjai_logging=True`"),
    ("rlcard", "RLCard mahjong, random agents"),
    ("madiao", "paiju Ma Diao, engine loop (no peer)"),
    ("greedy", "paiju Mazhan, `play_hand` with 4 `GreedyBot` (no peer)"),
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
    seconds: float = 2.0, seed: int = 1, repeats: int = 3, strong_hands: int = 20
) -> dict[str, Any]:
    """Every figure of this benchmark. The keys ``paiju_random``, ``paiju_greedy``,
    ``rlcard_random`` and ``ratio_random_vs_rlcard`` keep the shape ``run_all.py`` reads."""
    r = race(
        {
            "paiju": paiju_loop(seed),
            "paiju_unread": paiju_loop(seed, read_result=False),
            "paiju_bots": driver_loop(seed),
            "riichienv": riichienv_loop(seed, mjai_log=True),
            "riichienv_nolog": riichienv_loop(seed, mjai_log=False),
            "rlcard": rlcard_loop(seed),
            "madiao": madiao_loop(seed),
            "greedy": driver_loop(seed, GreedyBot()),
        },
        seconds,
        repeats,
    )
    rates = r["rates"]
    r["ratios"] = {
        peer: {"median": ratio(r, "paiju", peer), "min": ratio(r, "paiju", peer, "min")}
        for peer in ("riichienv", "riichienv_nolog", "rlcard")
    }
    r["strong"] = strong_bots(strong_hands, seed) if strong_hands else None
    r["machine"] = machine()
    # the shape run_all.py reads; actions/s: hands/s times the actions of a hand, counted
    # on the first hands the loops play (the same seeds)
    per_hand = {
        "random": _actions_per_hand(None, seed),
        "greedy": _actions_per_hand(GreedyBot(), seed),
    }
    for key, name in (("paiju_random", "paiju"), ("paiju_greedy", "greedy")):
        rate = rates[name]["median"]
        bot = "random" if name == "paiju" else "greedy"
        r[key] = {"hands_per_second": rate, "actions_per_second": rate * per_hand[bot]}
    rl = rates["rlcard"]
    r["rlcard_random"] = None if rl is None else {"hands_per_second": rl["median"]}
    r["ratio_random_vs_rlcard"] = r["ratios"]["rlcard"]["median"]
    return r


def markdown(r: dict[str, Any]) -> list[str]:
    """This benchmark's section of ``benchmarks/RESULTS.md``."""
    lo, hi = r["load"]
    lines = [
        "## Hands simulated per second, against the peers (`benchmarks/simulate.py`)",
        "",
        f"{r['machine']}; one process, slices of {r['seconds']:g} s interleaved, "
        f"{r['repeats']} rounds (load average {lo:.2f} before, {hi:.2f} after; 2 cores "
        "shared with other work). Random legal actions; a hand is one deal played out "
        "under each library's own rules (Mazhan: 144 tiles, 17-tile hands, ★; riichi: "
        "136 tiles, 14-tile hands).",
        "",
        "| contender | hands/s (median) | hands/s (min) |",
        "|---|---:|---:|",
    ]
    for key, label in CONTENDERS:
        x = r["rates"].get(key)
        if x is None:
            lines.append(f"| {label} | not installed | |")
        else:
            lines.append(f"| {label} | {fmt_rate(x['median'])} | {fmt_rate(x['min'])} |")
    lines += ["", "| paiju (settlement read) / peer | median | min |", "|---|---:|---:|"]
    for peer, label in (
        ("riichienv", "riichienv, mjai log on"),
        ("riichienv_nolog", "riichienv, mjai log off"),
        ("rlcard", "RLCard"),
    ):
        q = r["ratios"][peer]
        if q["median"] is None:
            lines.append(f"| {label} | — | — |")
        else:
            lines.append(f"| {label} | {q['median']:.2f}× | {q['min']:.2f}× |")
    s = r.get("strong")
    if s:
        lines += [
            "",
            f"Four `strong` bots, {s['hands']} hands after {s.get('warm_up_hands', 0)} warm-up "
            f"hands ({s['decisions']:,} decisions, each timed from `observe` to the chosen "
            "action; not interleaved, so the load weighs on it alone): "
            f"p50 **{s['p50_ms']:.2f} ms**, p99 "
            f"**{s['p99_ms']:.2f} ms** per decision (mean {s['mean_ms']:.2f} ms); "
            f"**{s['hands_per_second']:.1f} hands/s**. In CPU time of the deciding thread "
            "(the time spent waiting for a core left out): p50 "
            f"{s['cpu_p50_ms']:.2f} ms, p99 **{s['cpu_p99_ms']:.2f} ms**; "
            f"**{s['hands_per_cpu_second']:.1f} hands per CPU second**.",
        ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong-hands", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    r = measure(args.seconds, args.seed, args.repeats, args.strong_hands)
    lines = markdown(r)
    if args.write:
        write_section("simulate", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
