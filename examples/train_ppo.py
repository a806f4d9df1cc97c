"""Train a Mazhan policy against three ``greedy`` bots with sb3-contrib's ``MaskablePPO``.

Needs the ``[rl]`` extra (``pip install -e '.[rl]'``). Within ``--minutes`` (25), the
training budget: the first ``--imitate-minutes`` (4) record the ``strong`` bot playing the
learner's seat, the policy is fitted to its decisions (behaviour cloning, stopped at the
budget's end if it gets there; ``--imitate none`` skips it), then PPO trains against three
``greedy`` bots for what is left. The duplicate evaluation (``--eval-deals``) comes after
the budget. The arguments are checked before anything is built (an argparse error).
``docs/env.md`` walks through it and ``benchmarks/RESULTS.md`` records a run.

The observation has the hints and the look-ahead features (``lookahead=True``,
:mod:`paiju.mazhan.env.lookahead`: ``strong``'s rating terms by action index), fed to the action
layer beside the hidden layers (:class:`paiju.env.features.SkipPolicy`); ``--no-lookahead``
trains the plain 256 × 256 network on the hints alone. Imitation holds out 15% of the hands
recorded, stops when the held-out accuracy stops improving (AdamW, weight decay
``--weight-decay``) and prints the held-out accuracy by kind of decision (discards, claim
windows, wins and kongs on the seat's turn).

    python examples/train_ppo.py --minutes 25 --out runs/ppo
    paiju arena mazhan --bots policy:runs/ppo/policy.zip,greedy,greedy,greedy

Writes into ``--out``: ``policy.zip`` and ``policy.zip.json`` (the policy, loadable as a
``paiju arena`` bot), ``curve.png`` (mean net per hand while training, and the evaluation),
``curve.csv`` and ``results.json``.

The evaluation is duplicate play, as ``paiju arena`` does it: each deal is played four
times with the policy in each seat and ``greedy`` in the others; the 95% interval of the
policy's mean net per hand is taken over deals (one deal gives no interval).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any, cast

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

import gymnasium as gym

import paiju.env  # noqa: F401  (registers paiju/Mazhan-v0)
from paiju.env.features import ScaledFlat, SkipPolicy, lookahead_slice
from paiju.env.policy import save_metadata
from paiju.env.single import PaijuSingleEnv
from paiju.stats import NO_INTERVAL, mean_interval

# torch, sb3-contrib and stable-baselines3 (the [rl] extra) are imported where they are used,
# so that the arguments are checked (and this module imported) without them.

NET_SCALE = 400.0  # the single-agent env's reward is net 胡 / 400


def single(env: gym.Env[Any, Any]) -> PaijuSingleEnv:
    """The project's single-agent env under gymnasium's wrappers."""
    return cast(PaijuSingleEnv, env.unwrapped)


def curve_callback(seconds: float, every: int = 500) -> Any:
    """An sb3 callback that records each finished hand's net (胡) and stops when the time is
    up (its ``points``: steps, mean net, minutes)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Curve(BaseCallback):  # type: ignore[misc]  # sb3 ships no type information
        def __init__(self) -> None:
            super().__init__()
            self.every = every
            self.deadline = time.monotonic() + seconds
            self.points: list[tuple[int, float, float]] = []  # steps, mean net, minutes
            self.window: list[float] = []
            self.start = time.monotonic()

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done and "net" in info:
                    self.window.append(info["net"])
            if len(self.window) >= self.every:
                minutes = (time.monotonic() - self.start) / 60
                self.points.append((self.num_timesteps, float(np.mean(self.window)), minutes))
                print(
                    f"{minutes:5.1f} min {self.num_timesteps:>9,} steps  mean net "
                    f"{self.points[-1][1]:+7.1f} 胡 over the last {len(self.window)} hands",
                    flush=True,
                )
                self.window = []
            return time.monotonic() < self.deadline

    return Curve()


