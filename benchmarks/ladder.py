"""An honest ladder of the bots (issue 38): each game's bots against one another in
duplicate arenas over pooled seeds nobody tuned on, a table of paired differences with 95%
intervals and a Bradley–Terry rating from the pairs.

    python benchmarks/ladder.py                              # every pair, 400 hands each
    python benchmarks/ladder.py --hands 400 --deciding-hands 4000 --workers 2
    python benchmarks/ladder.py --write                      # render ladder.json again
    python benchmarks/ladder.py --policy runs/ppo/policy.zip --only ppo-greedy,ppo-strong --add

A pair ``A − B`` is played as the arena plays ``A,B,B,B`` (one A against three B, every seat
in turn: duplicate deals), the seeds :data:`SEEDS` (never used to tune a bot) sharing the
pair's hands; the differences of every deal, pooled over the seeds, give the mean and its
interval (Student's t over deals, :func:`paiju.stats.paired_difference`). The pairs that
decide a table level (:data:`PAIRS`, marked ``deciding``) may be given more hands.

The rating: per deal, A "beats" B when A's mean net is above B's (a tie counts half), and
Bradley–Terry strengths are fitted to those counts over every pair of a game (the
minorization–maximization iteration, half a deal added each way to every pair), shown on
the Elo scale (400 · log10, the game's ``normal`` bot at 0). It says who wins more deals,
not by how much: the table of differences in the game's unit says that.

``--timed`` adds the table's ``hard`` level as it plays there, ``expert@200ms`` (a budget
of wall-clock time per decision, :data:`TIMED_PAIRS`): its result depends on the machine
and its load, recorded beside it. ``--policy PATH`` adds a policy trained by
``examples/train_ppo.py`` (``paiju arena``'s ``policy:PATH``; needs the ``[rl]`` extra) to
the Mazhan ladder as the bot ``ppo``, played against ``greedy`` and ``strong``
(:data:`POLICY_PAIRS`); the file's SHA-256 is recorded with the session, and a later
``--add`` with another policy file is refused.

The run's date, command, wall time and load average are recorded with the results in
``benchmarks/ladder.json``; ``--write`` (and every run) renders them into the section
"Ladder" of ``benchmarks/RESULTS.md`` and of ``docs/bots.md``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from paiju.bots.driver import run_hand
from paiju.bots.registry import bots_of
from paiju.games import game, registration
from paiju.simulate import make_player
from paiju.stats import paired_difference

HERE = Path(__file__).resolve().parent
STORE = HERE / "ladder.json"
RESULTS = HERE / "RESULTS.md"
DOCS = HERE.parent / "docs" / "bots.md"
BEGIN = "<!-- ladder: written by benchmarks/ladder.py -->"
END = "<!-- ladder: end -->"

#: Seeds never used to tune a bot (the bots' tuning used 11–22, 301–302 and the evaluation
#: seeds of benchmarks/bots.json); each pair's hands are shared among them.
SEEDS = (38001, 38002, 38003, 38004)

#: The pairs played, by game: (A, B, deciding). A deciding pair separates two table levels.
PAIRS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "mazhan": (
        ("greedy", "random", False),
        ("strong", "greedy", True),
        ("expert", "strong", True),
        ("expert", "greedy", False),
    ),
    "madiao": (
        ("heuristic", "random", False),
        ("expert", "heuristic", True),
    ),
}


#: The pairs of a trained policy (``--policy``), by game: the policy is the bot ``ppo``.
POLICY_PAIRS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "mazhan": (("ppo", "greedy", False), ("ppo", "strong", False)),
}
#: The ladder's name of the trained policy.
POLICY = "ppo"

#: The table's ``hard`` level as the server plays it, on a time budget (``--timed``): its
#: strength depends on the machine's speed and load, so it is not pooled with the node
#: budget's ``expert`` and decides no level here.
TIMED_PAIRS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "mazhan": (("expert@200ms", "strong", False),),
}


def play_pair(
    name: str, a: str, b: str, hands: int, seed: int, policy: str | None = None
) -> dict[str, Any]:
    """Duplicate deals of ``a,b,b,b`` from ``seed``: per deal, A's mean net less B's;
    ``policy``: the path of the policy that plays as :data:`POLICY`.

    >>> out = play_pair("madiao", "heuristic", "random", 4, 1)
    >>> len(out["diffs"]), out["hands"]
    (1, 4)
    """
    g = game(name)
    ruleset = g.default_ruleset()

    def spec(n: str) -> str:
        if n != POLICY:
            return n
        if policy is None:
            raise ValueError(f"the pair {a} − {b} needs --policy")
        return f"policy:{policy}"

    bots = {n: make_player(name, spec(n)) for n in (a, b)}
    names = [a, b, b, b]
    rng = random.Random(seed)
    diffs: list[float] = []
    deals = math.ceil(hands / 4)
    for _ in range(deals):
        hand_seed = rng.getrandbits(63)
        net = {a: 0.0, b: 0.0}
        for rotation in range(4):
            seated = [bots[names[(i + rotation) % 4]] for i in range(4)]
            state, _ = run_hand(g, g.new_hand(ruleset, hand_seed, {}), seated, hand_seed)
            nets = g.nets(state)
            for i in range(4):
                net[names[(i + rotation) % 4]] += nets[i]
        diffs.append(net[a] / 4 - net[b] / 12)
    return {"game": name, "a": a, "b": b, "seed": seed, "hands": deals * 4, "diffs": diffs}


def bradley_terry(wins: dict[tuple[str, str], float], players: list[str]) -> dict[str, float]:
    """Bradley–Terry strengths from ``wins[(i, j)]`` (i's wins over j), by the MM iteration,
    normalised to a geometric mean of 1.

    >>> s = bradley_terry({("a", "b"): 3.0, ("b", "a"): 1.0}, ["a", "b"])
    >>> round(s["a"] / s["b"], 3)
    3.0
    """
    p = dict.fromkeys(players, 1.0)
    for _ in range(2000):
        new = {}
        for i in players:
            w = sum(v for (x, _y), v in wins.items() if x == i)
            den = 0.0
            for j in players:
                n = wins.get((i, j), 0.0) + wins.get((j, i), 0.0)
                if j != i and n:
                    den += n / (p[i] + p[j])
            new[i] = w / den if den else p[i]
        g = math.exp(sum(math.log(max(v, 1e-12)) for v in new.values()) / len(new))
        new = {k: v / g for k, v in new.items()}
        if max(abs(new[k] - p[k]) for k in players) < 1e-10:
            return new
        p = new
    return p


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Pool the runs by (game, pair): the paired difference over every deal of every seed,
    the deals won, and each game's Bradley–Terry rating on the Elo scale."""
    pooled: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in runs:
        pooled.setdefault((r["game"], r["a"], r["b"]), []).append(r)
    games: dict[str, Any] = {}
    for (name, a, b), rs in pooled.items():
        diffs = [d for r in rs for d in r["diffs"]]
        i = paired_difference(diffs, [0.0] * len(diffs))
        won = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for d in diffs)
        deciding = any(x == a and y == b and z for x, y, z in _pairs(name))
        entry = games.setdefault(name, {"pairs": [], "unit": registration(name).unit})
        entry["pairs"].append(
            {
                "a": a, "b": b, "deciding": deciding,
                "hands": sum(r["hands"] for r in rs), "deals": len(diffs),
                "seeds": sorted(r["seed"] for r in rs),
                "mean": i.mean, "lo": i.lo, "hi": i.hi,
                "a_won": won, "b_won": len(diffs) - won,
            }
        )  # fmt: skip
    for name, entry in games.items():
        wins: dict[tuple[str, str], float] = {}
        players: list[str] = []
        for p in entry["pairs"]:
            # half a deal won each way: a bot that won no deal keeps a finite rating
            wins[(p["a"], p["b"])] = wins.get((p["a"], p["b"]), 0.0) + p["a_won"] + 0.5
            wins[(p["b"], p["a"])] = wins.get((p["b"], p["a"]), 0.0) + p["b_won"] + 0.5
            players += [x for x in (p["a"], p["b"]) if x not in players]
        strength = bradley_terry(wins, players)
        anchor = bots_of(name).levels["normal"].partition("@")[0]
        zero = strength.get(anchor, 1.0)
        entry["rating"] = {
            k: 400 * math.log10(v / zero)
            for k, v in sorted(strength.items(), key=lambda kv: -kv[1])
        }
        entry["anchor"] = anchor
    return games


