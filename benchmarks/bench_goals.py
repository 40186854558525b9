"""Issue 42's goal tables: each table's games as ``risk tournament`` plays them, its subject's win rate
with a 95% Wilson interval, the goal, and the command that plays the same games.

    python benchmarks/bench_goals.py --list                          # the tables and their commands
    python benchmarks/bench_goals.py --only six-new-expert --workers 2
    python benchmarks/bench_goals.py --only rival-1993,rival-2008 --games 100
    python benchmarks/bench_goals.py --workers 2 --json goals.json   # every table: hours on 2 cores

Seats rotate (game k seated as ``risk tournament`` seats it, seed 1 up). A goal is *met* when the
subject's rate is on the goal's side, and *clear* when its whole interval is; "ahead" tables (the new
expert against today's at one table) say which of the two won more and whether the intervals part.
Run by hand on the compiled build (``python tools/build_compiled.py``); never part of the test
pass/fail. Keep runs bounded: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from risk.play.tournament import TournamentResult, run_tournament
from risk.rules.options import Rules

ONCE_PER_TRADE = ("territory-card-bonus=once-per-trade",)


@dataclass(frozen=True, slots=True)
class Goal:
    name: str
    bots: tuple[str, ...]  # by seat, as --bots takes them
    subject: str  # the bot the goal is about
    preset: str = "1993"
    game: str = "world"
    options: tuple[str, ...] = ()
    games: int = 200
    at_least: float | None = None
    at_most: float | None = None
    ahead_of: str | None = None  # the subject should win clearly more than this bot

    def rules(self) -> Rules:
        return Rules.preset(self.preset).for_game(self.game).with_option_text(list(self.options))

    def command(self, games: int, workers: int) -> str:
        parts = ["risk tournament", f"--bots {','.join(self.bots)}", f"--rules {self.preset}"]
        if self.game != "world":
            parts.append(f"--game {self.game}")
        parts += [f"--option {option}" for option in self.options]
        parts += [f"--games {games}", f"--workers {workers}", "--seed 1"]
        return " ".join(parts)

    def wanted(self) -> str:
        if self.at_least is not None:
            return f"{self.subject} at least {self.at_least:.0%}"
        if self.at_most is not None:
            return f"{self.subject} at most {self.at_most:.0%}"
        return f"{self.subject} clearly ahead of {self.ahead_of}"


GOALS: tuple[Goal, ...] = (
    # A strong rival and a weak seat.
    Goal("rival-1993", ("expert", "hard", "continental"), "hard", options=ONCE_PER_TRADE, at_least=0.25),
    Goal("rival-2008", ("expert", "hard", "continental"), "hard", preset="2008", at_least=0.25),
    Goal("weak-1993", ("hard", "continental", "continental"), "hard", options=ONCE_PER_TRADE, at_least=0.9),
    Goal("weak-2008", ("hard", "continental", "continental"), "hard", preset="2008", at_least=0.9),
    # Six players (1993 only: the 2008 rules are for 3 to 5).
    Goal("six-hard", ("hard", *["warlord-v1"] * 5), "hard", options=ONCE_PER_TRADE, at_least=0.25),
    Goal(
        "six-old-expert",
        ("expert-v1", *["hard"] * 5),
        "expert-v1",
        options=ONCE_PER_TRADE,
        games=100,
        at_most=0.3,
    ),
    Goal(
        "six-new-expert", ("expert", *["hard"] * 5), "expert", options=ONCE_PER_TRADE, games=100, at_least=0.3
    ),
    Goal(
        "six-experts",
        ("expert", "expert-v1", *["hard"] * 4),
        "expert",
        options=ONCE_PER_TRADE,
        games=100,
        ahead_of="expert-v1",
    ),
    # Head to head in 2-player RISK.
    Goal("duel-1993", ("hard", "expert"), "hard", game="two-player", options=ONCE_PER_TRADE, at_least=0.25),
    Goal("duel-2008", ("hard", "expert"), "hard", preset="2008", game="two-player", at_least=0.25),
    # The expert's goal tables of issue 25 (docs/bots.md, "The top bot"), against the warlord they were
    # measured against (warlord-v1): no worse. Against today's warlord (`hard`) the mixed table is
    # rival-2008 above.
    Goal("expert-mixed", ("expert", "warlord-v1", "continental"), "expert", preset="2008", at_least=0.5),
    Goal("expert-pair", ("expert", "warlord-v1", "warlord-v1"), "expert", preset="2008", at_least=0.45),
    Goal("expert-duel", ("expert", "warlord-v1"), "expert", preset="2008", game="two-player", at_least=0.7),
)


def rate(tournament: TournamentResult, bot: str) -> tuple[int, int, float, tuple[float, float]]:
    """A bot's wins, seats played, win rate and interval (its every seat counted)."""
    for standing in tournament.standings:
        if standing.name == bot:
            return standing.wins, standing.games, standing.win_rate, standing.ci95
    raise KeyError(bot)


