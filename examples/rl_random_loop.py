"""A random agent on paiju's PettingZoo environments: the AEC loop every RL library expects.

.venv/bin/python examples/rl_random_loop.py [mazhan|madiao] [hands]
"""

from __future__ import annotations

import argparse

import numpy as np

from paiju.madiao.env import madiao_v0
from paiju.mazhan.env import mazhan_v0

MODULES = {"mazhan": mazhan_v0, "madiao": madiao_v0}


def main(game: str = "mazhan", hands: int = 3) -> None:
    """Play ``hands`` hands of ``game`` with a random agent in every seat.

    Raises ``ValueError`` for an unknown game or fewer than one hand.
    """
    if game not in MODULES:
        raise ValueError(f"unknown game {game!r} (choose from {', '.join(MODULES)})")
    if hands < 1:
        raise ValueError(f"hands must be 1 or more, got {hands}")
    env = MODULES[game].env()
    rng = np.random.default_rng(0)
    for hand in range(hands):
        env.reset(seed=hand)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _info = env.last()
            totals[agent] += reward
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(rng.choice(legal))  # a policy would look at observation here
                steps += 1
            env.step(action)
        print(f"hand {hand}: {steps} steps, rewards {totals}")
    env.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line: a game (``mazhan`` or ``madiao``) and a number of hands ≥ 1."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", nargs="?", default="mazhan", choices=sorted(MODULES))
    parser.add_argument("hands", nargs="?", default=3, type=int)
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error(f"hands must be 1 or more, got {args.hands}")
    return args


if __name__ == "__main__":
    arguments = parse_args()
    main(arguments.game, arguments.hands)
