"""Batch simulation for data: many bot-only games in parallel, written as Apache Parquet tables.

``risk simulate --out FILE.parquet`` and :func:`simulate_to_parquet` write two files: ``FILE.parquet``,
one row per game (:data:`GAME_FIELDS`), and ``FILE.turns.parquet`` (:func:`turns_path`), one row per
turn with the board as it stood when the turn ended (:data:`TURN_FIELDS`); docs/research.md describes
every column. The games are those of ``risk simulate`` without ``--out``: game ``k`` has seed
``seed + k`` and the same bots, so the same arguments give the same rows, whatever the backend and the
number of workers (rows are written in game order). pyarrow (``pip install 'risk[data]'``) is imported
only when a file is written.

A game that fails (a bot that raises) is a row with its ``error`` and no turns; the others play on.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from risk.bots import bot_choices, is_bot_name
from risk.maps import load_map
from risk.play.parallel import BackendError, check_backend, run_jobs
from risk.play.simulate import DEFAULT_MAX_TURNS, GameReport, play_game
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.textfile import write_text_file
from risk.view import SPECTATOR, View

if TYPE_CHECKING:
    import pyarrow

SCHEMA_VERSION = "1"  # in each file's metadata (risk.schema); changes when a column changes

# (name, Arrow type, nullable, meaning): the tables' columns, in order. docs/research.md copies them.
GAME_FIELDS: tuple[tuple[str, str, bool, str], ...] = (
    ("game", "int32", False, "the game's number in the run, from 0"),
    ("seed", "int64", False, "the game's seed: seed + game"),
    ("rules", "string", False, "the rules, as Rules.describe() writes them (preset, game, options)"),
    ("board", "string", False, "the map"),
    ("bots", "list<string>", False, "the bot of each seat played by a bot, by seat"),
    ("winner", "int8", True, "the winning seat; null when the turn cap stopped the game, or it failed"),
    ("winner_bot", "string", True, "the winning seat's bot"),
    ("turns", "int32", False, "turns played, the setup not counted (at most max_turns)"),
    ("actions", "int32", False, "actions played, the setup's included"),
    ("max_turns", "int32", False, "the turn cap"),
    ("error", "string", True, "why the game failed (its turns are then absent); null when it was played"),
)
TURN_FIELDS: tuple[tuple[str, str, bool, str], ...] = (
    ("game", "int32", False, "the game's number in the run (joins the games table)"),
    ("seed", "int64", False, "the game's seed"),
    ("turn", "int32", False, "the turn: 0 is the setup, then one player's turn each"),
    ("player", "int8", True, "the seat whose turn it was; null for the setup"),
    ("actions", "int32", False, "actions played in this turn (a defender's dice choices included)"),
    ("owner", "list<int8>", False, "each territory's owner seat, in the board's order (-1 none, -2 tied)"),
    ("armies", "list<int32>", False, "each territory's armies, in the board's order"),
    ("seat_territories", "list<int16>", False, "territories held, by seat (neutral seats last)"),
    ("seat_armies", "list<int32>", False, "armies on the board, by seat"),
    ("seat_cards", "list<int8>", False, "cards in hand, by seat (public: the number, not the cards)"),
    ("seat_alive", "list<bool>", False, "still in the game, by seat"),
    ("sets_traded", "int32", False, "card sets traded so far in the game"),
)


# ---------------------------------------------------------------------------------------------
# one game (in a worker)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SimulationJob:
    index: int
    seed: int
    bots: tuple[str, ...]  # bot or level name by seat
    rules: str  # Rules.describe()
    board: str
    max_turns: int
    collect_turns: bool  # the turns table's rows (costs time: only when a file wants them)
    keep_record: bool  # the game's record text, for --record


@dataclass(slots=True)
class SimulatedGame:
    """One game's outcome: its report (None if it failed), its error, its turn rows, its record."""

    job: SimulationJob
    report: GameReport | None
    error: str | None = None
    turns: dict[str, list[Any]] | None = None  # the turns table's columns for this game
    record_text: str | None = None

    def game_row(self) -> dict[str, Any]:
        report = self.report
        return {
            "game": self.job.index,
            "seed": self.job.seed,
            "rules": self.job.rules,
            "board": self.job.board,
            "bots": list(self.job.bots),
            "winner": None if report is None else report.winner,
            "winner_bot": None if report is None else report.winner_bot,
            "turns": 0 if report is None else report.turns,
            "actions": 0 if report is None else report.actions,
            "max_turns": self.job.max_turns,
            "error": self.error,
        }


