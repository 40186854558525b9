"""Tournaments: many bot games in parallel processes, with fair seats, win rates, ratings and charts.

Seats rotate: with ``n`` seats, games ``k*n .. k*n+n-1`` share one seed (the same setup luck and
dice stream) and each puts the bot list in a different cyclic rotation, so every bot sits in every
seat equally often. A game stopped by the turn cap is a win for nobody.

Results per bot name (a bot listed several times counts once per seat it played): seats played,
wins, win rate with its 95% Wilson interval, and an Elo-scale rating fitted by Bradley-Terry to the
pairwise results (the winner of a game beats every other bot at its table).
"""

from __future__ import annotations

import inspect
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from risk.bots import BOTS, Bot, bot_choices, is_bot_name, make_bot
from risk.bots.protocol import DEFAULT_TIME_BUDGET, ExternalBot, external_command, is_external
from risk.bots.search import SearchBot
from risk.maps import load_map
from risk.play.parallel import BackendError, check_backend, run_jobs
from risk.play.simulate import bot_seed, turns_played
from risk.record import write_record
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.view import View

DEFAULT_MAX_TURNS = 500
RATING_BASE = 1500.0
Z95 = 1.959963984540054


class TournamentError(ValueError):
    """A tournament that cannot run as asked (unknown bot, bad counts); the message says why."""


# ---------------------------------------------------------------------------------------------
# bots by specification: a built-in name (optionally "name:iterations") or a program path
# ---------------------------------------------------------------------------------------------
def parse_bot_list(text: str) -> list[str]:
    specs = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not spec for spec in specs):
        raise TournamentError(f"--bots {text!r} has an empty name")
    for spec in specs:
        check_bot_spec(spec)
    return specs


def takes_budget(bot_class: type) -> bool:
    """Whether a bot takes a search budget (``name:N``): the search bots, and any bot whose
    constructor names ``iterations``. A compiled class's signature does not show its parameters."""
    if issubclass(bot_class, SearchBot):
        return True
    try:
        return "iterations" in inspect.signature(bot_class).parameters
    except (TypeError, ValueError):
        return False


def check_bot_spec(spec: str) -> None:
    if is_external(spec):
        try:
            external_command(spec)
        except ValueError as error:
            raise TournamentError(str(error)) from None
        return
    name, _, budget = spec.partition(":")
    if not is_bot_name(name):
        raise TournamentError(f"no bot or level called {name!r}; {bot_choices()} (or a program path)")
    if budget and name.strip().lower() not in BOTS:
        raise TournamentError(f"{spec!r}: a level has its own settings; a budget goes with a bot's name")
    if budget and (not budget.isdigit() or int(budget) < 1):
        raise TournamentError(f"{spec!r}: the budget after ':' is a whole number of iterations (at least 1)")
    if budget and not takes_budget(BOTS[name.strip().lower()]):
        raise TournamentError(f"{spec!r}: the {name} bot takes no budget")


def make_player(spec: str, seed: int, time_budget: float, log_file: Path | None = None) -> Bot:
    """The bot for one seat of one game; an external bot's debugging output goes to ``log_file``."""
    if is_external(spec):
        return ExternalBot(spec, seed, time_budget=time_budget, label=spec, log_file=log_file)
    name, _, budget = spec.partition(":")
    if budget:
        return BOTS[name.strip().lower()](seed, iterations=int(budget))  # type: ignore[call-arg]
    return make_bot(name, seed)


def short_name(spec: str) -> str:
    """A bot's name as a word (no spaces, commas, quotes or slashes): a program's file stem."""
    base = Path(spec.split()[0]).stem if is_external(spec) else spec
    return "".join(ch if ch.isalnum() or ch in "-_:." else "-" for ch in base) or "bot"


def player_name(spec: str, seat: int, given: str = "") -> str:
    """A player name for the game: the name an external bot gave in its greeting (``given``, one
    word already), else the bot's short name, and its seat plus one (as `risk simulate` names
    players, and so its records; seats themselves are numbered from 0)."""
    return f"{given or short_name(spec)}-{seat + 1}"


def bot_log_file(out: Path, game: int, seat: int, spec: str) -> Path:
    """Where an external bot's ``info`` lines and standard error go: ``log/`` in the --out folder,
    one file per game and seat."""
    return out / "log" / f"game-{game:04d}-seat-{seat}-{short_name(spec).replace(':', '-')}.log"


