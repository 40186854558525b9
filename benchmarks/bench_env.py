"""The environment's speed against the raw engine's, every edition and player count in one run (issue 24,
item 3: environment steps per second at least half the engine's checked actions per second); by hand:

    .venv/bin/python benchmarks/bench_env.py                  # every edition, 2-6 players, medians of 5
    .venv/bin/python benchmarks/bench_env.py --quick          # a quick look (2 games, medians of 3)
    .venv/bin/python benchmarks/bench_env.py --max-turns 20   # mostly the setup: the hardest case
    .venv/bin/python benchmarks/bench_env.py --only 1993-6 2008-3 --repeats 9
    .venv/bin/python benchmarks/bench_env.py --json out.json

Configurations: each edition (1993, 2003, 2008) with 2 players (the rulebook's two-player game, with
its neutral armies) and with 3 to 6 players in the world game (2008's rules stop at 5). Both sides
play random legal actions on every seat, seeds 0..N-1, each game to its end or the turn cap, in one
process, with the same kind of generator (``random.Random(seed)``):

- engine: the engine alone: list the legal actions (``list(game.legal_actions())``), pick one at
  random, ``game.apply`` it (checked). The issue's target: the environment at half this rate.
- environment: ``RiskEnv`` with an agent on every seat: ``env.last()`` (the observation dict with
  its action mask, built every step), a random legal index from the mask (its nonzero entries),
  ``env.step``.
- replay (for reference): the checked ``apply`` of the engine's recorded actions, with no listing
  and no choosing (``bench_engine.py``'s "checked apply"); no environment can choose that fast.

The machine may be shared: the engine and the environment are measured interleaved, configuration
by configuration, in the same repeat (which goes first alternates from repeat to repeat), so a load
that comes and goes falls on both alike; rates are in CPU seconds of this process (less sensitive
than wall time to other processes); each rate is the median of ``--repeats`` runs and the ratio is
the median of the repeats' own ratios (each taken from an engine run and an environment run next
to each other); the wall-clock rates and ratio are printed beside them (on a busy machine the wall
time counts the time other processes took the core). The load average before and after is printed,
and the build measured (the compiled rules core, or pure Python with ``RISK_PURE=1``; docs/compiled.md).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from risk.build import running_build
from risk.env import AGENT, RiskEnv, make_rules
from risk.rules.game import Game
from risk.rules.options import Rules

GOAL = 0.5  # the goal: the environment at half the engine's rate or better


@dataclass(frozen=True)
class Config:
    edition: str
    players: int

    @property
    def game(self) -> str:
        return "two-player" if self.players == 2 else "world"

    @property
    def name(self) -> str:
        return f"{self.edition}-{self.players}"

    def rules(self) -> Rules:
        return make_rules(self.edition, self.game)


CONFIGS = tuple(
    Config(edition, players)
    for edition in ("1993", "2003", "2008")
    for players in range(2, 7)
    if not (edition == "2008" and players == 6)
)


def engine_random(config: Config, games: int, max_turns: int) -> tuple[float, float, int, list[list[Any]]]:
    """Random legal actions on the engine alone: CPU and wall seconds, actions, and the actions played."""
    rules = config.rules()
    played: list[list[Any]] = []
    actions = 0
    started, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        game = Game(rules, config.players, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn <= max_turns:
            game.apply(rng.choice(list(game.legal_actions())))
            actions += 1
        played.append([value for kind, _, value in game.history if kind == "action"])
    return time.process_time() - started, time.perf_counter() - wall, actions, played


def engine_replay(config: Config, played: list[list[Any]]) -> tuple[float, int]:
    """The checked apply of recorded actions: CPU seconds and actions."""
    rules = config.rules()
    started = time.process_time()
    for seed, actions in enumerate(played):
        game = Game(rules, config.players, seed=seed)
        for action in actions:
            game.apply(action)
    return time.process_time() - started, sum(len(actions) for actions in played)


def environment(config: Config, games: int, max_turns: int) -> tuple[float, float, int, int]:
    """Random legal actions through RiskEnv: CPU and wall seconds, steps, and the games that ended. The
    environment is made before the clock starts (once for many games, as a learner does); each
    game's ``reset`` is timed, as each game's ``Game(...)`` is on the engine's side."""
    env = RiskEnv(config.edition, config.game, [AGENT] * config.players, max_turns=max_turns)
    steps = finished = 0
    started, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            # The mask's legal indices, read as bool: NumPy finds the nonzero entries of a bool array
            # several times faster than those of the mask's int8 (docs/research.md says so to users).
            legal = observation["action_mask"].view(np.bool_).nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        finished += bool(env.game is not None and env.game.is_over)
    return time.process_time() - started, time.perf_counter() - wall, steps, finished


