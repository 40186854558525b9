"""Leader containment: how often the other players stop a runaway leader.

    python benchmarks/bench_leader.py --players 4 --others continental --games 200 --workers 2
    python benchmarks/bench_leader.py --players 4,6 --leader continental --others quick --json
    python benchmarks/bench_leader.py --players 4 --others expert --games 40 --workers 2

The bots play the setup (and ``--round`` whole rounds, 0 by default) of a world-domination game; then,
at the start of the first player's turn, the map is rearranged (``risk.rules.scenario.rearrange``)
into a scripted runaway start: one seat, the leader, owns every territory of two continents
(``--continents``, South America and Africa by default), its armies one on each territory and the
rest on the borders. The others keep their own territories outside those continents and share the
leader's former ones (each to the other with the fewest). The armies on the board stay as many as the
game had at that point, shared equally between the players; each other player's armies sit one on
each of its territories and the rest where the armies of the played game stood, scaled. Hands, deck,
dice and whose turn it is stay as played. Then the game plays on to its end (or ``--max-turns``).

The leader's seat rotates game by game (game ``k``: seed ``seed + k // players``, leader in seat
``k % players``), so it sits in every seat and every place in the turn order. Bots are specifications
as ``risk tournament --bots`` reads them (a name, ``name:iterations``, a level, a program path); the
others are all one specification and the leader is the others' unless ``--leader`` names another.

Reported per player count: the leader's win rate with its 95% Wilson interval (chance is 1/players;
a game stopped by the turn cap is a win for nobody), how often the leader still holds both continents
after 3 and after 6 rounds (no territory of either taken from it yet: a round is every player's turn,
counted from the scripted start), and the mean round in which the leader first loses a territory of
them (over the games where it does). Rules: 2008 up to 5 players, 1993 at 6 (``--rules`` for
another edition). Deterministic per seed whatever ``--workers`` (except where a bot's search stops at
its time cap: ``expert`` on a loaded machine). Run by hand with ``nice``; never part
of the tests (tests/test_bench_leader.py checks the position and a few short games).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from risk.bots.protocol import DEFAULT_TIME_BUDGET
from risk.errors import RiskError
from risk.maps import load_map
from risk.play.parallel import run_jobs
from risk.play.simulate import bot_seed
from risk.play.tournament import (
    DEFAULT_MAX_TURNS,
    check_bot_spec,
    make_player,
    player_name,
    wilson_interval,
)
from risk.rounds import count_rounds
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.rules.scenario import rearrange
from risk.view import View

DEFAULT_CONTINENTS = ("South America", "Africa")
HELD_AFTER = (3, 6)  # rounds after which "still holds both continents" is reported
MAX_WORKERS = 2  # the machine's cores are shared: never more processes than this


def default_rules(players: int) -> str:
    """The 2008 rulebook is for 3 to 5 players; 6 play the 1993 one (as benchmarks/bench_ladder.py)."""
    return "2008" if players <= 5 else "1993"


@dataclass(frozen=True, slots=True)
class LeaderJob:
    index: int
    seed: int
    players: int
    leader_seat: int
    leader: str  # bot specification of the leader's seat
    others: str  # bot specification of every other seat
    continents: tuple[str, ...]
    rules: str  # Rules.describe()
    start_round: int  # whole rounds played before the position is scripted
    max_turns: int

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.leader if seat == self.leader_seat else self.others for seat in range(self.players))


@dataclass(frozen=True, slots=True)
class LeaderResult:
    index: int
    leader_seat: int
    winner_seat: int | None  # None: the turn cap stopped the game
    first_loss_round: int | None  # the round the leader first lost a territory of its continents
    rounds: int  # rounds played from the scripted start
    turns: int


def schedule(
    players: int,
    leader: str,
    others: str,
    games: int,
    seed: int,
    rules: Rules,
    continents: Sequence[str] = DEFAULT_CONTINENTS,
    start_round: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> list[LeaderJob]:
    """Game ``k``: seed ``seed + k // players``, the leader in seat ``k % players``."""
    return [
        LeaderJob(
            k,
            seed + k // players,
            players,
            k % players,
            leader,
            others,
            tuple(continents),
            rules.describe(),
            start_round,
            max_turns,
        )
        for k in range(games)
    ]