class TurnRows:
    """The turns table's columns for one game, a row added at the end of each turn (``on_turn_end``)."""

    def __init__(self, job: SimulationJob) -> None:
        self.job = job
        self.columns: dict[str, list[Any]] = {name: [] for name, *_ in TURN_FIELDS}
        self.view: View | None = None
        self.player: int | None = None  # who plays the turn being recorded: none in the setup
        self.actions_before = 0

    def __call__(self, game: Game, turn: int, actions: int) -> None:
        view = self.view = self.view or View(game, SPECTATOR)  # public facts only
        seats = range(len(view.players))
        owner, armies, units = view.owner, view.armies, view.units
        if units is None:
            seat_armies = [sum(a for o, a in zip(owner, armies, strict=True) if o == s) for s in seats]
        else:  # Team RISK: teammates share territories, each with armies of their own
            seat_armies = [sum(here[s] for here in units) for s in seats]
        row = {
            "game": self.job.index,
            "seed": self.job.seed,
            "turn": turn,
            "player": self.player,
            "actions": actions - self.actions_before,
            "owner": list(owner),
            "armies": list(armies),
            "seat_territories": list(view.territory_count),
            "seat_armies": seat_armies,
            "seat_cards": list(view.hand_sizes),
            "seat_alive": list(view.alive),
            "sets_traded": view.sets_traded,
        }
        for name, value in row.items():
            self.columns[name].append(value)
        self.player, self.actions_before = view.current, actions  # the next turn's player is current now


def play_simulation(job: SimulationJob) -> SimulatedGame:
    """Play one game of a batch (the same game as ``risk simulate`` plays with its seed)."""
    rows = TurnRows(job) if job.collect_turns else None
    game, report = play_game(
        Rules.from_description(job.rules), job.bots, job.seed, job.max_turns, job.board, on_turn_end=rows
    )
    record_text = None
    if job.keep_record:
        from risk.record import write_record

        record_text = write_record(game)
    return SimulatedGame(job, report, turns=None if rows is None else rows.columns, record_text=record_text)


# ---------------------------------------------------------------------------------------------
# many games
# ---------------------------------------------------------------------------------------------
def simulation_jobs(
    rules: Rules,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 1,
    max_turns: int = DEFAULT_MAX_TURNS,
    board: str = "classic",
    collect_turns: bool = False,
    keep_records: bool = False,
) -> list[SimulationJob]:
    described = rules.describe()
    return [
        SimulationJob(k, seed + k, tuple(bots), described, board, max_turns, collect_turns, keep_records)
        for k in range(games)
    ]