def _pairs(name: str) -> tuple[tuple[str, str, bool], ...]:
    """Every pair of a game's ladder, a policy's and the timed ones last."""
    return PAIRS.get(name, ()) + POLICY_PAIRS.get(name, ()) + TIMED_PAIRS.get(name, ())


def sha256(path: str) -> str:
    """The SHA-256 of a file, hex.

    >>> sha256(__file__) == sha256(__file__)
    True
    """
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def markdown(data: dict[str, Any]) -> list[str]:
    """The section "Ladder" as Markdown lines."""
    lines = [BEGIN, "## Ladder (`benchmarks/ladder.py`)", ""]
    sessions = data.get("sessions") or [data["run"]]
    seeds = sorted(
        {seed for e in data["games"].values() for p in e["pairs"] for seed in p["seeds"]}
    )
    lines += [
        "Each pair `A − B` is played as `A,B,B,B` in duplicate deals (each deal four times, "
        "the bots rotated), its hands shared among seeds never tuned on "
        f"({', '.join(map(str, seeds))}) and pooled: the mean of A's net per hand less B's, "
        'with its 95% interval over deals (Student\'s t); "A won": the share of deals where '
        "A's mean net was above B's (a tie half). Played by:",
        "",
    ]
    for run in sessions:
        policy = run.get("policy")
        played = f" (`ppo`: `{policy['path']}`, SHA-256 {policy['sha256'][:12]}…)" if policy else ""
        lines.append(
            f"- {run['date']}: `{run['command']}`{played}, {run['seconds'] / 60:.0f} min wall "
            f"on {run['workers']} worker(s), load average {run['load'][0]:.1f} before and "
            f"{run['load'][1]:.1f} after ({run['cpus']} cores, shared)"
        )
    lines.append("")
    for name, entry in data["games"].items():
        unit = entry["unit"]
        lines += [
            f"### {registration(name).title}",
            "",
            f"| pair | hands (seeds) | {unit}/hand | 95% interval | A won | decides a level |",
            "|---|---:|---:|---|---:|---|",
        ]
        for p in entry["pairs"]:
            share = p["a_won"] / p["deals"]
            lines.append(
                f"| {p['a']} − {p['b']} | {p['hands']:,} ({len(p['seeds'])}) | {p['mean']:+.2f} | "
                f"[{p['lo']:+.2f}, {p['hi']:+.2f}] | {share:.1%} | "
                f"{'yes' if p['deciding'] else ''} |"
            )
        rating = ", ".join(f"`{k}` {v:+.0f}" for k, v in entry["rating"].items())
        lines += [
            "",
            f"Bradley–Terry on deals won (Elo scale, `{entry['anchor']}` = 0): {rating}.",
            "",
        ]
    lines.append(END)
    return lines


