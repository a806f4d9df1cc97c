"""Train a Mazhan policy against three ``greedy`` bots with sb3-contrib's ``MaskablePPO``.

Needs the ``[rl]`` extra (``pip install -e '.[rl]'``). Within ``--minutes`` (25): the first
``--imitate-minutes`` (10) record the ``strong`` bot playing the learner's seat and fit the
policy to its decisions (behaviour cloning; ``--imitate none`` skips it), then PPO trains
against three ``greedy`` bots; then a duplicate evaluation. ``docs/env.md`` walks through it
and ``benchmarks/RESULTS.md`` records a run.

    python examples/train_ppo.py --minutes 25 --out runs/ppo
    paiju arena mazhan --bots policy:runs/ppo/policy.zip,greedy,greedy,greedy

Writes into ``--out``: ``policy.zip`` and ``policy.zip.json`` (the policy, loadable as a
``paiju arena`` bot), ``curve.png`` (mean net per hand while training, and the evaluation),
``curve.csv`` and ``results.json``.

The evaluation is duplicate play, as ``paiju arena`` does it: each deal is played four
times with the policy in each seat and ``greedy`` in the others; the 95% interval of the
policy's mean net per hand is taken over deals.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("OMP_NUM_THREADS", "1")

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

import paiju.env  # noqa: F401  (registers paiju/Mazhan-v0)
from paiju.arena import mean_ci
from paiju.env.features import ScaledFlat
from paiju.env.policy import save_metadata

NET_SCALE = 400.0  # the single-agent env's reward is net 胡 / 400


class Curve(BaseCallback):
    """Records each finished hand's net (胡) and stops when the time is up."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds
        self.points: list[tuple[int, float, float]] = []  # steps, mean net, minutes
        self.window: list[float] = []
        self.start = time.monotonic()

    def _on_step(self) -> bool:
        for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
            if done and "net" in info:
                self.window.append(info["net"])
        if len(self.window) >= 2000:
            minutes = (time.monotonic() - self.start) / 60
            self.points.append((self.num_timesteps, float(np.mean(self.window)), minutes))
            print(
                f"{minutes:5.1f} min {self.num_timesteps:>9,} steps  "
                f"mean net {self.points[-1][1]:+7.1f} 胡 over the last {len(self.window)} hands",
                flush=True,
            )
            self.window = []
        return time.monotonic() < self.deadline


class NetInfo(gym.Wrapper[Any, Any, Any, Any]):
    """Adds the hand's net in 胡 (without shaping) to the info of the last step."""

    def step(self, action: Any) -> Any:
        obs, reward, term, trunc, info = self.env.step(action)
        if term or trunc:
            info = {**info, "net": self.env.unwrapped.table.scores[self.env.unwrapped.me]}
        return obs, reward, term, trunc, info

    def action_masks(self) -> Any:
        return self.env.unwrapped.action_masks()


def make_env(seed: int, shaping: float, gamma: float) -> Any:
    def thunk() -> Any:
        env = gym.make(
            "paiju/Mazhan-v0",
            opponents="greedy",
            seat="rotate",
            hints=True,
            shaping=shaping,
            shaping_gamma=gamma,
        )
        env = NetInfo(env)
        env.reset(seed=seed)
        return env

    return thunk


def evaluate(model: Any, deals: int, seed: int) -> dict[str, Any]:
    """Duplicate play against greedy: the policy in each seat of every deal."""
    envs = {
        seat: gym.make("paiju/Mazhan-v0", opponents="greedy", seat=seat, hints=True).unwrapped
        for seat in "ESWN"
    }
    per_deal = []
    wins = hands = 0
    for d in range(deals):
        total = 0.0
        for env in envs.values():
            obs, _ = env.reset(seed=seed + d)
            done = False
            while not done:
                action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
                obs, _r, done, _t, _i = env.step(int(action))
            net = env.table.scores[env.me]
            total += net
            hands += 1
            result = env.table.state.result
            wins += (
                result.winner is not None and result.winner.number - 1 == env.table.seat_of[env.me]
            )
        per_deal.append(total / 4)
    mean, lo, hi = mean_ci(per_deal)
    return {
        "deals": deals,
        "hands": hands,
        "mean_net": mean,
        "ci95": [lo, hi],
        "win_rate": wins / hands,
    }


