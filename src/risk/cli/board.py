"""The `risk board` commands: validate a board file, list the shipped boards, show, generate or import one.

`risk map` is `risk board show` under its old name (docs: README.md, docs/boards.md).
"""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, NoReturn

import typer

from risk.cli.output import output_console
from risk.errors import RiskError
from risk.maps import SYMBOLS, Board, available_maps, load_map
from risk.maps.validate import MAX_BOARD_BYTES, MAX_PLAYERS, MAX_TERRITORIES, MIN_PLAYERS, file_problems

board_app = typer.Typer(
    no_args_is_help=True,
    help="Boards: validate, list, show, generate or import one (docs/boards.md).",
)


def _fail(message: str) -> NoReturn:
    typer.echo(f"risk: error: {message}", err=True)
    raise typer.Exit(code=2)


def _print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def players_text(board: Board) -> str:
    """The player counts a board declares, or that the rules' apply (a board that declares none)."""
    if board.players is None:
        return "as the rules say"
    low, high = board.players
    return str(low) if low == high else f"{low}-{high}"


def summary(board: Board) -> dict[str, Any]:
    """A board in a few numbers: what `risk board list --json` gives for each board."""
    links = sum(len(n) for n in board.neighbours) // 2
    return {
        "name": board.name,
        "title": board.title,
        "territories": len(board),
        "continents": len(board.continents),
        "links": links,
        "players": None if board.players is None else {"min": board.players[0], "max": board.players[1]},
        "starting_armies": {str(count): armies for count, armies in board.starting_armies},
        "wild_cards": len(board.wild_cards),
    }