def verdict(goal: Goal, tournament: TournamentResult) -> str:
    _, _, share, (low, high) = rate(tournament, goal.subject)
    if goal.at_least is not None:
        met, clear = share >= goal.at_least, low >= goal.at_least
    elif goal.at_most is not None:
        met, clear = share <= goal.at_most, high <= goal.at_most
    else:
        assert goal.ahead_of is not None
        _, _, other, (_, other_high) = rate(tournament, goal.ahead_of)
        met, clear = share > other, low > other_high
    if not met:
        return "short"
    return "met, clear of the goal" if clear else "met on the point (the interval reaches past the goal)"


def percent(share: float, interval: tuple[float, float]) -> str:
    return f"{share:.1%} [{interval[0]:.1%}, {interval[1]:.1%}]"


def report(goal: Goal, tournament: TournamentResult, games: int, workers: int) -> dict[str, object]:
    print(f"\n{goal.name}: {goal.wanted()}")
    print(f"  {goal.command(games, workers)}")
    for standing in tournament.standings:
        figure = percent(standing.win_rate, standing.ci95)
        print(f"  {standing.name:<12} {standing.wins:>4} / {standing.games:<4} {figure}")
    if tournament.unfinished or tournament.failed:
        print(f"  unfinished {tournament.unfinished}, failed {tournament.failed}")
    outcome = verdict(goal, tournament)
    print(f"  {outcome} ({len(tournament.results)} games, {tournament.seconds:.0f} s)")
    return {
        "table": goal.name,
        "goal": goal.wanted(),
        "command": goal.command(games, workers),
        "games": len(tournament.results),
        "verdict": outcome,
        "seconds": round(tournament.seconds, 1),
        "bots": [standing.to_json() for standing in tournament.standings],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="tables by name, comma-separated (default: all)")
    parser.add_argument("--games", type=int, default=0, help="games a table (default: the goal's)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--list", action="store_true", help="print the tables and their commands only")
    parser.add_argument("--json", type=Path, help="write every table's figures here")
    args = parser.parse_args(argv)
    names = [name for name in args.only.split(",") if name]
    known = {goal.name: goal for goal in GOALS}
    unknown = [name for name in names if name not in known]
    if unknown:
        print(
            f"bench_goals: no table called {', '.join(unknown)}; tables: {', '.join(known)}", file=sys.stderr
        )
        return 2
    chosen = [known[name] for name in names] if names else list(GOALS)
    figures = []
    for goal in chosen:
        games = args.games or goal.games
        if args.list:
            print(f"{goal.name}: {goal.wanted()}\n  {goal.command(games, args.workers)}")
            continue
        started = time.perf_counter()
        tournament = run_tournament(list(goal.bots), goal.rules(), games, workers=args.workers, seed=1)
        figures.append(report(goal, tournament, games, args.workers))
        figures[-1]["wall_seconds"] = round(time.perf_counter() - started, 1)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
