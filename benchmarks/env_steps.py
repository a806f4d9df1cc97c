"""Environment steps per second, uniformly random legal actions, one core.

Contenders, measured in the same run in interleaved slices (each contender runs for one slice
in turn, the round repeated ``--repeats`` times; min and median of the slices are reported):

- ``raw``: the paiju engine alone, ``legal_actions_for`` → a random choice → ``apply``;
- ``aec``: the standard PettingZoo loop over ``mazhan_v0.env()``/``madiao_v0.env()``
  (``agent_iter``, ``env.last()``, a random index from ``action_mask``, ``env.step``), flat
  observations (copied, as returned by default);
- ``rlcard``: RLCard's mahjong through its standard loop (``env.step`` with a random legal
  action, its ``[6, 34, 4]`` observation built every step);
- ``riichienv``: riichienv's Rust core with its random agents (a step is one ``step`` call
  with the actions of every player that must act; a hand is one kyoku), its mjai log off
  (``skip_mjai_logging=True``, as paiju keeps none), **with its features built** for every
  player that must act (``obs.encode()``, its 2,516 float32 values, and ``obs.mask()``, read
  as NumPy arrays: what the PettingZoo loop builds for paiju's agent), and without them
  (raw: the Rust core hands over ``Observation`` objects only); and with its mjai log on,
  features built (its default logging).

Like for like, the comparisons against the peer are ``aec / riichienv with features`` (both
build features and masks every step) and ``raw / riichienv raw`` (neither builds features),
in hands per second (a riichienv step may carry several players' actions, a paiju step is
one agent's, so steps are not the same unit), per round: the ratio of the two rates in the
same round, median and worst round. Slices are timed in the process's CPU time.

The figure that matters for the environment itself is ``aec / raw``: what the observation,
the mask and the PettingZoo API add to the engine.

    python benchmarks/env_steps.py [--seconds 1] [--repeats 5] [--json] [--write]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from interleave import fmt_ratio, machine

from paiju.madiao.env import madiao_v0
from paiju.mazhan.env import mazhan_v0


def raw_loop(game: str, seed: int) -> Callable[[float], tuple[int, int]]:
    """The engine alone, with the same random policy."""
    if game == "mazhan":
        from paiju.mazhan import rules
    else:
        from paiju.madiao import rules  # type: ignore[no-redef]
    rng = random.Random(seed)
    ruleset = rules.Ruleset()
    box = [rules.new_hand(ruleset, seed)]

    def run(seconds: float) -> tuple[int, int]:
        state = box[0]
        steps = hands = 0
        acting, legal_for, apply = rules.acting, rules.legal_actions_for, rules.apply
        end = time.process_time() + seconds
        while time.process_time() < end:
            for _ in range(100):
                if state.phase.value == "over":
                    state = rules.new_hand(ruleset, rng.getrandbits(63))
                    hands += 1
                legal = legal_for(state, acting(state)[0])
                state, _ = apply(state, legal[rng.randrange(len(legal))])
                steps += 1
        box[0] = state
        return steps, hands

    return run


def aec_hand(env: Any, rng: random.Random) -> int:
    """One hand of the standard PettingZoo loop with a random legal index (``agent_iter``,
    ``env.last()``, the mask, ``env.step``), then ``reset``; the steps it took."""
    steps = 0
    for _agent in env.agent_iter():
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = observation["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    env.reset()
    return steps


def aec_loop(game: str, seed: int) -> Callable[[float], tuple[int, int]]:
    """The standard PettingZoo AEC loop."""
    module = mazhan_v0 if game == "mazhan" else madiao_v0
    env = module.env()
    env.reset(seed=seed)
    rng = random.Random(seed)

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            steps += aec_hand(env, rng)
            hands += 1
        return steps, hands

    return run


def rlcard_loop(seed: int) -> Callable[[float], tuple[int, int]] | None:
    """RLCard's mahjong through ``env.step``."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("mahjong", config={"seed": seed})
    rng = random.Random(seed)

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state, _player = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _player = env.step(legal[rng.randrange(len(legal))])
                steps += 1
            hands += 1
        return steps, hands

    return run


def riichienv_loop(
    seed: int, mjai_log: bool = False, features: bool = True
) -> Callable[[float], tuple[int, int]] | None:
    """riichienv's Rust core with its random agents; with ``features``, every acting
    player's features and mask read as NumPy arrays each step."""
    try:
        import numpy as np
        import riichienv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None
    env = riichienv.RiichiEnv(seed=seed, skip_mjai_logging=not mjai_log)
    agents = [RandomAgent(seed=seed + i) for i in range(4)]
    f32, u8 = np.float32, np.uint8

    def run(seconds: float) -> tuple[int, int]:
        steps = hands = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            obs = env.reset()
            while not env.done():
                if features:
                    for o in obs.values():
                        np.frombuffer(o.encode(), f32)
                        np.frombuffer(o.mask(), u8)
                obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})
                steps += 1
            hands += 1
        return steps, hands

    return run


