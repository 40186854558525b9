"""Train the learning example's linear policy by the cross-entropy method, NumPy only, on the CPU.

    python examples/learn/train.py                          # the shipped weights: seed 0, 16 generations
    python examples/learn/train.py --minutes 5 --seed 3     # a time budget instead
    python examples/learn/train.py --steps 300 --population 4 --games 1 --out /tmp/w.npz   # a smoke run

The game: 2-player RISK (2008 rules, the neutral armies passive) in the Gymnasium environment, the
learning seat against a built-in bot. The policy (policy.py) scores each legal action by a weighted
sum of hand-made features; training searches the weights.

The cross-entropy method: keep a Gaussian over the weights (mean 0 at the start: a policy that
plays uniformly at random); each generation draw a population of weight vectors from it, let each
play the same games (the same seeds: common random numbers, so they are compared on the same dice),
keep the best few (the elite) and refit the Gaussian to them, with extra spread that shrinks over the
generations so the search does not stop too early. A game scores 1 for a win plus half the share of
the board held at its end (so that the first generations, which win nothing, still have a gradient);
a game stopped by the turn cap is not a win. The mean of the last Gaussian is the trained policy.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from policy import SIZE, WEIGHTS, Result, play_weights, save_weights

TRAINING_SEEDS = 2**32  # training games' seeds: from here up (evaluate.py plays seeds 0, 1, 2...)


def score(result: Result) -> float:
    """A game's score: 1 for a win, plus half the share of the board held at its end."""
    return float(result.won) + 0.5 * result.share


def train(args: argparse.Namespace, out: Any = sys.stdout) -> np.ndarray:
    rng = np.random.default_rng(args.seed)
    opponents = args.opponents.split(",")
    mean, spread = np.zeros(SIZE), np.full(SIZE, args.spread)
    started, steps, generation = time.perf_counter(), 0, 0
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    mapper = pool.imap if pool is not None else map
    print(
        f"training {SIZE} weights: population {args.population}, elite {args.elite}, "
        f"{args.games} game(s) against each of {', '.join(opponents)} a candidate, turn cap {args.max_turns}",
        file=out,
    )
    try:
        while True:
            generation += 1
            candidates = mean + spread * rng.standard_normal((args.population, SIZE))
            seeds = [int(s) for s in rng.integers(TRAINING_SEEDS, 2 * TRAINING_SEEDS, size=args.games)]
            tasks = [(w, o, args.max_turns, s) for w in candidates for o in opponents for s in seeds]
            results = list(mapper(play_weights, tasks))
            shape = (args.population, len(opponents), len(seeds))
            fitness = np.array([score(r) for r in results]).reshape(shape).mean(axis=(1, 2))
            won = np.array([r.won for r in results]).reshape(shape)
            elite = np.argsort(fitness)[-args.elite :]
            extra = args.spread * args.decay**generation  # the extra spread that keeps the search open
            mean = candidates[elite].mean(axis=0)
            spread = np.sqrt(candidates[elite].var(axis=0) + extra**2)
            steps += sum(r.steps for r in results)
            elapsed = time.perf_counter() - started
            elite_wins = "  ".join(
                f"{o} {rate:.0%}" for o, rate in zip(opponents, won[elite].mean(axis=(0, 2)), strict=True)
            )
            print(
                f"generation {generation:3d}  {elapsed:6.0f} s  {steps:8d} steps  "
                f"fitness best {fitness.max():.2f} mean {fitness.mean():.2f}  "
                f"elite wins: {elite_wins}",
                file=out,
                flush=True,
            )
            if generation >= args.generations or steps >= args.steps or elapsed >= args.minutes * 60:
                break
    finally:
        if pool is not None:
            pool.close()
    print(f"done: {generation} generations, {steps} steps, {time.perf_counter() - started:.0f} s", file=out)
    save_weights(
        mean,
        args.out,
        seed=args.seed,
        generations=generation,
        steps=steps,
        seconds=time.perf_counter() - started,
    )
    print(f"weights written to {args.out}", file=out)
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (weights drawn, games' seeds)")
    parser.add_argument("--generations", type=int, default=16, help="stop after this many generations")
    parser.add_argument("--minutes", type=float, default=20.0, help="or once this much time has passed")
    parser.add_argument("--steps", type=int, default=10**9, help="or once the agent took this many steps")
    parser.add_argument("--population", type=int, default=16, help="weight vectors per generation")
    parser.add_argument("--elite", type=int, default=4, help="the best kept each generation")
    parser.add_argument("--games", type=int, default=4, help="games per candidate against each opponent")
    parser.add_argument("--opponents", default="random,quick", help="bots to train against (comma-separated)")
    parser.add_argument("--max-turns", type=int, default=60, help="the turn cap of a training game")
    parser.add_argument("--spread", type=float, default=1.0, help="the weights' first standard deviation")
    parser.add_argument("--decay", type=float, default=0.8, help="the extra spread's decay per generation")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games")
    parser.add_argument("--out", type=Path, default=WEIGHTS, help="where to write the weights (.npz)")
    args = parser.parse_args()
    for name in ("generations", "population", "elite", "games", "max_turns", "workers", "steps"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.elite > args.population:
        parser.error("--elite must be at most --population")
    train(args)


if __name__ == "__main__":
    main()
