"""Is a board fair to every seat? Bot games on it, and each seat's win rate with its 95% interval.

    python tools/balance_board.py src/risk/maps/crossroads.json --players 2 3 --games 200
    python tools/balance_board.py pangaea --players 6 8 10 --games 200 --processes 2

For each player count, ``--games`` bot games with the ``--rules`` (2 players: that edition's 2-player
game with neutral armies), each on the board under an order of territories of its own (``--order
shuffled``, the default: the bots break ties by territory number, so on the file's order the same
territories would win every tie; ``--order file`` plays every game as the file lists it). The games
are mirror games: every seat plays the same bot, the ``--bots``
(by default the quick and continental bots) taking turns from game to game. Mixed seats would
measure the bots as well as the seats: with two kinds of bot over three seats, the orders in which
they come up are not equally often met, and the stronger bot's wins would show as a seat's. Two
tables for each count:

- by **turn order**: the winner's place in the order of play (1st = the player who takes turn 1,
  chosen by the game's roll);
- by **starting position**: each player's "home", the continent it holds the greatest share of once
  the setup is over (ties: the larger holding, then the first continent); a home shared by several
  players counts for each. A decisive continent shows as a home that wins well above chance.

Each row: games won, the win rate and its Wilson 95% interval, and chance (1 / players; for a home,
the share of all players who had it, weighted by their count, is the same chance per player). A
row whose interval does not contain chance is marked ``*``. Under the turn-order table, the
chi-square test of "every place wins as often" (its p-value: above 0.05, no place is favoured beyond
the noise). Games the turn cap stopped have no winner and are left out (their count is given).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from risk.maps import Board, load_map
from risk.play.simulate import play_game
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import SPECTATOR, View

Z95 = 1.959963984540054
ORDERS = {"shuffled": "territories in a shuffled order each game", "file": "territories in the file's order"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game: the winner's place in the turn order and each player's home continent."""

    players: int
    winner_place: int | None  # 0 = moved first; None when the turn cap stopped the game
    homes: tuple[int, ...]  # each player's home continent, by turn order (place 0 first)
    turns: int


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate ``wins / games`` (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def chi_square_p(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``freedom`` degrees (no SciPy needed)."""
    if statistic <= 0:
        return 1.0
    a, x = freedom / 2, statistic / 2
    # The regularised lower incomplete gamma by its series, then the upper tail.
    term = total = 1.0 / a
    k = a
    while term > total * 1e-15:
        k += 1
        term *= x / k
        total += term
    lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    return max(0.0, 1.0 - lower)


def home_continent(board: Board, owner: list[int], player: int) -> int:
    """The continent where ``player`` holds the greatest share (ties: more territories, then first)."""

    def share(c: int) -> tuple[float, int, int]:
        members = board.continents[c].territories
        held = sum(1 for t in members if owner[t] == player)
        return held / len(members), held, -c

    return max(range(len(board.continents)), key=share)


def rules_for(edition: str, players: int) -> Rules:
    description = f"{edition} game=two-player" if players == 2 else edition
    return Rules.from_description(description)


def shuffled(board: Board, seed: int) -> Board:
    """The same board with its territories and continents listed in an order drawn from ``seed``:
    the same map under other numbers. The bots break ties by territory number (the first or the
    last of equals), so on the order of the file the same territories win every tie, game after
    game; a board's balance is its map's, and is measured over many orders."""
    data = json.loads(board.canonical_json)
    rng = random.Random(f"balance-order-{seed}")
    rng.shuffle(data["territories"])
    rng.shuffle(data["continents"])
    for continent in data["continents"]:
        if "territories" in continent:
            rng.shuffle(continent["territories"])
    return Board(data)


def play_one(
    board_ref: str,
    edition: str,
    bots: tuple[str, ...],
    players: int,
    seed: int,
    max_turns: int,
    order: str = "shuffled",
) -> Outcome:
    listed = load_map(board_ref)
    board = shuffled(listed, seed) if order == "shuffled" else listed
    # Mirror games: every seat plays the game's one bot (the bots take turns from game to game), so a
    # place in the turn order owes nothing to which bot sat there.
    seats = (bots[seed % len(bots)],) * players
    at_start: list[tuple[int, list[int]]] = []  # who moves first, and who holds what

    def after_setup(game: Game, turn: int, _actions: int) -> None:
        if turn == 0:  # the setup just ended
            view = View(game, SPECTATOR)
            at_start.append((view.current, list(view.owner)))

    _, report = play_game(rules_for(edition, players), seats, seed, max_turns, board, on_turn_end=after_setup)
    ((first, owner),) = at_start
    turn_order = [(first + i) % players for i in range(players)]
    # Homes by the continent's place in the board as listed (the same continent whatever the order).
    homes = tuple(
        listed.continent(board.continents[home_continent(board, owner, player)].name) for player in turn_order
    )
    place = None if report.winner is None else turn_order.index(report.winner)
    return Outcome(players, place, homes, report.turns)


def measure(
    board_ref: str,
    players: int,
    games: int,
    edition: str = "1993",
    bots: tuple[str, ...] = ("quick", "continental"),
    processes: int = 1,
    first_seed: int = 0,
    max_turns: int = 1000,
    order: str = "shuffled",
) -> list[Outcome]:
    """``games`` bot games on the board with ``players`` seats (seeds from ``first_seed``); ``order``:
    ``shuffled``, each game on the board under an order of its own (:func:`shuffled`), or ``file``,
    every game on the board as listed."""
    seeds = range(first_seed, first_seed + games)
    jobs = [(board_ref, edition, bots, players, seed, max_turns, order) for seed in seeds]
    if processes <= 1:
        return [play_one(*job) for job in jobs]
    with ProcessPoolExecutor(processes) as pool:
        return list(pool.map(play_one, *zip(*jobs, strict=True), chunksize=4))


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    wins: int
    games: int
    chance: float

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def off_chance(self) -> bool:
        low, high = self.interval
        return not low <= self.chance <= high

    def text(self) -> str:
        low, high = self.interval
        rate = self.wins / self.games if self.games else 0.0
        mark = " *" if self.off_chance else ""
        return (
            f"| {self.label} | {self.wins}/{self.games} | {rate:.1%} | {low:.1%} to {high:.1%} "
            f"| {self.chance:.1%}{mark} |"
        )


def turn_order_rows(outcomes: list[Outcome]) -> list[Row]:
    decided = [o for o in outcomes if o.winner_place is not None]
    players = outcomes[0].players
    wins = Counter(o.winner_place for o in decided)
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}
    return [Row(ordinal.get(p + 1, f"{p + 1}th"), wins[p], len(decided), 1 / players) for p in range(players)]


def home_rows(board: Board, outcomes: list[Outcome]) -> list[Row]:
    decided = [o for o in outcomes if o.winner_place is not None]
    had, won = Counter[int](), Counter[int]()
    for o in decided:
        had.update(o.homes)
        won[o.homes[o.winner_place]] += 1  # type: ignore[index]
    players = outcomes[0].players
    # A home's rate: of the players who had it, the share who won; chance is 1 / players.
    return [Row(c.name, won[c.index], had[c.index], 1 / players) for c in board.continents if had[c.index]]


def chi_square(rows: list[Row]) -> tuple[float, float]:
    """The statistic and p-value of "every place wins as often" over the rows' wins."""
    total = sum(r.wins for r in rows)
    if total == 0:
        return 0.0, 1.0
    expected = total / len(rows)
    statistic = sum((r.wins - expected) ** 2 / expected for r in rows)
    return statistic, chi_square_p(statistic, len(rows) - 1)


def report(
    board: Board, outcomes: list[Outcome], edition: str, bots: tuple[str, ...], order: str = "shuffled"
) -> str:
    players = outcomes[0].players
    capped = sum(1 for o in outcomes if o.winner_place is None)
    turns = sorted(o.turns for o in outcomes)
    game = f"{edition} 2-player game (neutral armies)" if players == 2 else f"{edition} rules"
    lines = [
        f"{board.name}: {players} players, {game}, {len(outcomes)} games of {' and '.join(bots)} "
        f"(mirror games, the bots in turn, {ORDERS[order]}), {capped} stopped by the turn cap, "
        f"median {turns[len(turns) // 2]} turns",
        "",
        "| turn order | won | rate | 95% interval | chance |",
        "|---|---|---|---|---|",
    ]
    rows = turn_order_rows(outcomes)
    lines += [r.text() for r in rows]
    statistic, p = chi_square(rows)
    lines += [
        "",
        f"chi-square {statistic:.2f} on {players - 1} degrees of freedom: p = {p:.3f}",
        "",
        "| home continent | won | rate | 95% interval | chance |",
        "|---|---|---|---|---|",
    ]
    lines += [r.text() for r in home_rows(board, outcomes)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", help="a shipped board's name or a board file (FILE.json)")
    parser.add_argument("--players", type=int, nargs="+", default=[3], help="player counts (default 3)")
    parser.add_argument("--games", type=int, default=200, help="games per player count (default 200)")
    parser.add_argument("--rules", default="1993", help="the edition (default 1993)")
    parser.add_argument("--bots", nargs="+", default=["quick", "continental"])
    parser.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    parser.add_argument("--max-turns", type=int, default=1000)
    parser.add_argument(
        "--order",
        choices=("shuffled", "file"),
        default="shuffled",
        help="each game on the board under an order of territories of its own "
        "(default), or every game in the file's order",
    )
    args = parser.parse_args(argv)
    try:
        board = load_map(args.board)
        for players in args.players:
            rules_for(args.rules, players).check_player_count(players, board)
    except Exception as error:  # a board or a count the game refuses: its one line, exit 2
        print(f"balance_board: error: {error}", file=sys.stderr)
        return 2
    if args.games < 1:
        print("balance_board: error: --games must be at least 1", file=sys.stderr)
        return 2
    for players in args.players:
        outcomes = measure(
            args.board,
            players,
            args.games,
            args.rules,
            tuple(args.bots),
            args.processes,
            args.seed,
            args.max_turns,
            args.order,
        )
        print(report(board, outcomes, args.rules, tuple(args.bots), args.order))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
