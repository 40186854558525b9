"""The game's goal in the search evaluation, measured: the search bot with and without it (A/B).

    python benchmarks/bench_goal_blend.py --games 60                       # weights 0.5 and 0, all games
    python benchmarks/bench_goal_blend.py --game capital --weights 0,0.3,0.5,0.7 --games 40
    python benchmarks/bench_goal_blend.py --bot expert --game secret-mission --games 60

In Secret Mission RISK (2008 rules), Capital RISK (2008) and Mission RISK (2003), one seat plays the
search bot (or ``--bot expert``) whose leaf evaluation gives ``weight`` of its value to how far the
seat's goal is done (``risk.bots.search.goal_blend``; weight 0 is the evaluation without the goal),
and the others play ``--against`` (``continental``). Every weight plays the same seeds with seats
rotating, so the arms differ only by the evaluation. Win rates carry 95% Wilson intervals; chance
is one over the players. Unfinished games (turn cap) are wins for nobody. Run by hand; keep runs
small (``nice``, one worker) on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import risk.bots
from bench_missions import GAMES, summary  # the same games, reported the same way
from risk.bots.expert import ExpertBot
from risk.bots.search import SearchBot
from risk.play.tournament import run_tournament
from risk.rules.options import Rules

SEARCHERS: dict[str, type[SearchBot]] = {"search": SearchBot, "expert": ExpertBot}


def register_weighted(bot: str, weight: float) -> str:
    """Register ``bot`` with a goal weight of ``weight`` under a name of its own; returns the name."""
    base = SEARCHERS[bot]
    name = f"{bot}-goal{weight:g}"

    def __init__(self: SearchBot, seed: int = 0) -> None:
        base.__init__(self, seed, goal_weight=weight)

    # Tournament workers forked afterwards inherit the registry.
    risk.bots.BOTS[name] = type(name, (base,), {"name": name, "__init__": __init__})
    return name


def measure(
    game: str, bot: str, weight: float, against: str, players: int, games: int, seed: int, max_turns: int
) -> dict[str, object]:
    started = time.perf_counter()
    rules = Rules.preset(GAMES[game]).with_options(game=game)
    name = register_weighted(bot, weight)
    result = run_tournament(
        [name] + [against] * (players - 1), rules, games, workers=1, seed=seed, max_turns=max_turns, out=None
    )
    row = next(s for s in result.standings if s.name == name)
    return {
        "game": game,
        "bot": bot,
        "goal_weight": weight,
        "against": f"{players - 1} x {against}",
        "games": games,
        "wins": row.wins,
        "win_rate": round(row.win_rate, 4),
        "ci95": [round(row.ci95[0], 4), round(row.ci95[1], 4)],
        "times_chance": round(row.win_rate * players, 2),
        "unfinished": result.unfinished,
        "seconds": round(time.perf_counter() - started, 1),
        "command": f"python benchmarks/bench_goal_blend.py --game {game} --bot {bot} --weights {weight:g} "
        f"--against {against} --players {players} --games {games} --seed {seed}",
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=[*GAMES, "all"], default="all")
    parser.add_argument("--bot", choices=list(SEARCHERS), default="search")
    parser.add_argument("--weights", default="0.5,0", help="goal weights to compare, comma-separated")
    parser.add_argument("--against", default="continental")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=300)
    args = parser.parse_args()
    try:
        weights = [float(w) for w in args.weights.split(",")]
    except ValueError:
        parser.error(f"--weights must be numbers separated by commas, not {args.weights!r}")
    if any(not 0.0 <= w <= 1.0 for w in weights):
        parser.error("--weights must each be between 0 and 1")
    if not 3 <= args.players <= 5:
        parser.error("--players must be 3 to 5 (the games' player counts)")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.against not in risk.bots.BOTS:
        parser.error(f"--against must be a built-in bot: {', '.join(risk.bots.BOTS)}")
    rows = []
    for game in GAMES if args.game == "all" else [args.game]:
        for weight in weights:
            row = measure(
                game, args.bot, weight, args.against, args.players, args.games, args.seed, args.max_turns
            )
            rows.append(row)
            print(summary(row, f"{game:>15} {args.bot} goal weight {weight:g}"), file=sys.stderr)
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