CONTENDERS = (
    ("mazhan_raw", "paiju Mazhan engine, raw loop (no features)"),
    ("mazhan_aec", "paiju `mazhan_v0`, PettingZoo loop (features and mask every step)"),
    ("riichienv_raw", "riichienv (Rust core), mjai log off, no features"),
    ("riichienv", "riichienv (Rust core), mjai log off, `encode()` and `mask()` every step"),
    ("riichienv_log", "riichienv (Rust core), mjai log on (its default), features built"),
    ("madiao_raw", "paiju Ma Diao engine, raw loop"),
    ("madiao_aec", "paiju `madiao_v0`, PettingZoo loop"),
    ("rlcard", "RLCard mahjong, `env.step` loop (its observation built every step)"),
)

#: Like for like against the peers, in hands per second: (paiju, peer, label).
COMPARISONS = (
    ("mazhan_aec", "riichienv", "PettingZoo loop / riichienv, both building features"),
    ("mazhan_raw", "riichienv_raw", "raw engine loop / riichienv, neither building features"),
    ("mazhan_aec", "rlcard", "PettingZoo loop / RLCard `env.step`, both building features"),
)


def _per_round(a: list[float], b: list[float]) -> dict[str, Any] | None:
    """The ratio of two contenders' rates in each round: min, median and the rounds.

    >>> _per_round([2.0, 3.0], [1.0, 3.0])["median"], _per_round([1.0], [0.0])
    (1.5, None)
    """
    rounds = [x / y for x, y in zip(a, b, strict=True) if y]
    if not rounds:
        return None
    return {"min": min(rounds), "median": statistics.median(rounds), "rounds": rounds}


def measure(seconds: float = 1.0, seed: int = 1, repeats: int = 5) -> dict[str, Any]:
    """Every figure of this benchmark (used by ``make bench``)."""
    loops: dict[str, Callable[[float], tuple[int, int]] | None] = {
        "mazhan_raw": raw_loop("mazhan", seed),
        "mazhan_aec": aec_loop("mazhan", seed),
        "riichienv_raw": riichienv_loop(seed, features=False),
        "riichienv": riichienv_loop(seed),
        "riichienv_log": riichienv_loop(seed, mjai_log=True),
        "madiao_raw": raw_loop("madiao", seed),
        "madiao_aec": aec_loop("madiao", seed),
        "rlcard": rlcard_loop(seed),
    }
    for run in loops.values():  # warm up (tables, caches, imports)
        if run is not None:
            run(min(seconds, 0.3))
    slices: dict[str, list[tuple[float, float]]] = {k: [] for k in loops}
    load_before = os.getloadavg()[0]
    for _ in range(repeats):
        for key, run in loops.items():
            if run is None:
                continue
            start = time.process_time()
            steps, hands = run(seconds)
            elapsed = time.process_time() - start
            slices[key].append((steps / elapsed, hands / elapsed))
    out: dict[str, Any] = {
        "seconds": seconds,
        "repeats": repeats,
        "clock": "cpu",
        "load": [load_before, os.getloadavg()[0]],
        "machine": machine(),
    }
    for key, runs in slices.items():
        if not runs:
            out[key] = None
            continue
        rates = [s for s, _ in runs]
        out[key] = {
            "steps_min": min(rates),
            "steps_median": statistics.median(rates),
            "hands_median": statistics.median(h for _, h in runs),
            "hands_min": min(h for _, h in runs),
            "steps_slices": rates,
            "hands_slices": [h for _, h in runs],
        }
    for game in ("mazhan", "madiao"):
        raw, aec = out[f"{game}_raw"], out[f"{game}_aec"]
        out[f"{game}_ratio"] = _per_round(aec["steps_slices"], raw["steps_slices"])
    out["vs_peers"] = {
        f"{a}/{b}": None
        if out.get(b) is None
        else _per_round(out[a]["hands_slices"], out[b]["hands_slices"])
        for a, b, _ in COMPARISONS
    }
    return out


def markdown(r: dict[str, Any]) -> list[str]:
    """The environment section of ``benchmarks/RESULTS.md``."""
    lines = [
        "## Environment steps per second (`benchmarks/env_steps.py`)",
        "",
        f"{r['machine']}. Uniformly random legal actions, one process, interleaved slices "
        f"of {r['seconds']:g} s of CPU time, {r['repeats']} rounds (load average "
        f"{r['load'][0]:.2f} before, {r['load'][1]:.2f} after). A paiju step is one agent's "
        "action; a riichienv step is one `step` call with the actions of every player that "
        "must act. *PettingZoo loop*: `agent_iter`, `env.last()`, a random index of the "
        "`action_mask`, `env.step` (flat observation, copied).",
        "",
        "| environment | steps per CPU s (median) | (min) | hands per CPU s (median) |",
        "|---|---:|---:|---:|",
    ]
    for key, label in CONTENDERS:
        x = r.get(key)
        if x is None:
            lines.append(f"| {label} | not installed | | |")
        else:
            lines.append(
                f"| {label} | {x['steps_median']:,.0f} | {x['steps_min']:,.0f} "
                f"| {x['hands_median']:,.1f} |"
            )
    lines += [
        "",
        "| ratio, per round (hands/s) | median (worst round) |",
        "|---|---:|",
    ]
    for a, b, label in COMPARISONS:
        lines.append(f"| {label} | {fmt_ratio(r['vs_peers'][f'{a}/{b}'])} |")
    lines += [
        "",
        f"PettingZoo loop / raw engine loop (steps/s, per round): Mazhan "
        f"{fmt_ratio(r['mazhan_ratio'])}, Ma Diao {fmt_ratio(r['madiao_ratio'])}.",
    ]
    return lines


