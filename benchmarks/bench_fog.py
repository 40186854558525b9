"""What fog of war costs a bot, measured (issue 27; figures in docs/bots.md, "Fog of war").

    python benchmarks/bench_fog.py --minutes 60                       # every table, time shared out
    python benchmarks/bench_fog.py --only fog-vs-continental --games 40
    python benchmarks/bench_fog.py --bot warlord --minutes 10          # the same for a faster bot

Tables (2008 rules, world domination, 3 players; seats rotate; game k has seed ``seed + k``; a game
stopped by the turn cap is a win for nobody; the interval is Wilson's at 95%):

* ``fog-vs-continental``: the bot and two ``continental``, every seat under fog (``fog=on``);
* ``clear-vs-continental``: the same table without fog, to compare with;
* ``fog-vs-seer``: the bot under fog, the same bot seeing through the fog
  (``View(game, seat, through_fog=True)``: for measurement only) and one ``continental``, all
  under fog. The seer's edge over the fogged bot is what fog costs a player of that strength.

Tables are played in turns, one game each, so that a run stopped early (``--minutes``) still has
every table measured. Progress goes to stderr, the results as JSON to stdout. One process: the
machine is shared.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass, field

from risk.bots.base import Bot
from risk.bots.search import SearchBot
from risk.play.tournament import make_player, wilson_interval
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

SEER = "seer"  # a seat of the measured bot that sees through the fog


@dataclass
class Table:
    name: str
    seats: list[str]  # the measured bot first; SEER: the measured bot seeing through the fog
    fog: bool
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    unfinished: int = 0
    turns: int = 0
    seconds: float = 0.0


def make_seat(spec: str, bot: str, seed: int) -> Bot:
    player = make_player(bot if spec in ("bot", SEER) else spec, seed, time_budget=1.0)
    if isinstance(player, SearchBot):
        player.max_seconds = math.inf  # the budget is the iterations alone: a busy machine changes nothing
    return player


def play_game(table: Table, bot: str, seed: int, max_turns: int) -> str | None:
    """One game of ``table`` with its seats rotated by ``seed``: the winning seat's label, or None."""
    shift = seed % len(table.seats)
    labels = table.seats[shift:] + table.seats[:shift]
    rules = Rules.preset("2008").with_options(fog="on" if table.fog else "off")
    game = Game(rules, [f"{label}-{i + 1}" for i, label in enumerate(labels)], seed=seed)
    bots = [make_seat(label, bot, seed * 10 + i) for i, label in enumerate(labels)]
    while not game.is_over and game.turn <= max_turns:
        actor = game.to_act
        view = View(game, actor, through_fog=labels[actor] == SEER)
        game.apply(bots[actor].choose(view))
    table.turns += game.turn
    return None if game.winner is None else labels[game.winner]


def summary(table: Table, bot: str) -> dict[str, object]:
    rows: dict[str, object] = {}
    for label in dict.fromkeys(table.seats):
        wins = table.wins.get(label, 0)
        low, high = wilson_interval(wins, table.games)
        seats = table.seats.count(label)
        rows[label] = {
            "seats": seats,
            "wins": wins,
            "win_rate": round(wins / table.games, 4) if table.games else 0.0,
            "ci95": [round(low, 4), round(high, 4)],
            "chance": round(seats / len(table.seats), 4),
        }
    return {
        "table": table.name,
        "bot": bot,
        "fog": table.fog,
        "seats": table.seats,
        "games": table.games,
        "unfinished": table.unfinished,
        "mean_turns": round(table.turns / table.games, 1) if table.games else 0.0,
        "seconds": round(table.seconds, 1),
        "results": rows,
    }


def progress_line(table: Table) -> str:
    parts = []
    for label in dict.fromkeys(table.seats):
        wins = table.wins.get(label, 0)
        low, high = wilson_interval(wins, table.games)
        parts.append(f"{label} {wins}/{table.games} [{low:.0%}, {high:.0%}]")
    return f"{table.name}: " + ", ".join(parts) + f", unfinished {table.unfinished}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="expert:48", help="the bot measured: a name, or name:iterations")
    parser.add_argument("--only", action="append", help="a table (repeatable); default all")
    parser.add_argument("--games", type=int, default=1000, help="most games per table")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop starting games after this")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=200)
    args = parser.parse_args()
    if args.games < 1 or args.minutes <= 0:
        parser.error("--games and --minutes must be positive")

    tables = [
        Table("fog-vs-continental", ["bot", "continental", "continental"], fog=True),
        Table("clear-vs-continental", ["bot", "continental", "continental"], fog=False),
        Table("fog-vs-seer", ["bot", SEER, "continental"], fog=True),
    ]
    known = {t.name for t in tables}
    for name in args.only or []:
        if name not in known:
            parser.error(f"no table {name!r}; tables: {', '.join(sorted(known))}")
    tables = [t for t in tables if not args.only or t.name in args.only]
    stop = time.monotonic() + 60 * args.minutes
    game_index = 0
    while game_index < args.games and time.monotonic() < stop:
        for table in tables:
            if time.monotonic() >= stop:
                break
            started = time.monotonic()
            winner = play_game(table, args.bot, args.seed + game_index, args.max_turns)
            table.seconds += time.monotonic() - started
            table.games += 1
            if winner is None:
                table.unfinished += 1
            else:
                table.wins[winner] = table.wins.get(winner, 0) + 1
            print(
                f"[{time.monotonic() - stop + 60 * args.minutes:7.0f} s] game {game_index + 1} "
                f"{progress_line(table)}",
                file=sys.stderr,
                flush=True,
            )
        game_index += 1
    print(
        json.dumps(
            {
                "bot": args.bot,
                "seed": args.seed,
                "max_turns": args.max_turns,
                "tables": [summary(t, args.bot) for t in tables],
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
