"""Engine speed, run by hand: complete bot-only games per second and engine actions per second.

    .venv/bin/python benchmarks/bench_engine.py [--games N] [--seconds S]

Games: the 2008 preset (escalating cards), the default bot (quick) in every seat, 3 and 6 players
(2008 is for 3-5 players, so the 6-player figure uses the 1993 preset with 2008's
options). Actions: the checked ``apply`` and the unchecked fast path, replaying recorded games'
actions. One process, one core. Not a test: figures go in the notes.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from risk.rules.game import Game
from risk.rules.options import Rules
from risk.simulate import play_game


def games_per_second(rules: Rules, players: int, games: int) -> tuple[float, float, float]:
    started = time.perf_counter()
    turns = actions = 0
    for seed in range(games):
        _, report = play_game(rules, ["quick"] * players, seed)
        assert report.winner is not None, f"game {seed} did not finish"
        turns += report.turns
        actions += report.actions
    elapsed = time.perf_counter() - started
    return games / elapsed, turns / games, actions / games


def actions_per_second(rules: Rules, players: int, games: int, checked: bool) -> float:
    """Re-apply the player actions of finished games (bots excluded): the engine alone."""
    scripts = []
    for seed in range(games):
        game, _ = play_game(rules, ["quick"] * players, seed)
        scripts.append([value for kind, _, value in game.history if kind == "action"])
    rates = []
    for _ in range(3):
        total = 0
        started = time.perf_counter()
        for seed, actions in enumerate(scripts):
            game = Game(rules, [f"quick-{i + 1}" for i in range(players)], seed=seed)
            apply = game.apply if checked else game.apply_unchecked
            for action in actions:
                apply(action)
            total += len(actions)
        rates.append(total / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, one process")
    rules_2008 = Rules.preset("2008")
    six = Rules.preset("1993").with_options(
        territory_card_bonus="once-per-trade", fortify="chain", card_draw="before-fortify"
    )
    for label, rules, players in (("2008, 3 players", rules_2008, 3), ("2008 options, 6 players", six, 6)):
        rate, turns, actions = games_per_second(rules, players, args.games)
        print(f"{label}: {rate:7.1f} games/s  ({turns:.0f} turns, {actions:.0f} actions per game)")
    for checked in (True, False):
        rate = actions_per_second(rules_2008, 3, 60, checked)
        print(f"engine {'checked apply' if checked else 'apply_unchecked'}: {rate:,.0f} actions/s")


if __name__ == "__main__":
    main()
