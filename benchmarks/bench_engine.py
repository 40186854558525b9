"""Engine and bot speed, run by hand: complete bot-only games per second, turns and actions per second,
the engine's own actions per second, and the search bot's decision times.

    .venv/bin/python benchmarks/bench_engine.py                 # everything, medians of 3 runs
    .venv/bin/python benchmarks/bench_engine.py --only quick continental --repeats 5
    .venv/bin/python benchmarks/bench_engine.py --scale 0.2     # a quick look: fewer games
    .venv/bin/python benchmarks/bench_engine.py --json out.json

Games: the same bot in every seat, 3 players under the 2008 preset and 6 players under the 1993
preset (2008 is for 3-5 players), seeds 0..N-1: the same games on every run and every version of
the engine (the golden-record test keeps them identical), so two runs compare like with like.
Each figure is the median of ``--repeats`` runs; the load average before and after is printed,
because the machine may be shared, and so are games per CPU second of the process (less sensitive
to other processes than wall time, though not to a busy sibling core). Engine: the checked
``apply`` and the unchecked fast path replaying recorded games' actions (bots excluded). Search:
every decision of one search bot (its default budget and time cap) against continental bots in
turn-capped games; "searched" decisions are those that ran the search, the rest the bot answers
from its heuristic at once.

One process, one core. Not a test: the figures go in the notes. To compare with another version,
run this same file with that version's ``src`` first on the path, for example
``PYTHONPATH=/path/to/old/src .venv/bin/python benchmarks/bench_engine.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import risk
from risk.bots.heuristic import ContinentalBot
from risk.bots.search import SearchBot
from risk.build import running_build
from risk.play.simulate import bot_seed, play_game
from risk.rules.actions import Action
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

# (bot, players, preset, games per run at --scale 1)
GAME_RUNS: tuple[tuple[str, int, str, int], ...] = (
    ("quick", 3, "2008", 300),
    ("quick", 6, "1993", 100),
    ("fortress", 3, "2008", 60),
    ("fortress", 6, "1993", 20),
    ("continental", 3, "2008", 100),
    ("continental", 6, "1993", 30),
    ("warlord", 3, "2008", 60),  # the hard level
    ("warlord", 6, "1993", 20),
)
# (players, preset, games at --scale 1, turn cap): search decisions against continental bots.
SEARCH_RUNS: tuple[tuple[int, str, int, int], ...] = (
    (3, "2008", 6, 12),
    (4, "2008", 4, 10),  # the setting of benchmarks/bench_strength.py
    (6, "1993", 3, 8),
)


def median_of(repeats: int, run: Callable[[], dict[str, float]]) -> dict[str, float]:
    """Each field's median over ``repeats`` runs."""
    results = [run() for _ in range(repeats)]
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


def game_rates(bot: str, players: int, preset: str, games: int) -> dict[str, float]:
    rules = Rules.preset(preset)
    turns = actions = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    for seed in range(games):
        _, report = play_game(rules, [bot] * players, seed)
        assert report.winner is not None, f"{bot} game {seed} did not finish"
        turns += report.turns
        actions += report.actions
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "games_per_s": games / elapsed,
        "games_per_cpu_s": games / cpu,
        "turns_per_s": turns / elapsed,
        "actions_per_s": actions / elapsed,
        "ms_per_game": 1000 * elapsed / games,
        "turns_per_game": turns / games,
        "actions_per_game": actions / games,
    }


def engine_rates(games: int, repeats: int) -> dict[str, float]:
    """Re-apply the actions of finished quick-bot games (2008, 3 players): the engine alone."""
    rules = Rules.preset("2008")
    scripts = []
    for seed in range(games):
        game, _ = play_game(rules, ["quick"] * 3, seed)
        scripts.append([value for kind, _, value in game.history if kind == "action"])
    total = sum(len(actions) for actions in scripts)
    rates: dict[str, float] = {}
    for checked in (True, False):
        samples = []
        for _ in range(repeats):
            started = time.perf_counter()
            for seed, actions in enumerate(scripts):
                game = Game(rules, [f"quick-{i + 1}" for i in range(3)], seed=seed)
                apply = game.apply if checked else game.apply_unchecked
                for action in actions:
                    apply(action)
            samples.append(total / (time.perf_counter() - started))
        rates["checked_apply_per_s" if checked else "unchecked_apply_per_s"] = statistics.median(samples)
    return rates


