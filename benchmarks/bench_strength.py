"""Strength of the bot ladder, measured: each rung against three copies of the rung below it.

    python benchmarks/bench_strength.py                      # every rung, default game counts
    python benchmarks/bench_strength.py --only search --games 200 --workers 2
    python benchmarks/bench_strength.py --only none --timing 3   # search decision times only

A rung "beats the one below" when its win rate in 4-player games against three copies of the lower
bot is above chance (25%) with the whole 95% interval above it. Unfinished games (turn cap) count
as wins for nobody. The search bot's decision times are measured on one core at its default budget.
Run by hand; never part of the test pass/fail. Keep runs bounded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from risk.bots import BOTS, make_bot
from risk.bots.search import SearchBot
from risk.play.tournament import run_tournament
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

# (stronger, weaker, default number of games)
RUNGS = [
    ("quick", "random", 200),
    ("fortress", "quick", 200),
    ("continental", "fortress", 400),
    ("search", "continental", 200),
]


def measure_rung(
    stronger: str, weaker: str, games: int, workers: int, seed: int, rules: str, out: Path | None
) -> dict[str, object]:
    started = time.perf_counter()
    folder = None if out is None else out / f"{stronger}-vs-{weaker}"
    result = run_tournament(
        [stronger, weaker, weaker, weaker], Rules.preset(rules), games, workers=workers, seed=seed, out=folder
    )
    row = next(s for s in result.standings if s.name == stronger)
    return {
        "bot": stronger,
        "against": f"3 x {weaker}",
        "games": games,
        "wins": row.wins,
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(row.ci95[0], 4), round(row.ci95[1], 4)],
        "beats_chance": row.ci95[0] > 0.25,
        "unfinished": result.unfinished,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"risk tournament --bots {stronger},{weaker},{weaker},{weaker} --rules {rules} "
        f"--games {games} --workers {workers} --seed {seed}",
    }


def search_decision_times(games: int, rules: str, max_turns: int = 120) -> dict[str, float | int]:
    """Per-decision wall time of the search bot (default budget) against three continental bots."""
    times: list[float] = []
    searched: list[float] = []
    for seed in range(games):
        game = Game(Rules.preset(rules), ["search", "c1", "c2", "c3"], seed=1000 + seed)
        bots = [SearchBot(seed), *(make_bot("continental", seat) for seat in range(1, 4))]
        while not game.is_over and game.turn <= max_turns:
            actor = game.to_act
            view = View(game, actor)
            started = time.perf_counter()
            action = bots[actor].choose(view)
            elapsed = time.perf_counter() - started
            if actor == 0:
                times.append(elapsed)
                if elapsed > 0.002:  # trivial decisions take microseconds; the rest were searched
                    searched.append(elapsed)
            game.apply(action)
    ordered = sorted(searched)
    return {
        "decisions": len(times),
        "searched": len(searched),
        "mean_searched_s": round(statistics.fmean(searched), 4) if searched else 0.0,
        "p95_searched_s": round(ordered[int(0.95 * (len(ordered) - 1))], 4) if ordered else 0.0,
        "max_s": round(max(times), 4) if times else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", choices=[*(r[0] for r in RUNGS), "none"], help="one rung, or none")
    parser.add_argument("--games", type=int, help="games per rung (default: per rung)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="2008")
    parser.add_argument("--timing", type=int, default=0, help="games for search decision times (0: skip)")
    parser.add_argument("--out", type=Path, help="folder for records, results and charts")
    args = parser.parse_args()

    report: dict[str, object] = {"ladder": list(BOTS), "rules": args.rules, "rungs": []}
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    rungs = [r for r in RUNGS if args.only in (None, r[0])]
    for stronger, weaker, default_games in rungs:
        row = measure_rung(
            stronger, weaker, args.games or default_games, args.workers, args.seed, args.rules, args.out
        )
        report["rungs"].append(row)  # type: ignore[attr-defined]
        print(
            f"{stronger:>12} vs 3 x {weaker:<12} {row['wins']:>4}/{row['games']:<4} "
            f"{row['win_rate']:.1%}  95% [{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}]  "  # type: ignore[index]
            f"unfinished {row['unfinished']}  {row['seconds']} s",
            file=sys.stderr,
        )
    if args.timing:
        report["search_decision_times"] = search_decision_times(args.timing, args.rules)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