class NetInfo(gym.Wrapper[Any, Any, Any, Any]):
    """Adds the hand's net in 胡 (without shaping) to the info of the last step."""

    def step(self, action: Any) -> Any:
        obs, reward, term, trunc, info = self.env.step(action)
        if term or trunc:
            inner = single(self.env)
            info = {**info, "net": inner.table.scores[inner.me]}
        return obs, reward, term, trunc, info

    def action_masks(self) -> Any:
        return single(self.env).action_masks()


def make_env(seed: int, shaping: float, gamma: float, lookahead: bool) -> Any:
    def thunk() -> Any:
        env = gym.make(
            "paiju/Mazhan-v0",
            opponents="greedy",
            seat="rotate",
            hints=True,
            lookahead=lookahead,
            shaping=shaping,
            shaping_gamma=gamma,
        )
        env = NetInfo(env)
        env.reset(seed=seed)
        return env

    return thunk


def evaluate(model: Any, deals: int, seed: int, lookahead: bool) -> dict[str, Any]:
    """Duplicate play against greedy: the policy in each seat of every deal."""
    envs = {
        seat: single(
            gym.make(
                "paiju/Mazhan-v0", opponents="greedy", seat=seat, hints=True, lookahead=lookahead
            )
        )
        for seat in "ESWN"
    }
    per_deal = []
    wins = hands = 0
    for d in range(deals):
        total = 0.0
        played = 0
        for env in envs.values():
            obs, info = env.reset(seed=seed + d)
            # hands that ended before the policy's first decision (a 天胡 or 地胡) count too
            for reward in info.get("skipped", []):
                total += reward / env.reward_rules.scale
                played += 1
            done = False
            while not done:
                action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
                obs, _r, done, _t, _i = env.step(int(action))
            net = env.table.scores[env.me]
            total += net
            played += 1
            result = env.table.state.result
            wins += (
                result.winner is not None and result.winner.number - 1 == env.table.seat_of[env.me]
            )
        hands += played
        per_deal.append(total / played)
    return summarize(per_deal, wins, hands)


def summarize(per_deal: list[float], wins: int, hands: int) -> dict[str, Any]:
    """The evaluation's figures: the mean net per hand with its 95% interval over deals
    (Student's t; ``ci95`` is ``None`` for a single deal, which gives no interval).

    >>> summarize([10.0], 1, 4)["ci95"] is None
    True
    >>> [round(x, 2) for x in summarize([10.0, 20.0, 30.0], 3, 12)["ci95"]]
    [-4.84, 44.84]
    """
    m = mean_interval(per_deal)
    return {
        "deals": len(per_deal),
        "hands": hands,
        "mean_net": m.mean,
        "ci95": [m.lo, m.hi] if m.defined else None,
        "win_rate": wins / hands,
    }


def interval_text(ev: dict[str, Any]) -> str:
    """The evaluation's interval as printed: ``[lo, hi]``, or that there is none.

    >>> interval_text(summarize([10.0], 1, 4))
    '(n < 2: no interval)'
    """
    if ev["ci95"] is None:
        return f"({NO_INTERVAL})"
    lo, hi = ev["ci95"]
    return f"[{lo:+.1f}, {hi:+.1f}]"


#: Kinds of decision, by the teacher's action and the mask (see :func:`kind_of`).
KINDS = ("discard", "claim", "win/kong")


def kind_of(mask: np.ndarray, action: int) -> int:
    """0: a discard on the seat's turn; 1: an answer in a claim window (pass among the legal
    actions); 2: a win or a kong on the seat's turn."""
    if mask[127]:
        return 1
    return 0 if action < 34 else 2


