"""Game-aware play in 2-player RISK, Team RISK and the expert options, measured against today's bots.

    python benchmarks/bench_neutrals.py --baseline ../baseline/src                  # every case, 200 games
    python benchmarks/bench_neutrals.py --baseline ../baseline/src --only team-4 --bots fortress --games 40
    python benchmarks/bench_neutrals.py --ladder --games 200       # quick < fortress < continental

Each case seats the aware bot against the same bot of the older checkout (``--baseline``: its ``src``
folder, loaded by ``baseline_inprocess.py``), seats rotating game by game. 2-player games: one
aware seat and one old one (chance 50%, goal 60%). Team RISK: two teams, one of aware bots and one
of old ones (a team wins together: chance 50%); each seed is played in the team's two distinct
seatings (further rotations of alternating seats repeat the same game). The expert options (1993,
attack advantage and commanders on) in 3-player games: one aware seat and two old ones (chance
33%, goal 1.5x = 50%). Win rates are over all games (an unfinished game is a loss), with 95% Wilson intervals.

``--ladder`` plays quick, fortress and continental pairwise in 2-player games (2008 rules, one
neutral) instead. Run by hand with ``nice``; never part of the test pass/fail.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from baseline_inprocess import register_baseline
from risk.play.tournament import run_tournament, wilson_interval
from risk.rules.options import Rules

EXPERT_OPTIONS = ("attack-advantage=on", "commanders=on")


@dataclass(frozen=True)
class Case:
    label: str
    preset: str
    game: str
    options: tuple[str, ...]
    # Seats: "aware" or "old", one per seat, in seat order before rotation.
    seats: tuple[str, ...]

    def rules(self) -> Rules:
        return Rules.preset(self.preset).for_game(self.game).with_option_text(list(self.options))

    @property
    def chance(self) -> float:
        if self.game == "team":
            return 0.5
        return self.seats.count("aware") / len(self.seats)


CASES = (
    Case("two-player-2008", "2008", "two-player", (), ("aware", "old")),
    Case("two-player-1993", "1993", "two-player", (), ("aware", "old")),
    Case("two-player-2003-passive", "2003", "two-player", (), ("aware", "old")),
    Case("two-player-2003-active", "2003", "two-player", ("neutral-mode=active",), ("aware", "old")),
    Case("team-4", "2003", "team", (), ("aware", "old") * 2),
    Case("team-6", "2003", "team", (), ("aware", "old") * 3),
    Case("experts-3", "1993", "world", EXPERT_OPTIONS, ("aware", "old", "old")),
)


def measure(case: Case, bot: str, games: int, seed: int, workers: int, out: Path | None) -> dict[str, object]:
    specs = [bot if seat == "aware" else f"baseline-{bot}" for seat in case.seats]
    started = time.perf_counter()
    folder = None if out is None else out / f"{case.label}-{bot}"
    options = "".join(f" --option {option}" for option in case.options)
    if case.game == "team":
        # Teams alternate by seat, so a tournament's rotations 0 and 2 (and 4) are the same game:
        # each seed is played in its two distinct seatings (a 2-game tournament per seed).
        games += games % 2
        results = [
            game
            for k in range(games // 2)
            for game in run_tournament(specs, case.rules(), 2, seed=seed + k, out=folder).results
        ]
        command = (
            f"risk tournament --bots {','.join(specs)} --rules {case.preset} --game {case.game}"
            f"{options} --games 2 --seed S, for S = {seed} to {seed + games // 2 - 1}"
        )
    else:
        results = run_tournament(specs, case.rules(), games, workers=workers, seed=seed, out=folder).results
        command = (
            f"risk tournament --bots {','.join(specs)} --rules {case.preset} --game {case.game}"
            f"{options} --games {games} --seed {seed}"
        )
    wins = sum(1 for game in results if game.winner == bot)
    low, high = wilson_interval(wins, games)
    return {
        "case": case.label,
        "bot": bot,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "chance": round(case.chance, 4),
        "unfinished": sum(1 for game in results if game.winner_seat is None),
        "seconds": round(time.perf_counter() - started, 1),
        "command": command,
    }


def ladder(games: int, seed: int, workers: int) -> list[dict[str, object]]:
    rows = []
    rules = Rules.preset("2008").for_game("two-player")
    for stronger, weaker in (("fortress", "quick"), ("continental", "fortress"), ("continental", "quick")):
        result = run_tournament([stronger, weaker], rules, games, workers=workers, seed=seed)
        wins = sum(1 for game in result.results if game.winner == stronger)
        low, high = wilson_interval(wins, games)
        rows.append(
            {
                "bot": stronger,
                "against": weaker,
                "games": games,
                "wins": wins,
                "win_rate": round(wins / games, 4),
                "ci95": [round(low, 4), round(high, 4)],
                "command": f"risk tournament --bots {stronger},{weaker} --game two-player "
                f"--games {games} --seed {seed}",
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", type=Path, help="the src folder of the checkout to compare with")
    parser.add_argument("--only", choices=[case.label for case in CASES], help="one case")
    parser.add_argument(
        "--bots", default="continental,fortress", help="aware bots to measure, comma-separated"
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ladder", action="store_true", help="the 2-player ladder instead")
    parser.add_argument("--out", type=Path, help="folder for the game records")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.ladder:
        rows = ladder(args.games, args.seed, args.workers)
        for row in rows:
            print(
                f"{row['bot']:>12} vs {row['against']:<10} {row['wins']:>4}/{row['games']:<4} "
                f"{row['win_rate']:.1%}  "
                f"95% [{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}]",
                file=sys.stderr,
            )  # type: ignore[index]
        print(json.dumps({"ladder": rows}, indent=2))
        return
    if args.baseline is None:
        parser.error("--baseline is required (the src folder of the older checkout)")
    try:
        register_baseline(args.baseline)
    except ValueError as error:
        parser.error(str(error))
    rows = []
    for case in CASES:
        if args.only not in (None, case.label):
            continue
        for bot in args.bots.split(","):
            row = measure(case, bot.strip(), args.games, args.seed, args.workers, args.out)
            rows.append(row)
            print(
                f"{case.label:>24} {bot:<12} {row['wins']:>4}/{row['games']:<4} {row['win_rate']:.1%}  "
                f"95% [{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}]  chance {row['chance']:.0%}  "  # type: ignore[index]
                f"{row['seconds']} s",
                file=sys.stderr,
            )
    print(json.dumps({"cases": rows}, indent=2))


if __name__ == "__main__":
    main()