# -- the scripted position ------------------------------------------------------------------------
def leader_territories(game: Game, continents: Sequence[str]) -> list[int]:
    board = game.board
    return sorted(t for name in continents for t in board.continents[board.continent(name)].territories)


def runaway_position(game: Game, leader: int, continents: Sequence[str]) -> tuple[list[int], list[int]]:
    """The owners and armies of the scripted start, from the game as played so far (see the module's
    docstring): the leader holds ``continents``, the armies on the board are as many as now."""
    board, played_owner, played_armies = game.board, game.owner, game.armies
    ours = set(leader_territories(game, continents))
    others = [seat for seat in range(game.humans) if seat != leader and game.alive[seat]]
    owner = [leader if t in ours else played_owner[t] for t in range(len(board))]
    count = {seat: sum(1 for o in owner if o == seat) for seat in others}
    for t in range(len(board)):
        if owner[t] == leader and t not in ours:  # the leader's former territories: to the fewest
            taker = min(others, key=lambda seat: (count[seat], seat))
            owner[t] = taker
            count[taker] += 1
    total = sum(played_armies)
    shares = equal_shares(total, [leader, *others])
    armies = [1] * len(board)
    borders = [t for t in sorted(ours) if any(owner[n] != leader for n in board.neighbours[t])]
    spread(armies, borders, [1] * len(borders), shares[leader] - len(ours))
    for seat in others:
        mine = [t for t in range(len(board)) if owner[t] == seat]
        spread(armies, mine, [played_armies[t] - 1 for t in mine], shares[seat] - len(mine))
    return owner, armies


def equal_shares(total: int, seats: Sequence[int]) -> dict[int, int]:
    """``total`` split as equally as whole armies allow, the odd ones to the seats listed first."""
    base, extra = divmod(total, len(seats))
    return {seat: base + (1 if i < extra else 0) for i, seat in enumerate(seats)}


def spread(armies: list[int], territories: Sequence[int], weights: Sequence[int], extra: int) -> None:
    """Add ``extra`` armies over ``territories`` in proportion to ``weights`` (largest remainders;
    evenly when every weight is 0)."""
    if extra <= 0 or not territories:
        return
    if sum(weights) <= 0:
        weights = [1] * len(territories)
    total = sum(weights)
    exact = [extra * w / total for w in weights]
    given = [int(x) for x in exact]
    by_remainder = sorted(range(len(territories)), key=lambda i: (given[i] - exact[i], i))
    for i in by_remainder[: extra - sum(given)]:
        given[i] += 1
    for t, add in zip(territories, given, strict=True):
        armies[t] += add


# -- one game -------------------------------------------------------------------------------------
class Table:
    """One game of a job and its bots, each seeing the game through its own view."""

    def __init__(self, job: LeaderJob) -> None:
        seats = job.seats
        rules = Rules.from_description(job.rules)
        self.game = Game(rules, [player_name(spec, seat) for seat, spec in enumerate(seats)], seed=job.seed)
        self.bots = [
            make_player(spec, bot_seed(job.seed, seat), DEFAULT_TIME_BUDGET)
            for seat, spec in enumerate(seats)
        ]
        self.views = [View(self.game, seat) for seat in range(len(seats))]

    def step(self) -> None:
        actor = self.game.to_act
        self.game.apply(self.bots[actor].choose(self.views[actor]))

    def play_to_script(self, start_round: int) -> None:
        """Play the setup and ``start_round`` whole rounds: stop as the next round's first turn begins."""
        game, starters = self.game, []
        while not game.is_over:
            if game.turn > len(starters):  # a turn has just begun
                starters.append(game.current)
                if count_rounds(starters, game.humans) > start_round:
                    return
            self.step()
        raise RuntimeError(
            f"the game ended in round {count_rounds(starters, game.humans)}, before the scripted start"
        )

    def close(self) -> None:
        for bot in self.bots:
            bot.close()


