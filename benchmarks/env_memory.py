"""Memory of one more environment: N instances, less one, over N − 1, like for like.

Every contender is measured in a fresh process of its own (imports, module tables and
caches are paid by the first instance, which is not counted): one instance is made, reset
and stepped; then ``--n − 1`` more are made and each is reset and played ``--steps`` random
legal steps (0: just reset); the figure is what they hold, divided by their number, after
a full collection. Two measures:

- ``tracemalloc``: what Python's allocators hold (NumPy's arrays included; a Rust or C++
  core's own heap is not seen: riichienv's state lives there);
- ``RSS``: the resident set's growth (everything, to a page; noisier).

The contenders: ``mazhan_v0`` and ``madiao_v0`` (PettingZoo AEC, default options, spaces
never asked for, as in the standard loop; ``--spaces`` asks each environment for its
spaces too), riichienv's ``RiichiEnv`` (mjai log off, as paiju keeps none) and RLCard's
``mahjong`` env, when installed.

    python benchmarks/env_memory.py [--n 200] [--steps 0 8]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's paiju, not an installed one

CONTENDERS = ("mazhan_v0", "madiao_v0", "riichienv", "rlcard")


def _paiju(game: str, spaces: bool) -> tuple[Callable[[], Any], Callable[[Any, int, int], None]]:
    if game == "mazhan_v0":
        from paiju.mazhan.env import mazhan_v0 as module
    else:
        from paiju.madiao.env import madiao_v0 as module  # type: ignore[no-redef]

    def make() -> Any:
        env = module.env()
        if spaces:
            env.observation_space("player_0")
            env.action_space("player_0")
        return env

    def play(env: Any, seed: int, steps: int) -> None:
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in range(steps):
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.reset()
                continue
            legal = obs["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))

    return make, play


def _riichienv() -> tuple[Callable[[], Any], Callable[[Any, int, int], None]]:
    import riichienv
    from riichienv.agents import RandomAgent

    agents = [RandomAgent(seed=i) for i in range(4)]  # the players, not the environment

    def make() -> Any:
        return riichienv.RiichiEnv(seed=0, skip_mjai_logging=True)

    def play(env: Any, seed: int, steps: int) -> None:
        obs = env.reset(seed=seed)
        for _ in range(steps):
            if env.done():
                obs = env.reset()
                continue
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})

    return make, play


def _rlcard() -> tuple[Callable[[], Any], Callable[[Any, int, int], None]]:
    import rlcard

    def make() -> Any:
        return rlcard.make("mahjong", config={"seed": 0})

    def play(env: Any, seed: int, steps: int) -> None:
        env.seed(seed)
        state, _player = env.reset()
        rng = random.Random(seed)
        for _ in range(steps):
            if env.is_over():
                state, _player = env.reset()
                continue
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randrange(len(legal))])

    return make, play


def _rss() -> int:
    """The resident set now, in bytes (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def measure(name: str, n: int, steps: int, spaces: bool = False) -> dict[str, Any]:
    """One contender's bytes per extra instance, in this process (call it in a fresh one).

    >>> r = measure("madiao_v0", n=3, steps=2)
    >>> r["name"], r["tracemalloc_per_env"] > 0
    ('madiao_v0', True)
    """
    if name in ("mazhan_v0", "madiao_v0"):
        make, play = _paiju(name, spaces)
    elif name == "riichienv":
        make, play = _riichienv()
    elif name == "rlcard":
        make, play = _rlcard()
    else:
        raise ValueError(f"unknown contender {name!r} (choose from {', '.join(CONTENDERS)})")
    first = make()
    play(first, 0, max(steps, 8))  # imports, tables and caches: paid by the first
    gc.collect()
    tracemalloc.start()
    rss0 = _rss()
    base = tracemalloc.get_traced_memory()[0]
    more = []
    for i in range(1, n):
        env = make()
        play(env, i, steps)
        more.append(env)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    rss = _rss() - rss0
    tracemalloc.stop()
    return {
        "name": name,
        "n": n,
        "steps": steps,
        "tracemalloc_per_env": held / (n - 1),
        "rss_per_env": rss / (n - 1),
        "alive": len(more) + 1,
    }


def _installed(name: str) -> bool:
    if name in ("mazhan_v0", "madiao_v0"):
        return True
    try:
        __import__(name)
    except ImportError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="instances (≥ 2)")
    parser.add_argument("--steps", type=int, nargs="+", default=[0, 8])
    parser.add_argument("--spaces", action="store_true", help="ask every env for its spaces")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # run one contender, print JSON
    args = parser.parse_args()
    if args.n < 2:
        parser.error("--n must be 2 or more")
    if args.one:
        steps = args.steps[0]
        print(json.dumps(measure(args.one, args.n, steps, args.spaces)))
        return
    load = os.getloadavg()[0]
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, n = {args.n}")
    print("| contender | steps | tracemalloc / env | RSS / env |")
    print("|---|---|---|---|")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for steps in args.steps:
        for name in CONTENDERS:
            if not _installed(name):
                print(f"| {name} | {steps} | not installed | |")
                continue
            cmd = [sys.executable, __file__, "--one", name, "--n", str(args.n)]
            cmd += ["--steps", str(steps)] + (["--spaces"] if args.spaces else [])
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(
                f"| {name} | {steps} | {r['tracemalloc_per_env'] / 1000:.1f} kB "
                f"| {r['rss_per_env'] / 1000:.1f} kB |"
            )
    print(f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")


if __name__ == "__main__":
    main()
