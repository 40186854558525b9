"""The fastest any environment with risk.env's interface could step: an environment that does no work.

``bench_env.py``'s goal (issue 40) is the environment at half the engine's random-play rate. This
benchmark asks how much of that budget the interface itself takes, whatever the environment does:
``NullEnv`` is a PettingZoo ``AECEnv`` that plays no game. Its ``observe`` hands out fresh copies of
kept arrays shaped exactly as ``RiskEnv``'s observation (so the agent may keep it, as every
observation of ``RiskEnv`` may be kept), its ``step`` only passes the turn on, and the agent's loop
is ``bench_env.py``'s (``agent_iter``, ``last``, a random index among the mask's nonzero entries,
``step``), with a mask holding as many legal actions as a claim at the start of the game.

Four environments, measured interleaved with the engine (``bench_env.engine_random``), each rate the
median of ``--repeats`` runs in CPU seconds:

- ``RiskEnv`` (dict): the real environment, for reference;
- null, dict: the 15 arrays of the default observation (``observation="dict"``);
- null, classic: PettingZoo's classic layout (``observation="classic"``: the flat vector and the
  mask, 2 arrays);
- null, mask only: one array.

The ratio of a null environment to the engine is the most any environment with that observation
could reach; the goal is 0.5.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

from bench_env import CONFIGS, GOAL, Config, engine_random, environment
from risk.build import running_build
from risk.env import AGENT, RiskEnv

LEGAL_AT_START = 42  # a claim's legal actions on the classic board


class NullEnv(AECEnv):  # type: ignore[type-arg]
    """No game: fresh copies of kept arrays for an observation, a step that passes the turn on."""

    metadata: ClassVar[dict[str, Any]] = {"name": "null_v0"}

    def __init__(self, template: dict[str, np.ndarray], agents: list[str]) -> None:
        self.kept = {name: array.copy() for name, array in template.items()}
        self.kept["action_mask"][:] = 0
        self.kept["action_mask"][:LEGAL_AT_START] = 1
        self.possible_agents = list(agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.turn = 0
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {name: array.copy() for name, array in self.kept.items()}

    def step(self, action: int | None) -> None:
        self.turn += 1
        self.agent_selection = self.agents[self.turn % len(self.agents)]


def null_rate(template: dict[str, np.ndarray], agents: list[str], steps: int) -> float:
    """Steps a CPU second of bench_env.py's agent loop on a NullEnv."""
    env = NullEnv(template, agents)
    env.reset(seed=0)
    rng = random.Random(0)
    started = time.process_time()
    for _ in env.agent_iter(max_iter=steps):
        observation, _, _, _, _ = env.last()
        legal = observation["action_mask"].view(np.bool_).nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
    return steps / (time.process_time() - started)


def templates(config: Config) -> tuple[list[str], dict[str, dict[str, np.ndarray]]]:
    """The agents and a first observation of each layout, from the real environment."""
    made: dict[str, dict[str, np.ndarray]] = {}
    agents: list[str] = []
    for layout in ("dict", "classic"):
        env = RiskEnv(config.edition, config.game, [AGENT] * config.players, observation=layout)
        env.reset(seed=0)
        made[layout] = dict(env.observe(env.agent_selection))
        agents = list(env.possible_agents)
    made["mask only"] = {"action_mask": made["dict"]["action_mask"]}
    return agents, made


def measure(config: Config, games: int, max_turns: int, repeats: int, steps: int) -> dict[str, float]:
    agents, made = templates(config)
    runs: dict[str, list[float]] = {name: [] for name in ("engine", "RiskEnv (dict)", *made)}
    for _ in range(repeats):
        cpu, _, actions, _ = engine_random(config, games, max_turns)
        runs["engine"].append(actions / cpu)
        cpu, _, env_steps, _ = environment(config, games, max_turns)
        runs["RiskEnv (dict)"].append(env_steps / cpu)
        for layout, template in made.items():
            runs[layout].append(null_rate(template, agents, steps))
    return {name: statistics.median(rates) for name, rates in runs.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    names = [config.name for config in CONFIGS]
    parser.add_argument("--only", nargs="+", choices=names, default=["1993-6", "2003-4", "2008-3"])
    parser.add_argument("--games", type=int, default=4, help="the engine's and RiskEnv's games per run")
    parser.add_argument("--max-turns", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=20_000, help="a null environment's steps per run")
    args = parser.parse_args()
    print(f"build: {running_build()}; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows: list[tuple[Config, dict[str, float]]] = []
    for config in (config for config in CONFIGS if config.name in args.only):
        rows.append((config, measure(config, args.games, args.max_turns, args.repeats, args.steps)))
    columns = ["engine", "RiskEnv (dict)", "dict", "classic", "mask only"]
    heads = ["engine", "RiskEnv (dict)", "null, dict", "null, classic", "null, mask only"]
    print(
        f"\nsteps (actions) a CPU second, medians of {args.repeats}; in brackets the ratio to the engine "
        f"(goal {GOAL}):\n"
    )
    print("| edition | players | " + " | ".join(heads) + " |")
    print("|---|---|" + "---|" * len(heads))
    ratio: Callable[[dict[str, float], str], str] = lambda row, name: f"{row[name] / row['engine']:.2f}"  # noqa: E731
    for config, row in rows:
        cells = [f"{row['engine']:,.0f}"] + [f"{row[name]:,.0f} ({ratio(row, name)})" for name in columns[1:]]
        print(f"| {config.edition} | {config.players} | " + " | ".join(cells) + " |")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
