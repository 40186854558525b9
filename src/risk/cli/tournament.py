"""The ``risk tournament`` and ``risk bots`` commands. ``register(app)`` adds them to a Typer app.

Wrong arguments give a one-line error on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from risk.bots import BOTS, LEVELS
from risk.bots.protocol import DEFAULT_TIME_BUDGET
from risk.cli.output import output_console
from risk.errors import RiskError
from risk.maps import load_map
from risk.play.parallel import BackendError, check_backend
from risk.play.tournament import (
    DEFAULT_MAX_TURNS,
    GameResult,
    TournamentError,
    parse_bot_list,
    run_tournament,
)
from risk.rules.options import Rules

DEFAULT_OUT = Path("tournament-out")


def _fail(message: str) -> NoReturn:
    typer.echo(f"risk: error: {message}", err=True)
    raise typer.Exit(code=2)


def _whole_number(option: str, text: str, *, minimum: int) -> int:
    if not text.strip().isdigit() or int(text) < minimum:
        _fail(f"{option} {text!r} must be a whole number, at least {minimum}")
    return int(text)


def bots_command(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """The levels (easiest first) and the bots behind them (weakest first, as measured)."""
    levels = [
        {"name": level.name, "bot": level.bot, "description": level.description} for level in LEVELS.values()
    ]
    bots = [{"name": name, "description": cls.description} for name, cls in BOTS.items()]
    if as_json:
        sys.stdout.write(json.dumps({"levels": levels, "bots": bots}, indent=2) + "\n")
        return
    from rich.table import Table

    console = output_console()
    table = Table(
        title="Levels, easiest first (use a level wherever a bot's name goes)", title_justify="left"
    )
    for column in ("level", "bot", "what to expect"):
        table.add_column(column)
    for level in levels:
        table.add_row(level["name"], level["bot"], level["description"])
    console.print(table)
    table = Table(title="Bots, weakest first", title_justify="left")
    table.add_column("name")
    table.add_column("description")
    for entry in bots:
        table.add_row(entry["name"], entry["description"])
    console.print(table)
    console.print("Any program speaking the bot protocol (docs/protocol.md) plays too: --bots ./mybot,...")


def tournament_command(
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="bots, one per seat, comma-separated: levels (easy, normal, hard, expert), built-in "
            "names (search:N sets its iterations) or program paths (./mybot)",
        ),
    ] = None,
    rules: Annotated[str, typer.Option("--rules", "-r", help="preset: 1993, 2003, 2008")] = "2008",
    game_name: Annotated[
        str, typer.Option("--game", "-g", help="world, secret-mission, capital, two-player, mission")
    ] = "world",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="rule override: name=value")
    ] = None,
    games_text: Annotated[str, typer.Option("--games", "-n", help="number of games")] = "20",
    workers_text: Annotated[
        str | None,
        typer.Option(
            "--workers",
            "-w",
            help="parallel processes [default: 1]; with --backend ray, the most games "
            "in flight [default: twice the cluster's CPUs]",
            show_default=False,
        ),
    ] = None,
    backend: Annotated[
        str,
        typer.Option(
            "--backend",
            help="where the games run: local (processes here) or ray (pip install "
            "'risk[ray]'; a local Ray, or the cluster at --address)",
        ),
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="with --backend ray: the cluster's head (host:port, auto)")
    ] = None,
    seed_text: Annotated[str, typer.Option("--seed", "-s", help="seed of the first game")] = "1",
    max_turns_text: Annotated[
        str, typer.Option("--max-turns", help="stop a game unfinished (no winner) after this many turns")
    ] = str(DEFAULT_MAX_TURNS),
    time_text: Annotated[str, typer.Option("--time", help="seconds per decision for external bots")] = str(
        DEFAULT_TIME_BUDGET
    ),
    board: Annotated[
        str, typer.Option("--map", "--board", help="a shipped board or a .json board file")
    ] = "classic",
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="folder for game records, results.json, tournament.log, chart.png, bot logs (log/)"
        ),
    ] = DEFAULT_OUT,
    as_json: Annotated[bool, typer.Option("--json", help="print the results as JSON")] = False,
) -> None:
    """Bots against each other in parallel games with rotating seats: win rates, 95% intervals, ratings."""
    # Numbers arrive as text so that a bad one gets the one-line error, not a usage box.
    games = _whole_number("--games", games_text, minimum=1)
    workers = None if workers_text is None else _whole_number("--workers", workers_text, minimum=1)
    seed = _whole_number("--seed", seed_text, minimum=0)
    max_turns = _whole_number("--max-turns", max_turns_text, minimum=1)
    try:
        time_budget = float(time_text)
    except ValueError:
        _fail(f"--time {time_text!r} is not a number of seconds")
    if not time_budget > 0:
        _fail("--time must be positive")
    if bots is None:
        _fail("--bots is required: bots by seat, comma-separated (see `risk bots`)")
    try:
        ruleset = Rules.preset(rules).for_game(game_name).with_option_text(option or [])
        specs = parse_bot_list(bots)
        ruleset.check_player_count(len(specs), load_map(board))
        check_backend(backend, address, workers)
    except (RiskError, TournamentError, BackendError) as error:
        _fail(str(error))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        _fail(f"cannot create {out}: {error.strerror}")

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich.table import Table

    errors = output_console(stderr=True)
    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        task = progress.add_task("games", total=games)

        def advance(result: GameResult) -> None:
            for line in result.log:
                progress.console.print(f"risk: {line}", markup=False, highlight=False)
            progress.advance(task)

        try:
            tournament = run_tournament(
                specs,
                ruleset,
                games,
                workers=workers,
                seed=seed,
                board=board,
                max_turns=max_turns,
                time_budget=time_budget,
                out=out,
                on_result=advance,
                backend=backend,
                address=address,
            )
        except (RiskError, TournamentError) as error:
            _fail(str(error))

    if as_json:
        sys.stdout.write(json.dumps(tournament.to_json(), indent=2) + "\n")
        return
    table = Table(
        title=f"{games} games, {len(specs)} seats, rules {ruleset.describe()} (chance {1 / len(specs):.0%})",
        title_justify="left",
    )
    for column in ("bot", "seats played", "wins", "win rate", "95% interval", "rating"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for standing in tournament.standings:
        low, high = standing.ci95
        table.add_row(
            standing.label or standing.name,
            str(standing.games),
            str(standing.wins),
            f"{standing.win_rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{standing.rating:.0f}",
        )
    console = output_console()
    console.print(table)
    console.print(
        f"unfinished: {tournament.unfinished}; "
        + (f"failed: {tournament.failed} (see {out / 'tournament.log'}); " if tournament.failed else "")
        + f"{tournament.seconds:.1f} s; "
        f"records, results.json and chart.png in {out}"
    )


def register(app: typer.Typer) -> None:
    """Add ``tournament`` and ``bots`` to the ``risk`` command."""
    app.command("tournament")(tournament_command)
    app.command("bots")(bots_command)


__all__ = ["bots_command", "register", "tournament_command"]