def scripted_table(job: LeaderJob) -> Table:
    """The job's game at its scripted start (its bots ready to play on)."""
    table = Table(job)
    try:
        table.play_to_script(job.start_round)
        if not table.game.alive[job.leader_seat]:
            raise RuntimeError("the leader's seat was out of the game before the scripted start")
        owner, armies = runaway_position(table.game, job.leader_seat, job.continents)
        rearrange(table.game, owner, armies)
    except BaseException:
        table.close()
        raise
    return table


def play_leader_game(job: LeaderJob) -> LeaderResult:
    """Script the start, then play to the end (or the turn cap), watching the leader's continents."""
    table = scripted_table(job)
    game, leader = table.game, job.leader_seat
    ours = leader_territories(game, job.continents)
    owner = game.owner
    starters, rounds, first_loss = [game.current], 1, None
    try:
        while not game.is_over and game.turn <= job.max_turns:
            turn = game.turn
            table.step()
            if first_loss is None and any(owner[t] != leader for t in ours):
                first_loss = rounds
            if game.turn != turn:
                starters.append(game.current)
                rounds = count_rounds(starters, game.humans)
    finally:
        table.close()
    return LeaderResult(job.index, leader, game.winner, first_loss, rounds, game.turn)


# -- many games -----------------------------------------------------------------------------------
def summarise(jobs: Sequence[LeaderJob], results: Sequence[LeaderResult], failures: int) -> dict[str, object]:
    job = jobs[0]
    games = len(results)
    wins = sum(1 for r in results if r.winner_seat == r.leader_seat)
    low, high = wilson_interval(wins, games)
    losses = [r.first_loss_round for r in results if r.first_loss_round is not None]
    held = {
        f"held_both_after_{n}_rounds": round(
            sum(1 for r in results if r.first_loss_round is None or r.first_loss_round > n) / max(games, 1), 4
        )
        for n in HELD_AFTER
    }
    return {
        "players": job.players,
        "leader": job.leader,
        "others": job.others,
        "continents": list(job.continents),
        "rules": job.rules,
        "start_round": job.start_round,
        "games": games,
        "failed": failures,
        "leader_wins": wins,
        "leader_win_rate": round(wins / max(games, 1), 4),
        "ci95": [round(low, 4), round(high, 4)],
        "chance": round(1 / job.players, 4),
        **held,
        "mean_first_loss_round": round(sum(losses) / len(losses), 2) if losses else None,
        "never_lost": games - len(losses),
        "mean_rounds": round(sum(r.rounds for r in results) / max(games, 1), 1),
        "unfinished": sum(1 for r in results if r.winner_seat is None),
    }


def measure(jobs: Sequence[LeaderJob], workers: int) -> dict[str, object]:
    started = time.perf_counter()
    results: list[LeaderResult] = []
    errors: list[str] = []
    for outcome in run_jobs(play_leader_game, jobs, workers=workers):
        if outcome.result is None:
            errors.append(f"game {jobs[outcome.position].index}: {outcome.error}")
        else:
            results.append(outcome.result)
    results.sort(key=lambda r: r.index)
    row = summarise(jobs, results, len(errors))
    row["seconds"] = round(time.perf_counter() - started, 1)
    if errors:
        row["errors"] = errors[:5]
    return row