@board_app.command("validate")
def validate_command(
    file: Annotated[str, typer.Argument(help="a board file (.json)", metavar="FILE", show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Check a board file: every problem, each with where it is and what to fix; exit 2 if any."""
    data, problems = file_problems(file)
    board: Board | None = None
    if not problems:
        try:
            board = Board(data)
        except RiskError as error:  # never expected: the loader runs the same checks
            _fail(f"{file}: {error}")
    if as_json:
        _print_json(
            {
                "file": file,
                "valid": not problems,
                "problems": [{"where": p.where, "line": p.line, "message": p.message} for p in problems],
                "board": summary(board) if board is not None else None,
            }
        )
        if problems:
            raise typer.Exit(code=2)
        return
    if data is None and len(problems) == 1 and problems[0].message.startswith(f"{file}: "):
        _fail(problems[0].message)  # the file cannot be read (missing, a folder...): that alone, once
    if problems:
        for problem in problems:  # FILE:LINE: as compilers say it, for editors to jump to
            line = f":{problem.line}" if problem.line is not None else ""
            typer.echo(f"{file}{line}: {problem}", err=True)
        count = f"{len(problems)} problem{'s' if len(problems) > 1 else ''}"
        typer.echo(f"risk: error: {file} is not a valid board: {count}", err=True)
        raise typer.Exit(code=2)
    assert board is not None
    facts = summary(board)
    typer.echo(
        f"{file}: valid board {board.name!r}: {facts['territories']} territories, "
        f"{facts['continents']} continents, {facts['links']} links, players {players_text(board)}"
    )


@board_app.command("list")
def list_command(as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False) -> None:
    """The shipped boards: territories, continents and the player counts each supports."""
    boards = [load_map(name) for name in available_maps()]
    if as_json:
        _print_json({"boards": [summary(board) for board in boards]})
        return
    from rich.table import Table

    table = Table(title="Boards (risk board show NAME)", title_justify="left")
    for column in ("name", "territories", "continents", "players", "title"):
        table.add_column(column)
    for board in boards:
        table.add_row(
            board.name, str(len(board)), str(len(board.continents)), players_text(board), board.title
        )
    console = output_console()
    console.print(table)
    console.print(
        f"A board file of your own: risk board validate FILE (at most {MAX_BOARD_BYTES // (1 << 20)} MiB, "
        f"{MAX_TERRITORIES} territories, {MAX_PLAYERS} players; docs/boards.md)."
    )


@board_app.command("show")
def show_command(
    name: Annotated[str, typer.Argument(help="a shipped board's name or a .json board file")] = "classic",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """The board: territories by continent, with their card and neighbours (also `risk map`)."""
    show_board(name, as_json)


def show_board(name: str, as_json: bool) -> None:
    try:
        board = load_map(name)
    except RiskError as error:
        _fail(str(error))
    if as_json:
        _print_json(board.to_json())
        return
    from rich.table import Table

    console = output_console()
    for continent in board.continents:
        table = Table(title=f"{continent.name} (bonus {continent.bonus})", title_justify="left")
        table.add_column("territory")
        table.add_column("card")
        table.add_column("neighbours")
        for t in continent.territories:
            territory = board.territories[t]
            sea = " (island)" if t in board.islands else ""
            table.add_row(
                territory.name + sea,
                SYMBOLS[territory.card_symbol],
                ", ".join(board.name_of(n) for n in board.neighbours[t]),
            )
        console.print(table)
    console.print(
        f"{len(board)} territories, {len(board.continents)} continents, players {players_text(board)}; "
        f"maps: {', '.join(available_maps())}"
    )


@board_app.command("generate")
def generate_command(
    territories: Annotated[
        int, typer.Option("--territories", "-t", help="how many territories (6 to 1000)")
    ] = 42,
    continents: Annotated[int, typer.Option("--continents", "-c", help="how many continents (1 to 24)")] = 6,
    seed: Annotated[int, typer.Option("--seed", help="the same seed makes the same board")] = 1,
    players: Annotated[
        str | None, typer.Option("--players", help="the player counts it declares, LOW-HIGH (2 to 10)")
    ] = None,
    shape: Annotated[str, typer.Option("--shape", help="world, or the degenerate chain or star")] = "world",
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="write it to this file (default: print it)")
    ] = None,
) -> None:
    """A new board from a seed: valid, drawn (outlines and label points) and playable by every bot."""
    from risk.maps.generate import generate_board

    counts = _player_counts(players)
    try:
        data = generate_board(territories, continents, seed, counts, shape=shape)
        board = Board(data)  # the loader's own checks: a generated board is a valid one
    except (ValueError, RiskError) as error:
        _fail(str(error))
    _write_board(data, out)
    if out is not None:
        typer.echo(
            f"{out}: board '{board.name}': {len(board)} territories, {len(board.continents)} continents, "
            f"players {players_text(board)}",
            err=True,
        )


def _player_counts(players: str | None) -> tuple[int, int] | None:
    """``--players LOW-HIGH`` read, or None when not given."""
    if players is None:
        return None
    low, dash, high = players.partition("-")
    if not (dash and low.strip().isdigit() and high.strip().isdigit()):
        _fail(f"--players takes LOW-HIGH, such as 2-8, not {players!r}")
    return int(low), int(high)


def _write_board(data: dict[str, Any], out: str | None) -> None:
    """A board's JSON: printed, or written to ``out``."""
    text = json.dumps(data, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    try:
        with open(out, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        _fail(f"cannot write {out}: {error.strerror or error}")


@board_app.command("import")
def import_command(
    file: Annotated[
        str,
        typer.Argument(
            help="a Domination or Conquest .map, Lux .luxb or Conquer Club .xml file", metavar="FILE"
        ),
    ],
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format", "-f", help="domination, conquest, lux or conquerclub (default: told from the file)"
        ),
    ] = None,
    out: Annotated[
        str | None, typer.Option("--out", "-o", help="write the board to this file (default: print it)")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option("--players", help="the player counts it declares, LOW-HIGH (default 2 to 6 by size)"),
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option("--encoding", help="the file's text encoding, over the format's rule (cp1252, utf-8)"),
    ] = None,
    cards: Annotated[
        str | None, typer.Option("--cards", help="a Domination .cards file (default: the map's own)")
    ] = None,
    skip_unsupported: Annotated[
        bool,
        typer.Option("--skip-unsupported", help="leave out features our rules lack, instead of refusing"),
    ] = False,
) -> None:
    """A board in our format from another game's file; what it cannot carry over is refused, by line."""
    from risk.maps.importers import FORMATS, BoardImportError, import_board

    if fmt is not None and fmt not in FORMATS:
        _fail(f"--format takes {', '.join(FORMATS)}, not {fmt!r}")
    counts = _player_counts(players)
    if counts is not None and not MIN_PLAYERS <= counts[0] <= counts[1] <= MAX_PLAYERS:
        _fail(f"--players takes LOW-HIGH from {MIN_PLAYERS} to {MAX_PLAYERS}, such as 2-8, not {players!r}")
    try:
        result = import_board(
            file, fmt, players=counts, encoding=encoding, cards=cards, skip_unsupported=skip_unsupported
        )
        board = Board(result.board)  # the loader's own checks: never expected to fail here
    except BoardImportError as error:
        if len(error.problems) == 1:
            _fail(str(error.problems[0]))
        for problem in error.problems:
            typer.echo(str(problem), err=True)
        _fail(f"{file} cannot be imported as a board: {len(error.problems)} problems")
    except RiskError as error:
        _fail(f"{file}: {error}")
    for note in result.notes:
        typer.echo(f"{file}: note: {note}", err=True)
    _write_board(result.board, out)
    links = sum(len(n) for n in board.neighbours) // 2
    typer.echo(
        f"{out or file}: imported {result.format} board '{board.name}': {len(board)} territories, "
        f"{len(board.continents)} continents, {links} links, players {players_text(board)}",
        err=True,
    )


def register(app: typer.Typer) -> None:
    """Add ``board`` (validate, list, show, generate, import) to the ``risk`` command."""
    app.add_typer(board_app, name="board")
