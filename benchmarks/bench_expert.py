"""Strength and decision time of the top bot (``expert``), measured.

    python benchmarks/bench_expert.py --only four --games 200 --workers 2   # vs 3 x continental
    python benchmarks/bench_expert.py --only duel --games 200                # 1-v-1, 2-player RISK
    python benchmarks/bench_expert.py --only mixed --games 60                # the mixed tables
    python benchmarks/bench_expert.py --only none --timing 3 --players 4     # decision times only
    python benchmarks/bench_expert.py --bot search --only four               # the same for search

Tables (seats rotate, seed 1, unfinished games are wins for nobody; chance is one over the seats):

* ``four``: the bot against three ``continental`` in 4-player 2008 games;
* ``duel``: the bot against ``continental`` in 2-player RISK (2008 rules, one neutral army);
* ``goal-mixed``, ``goal-pair``, ``goal-duel``: issue 25's goals against the strong fast bot: with
  ``warlord`` and ``continental`` (goal 50%), with two ``warlord`` (goal 45%), 1-v-1 against
  ``warlord`` in 2-player RISK (goal 70%); 2008 rules;
* ``mixed``: the bot with weaker company, the tables a strong player profits from: with
  ``continental`` and ``quick`` (3 players), with two ``continental`` (3 players), with one
  ``continental`` and two ``quick`` (4 players), and at 6 players (1993 rules: 2008 is for 3 to 5)
  with two ``continental`` and three ``quick``.

Decision times are CPU seconds of the bot's searched decisions (those over 2 ms) against
``continental`` bots at its default budget, so the figure holds for one core whatever else runs.
Run by hand; never part of the test pass/fail. Keep runs bounded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from risk.bots import make_bot
from risk.bots.search import SearchBot
from risk.play.tournament import make_player, run_tournament
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

# name: (seats after the bot's, rules preset, game)
TABLES: dict[str, list[tuple[str, list[str], str, str]]] = {
    "four": [("vs 3 x continental", ["continental"] * 3, "2008", "world")],
    "duel": [("1-v-1 vs continental", ["continental"], "2008", "two-player")],
    "mixed": [
        ("with continental, quick", ["continental", "quick"], "2008", "world"),
        ("with 2 x continental", ["continental", "continental"], "2008", "world"),
        ("with continental, 2 x quick", ["continental", "quick", "quick"], "2008", "world"),
        (
            "with 2 x continental, 3 x quick (1993)",
            ["continental", "continental", "quick", "quick", "quick"],
            "1993",
            "world",
        ),
    ],
    # issue 25's goals for the expert, against the strong fast bot (warlord)
    "goal-mixed": [("with warlord, continental", ["warlord", "continental"], "2008", "world")],
    "goal-pair": [("with 2 x warlord", ["warlord", "warlord"], "2008", "world")],
    "goal-duel": [("1-v-1 vs warlord", ["warlord"], "2008", "two-player")],
}


def measure_table(
    bot: str,
    label: str,
    others: list[str],
    preset: str,
    game: str,
    games: int,
    workers: int,
    seed: int,
    out: Path | None,
) -> dict[str, object]:
    started = time.perf_counter()
    seats = [bot, *others]
    rules = Rules.preset(preset).for_game(game)
    folder = None if out is None else out / f"{bot}-{label.replace(' ', '-').replace(',', '')}"
    result = run_tournament(seats, rules, games, workers=workers, seed=seed, out=folder)
    rows = {row.name: row for row in result.standings}
    mine = rows[bot]
    return {
        "bot": bot,
        "table": label,
        "games": games,
        "wins": mine.wins,
        "win_rate": round(mine.win_rate, 4),
        "ci95": [round(mine.ci95[0], 4), round(mine.ci95[1], 4)],
        "chance": round(1 / len(seats), 4),
        "others": {name: round(row.win_rate, 4) for name, row in rows.items() if name != bot},
        "unfinished": result.unfinished,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"risk tournament --bots {','.join(seats)} --rules {preset} --game {game} "
        f"--games {games} --workers {workers} --seed {seed}",
    }


def decision_times(
    bot: str, games: int, players: int, max_turns: int = 100, max_seconds: float | None = None
) -> dict[str, float | int]:
    """CPU seconds per searched decision of ``bot`` against ``continental`` bots; ``max_seconds``
    replaces a search bot's time cap (``math.inf``: none, so that the games replay exactly)."""
    preset = "2008" if players <= 5 else "1993"
    searched: list[float] = []
    for seed in range(games):
        game = Game(Rules.preset(preset), players, seed=1000 + seed)
        bots = [make_player(bot, seed, 1.0), *(make_bot("continental", seat) for seat in range(1, players))]
        if max_seconds is not None and isinstance(bots[0], SearchBot):
            bots[0].max_seconds = max_seconds
        while not game.is_over and game.turn <= max_turns:
            actor = game.to_act
            view = View(game, actor)
            started = time.process_time()
            action = bots[actor].choose(view)
            elapsed = time.process_time() - started
            if actor == 0 and elapsed > 0.002:  # trivial decisions take microseconds
                searched.append(elapsed)
            game.apply(action)
    ordered = sorted(searched)
    return {
        "players": players,
        "searched": len(ordered),
        "mean_s": round(statistics.fmean(ordered), 4) if ordered else 0.0,
        "p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 4) if ordered else 0.0,
        "max_s": round(ordered[-1], 4) if ordered else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="expert", help="the bot measured (a name, or name:iterations)")
    parser.add_argument("--only", choices=[*TABLES, "none"], help="one group of tables, or none")
    parser.add_argument("--games", type=int, default=40, help="games per table")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timing", type=int, default=0, help="games for decision times (0: skip)")
    parser.add_argument("--players", type=int, default=4, help="players in the timing games")
    parser.add_argument("--out", type=Path, help="folder for records, results and charts")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")

    report: dict[str, object] = {"bot": args.bot, "tables": []}
    for group, tables in TABLES.items():
        if args.only not in (None, group):
            continue
        for label, others, preset, game in tables:
            row = measure_table(
                args.bot, label, others, preset, game, args.games, args.workers, args.seed, args.out
            )
            report["tables"].append(row)  # type: ignore[attr-defined]
            ci = row["ci95"]
            print(
                f"{args.bot} {label}: {row['wins']}/{row['games']} {row['win_rate']:.1%} "
                f"95% [{ci[0]:.1%}, {ci[1]:.1%}] chance {row['chance']:.0%} others {row['others']} "  # type: ignore[index]
                f"unfinished {row['unfinished']} {row['seconds']} s",
                file=sys.stderr,
            )
    if args.timing:
        report["decision_times"] = decision_times(args.bot, args.timing, args.players)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