#: The recorded run of ``examples/train_ppo.py`` (its ``results.json``; not re-run by
#: ``make bench``: it takes half an hour).
PPO_RECORD = Path(__file__).resolve().parent / "ppo_baseline.json"


def _interval(ci: list[float] | None, digits: int = 2) -> str:
    """A recorded 95% interval as ``[lo, hi]``; ``None`` (one deal) has none.

    >>> _interval([1.0, 2.5]), _interval(None)
    ('[+1.00, +2.50]', '(n < 2: no interval)')
    """
    if ci is None:
        return "(n < 2: no interval)"
    lo, hi = ci
    return f"[{lo:+.{digits}f}, {hi:+.{digits}f}]"


def ppo_markdown(path: Path = PPO_RECORD) -> list[str]:
    """The PPO baseline's section of ``benchmarks/RESULTS.md``, from its recorded run."""
    lines = ["## PPO baseline against `greedy` (`examples/train_ppo.py`)", ""]
    if not path.exists():
        return [*lines, "No recorded run."]
    r = json.loads(path.read_text())
    ev = r["evaluation"]
    load = r.get("load") or [0.0]
    imitate = r.get("args", {}).get("imitate", "none")
    warm = (
        f"behaviour cloning of `{imitate}` for the first "
        f"{r['args'].get('imitate_minutes', '?')} min, then "
        if imitate != "none"
        else ""
    )
    lines += [
        f"sb3-contrib `MaskablePPO` ({warm}PPO) on `paiju/Mazhan-v0` against three `greedy` "
        f"bots: {r['train_minutes']:.1f} minutes of training ({r['timesteps']:,} learner "
        f"steps) on 2 shared cores (load average {load[0]:.1f} at the end). Evaluation: "
        f"{ev['hands']:,} duplicate hands ({ev['deals']:,} deals, the policy in each seat).",
        "",
        "| policy against 3 greedy | mean net per hand (胡) | 95% interval | win rate |",
        "|---|---:|---:|---:|",
        f"| trained policy | {ev['mean_net']:+.1f} | {_interval(ev['ci95'], 1)} "
        f"| {ev['win_rate']:.1%} |",
    ]
    imitation = r.get("imitation")
    if isinstance(imitation, dict):
        held = imitation["held_out"]
        lines += [
            "",
            f"Imitation of `strong` on {held['n']:,} held-out decisions (hands never trained "
            f"on): {held['all']:.1%} the very action (discards {held['discard']:.1%}, claims "
            f"{held['claim']:.1%}, wins and kongs {held['win/kong']:.1%}); an action `strong` "
            f"rates equal best: {held['all_equal']:.1%}.",
        ]
    arena = r.get("arena") or []
    if arena:
        lines += [
            "",
            f"Arena, duplicate deals on seeds never trained on (load {arena[0]['load']}):",
            "",
            "| hands | seed | pair | mean (胡/hand) | 95% interval | command |",
            "|---:|---:|---|---:|---:|---|",
        ]
        for a in arena:
            lines.append(
                f"| {a['hands']:,} | {a['seed']} | {a['pair']} | {a['mean']:+.2f} "
                f"| {_interval(a['ci95'])} | `{a['command']}` |"
            )
    soak = r.get("soak")
    if isinstance(soak, dict):
        sev = soak["evaluation"]
        lines += [
            "",
            f"The soak test, {soak['date']} (`{soak['command']}`): {soak['train_minutes']:.1f} "
            f"minutes, {soak['timesteps']:,} learner steps, held-out imitation "
            f"{soak['held_out_exact']:.1%}; {sev['hands']:,} duplicate hands against three "
            f"greedy: **{sev['mean_net']:+.2f} {_interval(sev['ci95'])}** 胡/hand, win rate "
            f"{sev['win_rate']:.1%} ({soak['load_note']}).",
        ]
    lines += [
        "",
        "Learning curve: `docs/ppo_curve.png` (reproduced by the soak test "
        "`tests/env/test_train_soak.py`).",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per slice")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--write", action="store_true", help="update benchmarks/RESULTS.md")
    args = parser.parse_args()
    r = measure(args.seconds, args.seed, args.repeats)
    r["command"] = "python benchmarks/env_steps.py " + " ".join(sys.argv[1:])
    lines = markdown(r)
    if args.write:
        from interleave import write_section

        write_section("env_steps", [*lines, "", "```json", json.dumps(r, indent=1), "```"])
    print(json.dumps(r, indent=2) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
