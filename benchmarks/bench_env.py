"""The environment's speed against the raw engine's, in one run (issue 24, item 3); run by hand:

    .venv/bin/python benchmarks/bench_env.py                  # 3-player 2008 world, medians of 3
    .venv/bin/python benchmarks/bench_env.py --games 20 --max-turns 60 --repeats 5
    .venv/bin/python benchmarks/bench_env.py --json out.json

Both sides play random legal actions on every seat, seeds 0..N-1, each game to its end or the turn
cap, in one process:

- engine, random: the engine alone: list the legal actions (``game.legal_actions()``), pick one at
  random, ``game.apply`` it (checked). The target of the issue: the environment at half this rate.
- environment: ``RiskEnv`` with an agent on every seat: ``env.last()`` (the observation dict with
  its action mask, built every step), a random legal index from the mask, ``env.step``.
- engine, replay (for reference): the checked ``apply`` of recorded actions, with no choosing
  at all (``bench_engine.py``'s "checked apply"); no environment can choose and observe that fast.

Each figure is the median of ``--repeats`` runs. The machine may be shared: the load average before
and after is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

import numpy as np

from risk.env import AGENT, RiskEnv
from risk.rules.game import Game
from risk.rules.options import Rules


def engine_random(rules: Rules, players: int, games: int, max_turns: int) -> tuple[float, list[list[Any]]]:
    """Random legal actions on the engine alone: actions per second, and the actions played."""
    played: list[list[Any]] = []
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn <= max_turns:
            game.apply(rng.choice(list(game.legal_actions())))
            actions += 1
        played.append([value for kind, _, value in game.history if kind == "action"])
    return actions / (time.perf_counter() - started), played


def engine_replay(rules: Rules, players: int, played: list[list[Any]]) -> float:
    total = sum(len(actions) for actions in played)
    started = time.perf_counter()
    for seed, actions in enumerate(played):
        game = Game(rules, players, seed=seed)
        for action in actions:
            game.apply(action)
    return total / (time.perf_counter() - started)


def environment(edition: str, players: int, games: int, max_turns: int) -> tuple[float, int]:
    """Random legal actions through RiskEnv: steps per second and games that finished."""
    env = RiskEnv(edition, "world", [AGENT] * players, max_turns=max_turns)
    steps = finished = 0
    started = time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        finished += bool(env.game is not None and env.game.is_over)
    return steps / (time.perf_counter() - started), finished


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edition", default="2008")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--max-turns", type=int, default=100, help="random games rarely end: the turn cap")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.games < 1 or args.repeats < 1 or args.max_turns < 1:
        parser.error("--games, --repeats and --max-turns must be at least 1")
    rules = Rules.preset(args.edition)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows: dict[str, list[float]] = {"engine_random": [], "engine_replay": [], "env_steps": []}
    finished = 0
    for _ in range(args.repeats):
        rate, played = engine_random(rules, args.players, args.games, args.max_turns)
        rows["engine_random"].append(rate)
        rows["engine_replay"].append(engine_replay(rules, args.players, played))
        steps, finished = environment(args.edition, args.players, args.games, args.max_turns)
        rows["env_steps"].append(steps)
    figures: dict[str, Any] = {key: statistics.median(values) for key, values in rows.items()}
    figures["env_over_engine_random"] = figures["env_steps"] / figures["engine_random"]
    figures["env_over_engine_replay"] = figures["env_steps"] / figures["engine_replay"]
    print(
        f"{args.players}p {args.edition} world, {args.games} games (turn cap {args.max_turns}), "
        f"medians of {args.repeats}:\n"
        f"  engine, random legal actions, checked apply: {figures['engine_random']:10,.0f} actions/s\n"
        f"  environment, observation every step:         {figures['env_steps']:10,.0f} steps/s "
        f"({figures['env_over_engine_random']:.2f} x the engine; {finished} of {args.games} games ended)\n"
        f"  engine, replaying the same actions (no choice): {figures['engine_replay']:7,.0f} actions/s "
        f"(the environment: {figures['env_over_engine_replay']:.2f} x)"
    )
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
