"""Paired A/B of expert recipes: the same seeded games, seats rotating, with the expert played by
recipe A and by recipe B in turn (everything else equal), so the difference is the recipe's.

    python benchmarks/bench_expert_ab.py --a classic --b rollout=warlord --table warlord,continental \
        --games 40 --workers 2

A recipe is ``classic`` (the expert of before issue 25's item 2), ``default`` (today's) or fields of
:class:`risk.bots.expert.Recipe` over classic, e.g. ``source=warlord,rollout=warlord,plans=1``.
Game k is seeded and seated as ``risk tournament`` seats it (seed ``seed + k // n``, seats rotated
by ``k % n``), so a recipe's games are the tournament's for ``expert``. Reports each recipe's wins,
the games only one of them won (the paired evidence), and the expert's CPU time per searched
decision (those over 2 ms): mean and 95th percentile. Run by hand; keep runs bounded.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from risk.bots import make_bot
from risk.bots.expert import CLASSIC, RECIPE, ExpertBot, Recipe
from risk.play.tournament import bot_seed, wilson_interval
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

EXPERT = "expert"


def parse_recipe(text: str) -> Recipe:
    if text == "classic":
        return CLASSIC
    if text == "default":
        return RECIPE
    fields: dict[str, object] = {}
    names = {field.name: field.type for field in dataclasses.fields(Recipe)}
    for part in text.split(","):
        key, _, value = part.partition("=")
        if key not in names:
            raise SystemExit(f"no recipe field {key!r}; fields: {', '.join(names)}")
        fields[key] = value in ("1", "true", "yes") if names[key] in (bool, "bool") else value
    return dataclasses.replace(CLASSIC, **fields)  # type: ignore[arg-type]


def play(job: tuple[str, int, int, list[str], str, str, int, int | None]) -> dict[str, object]:
    recipe_text, index, seed, seats, preset, game_kind, max_turns, iterations = job
    recipe = parse_recipe(recipe_text)
    game = Game(Rules.preset(preset).for_game(game_kind), len(seats), seed=seed)
    bots = [
        ExpertBot(bot_seed(seed, seat), iterations=iterations, recipe=recipe)
        if spec == EXPERT
        else make_bot(spec, bot_seed(seed, seat))
        for seat, spec in enumerate(seats)
    ]
    times: list[float] = []
    while not game.is_over and game.turn <= max_turns:
        actor = game.to_act
        started = time.process_time()
        action = bots[actor].choose(View(game, actor))
        elapsed = time.process_time() - started
        if seats[actor] == EXPERT and elapsed > 0.002:
            times.append(elapsed)
        game.apply(action)
    winner = game.winner
    return {
        "recipe": recipe_text,
        "index": index,
        "won": winner is not None and seats[winner] == EXPERT,
        "winner": None if winner is None else seats[winner],
        "times": times,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--a", default="classic")
    parser.add_argument("--b", default="default")
    parser.add_argument("--table", default="warlord,continental", help="the other seats, comma separated")
    parser.add_argument("--rules", default="2008")
    parser.add_argument("--game", default="world")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first", type=int, default=0, help="the first game index (to extend a run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-turns", type=int, default=500)
    parser.add_argument("--iterations", type=int, help="fixed iterations (default: by the player count)")
    args = parser.parse_args()
    for text in (args.a, args.b):
        parse_recipe(text)
    table = [EXPERT, *[name for name in args.table.split(",") if name]]
    n = len(table)
    jobs = []
    for k in range(args.first, args.first + args.games):
        shift = k % n
        seats = table[shift:] + table[:shift]
        for recipe in (args.a, args.b):
            jobs.append(
                (recipe, k, args.seed + k // n, seats, args.rules, args.game, args.max_turns, args.iterations)
            )
    results: dict[tuple[str, int], dict[str, object]] = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for future in as_completed([pool.submit(play, job) for job in jobs]):
            result = future.result()
            results[(str(result["recipe"]), int(result["index"]))] = result  # type: ignore[call-overload]
            # One line a game as it ends: a run stopped early still tells what it played.
            times = sorted(result["times"])  # type: ignore[type-var]
            p95 = times[int(0.95 * (len(times) - 1))] if times else 0.0
            print(
                json.dumps(
                    {
                        "index": result["index"],
                        "recipe": result["recipe"],
                        "won": result["won"],
                        "winner": result["winner"],
                        "decisions": len(times),
                        "p95_ms": round(1000 * p95, 1),
                    }
                ),
                file=sys.stderr,
                flush=True,
            )
    report: dict[str, object] = {"table": table, "games": args.games, "first": args.first, "seed": args.seed}
    indices = range(args.first, args.first + args.games)
    for label, recipe in (("a", args.a), ("b", args.b)):
        wins = sum(1 for k in indices if results[(recipe, k)]["won"])
        times = sorted(t for k in indices for t in results[(recipe, k)]["times"])  # type: ignore[attr-defined]
        low, high = wilson_interval(wins, args.games)
        report[label] = {
            "recipe": recipe,
            "wins": wins,
            "win_rate": round(wins / args.games, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "decisions": len(times),
            "mean_ms": round(1000 * statistics.fmean(times), 1) if times else 0.0,
            "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1) if times else 0.0,
        }
    won = {(recipe, k): bool(results[(recipe, k)]["won"]) for recipe in (args.a, args.b) for k in indices}
    report["only_a_won"] = sum(1 for k in indices if won[(args.a, k)] and not won[(args.b, k)])
    report["only_b_won"] = sum(1 for k in indices if won[(args.b, k)] and not won[(args.a, k)])
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