# ---------------------------------------------------------------------------------------------
# one game
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GameJob:
    index: int
    seed: int
    seats: tuple[str, ...]  # bot specification by seat
    rules: str  # Rules.describe()
    board: str
    max_turns: int
    time_budget: float
    record_dir: str | None


@dataclass(slots=True)
class GameResult:
    index: int
    seed: int
    seats: tuple[str, ...]
    winner_seat: int | None
    turns: int
    actions: int
    seconds: float
    log: list[str] = field(default_factory=list)
    record: str | None = None  # the record's path
    record_text: str | None = None  # the record itself, from the worker until written to ``record``
    error: str | None = None  # why the game failed (then it counts for no one); None when it was played
    players: tuple[str, ...] = ()  # the player names by seat, as in the record
    given_names: tuple[str, ...] = ()  # by seat: the name an external bot gave (one word), else ""

    @classmethod
    def of_failure(cls, job: GameJob, error: str) -> GameResult:
        return cls(
            job.index,
            job.seed,
            job.seats,
            None,
            0,
            0,
            0.0,
            [f"game {job.index} failed: {error}"],
            error=error,
        )

    @property
    def winner(self) -> str | None:
        return None if self.winner_seat is None else self.seats[self.winner_seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.index,
            "seed": self.seed,
            "seats": list(self.seats),
            "winner": self.winner,
            "winner_seat": self.winner_seat,
            "turns": self.turns,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "record": self.record,
            "error": self.error,
            "players": list(self.players),
            "log": self.log,
        }


def play_job(job: GameJob) -> GameResult:
    """Play one game to its end or the turn cap; external bots are always shut down."""
    started = time.perf_counter()
    rules = Rules.from_description(job.rules)
    log: list[str] = []
    out = None if job.record_dir is None else Path(job.record_dir)
    bots = [
        make_player(
            spec,
            bot_seed(job.seed, seat),
            job.time_budget,
            None if out is None else bot_log_file(out, job.index, seat, spec),
        )
        for seat, spec in enumerate(job.seats)
    ]
    actions = 0
    try:
        # An external bot greets before the game is made: its player (and record) takes the name it gives.
        given = tuple(bot.greet() if isinstance(bot, ExternalBot) else "" for bot in bots)
        names = [player_name(spec, seat, given[seat]) for seat, spec in enumerate(job.seats)]
        game = Game(rules, names, seed=job.seed, board=job.board)
        views = [View(game, seat) for seat in range(len(bots))]
        while not game.is_over and game.turn <= job.max_turns:
            actor = game.to_act
            try:
                action = bots[actor].choose(views[actor])
                game.apply(action)
            except ValueError as error:
                # A built-in bot error is a bug; still, one bad seat must not stop the tournament.
                log.append(
                    f"game {job.index}: {job.seats[actor]} (seat {actor}) failed: {error}; "
                    "the random bot plays this seat for the rest of the game"
                )
                bots[actor] = make_bot("random", bot_seed(job.seed, actor))
                continue
            actions += 1
    finally:
        for bot in bots:
            bot.close()
            if isinstance(bot, ExternalBot):
                log.extend(f"game {job.index}: {line}" for line in bot.log_lines)
    record_path = record_text = None
    if job.record_dir is not None:
        record_path = str(Path(job.record_dir) / f"game-{job.index:04d}-seed-{job.seed}.risk")
        record_text = write_record(game)
    return GameResult(
        index=job.index,
        seed=job.seed,
        seats=job.seats,
        winner_seat=game.winner,
        turns=turns_played(game, job.max_turns),
        actions=actions,
        seconds=time.perf_counter() - started,
        log=log,
        record=record_path,
        record_text=record_text,
        players=tuple(names),
        given_names=given,
    )


def schedule(
    bots: Sequence[str],
    games: int,
    seed: int,
    rules: Rules,
    board: str,
    max_turns: int,
    time_budget: float,
    record_dir: Path | None,
) -> list[GameJob]:
    """Game k: seed ``seed + k // n``, seats rotated by ``k % n`` (n = number of seats)."""
    n = len(bots)
    jobs = []
    for k in range(games):
        shift = k % n
        seats = tuple(bots[shift:]) + tuple(bots[:shift])
        jobs.append(
            GameJob(
                k,
                seed + k // n,
                seats,
                rules.describe(),
                board,
                max_turns,
                time_budget,
                None if record_dir is None else str(record_dir),
            )
        )
    return jobs


