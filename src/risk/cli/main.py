"""The `risk` command: the board, the rules, bot-only games, replays and odds.

Every command that prints data takes ``--json``; wrong arguments, and files that cannot be used
(:mod:`risk.textfile`), give a one-line error on stderr and exit code 2, never a traceback. Output
to a pipe or a file is never cut or wrapped (:mod:`risk.cli.output`).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer
from typer.core import TyperGroup, TyperOption

from risk.bots import DEFAULT_BOT, bot_choices, is_bot_name
from risk.cli.odds import CONTEXT_SETTINGS as ODDS_CONTEXT
from risk.cli.odds import odds_command
from risk.cli.output import output_console
from risk.errors import RiskError
from risk.maps import load_map
from risk.play.simulate import DEFAULT_MAX_TURNS
from risk.rules.options import GAME_ALIASES, GAMES, OPTIONS, PRESET_ALIASES, PRESETS, Rules

if TYPE_CHECKING:
    from rich.console import Console
    from typer._click import Command, Context  # the click that typer builds on
    from typer._click.exceptions import UsageError

# Commands defined in other modules, with the module whose ``register(app)`` adds them. They are
# imported only when used (or listed by --help): `risk simulate` need not load the terminal game,
# the tournament runner or the web server.
LAZY_COMMANDS = {
    "play": "risk.tui.command",
    "serve": "risk.server.command",
    "tournament": "risk.cli.tournament",
    "bots": "risk.cli.tournament",
    "board": "risk.cli.board",
}


class LazyGroup(TyperGroup):
    """The `risk` group: the commands of LAZY_COMMANDS are built from their module on first use."""

    def list_commands(self, ctx: Context) -> list[str]:
        return [*super().list_commands(ctx), *(name for name in LAZY_COMMANDS if name not in self.commands)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        if cmd_name not in self.commands:
            # An unknown name loads every command, so that "did you mean" knows them all.
            for name in [cmd_name] if cmd_name in LAZY_COMMANDS else list(LAZY_COMMANDS):
                if name not in self.commands:
                    self.add_command(_load_command(name), name)
        return super().get_command(ctx, cmd_name)


def _load_command(name: str) -> Command:
    """The click command ``name``, as its module's ``register`` defines it."""
    module = importlib.import_module(LAZY_COMMANDS[name])
    holder = typer.Typer()

    @holder.callback()
    def _group() -> None:
        """A group, so that get_command gives every registered command by name."""

    module.register(holder)
    group = typer.main.get_command(holder)
    assert isinstance(group, TyperGroup)
    return group.commands[name]


_option_value = TyperOption.display_type_rich


def _flag_takes_no_value(option: TyperOption, ctx: typer.Context) -> str | None:
    """An option's value in the help: typer shows "<bool>" beside a flag, as if it took one, which
    the flag then refuses (``--hotseat true``); a flag shows none."""
    return None if option.is_flag else _option_value(option, ctx)


setattr(TyperOption, "display_type_rich", _flag_takes_no_value)  # noqa: B010 (mypy: a method assigned)

# `risk simulate` shows a progress bar from this many games on.
PROGRESS_FROM = 20

app = typer.Typer(
    cls=LazyGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    help="RISK, the world-conquest game: exact rules of the 1993, 2003 and 2008 editions.",
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        from risk.build import running_build

        try:
            number = version("risk")
        except PackageNotFoundError:  # run from a source tree that is not installed
            number = "(not installed)"
        typer.echo(f"risk {number}, rules core: {running_build()}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            is_eager=True,
            callback=_print_version,
            help="the version, and whether the rules core runs compiled (mypyc) or pure Python",
        ),
    ] = False,
) -> None:
    """RISK, the world-conquest game: exact rules of the 1993, 2003 and 2008 editions."""


app.command(
    "odds",
    context_settings=ODDS_CONTEXT,
    help="Exact battle odds: risk odds A D [--stop K] [--json], or risk odds A --chain D1,D2,... [--json]",
)(odds_command)


@cache
def console() -> Console:
    """Standard output through rich, imported only by the commands that print tables."""
    return output_console()


def fail(message: str) -> NoReturn:
    """A one-line error on stderr and exit code 2."""
    typer.echo(f"risk: error: {message}", err=True)
    raise typer.Exit(code=2)


