"""The `hard` level's bot (warlord) measured: the goals of issue 25, each with a 95% Wilson interval.

    python benchmarks/bench_hard.py                          # every table, 200 games each
    python benchmarks/bench_hard.py --only duel,three --games 200 --workers 2
    python benchmarks/bench_hard.py --only none --timing 20  # decision times only

Tables (seats rotate as in ``risk tournament``; 2008 rules unless the table says otherwise):

* ``duel``: 2-player RISK (one neutral), warlord against continental (goal: at least 75%);
* ``three``: warlord, continental and fortress (goal: at least 60%);
* ``pair``: warlord and two continental (goal: at least 55%);
* ``four``, ``five``, ``four-1993``, ``six-1993``: warlord against 3, 4 or 5 continental (at least
  continental's equal: its share of wins above chance).

Run by hand; never part of the test pass/fail. Keep runs bounded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from risk.bots import make_bot
from risk.play.tournament import run_tournament
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

BOT = "warlord"
# name: (seats, rules preset, game, goal win rate or None for "above chance")
TABLES: dict[str, tuple[tuple[str, ...], str, str, float | None]] = {
    "duel": ((BOT, "continental"), "2008", "two-player", 0.75),
    "three": ((BOT, "continental", "fortress"), "2008", "world", 0.60),
    "pair": ((BOT, "continental", "continental"), "2008", "world", 0.55),
    "four": ((BOT, "continental", "continental", "continental"), "2008", "world", None),
    "five": ((BOT, *("continental",) * 4), "2008", "world", None),
    "four-1993": ((BOT, "continental", "continental", "continental"), "1993", "world", None),
    "six-1993": ((BOT, *("continental",) * 5), "1993", "world", None),
    "three-1993": ((BOT, "continental", "fortress"), "1993", "world", 0.60),
}


def measure(name: str, games: int, workers: int, seed: int, bot: str) -> dict[str, object]:
    seats, preset, game, goal = TABLES[name]
    seats = (bot, *seats[1:])
    rules = Rules.preset(preset).for_game(game)
    started = time.perf_counter()
    result = run_tournament(list(seats), rules, games, workers=workers, seed=seed)
    row = next(s for s in result.standings if s.name == bot)
    chance = 1 / len(seats)
    return {
        "table": name,
        "bot": bot,
        "games": games,
        "wins": row.wins,
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(row.ci95[0], 4), round(row.ci95[1], 4)],
        "goal": goal if goal is not None else f"above chance {chance:.3f}",
        "others": {s.name: round(s.win_rate, 4) for s in result.standings if s.name != bot},
        "unfinished": result.unfinished,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"risk tournament --bots {','.join(seats)} --rules {preset} --game {game} "
        f"--games {games} --workers {workers} --seed {seed}",
    }


def decision_times(games: int, players: int, bot: str, preset: str) -> dict[str, float | int | str]:
    """CPU time of the bot's decisions against continental bots."""
    times: list[float] = []
    for seed in range(games):
        rules = Rules.preset(preset).for_game("two-player" if players == 2 else "world")
        game = Game(rules, players, seed=500 + seed)
        bots = [make_bot(bot, seed), *(make_bot("continental", s) for s in range(1, players))]
        while not game.is_over and game.turn <= 300:
            actor = game.to_act
            view = View(game, actor)
            started = time.process_time()
            action = bots[actor].choose(view)
            if actor == 0:
                times.append(time.process_time() - started)
            game.apply(action)
    ordered = sorted(times)
    return {
        "players": players,
        "rules": preset,
        "decisions": len(times),
        "mean_ms": round(1000 * statistics.fmean(times), 3),
        "p95_ms": round(1000 * ordered[int(0.95 * (len(ordered) - 1))], 3),
        "max_ms": round(1000 * ordered[-1], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(TABLES), help="tables, comma-separated, or 'none'")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default=BOT, help="the bot in the first seat (to compare another)")
    parser.add_argument("--timing", type=int, default=0, help="games for the decision times (2-6 players)")
    args = parser.parse_args()
    for name in [n for n in args.only.split(",") if n and n != "none"]:
        if name not in TABLES:
            parser.error(f"no table called {name!r}; tables: {', '.join(TABLES)}")
        print(json.dumps(measure(name, args.games, args.workers, args.seed, args.bot)), flush=True)
    if args.timing:
        for players, preset in ((2, "2008"), (3, "2008"), (4, "2008"), (6, "1993")):
            timing = decision_times(args.timing, players, args.bot, preset)
            print(json.dumps({"timing": timing}), flush=True)


if __name__ == "__main__":
    main()