def demonstrations(
    teacher: str, seconds: float, seed: int, gamma: float, lookahead: bool
) -> dict[str, np.ndarray]:
    """A bot's decisions in the learner's seat against greedy, collected for ``seconds``:
    observations, masks, actions, discounted returns, kinds and the hand of each."""
    import random

    from paiju.simulate import make_player

    env = single(
        gym.make(
            "paiju/Mazhan-v0", opponents="greedy", seat="rotate", hints=True, lookahead=lookahead
        )
    )
    bot = make_player("mazhan", teacher)  # a bot, or policy:PATH
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    rows: list[tuple[np.ndarray, np.ndarray, int, int]] = []
    returns: list[float] = []
    rewards: list[float] = []
    hand = 0
    deadline = time.monotonic() + seconds
    while True:
        table = env.table
        seat = table.rules.seats[table.seat_of[env.me]]
        action = bot.act(table.rules.observe(table.state, seat), table.legal_actions(env.me), rng)
        index = table.spec.action_index(action)
        rows.append((obs, env.action_masks(), index, hand))
        obs, reward, done, _, _ = env.step(index)
        rewards.append(float(reward))
        if done:
            g = 0.0
            back = []
            for r in reversed(rewards):
                g = r + gamma * g
                back.append(g)
            returns.extend(reversed(back))
            rewards = []
            hand += 1
            if time.monotonic() > deadline:
                break
            obs, _ = env.reset()
    rows = rows[: len(returns)]
    masks = np.array([r[1] for r in rows], dtype=bool)
    actions = np.array([r[2] for r in rows], dtype=np.int64)
    return {
        "obs": np.array([r[0] for r in rows], dtype=np.float32),
        "masks": masks,
        "actions": actions,
        "returns": np.array(returns, dtype=np.float32),
        "kinds": np.array([kind_of(m, a) for m, a in zip(masks, actions, strict=True)]),
        "hands": np.array([r[3] for r in rows], dtype=np.int64),
    }


def best_sets(data: dict[str, np.ndarray], lookahead: bool) -> np.ndarray:
    """For each decision, the actions the teacher was indifferent between (a boolean row of
    128): on its turn ``strong`` draws at random among the discards it rates equal best
    (``la_rating`` 1), so any of them is its choice; otherwise its action alone (claims keep
    the pass on a tie; wins and kongs are not rated)."""
    n = len(data["actions"])
    sets = np.zeros((n, 128), dtype=bool)
    sets[np.arange(n), data["actions"]] = True
    if not lookahead or data["obs"].shape[1] < lookahead_slice("mazhan", hints=True)[1]:
        return sets
    start = lookahead_slice("mazhan", hints=True)[0] + 512  # la_rating
    rating = data["obs"][:, start : start + 128]
    turn = (data["kinds"] == 0) & (rating[np.arange(n), data["actions"]] == 1.0)
    sets[turn] |= (rating[turn] == 1.0) & data["masks"][turn]
    return sets


def _predict(policy: Any, obs: Any, masks: np.ndarray) -> np.ndarray:
    """The policy's most likely action, decision by decision."""
    import torch

    out = []
    with torch.no_grad():
        for k in range(0, len(obs), 4096):
            dist = policy.get_distribution(obs[k : k + 4096], action_masks=masks[k : k + 4096])
            out.append(dist.distribution.probs.argmax(dim=1).numpy())
    return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)


def by_kind(
    chosen: np.ndarray, actions: np.ndarray, sets: np.ndarray, kinds: np.ndarray
) -> dict[str, Any]:
    """Accuracy (the teacher's exact action; and one it rated as good, ``equal``) over all
    decisions and by kind, with the count of each."""
    exact = chosen == actions
    equal = sets[np.arange(len(chosen)), chosen]
    out: dict[str, Any] = {"n": len(chosen)}
    out["all"] = float(exact.mean()) if len(chosen) else None
    out["all_equal"] = float(equal.mean()) if len(chosen) else None
    for k, name in enumerate(KINDS):
        sel = kinds == k
        out[name] = float(exact[sel].mean()) if sel.any() else None
        out[f"{name}_equal"] = float(equal[sel].mean()) if sel.any() else None
        out[f"n_{name}"] = int(sel.sum())
    return out


