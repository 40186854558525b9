"""A random agent in the RISK environments: the smallest complete use of risk.env.

    python examples/env_random.py                      # PettingZoo: two random agents and a quick bot
    python examples/env_random.py --gym --games 5      # Gymnasium: one random agent against two quick bots
    python examples/env_random.py --edition 2003 --game mission

Each step picks uniformly among the legal actions (the observation's ``action_mask``), so no action
is ever refused. Needs the research extra: pip install 'risk[research]'.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from risk.env import AGENT, RiskEnv, RiskGymEnv


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def pettingzoo_games(edition: str, game: str, games: int, max_turns: int) -> None:
    env = RiskEnv(edition, game, [AGENT, AGENT, "quick"], max_turns=max_turns)
    rng = np.random.default_rng(0)
    totals: Counter[str] = Counter()
    for seed in range(games):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)  # PettingZoo: a finished agent steps with None once
            else:
                env.step(random_legal(observation["action_mask"], rng))
        assert env.game is not None
        winner = env.game.winner
        print(f"game {seed}: " + ("turn cap, a draw" if winner is None else f"won by {env.names[winner]}"))
    print("total rewards:", dict(totals))


def gymnasium_games(edition: str, game: str, games: int, max_turns: int) -> None:
    env = RiskGymEnv(edition, game, [AGENT, "quick", "quick"], max_turns=max_turns)
    rng = np.random.default_rng(0)
    for seed in range(games):
        observation, _ = env.reset(seed=seed)
        steps, done, reward = 0, False, 0.0
        while not done:
            observation, reward, terminated, truncated, _ = env.step(
                random_legal(observation["action_mask"], rng)
            )
            steps += 1
            done = terminated or truncated
        print(f"game {seed}: {steps} steps, reward {reward:+.0f}")
    env.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edition", default="2008")
    parser.add_argument("--game", default="world")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=200)
    parser.add_argument("--gym", action="store_true", help="the Gymnasium environment (one agent)")
    args = parser.parse_args()
    if args.gym:
        gymnasium_games(args.edition, args.game, args.games, args.max_turns)
    else:
        pettingzoo_games(args.edition, args.game, args.games, args.max_turns)


if __name__ == "__main__":
    main()