def write(data: dict[str, Any]) -> None:
    """Put the section "Ladder" into RESULTS.md and docs/bots.md (replacing it there)."""
    block = "\n".join(markdown(data)) + "\n"
    for path in (RESULTS, DOCS):
        text = path.read_text(encoding="utf-8")
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            text = head + block.rstrip("\n") + rest.split(END, 1)[1]
        else:
            text = text.rstrip("\n") + "\n\n" + block
        path.write_text(text, encoding="utf-8")


def _load() -> tuple[float, float]:
    try:
        return os.getloadavg()[0], os.getloadavg()[1]
    except OSError:
        return math.nan, math.nan


def main(argv: list[str] | None = None) -> int:
    """Play the ladder (or ``--write`` the recorded one) and write it out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands per pair (default 400)")
    parser.add_argument(
        "--deciding-hands", type=int, help="hands per pair that decides a level (default --hands)"
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--games", default=",".join(PAIRS), help="games, comma-separated")
    parser.add_argument("--write", action="store_true", help="only render ladder.json again")
    parser.add_argument("--seeds", help=f"seeds, comma-separated (default {SEEDS})")
    parser.add_argument("--only", help="pairs to play, as A-B, comma-separated (default all)")
    parser.add_argument(
        "--add", action="store_true", help="pool with the runs in ladder.json (other seeds only)"
    )
    parser.add_argument(
        "--policy", help="a policy saved by examples/train_ppo.py, played as 'ppo' ([rl] extra)"
    )
    parser.add_argument(
        "--timed", action="store_true", help="also the pairs of the time-budgeted bots"
    )
    args = parser.parse_args(argv)
    if args.write:
        write(json.loads(STORE.read_text(encoding="utf-8")))
        return 0
    seeds = tuple(int(x) for x in args.seeds.split(",")) if args.seeds else SEEDS
    only = set(args.only.split(",")) if args.only else None
    old: dict[str, Any] = {"sessions": [], "runs": []}
    if args.add:
        old = json.loads(STORE.read_text(encoding="utf-8"))
        old.setdefault("sessions", [old.pop("run")] if "run" in old else [])
    played = {(r["game"], r["a"], r["b"], r["seed"]) for r in old["runs"]}
    policy = None
    if args.policy:
        policy = {"path": args.policy, "sha256": sha256(args.policy)}
        known = {s["policy"]["sha256"] for s in old["sessions"] if s.get("policy")}
        if known - {policy["sha256"]}:
            parser.error("ladder.json holds another policy's pairs: one policy at a time")
    jobs = []
    for name in args.games.split(","):
        pairs = PAIRS[name] + (POLICY_PAIRS.get(name, ()) if policy else ())
        pairs += TIMED_PAIRS.get(name, ()) if args.timed else ()
        for a, b, deciding in pairs:
            if only is not None and f"{a}-{b}" not in only:
                continue
            hands = (args.deciding_hands or args.hands) if deciding else args.hands
            per_seed = 4 * math.ceil(hands / 4 / len(seeds))
            for seed in seeds:
                if (name, a, b, seed) in played:
                    parser.error(f"{name} {a}-{b} seed {seed} is in ladder.json already")
                jobs.append((name, a, b, per_seed, seed, args.policy))
    # the longest first, so the workers finish together
    jobs.sort(key=lambda j: -j[3] * (10 if "expert" in j[1:3] else 1))
    load_before = _load()[0]
    began = time.perf_counter()
    runs: list[dict[str, Any]] = list(old["runs"])
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(play_pair, *job) for job in jobs]
        for n, f in enumerate(concurrent.futures.as_completed(futures), start=1):
            r = f.result()
            runs.append(r)
            done = f"{r['hands']} hands, {time.perf_counter() - began:.0f} s"
            pair = f"{r['game']} {r['a']} − {r['b']} seed {r['seed']}"
            print(f"[{n}/{len(jobs)}] {pair}: {done}", file=sys.stderr)
    order = [(name, a, b) for name in PAIRS for a, b, _d in _pairs(name)]
    runs.sort(key=lambda r: (order.index((r["game"], r["a"], r["b"])), r["seed"]))
    session = {
        "date": datetime.date.today().isoformat(),
        "command": "python benchmarks/ladder.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "seconds": time.perf_counter() - began,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "load": [load_before, _load()[0]],
    }
    if policy is not None:
        session["policy"] = policy
    data = {"sessions": [*old["sessions"], session], "games": summarise(runs), "runs": runs}
    STORE.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    write(data)
    for line in markdown(data):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
