"""A random agent on paiju's PettingZoo environments: the AEC loop every RL library expects.

.venv/bin/python examples/rl_random_loop.py [mazhan|madiao] [hands]
"""

from __future__ import annotations

import sys

import numpy as np

from paiju.env import madiao_v0, mazhan_v0


def main(game: str = "mazhan", hands: int = 3) -> None:
    module = mazhan_v0 if game == "mazhan" else madiao_v0
    env = module.env()
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


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "mazhan", int(sys.argv[2]) if len(sys.argv) > 2 else 3
    )