@dataclass
class Figures:
    engine: list[float]
    env: list[float]
    replay: list[float]
    ratios: list[float]
    engine_wall: list[float]
    env_wall: list[float]
    wall_ratios: list[float]
    finished: int = 0

    def row(self) -> dict[str, float]:
        return {
            "engine_actions_per_s": statistics.median(self.engine),
            "env_steps_per_s": statistics.median(self.env),
            "replay_actions_per_s": statistics.median(self.replay),
            "ratio": statistics.median(self.ratios),
            "ratio_min": min(self.ratios),
            "ratio_max": max(self.ratios),
            "engine_wall_actions_per_s": statistics.median(self.engine_wall),
            "env_wall_steps_per_s": statistics.median(self.env_wall),
            "wall_ratio": statistics.median(self.wall_ratios),
        }


def measure(configs: list[Config], games: int, max_turns: int, repeats: int) -> dict[Config, Figures]:
    figures = {config: Figures([], [], [], [], [], [], []) for config in configs}
    for repeat in range(repeats):
        for config in configs:
            into = figures[config]
            runs = ["engine", "env"] if repeat % 2 == 0 else ["env", "engine"]
            for run in runs:
                gc.collect()  # no run pays for another's garbage
                if run == "engine":
                    seconds, wall, actions, played = engine_random(config, games, max_turns)
                    engine_rate, engine_wall = actions / seconds, actions / wall
                    into.engine.append(engine_rate)
                    into.engine_wall.append(engine_wall)
                    replay_seconds, replayed = engine_replay(config, played)
                    into.replay.append(replayed / replay_seconds)
                    del played
                else:
                    seconds, wall, steps, into.finished = environment(config, games, max_turns)
                    env_rate, env_wall = steps / seconds, steps / wall
                    into.env.append(env_rate)
                    into.env_wall.append(env_wall)
            into.ratios.append(env_rate / engine_rate)
            into.wall_ratios.append(env_wall / engine_wall)
            print(
                f"  repeat {repeat + 1}/{repeats} {config.name}: engine {engine_rate:,.0f}/s, "
                f"environment {env_rate:,.0f}/s, {env_rate / engine_rate:.2f}",
                flush=True,
            )
    return figures


def table(figures: dict[Config, Figures], games: int) -> str:
    lines = [
        "| edition | game | players | engine, actions/s | environment, steps/s | ratio (min-max) | "
        "goal 0.5 | wall: engine, actions/s | wall: environment, steps/s | wall: ratio | replay, actions/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for config, into in figures.items():
        row = into.row()
        lines.append(
            f"| {config.edition} | {config.game} | {config.players} | {row['engine_actions_per_s']:,.0f} | "
            f"{row['env_steps_per_s']:,.0f} | {row['ratio']:.2f} "
            f"({row['ratio_min']:.2f}-{row['ratio_max']:.2f}) | {'yes' if row['ratio'] >= GOAL else 'NO'} | "
            f"{row['engine_wall_actions_per_s']:,.0f} | {row['env_wall_steps_per_s']:,.0f} | "
            f"{row['wall_ratio']:.2f} | {row['replay_actions_per_s']:,.0f} |"
        )
    ended = sum(into.finished for into in figures.values())
    lines.append(f"\n(environment games that ended before the turn cap: {ended} of {games * len(figures)})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    names = [config.name for config in CONFIGS]
    parser.add_argument("--only", nargs="+", choices=names, metavar="EDITION-PLAYERS", help=", ".join(names))
    parser.add_argument("--games", type=int, help="games per run (default 6; --quick 2)")
    parser.add_argument("--max-turns", type=int, help="turn cap: random games rarely end (default 100)")
    parser.add_argument("--repeats", type=int, help="runs of each configuration (default 5; --quick 3)")
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats: about a minute")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    games = args.games or (2 if args.quick else 6)
    max_turns = args.max_turns or 100
    repeats = args.repeats or (3 if args.quick else 5)
    if games < 1 or repeats < 1 or max_turns < 1:
        parser.error("--games, --repeats and --max-turns must be at least 1")
    configs = [config for config in CONFIGS if not args.only or config.name in args.only]
    print(f"build: {running_build()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    started = time.perf_counter()
    figures = measure(configs, games, max_turns, repeats)
    print(
        f"\n{running_build()}: {games} games per run (seeds 0..{games - 1}, turn cap {max_turns}), rates in "
        f"CPU seconds (and wall), medians of {repeats} interleaved runs, "
        f"{time.perf_counter() - started:.0f} s in all:\n"
    )
    print(table(figures, games))
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        data: dict[str, Any] = {config.name: into.row() for config, into in figures.items()}
        data["build"] = running_build()
        args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