# ---------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------
def wilson_interval(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (good near 0 and 1, unlike the normal one)."""
    if trials == 0:
        return 0.0, 1.0
    p = wins / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 or all wins an end is exactly 0 or 1; floating point would miss it by a hair.
    low = 0.0 if wins == 0 else max(0.0, centre - half)
    high = 1.0 if wins == trials else min(1.0, centre + half)
    return low, high


def bradley_terry_ratings(
    names: Sequence[str], results: Sequence[GameResult], rounds: int = 500
) -> dict[str, float]:
    """Elo-scale ratings (mean 1500) from pairwise wins: a game's winner beats each other bot at
    its table. Each bot also gets one virtual win and loss against an average player, which keeps
    ratings finite for a bot that always (or never) wins."""
    index = {name: i for i, name in enumerate(names)}
    count = len(names)
    wins = [[0.0] * count for _ in range(count)]
    for result in results:
        if result.winner_seat is None:
            continue
        winner = index[result.winner]  # type: ignore[index]
        for seat, spec in enumerate(result.seats):
            if seat != result.winner_seat and index[spec] != winner:
                wins[winner][index[spec]] += 1
    strength = [1.0] * count
    for _ in range(rounds):
        updated = []
        for i in range(count):
            won = sum(wins[i]) + 1.0
            games_term = 2.0 / (strength[i] + 1.0)  # the virtual games against strength 1
            for j in range(count):
                played = wins[i][j] + wins[j][i]
                if played:
                    games_term += played / (strength[i] + strength[j])
            updated.append(won / games_term)
        strength = updated
    logs = [400.0 * math.log10(s) for s in strength]
    mean = sum(logs) / count if count else 0.0
    return {name: round(RATING_BASE + logs[i] - mean, 1) for name, i in index.items()}


@dataclass(slots=True)
class BotStanding:
    name: str  # as given to --bots
    games: int
    wins: int
    win_rate: float
    ci95: tuple[float, float]
    rating: float
    label: str = ""  # as the table shows it: the name an external bot gives (bot_labels)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label or self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)],
            "rating": self.rating,
        }


@dataclass(slots=True)
class TournamentResult:
    bots: list[str]  # distinct bot names, in the order first given
    seats: int
    rules: str
    board: str
    seed: int
    max_turns: int
    results: list[GameResult]
    standings: list[BotStanding]
    seconds: float
    out: str | None = None

    @property
    def unfinished(self) -> int:
        """Games the turn cap stopped (failed games are not among them)."""
        return sum(r.winner_seat is None and r.error is None for r in self.results)

    @property
    def failed(self) -> int:
        return sum(r.error is not None for r in self.results)

    @property
    def log(self) -> list[str]:
        return [line for result in self.results for line in result.log]

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": [standing.to_json() for standing in self.standings],
            "games": len(self.results),
            "seats": self.seats,
            "chance": round(1 / self.seats, 4),
            "rules": self.rules,
            "board": self.board,
            "seed": self.seed,
            "max_turns": self.max_turns,
            "unfinished": self.unfinished,
            "failed": self.failed,
            "rating": "Elo scale (Bradley-Terry on pairwise wins), mean 1500",
            "seconds": round(self.seconds, 2),
            "log": self.log,
            "results": [result.to_json() for result in self.results],
        }


def bot_labels(names: Sequence[str], results: Sequence[GameResult]) -> dict[str, str]:
    """How the table names each bot: the name an external bot gave in its greeting (its first game's),
    else the bot as given to --bots; two bots of one name are told apart by their place in the list."""
    given: dict[str, str] = {}
    for result in results:
        for spec, name in zip(result.seats, result.given_names, strict=False):
            if name:
                given.setdefault(spec, name)
    labels = {spec: given.get(spec) or spec for spec in names}
    counts = {label: list(labels.values()).count(label) for label in labels.values()}
    return {
        spec: label if counts[label] == 1 else f"{label}#{position + 1}"
        for position, (spec, label) in enumerate(labels.items())
    }


def standings(names: Sequence[str], results: Sequence[GameResult]) -> list[BotStanding]:
    """Per bot, over the games played (a failed game counts for no one: it was not played out)."""
    labels = bot_labels(names, results)
    results = [result for result in results if result.error is None]
    ratings = bradley_terry_ratings(names, results)
    table = []
    for name in names:
        seats = sum(result.seats.count(name) for result in results)
        wins = sum(1 for result in results if result.winner == name)
        table.append(
            BotStanding(
                name,
                seats,
                wins,
                wins / seats if seats else 0.0,
                wilson_interval(wins, seats),
                ratings[name],
                labels[name],
            )
        )
    table.sort(key=lambda standing: (-standing.rating, standing.name))
    return table


# ---------------------------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------------------------
def run_tournament(
    bots: Sequence[str],
    rules: Rules,
    games: int,
    *,
    workers: int | None = None,
    seed: int = 1,
    board: str = "classic",
    max_turns: int = DEFAULT_MAX_TURNS,
    time_budget: float = DEFAULT_TIME_BUDGET,
    out: Path | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> TournamentResult:
    """Play ``games`` games of the listed bots (one seat each) and rank them.

    With ``out``, every game's record, ``results.json``, ``tournament.log`` and ``chart.png`` are
    written there, and external bots' debugging output in ``log/`` (:func:`bot_log_file`).
    ``on_result`` is called as each game finishes (for progress bars). ``backend`` and ``address``:
    where the games run (:func:`risk.play.parallel.run_jobs`; ``workers``: local processes, default 1, or
    Ray's games in flight). A game that fails is reported (``error``, a log line) and counts for no one.
    """
    for spec in bots:
        check_bot_spec(spec)
    if games < 1:
        raise TournamentError("--games must be at least 1")
    rules.check_player_count(len(bots), load_map(board))
    try:
        check_backend(backend, address, workers)
    except BackendError as error:
        raise TournamentError(str(error)) from None
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
    jobs = schedule(bots, games, seed, rules, board, max_turns, time_budget, out)
    started = time.perf_counter()
    results: list[GameResult] = []
    try:
        outcomes = run_jobs(play_job, jobs, workers=workers, backend=backend, address=address)
        for outcome in outcomes:
            job = jobs[outcome.position]
            result = outcome.result if outcome.error is None else GameResult.of_failure(job, outcome.error)
            assert result is not None
            if result.record_text is not None and result.record is not None:
                # Written here, not by the worker: on a Ray cluster the worker's disk is another machine's.
                Path(result.record).write_text(result.record_text, encoding="utf-8")
                result.record_text = None
            results.append(result)
            if on_result is not None:
                on_result(result)
    except BackendError as error:
        raise TournamentError(str(error)) from None
    results.sort(key=lambda result: result.index)
    names = list(dict.fromkeys(bots))
    tournament = TournamentResult(
        bots=names,
        seats=len(bots),
        rules=rules.describe(),
        board=board,
        seed=seed,
        max_turns=max_turns,
        results=results,
        standings=standings(names, results),
        seconds=time.perf_counter() - started,
        out=None if out is None else str(out),
    )
    if out is not None:
        (out / "results.json").write_text(json.dumps(tournament.to_json(), indent=2) + "\n")
        (out / "tournament.log").write_text("".join(line + "\n" for line in tournament.log))
        write_chart(tournament, out / "chart.png")
    return tournament


CHART_LABEL_CHARACTERS = 36


def _short_label(name: str) -> str:
    """A bot's name cut to fit the chart's margin (a program's path can be long; the table keeps it whole)."""
    if len(name) <= CHART_LABEL_CHARACTERS:
        return name
    return "…" + name[-(CHART_LABEL_CHARACTERS - 1) :]


def write_chart(tournament: TournamentResult, path: Path) -> None:
    """A PNG bar chart: win rate per bot with its 95% interval, chance level dashed, ratings labelled."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    table = tournament.standings
    figure, axes = plt.subplots(figsize=(7, 1.2 + 0.6 * len(table)))
    labels = [f"{_short_label(s.label or s.name)} ({s.rating:.0f})" for s in table][::-1]  # rating beside
    rates = [s.win_rate for s in table][::-1]
    # Clamped: rounding can put an interval end a hair inside its centre.
    low = [max(0.0, s.win_rate - s.ci95[0]) for s in table][::-1]
    high = [max(0.0, s.ci95[1] - s.win_rate) for s in table][::-1]
    positions = range(len(table))
    axes.barh(positions, rates, xerr=[low, high], color="#4c72b0", capsize=4)
    axes.set_yticks(list(positions), labels)
    axes.axvline(1 / tournament.seats, color="grey", linestyle="--", label=f"chance (1/{tournament.seats})")
    axes.set_xlim(0, 1)
    axes.set_xlabel("win rate per seat (95% Wilson interval); rating in brackets")
    axes.set_title(
        f"{len(tournament.results)} games, {tournament.seats} seats, rules {tournament.rules}", fontsize=9
    )
    axes.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


__all__ = [
    "BotStanding",
    "GameResult",
    "TournamentError",
    "TournamentResult",
    "bradley_terry_ratings",
    "parse_bot_list",
    "run_tournament",
    "wilson_interval",
]