class CountingSearchBot(SearchBot):
    """The search bot, counting its searches (a subclass: a compiled bot's methods cannot be replaced)."""

    searches = 0

    def search(self, view: View, candidates: list[Action]) -> Action:
        self.searches += 1
        return super().search(view, candidates)


def search_times(players: int, preset: str, games: int, max_turns: int) -> dict[str, float]:
    """Decision times of one search bot (seat 0, default budget) against continental bots."""
    every: list[float] = []
    searched: list[float] = []
    for seed in range(games):
        names = ["search", *(f"continental-{i}" for i in range(1, players))]
        game = Game(Rules.preset(preset), names, seed=seed)
        searcher = CountingSearchBot(bot_seed(seed, 0))
        bots = [searcher, *(ContinentalBot(bot_seed(seed, seat)) for seat in range(1, players))]
        views = [View(game, seat) for seat in range(players)]
        while not game.is_over and game.turn <= max_turns:
            actor = game.to_act
            before = searcher.searches
            started = time.perf_counter()
            action = bots[actor].choose(views[actor])
            elapsed = time.perf_counter() - started
            if actor == 0:
                every.append(elapsed)
                if searcher.searches != before:
                    searched.append(elapsed)
            game.apply(action)
    ordered = sorted(searched)
    return {
        "decisions": len(every),
        "searched": len(searched),
        "mean_searched_ms": 1000 * statistics.fmean(searched),
        "p95_searched_ms": 1000 * ordered[int(0.95 * (len(ordered) - 1))],
        "max_ms": 1000 * max(every),
        "mean_all_ms": 1000 * statistics.fmean(every),
        "at_time_cap": sum(1 for t in searched if t >= 0.95 * searcher.max_seconds),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--only", nargs="+", choices=["quick", "fortress", "continental", "warlord", "engine", "search"]
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure; the median is reported")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every number of games")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.repeats < 1 or args.scale <= 0:
        parser.error("--repeats must be at least 1 and --scale above 0")
    wanted = set(args.only or ["quick", "fortress", "continental", "warlord", "engine", "search"])

    def scaled(games: int) -> int:
        return max(1, round(games * args.scale))

    report: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "engine": str(Path(risk.__file__).parent),
        "build": running_build(),
        "load_before": os.getloadavg(),
        "repeats": args.repeats,
        "games": {},
    }
    print(
        f"Python {report['python']} on {report['machine']}, one process; risk from {report['engine']}, "
        f"rules core {report['build']}"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in report['load_before'])}")
    for bot, players, preset, games in GAME_RUNS:
        if bot not in wanted:
            continue
        n = scaled(games)
        row = median_of(args.repeats, lambda b=bot, p=players, r=preset, n=n: game_rates(b, p, r, n))
        report["games"][f"{bot}-{players}"] = {"preset": preset, "games": n, **row}
        print(
            f"{bot:>11} {players}p {preset}: {row['games_per_s']:8.1f} games/s "
            f"{row['turns_per_s']:9.0f} turns/s {row['actions_per_s']:10.0f} actions/s  "
            f"({row['turns_per_game']:.0f} turns, "
            f"{row['actions_per_game']:.0f} actions per game; {n} games; "
            f"{row['games_per_cpu_s']:.1f} games per CPU second)"
        )
    if "engine" in wanted:
        rates = engine_rates(scaled(60), args.repeats)
        report["engine_actions"] = rates
        print(
            f"     engine 3p 2008: checked apply {rates['checked_apply_per_s']:,.0f} actions/s, "
            f"apply_unchecked {rates['unchecked_apply_per_s']:,.0f} actions/s"
        )
    if "search" in wanted:
        report["search"] = {}
        for players, preset, games, max_turns in SEARCH_RUNS:
            n = scaled(games)
            row = median_of(
                args.repeats, lambda p=players, r=preset, n=n, m=max_turns: search_times(p, r, n, m)
            )
            report["search"][f"search-{players}"] = {
                "preset": preset,
                "games": n,
                "max_turns": max_turns,
                **row,
            }
            print(
                f"     search {players}p {preset}: mean {row['mean_searched_ms']:.1f} ms, "
                f"p95 {row['p95_searched_ms']:.1f} ms per searched decision ({row['searched']:.0f} of "
                f"{row['decisions']:.0f} decisions searched; mean of all {row['mean_all_ms']:.1f} ms, "
                f"max {row['max_ms']:.0f} ms, {row['at_time_cap']:.0f} at the time cap)"
            )
    report["load_after"] = os.getloadavg()
    print(f"load average after: {' '.join(f'{x:.2f}' for x in report['load_after'])}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
