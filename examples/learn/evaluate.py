"""Measure the learning example's policy: win rates against bots, with Wilson 95% intervals.

    python examples/learn/evaluate.py                        # the shipped weights, 200 games against each bot
    python examples/learn/evaluate.py --weights /tmp/w.npz --games 50 --opponents random

The game is the one trained on (2-player RISK, 2008 rules, the learning seat first), on seeds the
training never draws (seed i for game i; training's are at or above 2**32). A game stopped by the
turn cap counts as not a win. ``--weights zero`` measures the untrained policy (all weights 0:
uniformly random play).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from pathlib import Path

import numpy as np
from policy import SIZE, WEIGHTS, Result, load_weights, play_weights

FIRST_SEED = 0  # evaluation games: seeds 0, 1, 2...; training draws its games' seeds at or above 2**32


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for the default ``z``)."""
    if games < 1:
        raise ValueError("a win rate needs at least one game")
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(weights: np.ndarray, opponent: str, games: int, max_turns: int, workers: int) -> list[Result]:
    """``games`` games of the policy against ``opponent``, on seeds FIRST_SEED, FIRST_SEED + 1, ..."""
    tasks = [(weights, opponent, max_turns, FIRST_SEED + i) for i in range(games)]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            return pool.map(play_weights, tasks)
    return [play_weights(task) for task in tasks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", default=str(WEIGHTS), help="a weights file (.npz), or 'zero'")
    parser.add_argument("--games", type=int, default=200, help="games against each opponent")
    parser.add_argument("--opponents", default="random,quick", help="bots to play (comma-separated)")
    parser.add_argument("--max-turns", type=int, default=200, help="the turn cap: a capped game is not a win")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the games")
    args = parser.parse_args()
    if args.games < 1 or args.max_turns < 1 or args.workers < 1:
        parser.error("--games, --max-turns and --workers must be at least 1")
    weights = np.zeros(SIZE)
    if args.weights != "zero":
        try:
            weights = load_weights(Path(args.weights))
        except (OSError, ValueError, KeyError) as problem:
            parser.error(f"cannot read the weights {args.weights}: {problem}")
    print(f"weights {args.weights}; 2-player RISK (2008 rules), turn cap {args.max_turns}")
    for opponent in args.opponents.split(","):
        started = time.perf_counter()
        results = evaluate(weights, opponent, args.games, args.max_turns, args.workers)
        wins = sum(r.won for r in results)
        low, high = wilson(wins, len(results))
        capped = sum(r.capped for r in results)
        turns = f"{np.mean([r.turns for r in results if r.won]):.1f}" if wins else "-"
        print(
            f"against {opponent:<8} won {wins}/{len(results)} = {wins / len(results):.1%} "
            f"(Wilson 95%: {low:.1%} to {high:.1%}); capped {capped}; "
            f"mean turns of a win {turns}; {time.perf_counter() - started:.0f} s"
        )


if __name__ == "__main__":
    main()