def demonstrations(
    teacher: str, seconds: float, seed: int, gamma: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A bot's decisions in the learner's seat against greedy, as (observations, masks,
    actions, discounted returns), collected for ``seconds``."""
    import random

    from paiju.bots.base import make_bot

    env = gym.make("paiju/Mazhan-v0", opponents="greedy", seat="rotate", hints=True).unwrapped
    bot = make_bot("mazhan", teacher)
    rng = random.Random(seed)
    obs, _ = env.reset(seed=seed)
    rows: list[tuple[np.ndarray, np.ndarray, int]] = []
    returns: list[float] = []
    rewards: list[float] = []
    deadline = time.monotonic() + seconds
    while True:
        table = env.table
        seat = table.rules.seats[table.seat_of[env.me]]
        action = bot.act(table.rules.observe(table.state, seat), table.legal_actions(env.me), rng)
        index = table.spec.action_index(action)
        rows.append((obs, env.action_masks(), index))
        obs, reward, done, _, _ = env.step(index)
        rewards.append(reward)
        if done:
            g = 0.0
            for r in reversed(rewards):
                g = r + gamma * g
                returns.append(g)
            returns[len(returns) - len(rewards) :] = returns[len(returns) - len(rewards) :][::-1]
            rewards = []
            if time.monotonic() > deadline:
                break
            obs, _ = env.reset()
    rows = rows[: len(returns)]
    return (
        np.array([r[0] for r in rows], dtype=np.float32),
        np.array([r[1] for r in rows], dtype=bool),
        np.array([r[2] for r in rows], dtype=np.int64),
        np.array(returns, dtype=np.float32),
    )


def imitate(model: Any, data: tuple[np.ndarray, ...], epochs: int) -> float:
    """Fit the policy to the teacher's actions and the value to its returns (behaviour
    cloning); the final accuracy on the teacher's actions."""
    obs, masks, actions, returns = (torch.as_tensor(x) for x in data)
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
    n = len(actions)
    for _ in range(epochs):
        order = torch.randperm(n)
        for k in range(0, n, 256):
            i = order[k : k + 256]
            values, log_prob, _ = policy.evaluate_actions(obs[i], actions[i], masks[i].numpy())
            loss = -log_prob.mean() + 0.5 * ((values.flatten() - returns[i]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        dist = policy.get_distribution(obs, action_masks=masks.numpy())
        chosen = dist.distribution.probs.argmax(dim=1)
    return float((chosen == actions).float().mean())


def plot(points: list[tuple[int, float, float]], ev: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    if points:
        steps = [p[0] for p in points]
        ax.plot(steps, [p[1] for p in points], label="training (mean net per hand, 2,000 hands)")
        x = steps[-1]
    else:
        x = 0
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=25.0, help="training time")
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--workers", type=int, default=1, help="processes for the envs")
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--shaping", type=float, default=0.1, help="Φ = −shaping × shanten")
    parser.add_argument(
        "--imitate",
        default="strong",
        help="a bot to imitate first (behaviour cloning); 'none' for PPO from scratch",
    )
    parser.add_argument(
        "--imitate-minutes", type=float, default=10.0, help="of --minutes, collecting its play"
    )
    parser.add_argument("--lr", type=float, default=None, help="PPO learning rate")
    parser.add_argument("--ent", type=float, default=None, help="PPO entropy bonus")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    gamma = 0.99
    warm = args.imitate != "none"
    # after imitation PPO only fine-tunes: a small step and no entropy bonus keep what was
    # learnt; from scratch it explores
    lr = args.lr if args.lr is not None else (2e-5 if warm else 3e-4)
    ent = args.ent if args.ent is not None else (0.0 if warm else 0.01)
    thunks = [make_env(args.seed * 1000 + i, args.shaping, gamma) for i in range(args.envs)]
    venv = SubprocVecEnv(thunks) if args.workers > 1 else DummyVecEnv(thunks)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=10,
        learning_rate=lr,
        gamma=gamma,
        gae_lambda=0.95,
        ent_coef=ent,
        policy_kwargs={
            "net_arch": [256, 256],
            "features_extractor_class": ScaledFlat,
            "features_extractor_kwargs": {"game": "mazhan", "hints": True},
        },
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    started = time.monotonic()
    accuracy = None
    if args.imitate != "none":
        data = demonstrations(args.imitate, args.imitate_minutes * 60, args.seed, gamma)
        accuracy = imitate(model, data, epochs=8)
        print(
            f"imitated {args.imitate}: {len(data[2]):,} decisions, accuracy {accuracy:.1%}, "
            f"{(time.monotonic() - started) / 60:.1f} min",
            flush=True,
        )
    curve = Curve(args.minutes * 60 - (time.monotonic() - started))
    model.learn(total_timesteps=10**9, callback=curve)
    trained = time.monotonic() - started
    path = args.out / "policy.zip"
    model.save(str(path))
    save_metadata(path, "mazhan", "flat", hints=True)
    ev = evaluate(model, args.eval_deals, seed=10**6 + args.seed)
    results = {
        "train_minutes": trained / 60,
        "timesteps": model.num_timesteps,
        "imitation_accuracy": accuracy,
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
    lo, hi = ev["ci95"]
    print(
        f"trained {trained / 60:.1f} min, {model.num_timesteps:,} steps; against greedy: "
        f"mean net {ev['mean_net']:+.1f} 胡 per hand [{lo:+.1f}, {hi:+.1f}] over "
        f"{ev['hands']} hands; win rate {ev['win_rate']:.1%}"
    )


if __name__ == "__main__":
    main()