def make_rules(preset: str, options: list[str] | None, game: str = "world") -> Rules:
    try:
        return Rules.preset(preset).for_game(game).with_option_text(options or [])
    except RiskError as error:
        fail(str(error))


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


@contextmanager
def progress_bar(games: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while playing many games; yields the call that counts one game."""
    if games < PROGRESS_FROM:  # a short run needs no bar (nor the import of rich.progress)
        yield lambda: None
        return
    from rich.progress import Progress

    with Progress(console=output_console(stderr=True), transient=True) as progress:
        task = progress.add_task("playing", total=games)
        yield lambda: progress.advance(task)


@app.command("map")
def map_command(
    name: Annotated[str, typer.Argument(help="a shipped map name or a .json map file")] = "classic",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The board: territories by continent, with their neighbours (the same as `risk board show`)."""
    from risk.cli.board import show_board

    show_board(name, as_json)


@app.command("rules")
def rules_command(
    preset: Annotated[str | None, typer.Argument(help="a preset: 1993, 2003 or 2008 (or an alias)")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help="override: name=value")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The presets and every rule option with its value."""
    presets = [make_rules(name, option) for name in ([preset] if preset else PRESETS)]
    if as_json:
        print_json(
            {
                "presets": {r.name: r.option_values() for r in presets},
                "aliases": PRESET_ALIASES,
                "games": {
                    game: {
                        "editions": list(editions),
                        "aliases": [a for a, g in GAME_ALIASES.items() if g == game],
                    }
                    for game, editions in GAMES.items()
                },
                "options": {
                    name.replace("_", "-"): {
                        "choices": list(info.choices) if info.choices else None,
                        "description": info.description,
                        "source": info.source,
                    }
                    for name, info in OPTIONS.items()
                },
            }
        )
        return
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="Rule options by preset", title_justify="left")
    table.add_column("option")
    for rules in presets:
        table.add_column(rules.describe())
    for name in OPTIONS:
        key = name.replace("_", "-")
        table.add_row(key, *(r.option_values()[key] for r in presets))
    console().print(table)
    for name, info in OPTIONS.items():
        choices = f" ({' | '.join(info.choices)})" if info.choices else ""
        console().print(f"[bold]{name.replace('_', '-')}[/bold]{choices}: {escape(info.description)}.")
        console().print(f"  [dim]{escape(info.source)}[/dim]", highlight=False)
    console().print("[bold]Games[/bold] (--game NAME):")
    for game, editions in GAMES.items():
        names = ", ".join(a for a, g in GAME_ALIASES.items() if g == game)
        console().print(f"  {game}: in the {', '.join(editions)} rulebooks; aliases: {names}")
    aliases = ", ".join(f"{a}={t}" for a, t in PRESET_ALIASES.items())
    console().print(f"Aliases: {aliases}. Override any option with --option name=value.")


@app.command("simulate")
def simulate_command(
    rules: Annotated[str, typer.Option("--rules", "-r", help="preset: 1993, 2003, 2008")] = "2008",
    players: Annotated[int | None, typer.Option("--players", "-p", help="number of players")] = None,
    bots: Annotated[
        str | None,
        typer.Option("--bots", "-b", help=f"bots or levels by seat, comma-separated (default {DEFAULT_BOT})"),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games")] = 1,
    seed: Annotated[int, typer.Option("--seed", "-s", help="seed of the first game; game k uses seed+k")] = 1,
    max_turns: Annotated[
        int, typer.Option("--max-turns", help="stop a game unfinished after this many turns")
    ] = DEFAULT_MAX_TURNS,
    record: Annotated[
        Path | None, typer.Option("--record", help="write each game's record into this folder")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="rule override: name=value")
    ] = None,
    game_name: Annotated[
        str, typer.Option("--game", "-g", help="world, secret-mission, capital, two-player")
    ] = "world",
    board: Annotated[
        str, typer.Option("--map", "--board", help="a shipped board or a .json board file")
    ] = "classic",
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="write the games to FILE.parquet and their turns to FILE.turns.parquet (docs/research.md)",
            metavar="FILE.parquet",
        ),
    ] = None,
    turns: Annotated[
        bool, typer.Option("--turns/--no-turns", help="with --out: also the turns table")
    ] = True,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            help="parallel processes [default: 1]; with --backend ray, the most games "
            "in flight [default: twice the cluster's CPUs]",
            show_default=False,
        ),
    ] = None,
    backend: Annotated[
        str, typer.Option("--backend", help="where the games run: local or ray (pip install 'risk[ray]')")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="with --backend ray: the cluster's head (host:port, auto)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Bot-only games, played to a winner or to the turn cap. Same arguments, same output."""
    from risk.play.batch import (
        check_out_path,
        save_record_of,
        simulate_games,
        simulation_jobs,
        turns_path,
        write_games,
    )
    from risk.play.parallel import BackendError, check_backend
    from risk.rules.game import Game

    ruleset = make_rules(rules, option, game_name)
    bot_names = [b.strip().lower() for b in bots.split(",")] if bots else []
    if any(not b for b in bot_names):
        fail(f"--bots {bots!r} has an empty name")
    for name in bot_names:
        if not is_bot_name(name):
            fail(f"no bot or level called {name!r}; {bot_choices()}")
    try:
        chosen_board = load_map(board)
    except RiskError as error:
        fail(str(error))
    low, high = ruleset.player_range(chosen_board)
    default_count = 3 if low <= 3 <= high else low
    count = players if players is not None else (len(bot_names) if len(bot_names) > 1 else default_count)
    try:
        ruleset.check_player_count(count, chosen_board)
    except RiskError as error:
        fail(str(error))
    if len(bot_names) <= 1:
        bot_names = (bot_names or [DEFAULT_BOT]) * count
    elif len(bot_names) != count:
        fail(f"--bots names {len(bot_names)} bots for {count} players")
    try:  # a game the board cannot start (too few territories or starting armies): say so once
        Game(ruleset, count, seed=seed, board=chosen_board)
    except RiskError as error:
        fail(str(error))
    if games < 1:
        fail("--games must be at least 1")
    if max_turns < 1:
        fail("--max-turns must be at least 1")
    try:
        check_backend(backend, address, workers)
        if out is not None:
            check_out_path(out)
    except (RiskError, ValueError) as error:
        fail(str(error))
    if record is not None:
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"cannot create {record}: {error.strerror}")

    jobs = simulation_jobs(
        ruleset,
        bot_names,
        games,
        seed=seed,
        max_turns=max_turns,
        board=board,
        collect_turns=out is not None and turns,
        keep_records=record is not None,
    )
    with progress_bar(games) as advance:
        try:
            if out is not None:
                played = write_games(
                    out,
                    jobs,
                    workers=workers,
                    backend=backend,
                    address=address,
                    on_game=lambda _: advance(),
                    record_dir=record,
                )
            else:
                played = []
                for simulated in simulate_games(jobs, workers=workers, backend=backend, address=address):
                    save_record_of(simulated, record)
                    simulated.record_text = None
                    played.append(simulated)
                    advance()
                played.sort(key=lambda simulated: simulated.job.index)
        except (BackendError, ValueError) as error:  # the backend, or pyarrow missing
            fail(str(error))
        except OSError as error:
            fail(f"cannot write {out or record}: {error.strerror or error}")
    reports = [simulated.report for simulated in played if simulated.report is not None]
    failures = {simulated.job.seed: simulated.error for simulated in played if simulated.error is not None}

    wins: dict[str, int] = {}
    for report in reports:
        if report.winner_name is not None:
            wins[report.winner_name] = wins.get(report.winner_name, 0) + 1
    unfinished = sum(r.winner is None for r in reports)
    if as_json:
        print_json(
            {
                "rules": ruleset.describe(),
                "game": ruleset.game,
                "players": count,
                "bots": bot_names,
                "max_turns": max_turns,
                "games": [
                    simulated.report.to_json() | {"error": None}
                    if simulated.report is not None
                    else {"seed": simulated.job.seed, "winner": None, "error": simulated.error}
                    for simulated in played
                ],
                "wins": wins,
                "unfinished": unfinished,
                "failed": len(failures),
                "out": None if out is None else str(out),
            }
        )
        fail_if_every_game_failed(failures, len(played))
        return
    from rich.table import Table

    table = Table(
        title=f"{games} game(s), rules {ruleset.describe()}, bots {', '.join(bot_names)}",
        title_justify="left",
    )
    for column in ("seed", "winner", "turns", "actions"):
        table.add_column(column)
    for simulated in played[:50]:
        r = simulated.report
        if r is None:
            table.add_row(str(simulated.job.seed), f"failed: {simulated.error}", "", "")
        else:
            table.add_row(str(r.seed), r.winner_name or "unfinished", str(r.turns), str(r.actions))
    console().print(table)
    if games > 50:
        console().print(f"... {games - 50} more games")
    summary = ", ".join(f"{name} {n}" for name, n in sorted(wins.items(), key=lambda kv: -kv[1]))
    failed = f"; failed: {len(failures)}" if failures else ""
    console().print(f"Wins: {summary or 'none'}; unfinished: {unfinished}{failed}")
    if out is not None:
        console().print(f"Games in {out}" + (f", turns in {turns_path(out)}" if turns else ""))
    fail_if_every_game_failed(failures, len(played))


def fail_if_every_game_failed(failures: dict[int, str], games: int) -> None:
    """Exit 1 (after the table) when no game of a batch could be played: the first failure says why."""
    if failures and len(failures) == games:
        seed, error = next(iter(sorted(failures.items())))
        typer.echo(f"risk: error: every game failed (seed {seed}: {error})", err=True)
        raise typer.Exit(code=1)


@app.command("replay")
def replay_command(
    # Text, not a Path: click would check a Path itself, with errors unlike every other file's.
    file: Annotated[str, typer.Argument(help="a game record", metavar="FILE", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    verify: Annotated[
        bool,
        typer.Option(
            "--verify/--no-verify",
            help="refuse a record whose chance lines are not what its seed gives",
        ),
    ] = True,
    board: Annotated[
        str | None,
        typer.Option(
            "--board",
            help="the board the record was played on (a shipped name or a .json file), for a "
            "record that does not hold its board; refused if it is not the record's",
            metavar="NAME|FILE",
        ),
    ] = None,
) -> None:
    """Replay a game record and check every action against the rules, and its dice against its seed."""
    from risk.record import read_record_text, replay_record

    try:
        text = read_record_text(file)  # its errors name the file already
        given_board = None if board is None else load_map(board)
    except RiskError as error:
        fail(str(error))
    try:
        replay = replay_record(text, verify=verify, board=given_board)
    except RiskError as error:
        fail(f"{file}: {error}")
    game = replay.game
    if replay.verified:
        dice = f"dice verified against seed {replay.seed}"
    elif replay.seed is None:
        dice = "dice unverified: the record names no seed"
    else:
        dice = f"dice unverified: they are not what seed {replay.seed} gives (--no-verify)"
    winner = game.players[game.winner] if game.winner is not None else None
    actions = sum(1 for kind, _, _ in game.history if kind == "action")
    if as_json:
        print_json(
            {
                "file": file,
                "valid": True,
                "rules": game.rules.describe(),
                "board": game.board.name,
                "board_sha256": game.board.digest,
                "players": list(game.players),
                "winner": winner,
                "turns": replay.turns_played,
                "actions": actions,
                "seed": replay.seed,
                "dice_verified": replay.verified,
            }
        )
        return
    from risk.tui.rounds import rounds_played

    rounds = rounds_played(game)
    console().print(
        f"{file}: valid record of {actions} actions, {rounds} round{'' if rounds == 1 else 's'}; "
        f"rules {game.rules.describe()}; board {game.board.name}; winner: {winner or 'none (unfinished)'}; "
        f"{dice}"
    )


def main() -> None:
    # Usage errors (an unknown option, a missing argument) get one line, like every other error.
    try:
        result = app(standalone_mode=False)
    except _usage_error() as error:
        if type(error).__name__ == "NoArgsIsHelpError":
            sys.exit(0)  # bare `risk`: the help has been printed, as a user expects
        command = error.ctx.command_path if error.ctx else "risk"
        typer.echo(f"{command}: error: {error.format_message()}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(130)
    sys.exit(result if isinstance(result, int) else 0)


def _usage_error() -> type[UsageError]:
    """Click's UsageError: vendored inside newer typer releases, the click package in older ones."""
    try:
        from typer._click.exceptions import UsageError as usage_error
    except ImportError:  # typer before it vendored click
        from click.exceptions import UsageError as usage_error  # type: ignore[assignment]
    return usage_error