def imitate(
    model: Any,
    data: dict[str, np.ndarray],
    lookahead: bool,
    max_epochs: int = 40,
    patience: int = 4,
    weight_decay: float = 1e-4,
    held_out: float = 0.15,
    seed: int = 0,
    deadline: float | None = None,
) -> dict[str, Any]:
    """Fit the policy to the teacher's choices (the likelihood of the set it was indifferent
    between, :func:`best_sets`) and the value to its returns (behaviour cloning) on 85% of
    the hands; stop when the accuracy on the other 15% has not improved for ``patience``
    epochs and keep the best epoch's weights; also stop after the epoch that ends past
    ``deadline`` (``time.monotonic()``, the training budget's end). The accuracies (training
    and held out, by kind of decision)."""
    import torch

    hands = np.unique(data["hands"])
    gen = np.random.default_rng(seed)
    test_hands = gen.choice(hands, size=max(1, int(len(hands) * held_out)), replace=False)
    test = np.isin(data["hands"], test_hands)
    tr, te = np.flatnonzero(~test), np.flatnonzero(test)
    obs = torch.as_tensor(data["obs"])
    actions = data["actions"]
    returns = torch.as_tensor(data["returns"])
    masks = data["masks"]
    sets = best_sets(data, lookahead)
    sets_t = torch.as_tensor(sets)
    policy = model.policy
    head = getattr(policy.action_net, "per_action", None)  # SkipPolicy's shared rating reader
    first = torch.optim.AdamW(head.parameters(), lr=1e-2) if head is not None else None
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-3, weight_decay=weight_decay)
    idx = torch.as_tensor(tr)
    best, best_state, stale, epochs = -1.0, None, 0, 0
    for epoch in range(max_epochs):
        epochs += 1
        policy.train()
        # the first epoch fits the shared rating reader alone: the logits start from
        # strong's own ratings and the hidden layers learn what they leave out
        opt = first if epoch == 0 and first is not None else optimizer
        order = idx[torch.randperm(len(idx))]
        for k in range(0, len(order), 256):
            i = order[k : k + 256]
            ni = i.numpy()
            logits = policy.get_distribution(obs[i], action_masks=masks[ni]).distribution.logits
            chosen = torch.logsumexp(logits.masked_fill(~sets_t[i], -1e9), dim=1)
            log_p = chosen - torch.logsumexp(logits, dim=1)
            values = policy.predict_values(obs[i]).flatten()
            loss = -log_p.mean() + 0.5 * ((values - returns[i]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        policy.eval()
        acc = float(sets[te, _predict(policy, obs[te], masks[te])].mean())
        if acc > best:
            best, stale = acc, 0
            best_state = {k: v.clone() for k, v in policy.state_dict().items()}
        else:
            stale += 1
            if stale >= patience:
                break
        if deadline is not None and time.monotonic() >= deadline:
            break
    if best_state is not None:
        policy.load_state_dict(best_state)
    policy.set_training_mode(False)
    kinds = data["kinds"]
    return {
        "epochs": epochs,
        "train": by_kind(_predict(policy, obs[tr], masks[tr]), actions[tr], sets[tr], kinds[tr]),
        "held_out": by_kind(_predict(policy, obs[te], masks[te]), actions[te], sets[te], kinds[te]),
        "decisions": len(actions),
        "hands": len(hands),
        "held_out_hands": len(test_hands),
    }


def describe(acc: dict[str, Any]) -> str:
    """One line: all, discards, claims, wins and kongs (exact, then rated equal best)."""
    parts = [f"{acc['all']:.1%} (rated equal {acc['all_equal']:.1%}) of {acc['n']:,}"]
    for name in KINDS:
        if acc[name] is not None:
            eq = acc[f"{name}_equal"]
            parts.append(f"{name} {acc[name]:.1%} ({eq:.1%}, {acc[f'n_{name}']:,})")
    return ", ".join(parts)


def plot(points: list[tuple[int, float, float]], ev: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if points:
        steps = [p[0] for p in points]
        ax.plot(steps, [p[1] for p in points], label="training (mean net per hand, 500 hands)")
        x = steps[-1]
    else:
        x = 0
    if ev["ci95"] is None:  # one deal: no interval
        ax.plot([x], [ev["mean_net"]], "o", color="C3", label=f"evaluation, {ev['hands']} hands")
    else:
        lo, hi = ev["ci95"]
        ax.errorbar(
            [x],
            [ev["mean_net"]],
            yerr=[[ev["mean_net"] - lo], [hi - ev["mean_net"]]],
            fmt="o",
            color="C3",
            capsize=4,
            label=f"evaluation, {ev['hands']} duplicate hands (95% interval)",
        )
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("net (hu) per hand against 3 greedy")
    ax.set_title("MaskablePPO on paiju/Mazhan-v0")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _at_least(low: float, kind: type[int] | type[float], strict: bool = False) -> Any:
    """An argparse type: a number of ``kind`` ≥ ``low`` (> ``low`` when ``strict``)."""

    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            what = "a whole number" if kind is int else "a number"
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (strict and value == low):
            raise argparse.ArgumentTypeError(
                f"must be {'more than' if strict else 'at least'} {low:g}, got {text}"
            )
        return value

    return parse


def _teacher(name: str) -> str:
    """An argparse type: a Mazhan bot or ``policy:PATH`` to imitate, or ``none``."""
    if name == "none":
        return name
    from paiju.simulate import make_player

    try:
        make_player("mazhan", name)
    except (ValueError, OSError, ImportError) as err:
        raise argparse.ArgumentTypeError(f"{err} (or 'none')") from None
    return name


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked before anything is built: counts ≥ 1, times > 0,
    ``--imitate-minutes`` within ``--minutes``, a known bot to imitate (argparse errors,
    exit status 2).

    >>> parse_args(["--minutes", "10"]).imitate_minutes
    4.0
    >>> parse_args(["--minutes", "2"]).imitate_minutes  # the default, capped by the budget
    2.0
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--minutes",
        type=_at_least(0, float, strict=True),
        default=25.0,
        help="the training budget: recording and fitting the imitation, then PPO",
    )
    parser.add_argument(
        "--envs", type=_at_least(1, int), default=8, help="environments stepped together"
    )
    parser.add_argument(
        "--workers", type=_at_least(1, int), default=1, help="processes for the envs"
    )
    parser.add_argument(
        "--eval-deals",
        type=_at_least(1, int),
        default=1000,
        help="duplicate deals (4 hands each) played after the budget",
    )
    parser.add_argument(
        "--shaping", type=_at_least(0, float), default=0.1, help="Φ = −shaping × shanten"
    )
    parser.add_argument(
        "--imitate",
        type=_teacher,
        default="strong",
        help="a bot (or policy:PATH) to imitate first (behaviour cloning); 'none' for PPO "
        "from scratch",
    )
    parser.add_argument(
        "--imitate-minutes",
        type=_at_least(0, float, strict=True),
        default=None,
        help="of --minutes, collecting its play (default 4, at most --minutes)",
    )
    parser.add_argument(
        "--demos", type=Path, default=None, help="an .npz of demonstrations to use (or write)"
    )
    parser.add_argument("--weight-decay", type=float, default=1e-4, help="imitation AdamW")
    parser.add_argument("--no-lookahead", action="store_true", help="hints only, plain MLP")
    parser.add_argument("--lr", type=float, default=None, help="PPO learning rate")
    parser.add_argument("--ent", type=float, default=None, help="PPO entropy bonus")
    parser.add_argument("--seed", type=_at_least(0, int), default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = parser.parse_args(argv)
    if args.imitate_minutes is None:
        args.imitate_minutes = min(4.0, args.minutes)
    elif args.imitate_minutes > args.minutes:
        parser.error(
            f"--imitate-minutes ({args.imitate_minutes:g}) must be within --minutes "
            f"({args.minutes:g}), the whole training budget"
        )
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    except ImportError as err:
        raise SystemExit(
            f"train_ppo.py needs the [rl] extra ({err}): pip install -e '.[rl]'"
        ) from None

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    gamma = 0.99
    lookahead = not args.no_lookahead
    warm = args.imitate != "none"
    # after imitation PPO only fine-tunes: a small step and no entropy bonus keep what was
    # learnt; from scratch it explores
    lr = args.lr if args.lr is not None else (2e-5 if warm else 3e-4)
    ent = args.ent if args.ent is not None else (0.0 if warm else 0.01)
    thunks = [
        make_env(args.seed * 1000 + i, args.shaping, gamma, lookahead) for i in range(args.envs)
    ]
    venv = SubprocVecEnv(thunks) if args.workers > 1 else DummyVecEnv(thunks)
    policy_kwargs: dict[str, Any] = {
        "net_arch": [256, 256],
        "features_extractor_class": ScaledFlat,
        "features_extractor_kwargs": {"game": "mazhan", "hints": True, "lookahead": lookahead},
    }
    if lookahead:
        policy_kwargs["skip"] = lookahead_slice("mazhan", hints=True)
    model = MaskablePPO(
        SkipPolicy if lookahead else "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=10,
        learning_rate=lr,
        gamma=gamma,
        gae_lambda=0.95,
        ent_coef=ent,
        policy_kwargs=policy_kwargs,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    started = time.monotonic()
    imitation = None
    if warm:
        if args.demos is not None and args.demos.exists():
            data = dict(np.load(args.demos))
            if not lookahead:  # recorded with the look-ahead features: drop them
                data["obs"] = data["obs"][:, : lookahead_slice("mazhan", hints=True)[0]]
        else:
            data = demonstrations(
                args.imitate, args.imitate_minutes * 60, args.seed, gamma, lookahead
            )
            if args.demos is not None:
                np.savez_compressed(args.demos, allow_pickle=False, **data)
        collected = time.monotonic() - started
        print(
            f"recorded {args.imitate}: {len(data['actions']):,} decisions in "
            f"{len(np.unique(data['hands'])):,} hands, {collected / 60:.1f} min",
            flush=True,
        )
        imitation = imitate(
            model,
            data,
            lookahead,
            weight_decay=args.weight_decay,
            seed=args.seed,
            deadline=started + args.minutes * 60,
        )
        print(
            f"imitated {args.imitate} in {imitation['epochs']} epochs; accuracy on its "
            f"decisions, training: {describe(imitation['train'])}",
            flush=True,
        )
        print(
            f"  held out ({imitation['held_out_hands']:,} hands): "
            f"{describe(imitation['held_out'])}; {(time.monotonic() - started) / 60:.1f} min",
            flush=True,
        )
    curve = curve_callback(args.minutes * 60 - (time.monotonic() - started))
    if curve.deadline > time.monotonic():
        model.learn(total_timesteps=10**9, callback=curve)
    trained = time.monotonic() - started
    path = args.out / "policy.zip"
    model.save(str(path))
    save_metadata(path, "mazhan", "flat", hints=True, lookahead=lookahead)
    ev = evaluate(model, args.eval_deals, seed=10**6 + args.seed, lookahead=lookahead)
    results = {
        "train_minutes": trained / 60,
        "timesteps": model.num_timesteps,
        "imitation": imitation,
        "evaluation": ev,
        "load": os.getloadavg(),
        "args": {k: str(v) for k, v in vars(args).items()},
    }
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    with (args.out / "curve.csv").open("w") as f:
        f.write("steps,mean_net,minutes\n")
        for s, m, t in curve.points:
            f.write(f"{s},{m:.2f},{t:.2f}\n")
    plot(curve.points, ev, args.out / "curve.png")
    print(
        f"trained {trained / 60:.1f} min, {model.num_timesteps:,} steps; against greedy: "
        f"mean net {ev['mean_net']:+.1f} 胡 per hand {interval_text(ev)} over "
        f"{ev['hands']} hands; win rate {ev['win_rate']:.1%}"
    )


if __name__ == "__main__":
    main()
