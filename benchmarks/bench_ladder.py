"""The bot ladder measured by game and player count: each rung against the rung below it.

    python benchmarks/bench_ladder.py --games 20 --workers 1 --out /tmp/ladder.jsonl
    python benchmarks/bench_ladder.py --only search --games 200 --workers 2 --out ladder-search.jsonl
    python benchmarks/bench_ladder.py --levels --only normal,hard --games 20 --out /tmp/levels.jsonl
    python benchmarks/bench_ladder.py --table /tmp/ladder.jsonl        # the markdown table again

Rungs, weakest first: random < quick < fortress < continental < warlord < search. A cell plays one copy of a
rung against copies of the rung below (1 v 1 in 2-player RISK with its neutral; 1 v n-1 in the other
games; in Team RISK the stronger bot fills one team and the weaker the other) with the seats rotating,
as `risk tournament` does, so every bot sits in every seat equally often (the number of games is
rounded up to a whole number of rotations; in Team RISK each seed is played in its two distinct
seatings, the stronger team first and second, since further rotations repeat the same game).
Chance is the stronger bot's share of the seats (1/n, or 1/2 for a team). A rung "beats" the one
below when the whole 95% Wilson interval of its win rate is above chance, is "above chance" when
only the rate is, and "fails" otherwise. Games stopped by the turn cap are wins for nobody.

With ``--levels`` the rungs are the levels people choose (docs/bots.md, "Levels"): normal against
easy, hard against normal, expert against hard, played under the level names.

Editions: the 2008 rulebook for world, Secret Mission, Capital and 2-player RISK up to its 5 players,
1993 for 6 players; Mission and Team RISK are only in the 2003 rulebook.

Every cell is appended to the ``--out`` file (JSON lines) as soon as it is done, and cells already in
that file are not played again: a run stopped part way resumes where it stopped. Run by hand with
``nice -n 10``; never part of the tests. Bounded by ``--games`` per cell.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from risk.play.tournament import DEFAULT_MAX_TURNS, run_tournament, wilson_interval
from risk.rules.options import Rules

# (stronger, weaker), weakest pair first.
RUNGS: tuple[tuple[str, str], ...] = (
    ("quick", "random"),
    ("fortress", "quick"),
    ("continental", "fortress"),
    ("warlord", "continental"),
    ("search", "warlord"),
)
# The levels for people, easiest pair first (--levels).
LEVEL_RUNGS: tuple[tuple[str, str], ...] = (
    ("normal", "easy"),
    ("hard", "normal"),
    ("expert", "hard"),
)


@dataclass(frozen=True, slots=True)
class Cell:
    game: str
    players: int
    edition: str

    @property
    def key(self) -> str:
        return f"{self.game}-{self.players}"

    def seats(self, stronger: str, weaker: str) -> list[str]:
        if self.game == "team":  # teams alternate by seat: the stronger bot on seats 1, 3, (5)
            return [stronger if seat % 2 == 0 else weaker for seat in range(self.players)]
        return [stronger, *[weaker] * (self.players - 1)]

    @property
    def rotations(self) -> int:
        """Distinct seatings: in Team RISK (alternating seats) only two, whatever the player count."""
        return 2 if self.game == "team" else self.players

    @property
    def chance(self) -> float:
        return 0.5 if self.game == "team" else 1 / self.players


def _edition(game: str, players: int) -> str:
    if game in ("mission", "team"):
        return "2003"
    return "2008" if players <= 5 else "1993"


CELLS: tuple[Cell, ...] = tuple(
    Cell(game, players, _edition(game, players))
    for game, counts in (
        ("two-player", (2,)),
        ("world", (3, 4, 6)),
        ("secret-mission", (3, 4, 6)),
        ("capital", (3, 4, 6)),
        ("mission", (3, 4, 6)),
        ("team", (4, 6)),
    )
    for players in counts
)


def whole_rotations(games: int, rotations: int) -> int:
    """``games`` rounded up to a multiple of the distinct seatings, so each is played equally."""
    return math.ceil(games / rotations) * rotations


def verdict(wins: int, games: int, chance: float) -> str:
    low, _ = wilson_interval(wins, games)
    if low > chance:
        return "beats"
    return "above chance" if wins / games > chance else "fails"


def measure(
    cell: Cell, stronger: str, weaker: str, games: int, workers: int, seed: int, max_turns: int
) -> dict[str, object]:
    started = time.perf_counter()
    seats = cell.seats(stronger, weaker)
    rules = Rules.preset(cell.edition).for_game(cell.game)
    played = whole_rotations(games, cell.rotations)
    if cell.game == "team":
        # A tournament's rotations 0 and 2 of alternating seats are the same game: play each seed's
        # two distinct seatings once (a 2-game tournament per seed), not the same game twice.
        results = [
            game
            for k in range(played // 2)
            for game in run_tournament(seats, rules, 2, seed=seed + k, max_turns=max_turns).results
        ]
        command = (
            f"risk tournament --bots {','.join(seats)} --rules {cell.edition} --game team --games 2 "
            f"--max-turns {max_turns} --seed S, for S = {seed} to {seed + played // 2 - 1}"
        )
    else:
        tournament = run_tournament(seats, rules, played, workers=workers, seed=seed, max_turns=max_turns)
        results = tournament.results
        command = (
            f"risk tournament --bots {','.join(seats)} --rules {cell.edition} --game {cell.game} "
            f"--games {played} --seed {seed} --max-turns {max_turns}"
        )
    wins = sum(1 for game in results if game.winner == stronger)
    unfinished = sum(1 for game in results if game.winner_seat is None)
    low, high = wilson_interval(wins, played)
    return {
        "stronger": stronger,
        "weaker": weaker,
        "game": cell.game,
        "players": cell.players,
        "edition": cell.edition,
        "games": played,
        "wins": wins,
        "win_rate": round(wins / played, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "chance": round(cell.chance, 4),
        "verdict": verdict(wins, played, cell.chance),
        "unfinished": unfinished,
        "seconds": round(time.perf_counter() - started, 1),
        "command": command,
    }


def markdown_table(rows: list[dict[str, object]]) -> str:
    """One line per cell: the rung, the game and count, wins, rate, interval, chance and verdict."""
    order = {pair: i for i, pair in enumerate((*RUNGS, *LEVEL_RUNGS))}
    cells = {cell.key: i for i, cell in enumerate(CELLS)}
    rows = sorted(
        rows,
        key=lambda r: (
            order.get((str(r["stronger"]), str(r["weaker"])), 99),
            cells.get(f"{r['game']}-{r['players']}", 99),
        ),
    )
    lines = [
        "| rung | game | players | rules | games | wins | win rate | 95% interval | chance | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        low, high = r["ci95"]  # type: ignore[misc]
        opponents = "team" if r["game"] == "team" else f"1 v {int(r['players']) - 1}"  # type: ignore[call-overload]
        verdict_text = str(r["verdict"]) if str(r["verdict"]) == "beats" else f"**{r['verdict']}**"
        unfinished = f" ({r['unfinished']} unfinished)" if r["unfinished"] else ""
        lines.append(
            f"| {r['stronger']} > {r['weaker']} | {r['game']} | {r['players']} ({opponents}) "
            f"| {r['edition']} "
            f"| {r['games']} | {r['wins']}{unfinished} | {float(r['win_rate']):.0%} "  # type: ignore[arg-type]
            f"| {low:.0%} – {high:.0%} | {float(r['chance']):.0%} | {verdict_text} |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


def read_rows(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--games", type=int, default=20, help="games per cell (rounded up to whole rotations)"
    )
    parser.add_argument("--only", help="stronger rungs to play, comma-separated (e.g. search,continental)")
    parser.add_argument("--levels", action="store_true", help="the levels (normal > easy, ...), not the bots")
    parser.add_argument("--games-only", help="games to play, comma-separated (e.g. world,team)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    parser.add_argument("--out", type=Path, help="JSON lines file: each cell appended when done; resumes")
    parser.add_argument("--table", type=Path, help="only print the markdown table of this JSON lines file")
    args = parser.parse_args()

    if args.table is not None:
        print(markdown_table(read_rows(args.table)))
        return
    if args.games < 1 or args.workers < 1 or args.max_turns < 1:
        parser.error("--games, --workers and --max-turns must be at least 1")
    rungs = list(LEVEL_RUNGS if args.levels else RUNGS)
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")}
        unknown = wanted - {stronger for stronger, _ in rungs}
        if unknown:
            names = ", ".join(s for s, _ in rungs)
            parser.error(f"--only: no rung {', '.join(sorted(unknown))}; rungs: {names}")
        rungs = [pair for pair in rungs if pair[0] in wanted]
    cells = list(CELLS)
    if args.games_only:
        wanted_games = {name.strip() for name in args.games_only.split(",")}
        cells = [cell for cell in CELLS if cell.game in wanted_games]
        if not cells:
            parser.error(
                f"--games-only: none of {args.games_only!r}; games: world, secret-mission, capital, "
                "two-player, mission, team"
            )
    rows = read_rows(args.out) if args.out is not None else []
    done = {(r["stronger"], r["game"], r["players"], r["games"], r["seed"]) for r in rows if "seed" in r}
    for stronger, weaker in rungs:
        for cell in cells:
            key = (stronger, cell.game, cell.players, whole_rotations(args.games, cell.rotations), args.seed)
            if key in done:
                continue
            row = measure(cell, stronger, weaker, args.games, args.workers, args.seed, args.max_turns)
            row["seed"] = args.seed
            rows.append(row)
            if args.out is not None:
                with args.out.open("a") as stream:
                    stream.write(json.dumps(row) + "\n")
            print(
                f"{stronger:>12} > {weaker:<12} {cell.game:>15} {cell.players}p  "
                f"{row['wins']:>3}/{row['games']:<3} {row['win_rate']:.0%} "
                f"[{row['ci95'][0]:.0%}, {row['ci95'][1]:.0%}] "  # type: ignore[index]
                f"chance {cell.chance:.0%}  {row['verdict']}  {row['seconds']} s",
                file=sys.stderr,
                flush=True,
            )
    print(markdown_table(rows))


if __name__ == "__main__":
    main()
