"""The warlord's setup placement (issue 37) measured head to head: the spread placement (its
``spread_setup``) against the heuristic's pile it replaced, the same bot otherwise.

    python benchmarks/bench_setup.py                    # 3 and 4 players, 2-player RISK
    python benchmarks/bench_setup.py --only duel --rounds 300

Each round plays one game per seat rotation with the round's seed (seed 1 up): one spread warlord
against the piling ones, 2008 rules. The spread one's wins, with a 95% Wilson interval and the chance
figure. Run by hand; never part of the test pass/fail. Keep runs bounded: the machine is shared.
"""

from __future__ import annotations

import argparse
import math

from risk.bots.warlord import WarlordBot
from risk.play.simulate import bot_seed, play_game
from risk.rules.options import Rules

# name: (players, game, rounds by default)
TABLES: dict[str, tuple[int, str, int]] = {
    "three": (3, "world", 150),
    "four": (4, "world", 100),
    "duel": (2, "two-player", 300),
}


class PilingWarlord(WarlordBot):
    """The warlord with the heuristic's setup placement (before issue 37)."""

    spread_setup = False


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / games
    centre = p + z * z / (2 * games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - half) / scale, (centre + half) / scale


def table(players: int, game: str, rounds: int) -> tuple[int, int]:
    """The spread warlord's wins and the games played."""
    rules = Rules.preset("2008").for_game(game)
    wins = games = 0
    for seed in range(1, rounds + 1):
        for spread_seat in range(players):
            bots = [
                (WarlordBot if seat == spread_seat else PilingWarlord)(bot_seed(seed, seat))
                for seat in range(players)
            ]
            _, report = play_game(rules, ["warlord"] * players, seed, max_turns=500, bots=bots)
            games += 1
            wins += report.winner == spread_seat
    return wins, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only", default=",".join(TABLES), help="tables, comma-separated: " + ", ".join(TABLES)
    )
    parser.add_argument("--rounds", type=int, default=None, help="rounds a table (its default if not given)")
    args = parser.parse_args()
    for name in args.only.split(","):
        players, game, rounds = TABLES[name]
        wins, games = table(players, game, args.rounds or rounds)
        low, high = wilson(wins, games)
        print(
            f"{name}: {players} players, {game}: spread wins {wins} / {games}, {wins / games:.1%} "
            f"[{low:.1%}, {high:.1%}] (chance {1 / players:.0%})"
        )


if __name__ == "__main__":
    main()