def simulate_games(
    jobs: Sequence[SimulationJob],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[SimulatedGame]:
    """Play the jobs (:func:`risk.play.parallel.run_jobs`); yields each game as it finishes, in any order.
    :class:`~risk.play.parallel.BackendError` when the backend cannot run."""
    for outcome in run_jobs(play_simulation, jobs, workers=workers, backend=backend, address=address):
        if outcome.error is not None:
            yield SimulatedGame(jobs[outcome.position], None, error=outcome.error)
        else:
            assert outcome.result is not None
            yield outcome.result


def turns_path(path: str | Path) -> Path:
    """Where the turns table goes beside the games table: ``runs.parquet`` -> ``runs.turns.parquet``."""
    path = Path(path)
    return path.with_name(path.name.removesuffix(".parquet") + ".turns.parquet")


def check_out_path(path: Path) -> None:
    """Refuse an output path that cannot be written, before a game is played (a one-line reason)."""
    if path.suffix != ".parquet":
        raise ValueError(f"--out {path}: the file name must end in .parquet")
    for target in (path, turns_path(path)):
        if target.is_dir():
            raise ValueError(f"--out {target}: is a folder")
    import_parquet()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--out {path}: cannot create its folder ({error.strerror})") from None
    if not os.access(path.parent, os.W_OK):
        raise ValueError(f"--out {path}: cannot write in {path.parent} (permission denied)")


def import_parquet() -> Any:  # the pyarrow.parquet module (pyarrow ships no type information)
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError("--out needs pyarrow, which is not installed: pip install 'risk[data]'") from None
    return pq


def arrow_schema(fields: Sequence[tuple[str, str, bool, str]], metadata: dict[str, str]) -> pyarrow.Schema:
    import pyarrow as pa

    types = {
        "int8": pa.int8(),
        "int16": pa.int16(),
        "int32": pa.int32(),
        "int64": pa.int64(),
        "string": pa.string(),
        "bool": pa.bool_(),
    }

    def arrow_type(name: str) -> pyarrow.DataType:
        inner = name.removeprefix("list<").removesuffix(">")
        return pa.list_(types[inner]) if inner != name else types[name]

    return pa.schema(
        [
            pa.field(name, arrow_type(kind), nullable, metadata={"doc": doc})
            for name, kind, nullable, doc in fields
        ],
        metadata=metadata,
    )


class ParquetOut:
    """The two tables, written as the games arrive (in any order) in game order, in row groups of
    about ``group_rows`` turns; to temporary files renamed at :meth:`close`, so that an interrupted
    run leaves no half-written file under the asked name."""

    def __init__(self, path: Path, metadata: dict[str, str], *, turns: bool = True, group_rows: int = 65536):
        pq = import_parquet()
        self.path, self.group_rows = path, group_rows
        meta = {"risk.schema": SCHEMA_VERSION, **metadata}
        self.targets = [(path, arrow_schema(GAME_FIELDS, meta))]
        if turns:
            self.targets.append((turns_path(path), arrow_schema(TURN_FIELDS, meta)))
        self.writers = [
            pq.ParquetWriter(self._partial(target), schema, compression="zstd")
            for target, schema in self.targets
        ]
        self.waiting: dict[int, SimulatedGame] = {}  # arrived before an earlier game
        self.next_index = 0
        self.games: list[dict[str, Any]] = []
        self.turns: dict[str, list[Any]] = {name: [] for name, *_ in TURN_FIELDS}

    @staticmethod
    def _partial(target: Path) -> Path:
        return target.with_name(target.name + ".part")

    def add(self, game: SimulatedGame) -> None:
        self.waiting[game.job.index] = game
        while self.next_index in self.waiting:
            ready = self.waiting.pop(self.next_index)
            self.next_index += 1
            self.games.append(ready.game_row())
            for name, values in (ready.turns or {}).items():
                self.turns[name].extend(values)
            ready.turns = None  # in the buffer now: the caller keeps the game without them
            if len(self.turns["game"]) >= self.group_rows:
                self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self.games:
            self.writers[0].write_table(pa.Table.from_pylist(self.games, schema=self.targets[0][1]))
        if len(self.writers) > 1 and self.turns["game"]:
            self.writers[1].write_table(pa.table(self.turns, schema=self.targets[1][1]))
        self.games = []
        self.turns = {name: [] for name in self.turns}

    def close(self) -> None:
        """Write what is left and put the files in place."""
        self._flush()
        for writer, (target, _) in zip(self.writers, self.targets, strict=True):
            writer.close()
            os.replace(self._partial(target), target)

    def abandon(self) -> None:
        """Remove the partial files (the run was interrupted or failed)."""
        for writer, (target, _) in zip(self.writers, self.targets, strict=True):
            writer.close()
            self._partial(target).unlink(missing_ok=True)


def simulate_to_parquet(
    path: str | Path,
    rules: Rules,
    bots: Sequence[str],
    games: int,
    *,
    seed: int = 1,
    max_turns: int = DEFAULT_MAX_TURNS,
    board: str = "classic",
    turns: bool = True,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_game: Callable[[SimulatedGame], None] | None = None,
) -> list[SimulatedGame]:
    """Play ``games`` bot-only games (seat ``i``: ``bots[i]``, a bot or level name; game ``k``: seed
    ``seed + k``) and write them to ``path`` (a ``.parquet`` file) and, with ``turns``, the turns to
    :func:`turns_path` (``path`` with ``.turns.parquet``). ``workers``, ``backend``, ``address``: where
    the games run (:func:`risk.play.parallel.run_jobs`). ``on_game`` is called as each game finishes (for
    progress bars). Returns the games in order, without their turn rows (they are in the file).

    ``ValueError`` (a :class:`~risk.play.parallel.BackendError` for the backend) with a one-line reason
    when the path or an option cannot be used."""
    path = Path(path)
    if games < 1:
        raise ValueError("games must be at least 1")
    for name in bots:
        if not is_bot_name(name):
            raise ValueError(f"no bot or level called {name!r}; {bot_choices()}")
    rules.check_player_count(len(bots), load_map(board))
    check_backend(backend, address, workers)
    check_out_path(path)
    jobs = simulation_jobs(
        rules, bots, games, seed=seed, max_turns=max_turns, board=board, collect_turns=turns
    )
    return write_games(path, jobs, workers=workers, backend=backend, address=address, on_game=on_game)


def write_games(
    path: Path,
    jobs: Sequence[SimulationJob],
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    on_game: Callable[[SimulatedGame], None] | None = None,
    record_dir: Path | None = None,
) -> list[SimulatedGame]:
    """Play the jobs and write the tables to ``path`` (checked by :func:`check_out_path`); the games'
    records into ``record_dir`` if the jobs keep them. Returns the games in order, without turn rows."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        risk_version = version("risk")
    except PackageNotFoundError:  # a source checkout that was never installed
        risk_version = "unknown"
    first = jobs[0]
    # The board as given (a name or a file) and its digest: a file may change after the run.
    metadata = {
        "risk.version": risk_version,
        "risk.rules": first.rules,
        "risk.board": first.board,
        "risk.board_sha256": load_map(first.board).digest,
    }
    out = ParquetOut(path, metadata, turns=first.collect_turns)
    played: list[SimulatedGame] = []
    try:
        for game in simulate_games(jobs, workers=workers, backend=backend, address=address):
            out.add(game)
            save_record_of(game, record_dir)
            game.record_text = None  # written
            played.append(game)
            if on_game is not None:
                on_game(game)
    except BaseException:
        out.abandon()
        raise
    out.close()
    played.sort(key=lambda game: game.job.index)
    return played


def save_record_of(game: SimulatedGame, record_dir: Path | None) -> None:
    """The game's record as ``record_dir/game-SEED.risk`` (the name ``risk simulate --record`` uses)."""
    if record_dir is not None and game.record_text is not None:
        write_text_file(record_dir / f"game-{game.job.seed}.risk", game.record_text)  # whole or not at all


__all__ = [
    "GAME_FIELDS",
    "TURN_FIELDS",
    "BackendError",
    "SimulatedGame",
    "SimulationJob",
    "play_simulation",
    "simulate_games",
    "simulate_to_parquet",
    "simulation_jobs",
    "turns_path",
]
