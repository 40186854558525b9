"""Game-aware play measured: each aware bot against today's version of itself, per game.

    python benchmarks/bench_missions.py --baseline ../baseline/src
    python benchmarks/bench_missions.py --baseline ../baseline/src --game capital --bot fortress --games 200

For Secret Mission RISK (2008 rules), Capital RISK (2008) and Mission RISK (2003), one seat plays this
checkout's bot and the others play the same bot of the checkout at ``--baseline`` (its ``src``
folder), run through the bot protocol by ``benchmarks/baseline_bot.py``. Seats rotate from game to
game. The aware bot's win rate is compared with chance (1 / players): the goal is 1.5 times chance,
with the 95% Wilson interval reported. Unfinished games (turn cap) count as wins for nobody. Run by
hand; keep runs small (``nice``, one worker) on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from risk.play.tournament import run_tournament
from risk.record import read_record_file
from risk.rules.options import Rules

GAMES = {"secret-mission": "2008", "capital": "2008", "mission": "2003"}
PROGRAM = Path(__file__).resolve().parent / "baseline_bot.py"


def measure(
    game: str,
    bot: str,
    baseline: Path,
    players: int,
    games: int,
    workers: int,
    seed: int,
    max_turns: int,
    out: Path | None = None,
) -> dict[str, object]:
    started = time.perf_counter()
    rules = Rules.preset(GAMES[game]).with_options(game=game)
    old = f"{PROGRAM} --baseline {baseline} --bot {bot}"
    seats = [bot] + [old] * (players - 1)
    folder = None if out is None else out / f"{game}-{bot}-{players}"
    result = run_tournament(
        seats, rules, games, workers=workers, seed=seed, max_turns=max_turns, time_budget=10.0, out=folder
    )
    row = next(s for s in result.standings if s.name == bot)
    # How the games were won: by the game's goal or by eliminating everyone else.
    reasons: dict[str, int] = {}
    for game_result in result.results:
        if game_result.record is not None and game_result.winner_seat is not None:
            outcome = read_record_file(game_result.record).outcome()
            if outcome is not None:
                who = "aware" if game_result.seats[game_result.winner_seat] == bot else "today's"
                key = f"{who}: {outcome.reason.split(':')[0]}"
                reasons[key] = reasons.get(key, 0) + 1
    chance = 1 / players
    return {
        "game": game,
        "rules": rules.describe(),
        "bot": bot,
        "against": f"{players - 1} x today's {bot}",
        "players": players,
        "games": games,
        "wins": row.wins,
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(row.ci95[0], 4), round(row.ci95[1], 4)],
        "chance": round(chance, 4),
        "times_chance": round(row.win_rate / chance, 2),
        "goal_met": row.win_rate >= 1.5 * chance,
        "unfinished": result.unfinished,
        "won_by": reasons,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"python benchmarks/bench_missions.py --baseline BASELINE/src --game {game} --bot {bot} "
        f"--players {players} --games {games} --seed {seed}",
    }


def summary(row: dict[str, object], label: str) -> str:
    """One line of a measured row: wins, win rate, its interval, against chance."""
    low, high = row["ci95"]  # type: ignore[misc]
    return (
        f"{label} vs {row['against']}: {row['wins']}/{row['games']} "
        f"{row['win_rate']:.1%} 95% [{low:.1%}, {high:.1%}] = {row['times_chance']}x chance, "
        f"unfinished {row['unfinished']}, {row['seconds']} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", required=True, type=Path, help="src folder of today's version")
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--bot", default="continental", help="continental, fortress or quick")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--out", type=Path, help="folder for the records (and how each game was won)")
    args = parser.parse_args()
    if not (args.baseline / "risk" / "__init__.py").is_file():
        parser.error(f"{args.baseline} is not a src folder holding a risk package")
    if not 3 <= args.players <= 5:
        parser.error("--players must be 3 to 5 (the games' player counts)")
    if args.games < 1:
        parser.error("--games must be at least 1")
    rows = []
    for game in GAMES if args.game == "all" else [args.game]:
        row = measure(
            game,
            args.bot,
            args.baseline.resolve(),
            args.players,
            args.games,
            args.workers,
            args.seed,
            args.max_turns,
            args.out,
        )
        rows.append(row)
        print(summary(row, f"{game:>15} {args.bot}"), file=sys.stderr)
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