def command_line(args: argparse.Namespace, players: int) -> str:
    parts = [f"python benchmarks/bench_leader.py --players {players}"]
    if args.leader:
        parts.append(f"--leader {args.leader}")
    parts.append(f"--others {args.others} --games {args.games} --seed {args.seed}")
    if args.continents != ",".join(DEFAULT_CONTINENTS):
        parts.append(f"--continents '{args.continents}'")
    if args.round:
        parts.append(f"--round {args.round}")
    if args.rules:
        parts.append(f"--rules {args.rules}")
    if args.max_turns != DEFAULT_MAX_TURNS:
        parts.append(f"--max-turns {args.max_turns}")
    return " ".join(parts)


def line(row: dict[str, object]) -> str:
    low, high = row["ci95"]  # type: ignore[misc]
    mean = row["mean_first_loss_round"]
    return (
        f"{row['players']} players, leader {row['leader']} v {row['players'] - 1} x {row['others']}: "  # type: ignore[operator]
        f"leader wins {row['leader_wins']}/{row['games']} = {row['leader_win_rate']:.1%} "
        f"[{low:.1%}, {high:.1%}] (chance {row['chance']:.0%}); holds both after 3 rounds "
        f"{row['held_both_after_3_rounds']:.0%}, after 6 {row['held_both_after_6_rounds']:.0%}; "
        f"first loses one in round {'-' if mean is None else mean} on average "
        f"(never in {row['never_lost']}); {row['mean_rounds']} rounds a game; "
        f"unfinished {row['unfinished']}, failed {row['failed']}; "
        f"{row['seconds']} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", default="4,6", help="player counts, comma-separated (default 4,6)")
    parser.add_argument("--others", default="continental", help="the bot of every other seat")
    parser.add_argument("--leader", help="the leader's bot (default: the others' bot)")
    parser.add_argument(
        "--continents",
        default=",".join(DEFAULT_CONTINENTS),
        help="the leader's continents, comma-separated (default South America,Africa)",
    )
    parser.add_argument("--round", type=int, default=0, help="whole rounds played before the script")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=MAX_WORKERS, help=f"processes, 1 to {MAX_WORKERS}")
    parser.add_argument("--rules", help="preset (default 2008 up to 5 players, 1993 at 6)")
    parser.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    try:
        plan = plan_runs(args)
    except (RiskError, ValueError) as error:
        print(f"bench_leader: {error}", file=sys.stderr)
        return 2
    rows = []
    for players, jobs in plan:
        row = measure(jobs, args.workers)
        row["command"] = command_line(args, players)
        rows.append(row)
        if not args.json:
            print(line(row), flush=True)
    if args.json:
        print(json.dumps({"runs": rows}, indent=2))
    return 0


def plan_runs(args: argparse.Namespace) -> list[tuple[int, list[LeaderJob]]]:
    """Every run's games, checked before any is played; a ValueError says what was wrong."""
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise ValueError(f"--workers must be 1 to {MAX_WORKERS}")
    if not 0 <= args.round <= 20:
        raise ValueError("--round must be 0 to 20")
    if args.max_turns < 1:
        raise ValueError("--max-turns must be at least 1")
    for spec in (args.others, args.leader or args.others):
        check_bot_spec(spec.strip())
    continents = [name.strip() for name in args.continents.split(",") if name.strip()]
    board = load_map("classic")
    if len({board.continent(name) for name in continents}) != len(continents) or not continents:
        raise ValueError(f"--continents {args.continents!r}: name each continent once")
    try:
        counts = [int(text) for text in args.players.split(",")]
    except ValueError:
        raise ValueError(f"--players {args.players!r}: whole numbers, comma-separated") from None
    plan = []
    for players in counts:
        rules = Rules.preset(args.rules or default_rules(players))
        rules.check_player_count(players)
        jobs = schedule(
            players,
            (args.leader or args.others).strip(),
            args.others.strip(),
            args.games,
            args.seed,
            rules,
            continents,
            args.round,
            args.max_turns,
        )
        plan.append((players, jobs))
    return plan


if __name__ == "__main__":
    sys.exit(main())
