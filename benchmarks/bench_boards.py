"""Generated boards: how long a board takes to make, and how fast bots play it.

    python benchmarks/bench_boards.py                          # 100 territories, 10 continents
    python benchmarks/bench_boards.py --territories 150 --continents 12 --games 20 --bots continental

Generates the board several times (the median time; the same seed each time, the same board), then
plays ``--games`` bot games on it (risk.play.simulate, world domination, 1993 rules) with ``--players``
seats (default 10): the board declares 2 to that many players and its own starting armies
(docs/boards.md). Prints generation time, games/s, turns and the games the cap stopped. Run by hand;
never part of the test pass/fail.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

from risk.errors import RiskError
from risk.maps import Board
from risk.maps.generate import generate_board
from risk.play.simulate import play_game
from risk.rules.options import Rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--territories", type=int, default=100)
    parser.add_argument("--continents", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=10, help="the most players to try (fewer if refused)")
    parser.add_argument("--bots", default="quick,continental", help="comma-separated: one run per bot")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="generations timed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        data = generate_board(args.territories, args.continents, args.seed, (2, args.players))
        times.append(time.perf_counter() - start)
    board = Board(data)
    players, rules = args.players, Rules.preset("1993")
    try:
        rules.check_player_count(players, board)
    except RiskError as error:
        sys.exit(f"bench_boards: {error}")
    result: dict[str, object] = {
        "board": f"{len(board)} territories, {len(board.continents)} continents, seed {args.seed}",
        "generate_seconds_median": round(statistics.median(times), 3),
        "players": players,
    }
    runs: list[dict[str, Any]] = []
    for bot in args.bots.split(","):
        turns, capped = [], 0
        start = time.perf_counter()
        for game_seed in range(args.games):
            _, report = play_game(rules, [bot] * players, game_seed, args.max_turns, board=board)
            turns.append(report.turns)
            capped += report.winner is None
        seconds = time.perf_counter() - start
        runs.append(
            {
                "bot": bot,
                "games": args.games,
                "seconds": round(seconds, 2),
                "games_per_second": round(args.games / seconds, 2),
                "seconds_per_game": round(seconds / args.games, 3),
                "median_turns": statistics.median(turns),
                "stopped_by_cap": capped,
            }
        )
    result["runs"] = runs
    if args.json:
        json.dump(result, sys.stdout, indent=1)
        print()
        return
    median = result["generate_seconds_median"]
    print(f"board: {result['board']}; generated in {median} s (median of {args.repeat})")
    if players < args.players:
        print(f"players: {players} (the engine refused {players + 1} to {args.players})")
    else:
        print(f"players: {players}")
    for run in runs:
        print(
            f"  {run['bot']:12} {run['games']} games in {run['seconds']} s: "
            f"{run['games_per_second']} games/s, "
            f"{run['seconds_per_game']} s a game, median {run['median_turns']} turns, "
            f"{run['stopped_by_cap']} stopped by the {args.max_turns}-turn cap"
        )


if __name__ == "__main__":
    main()
