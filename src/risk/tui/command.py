"""`risk play`: the terminal game. ``register(app)`` adds the command to a typer app.

This module only reads lines and prints; the game logic is in :mod:`risk.tui.session`. On a
terminal, input goes through ``readline`` (history, Tab completion of verbs and names); from a
pipe, lines are read one by one and echoed after the prompt so that a transcript reads well.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn, TextIO

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand

from risk.bots import DEFAULT_BOT, LEVELS, bot_choices, is_bot_name
from risk.errors import RiskError
from risk.maps import Board, load_map
from risk.record import read_record, read_record_text
from risk.rules.game import Game
from risk.rules.goal import GoalKind
from risk.rules.options import GAMES, Rules
from risk.rules.variants import game_title, goal_of
from risk.tui.saves import SUFFIX, SavedSettings, recent_saves, saves_dir
from risk.tui.saving import seat_kinds_in_record
from risk.tui.seats import DEFAULT_NAMES, HUMAN, make_seats
from risk.tui.session import PlaySession

LineReader = Callable[[str], str]


def fail(message: str) -> NoReturn:
    """A one-line error on stderr and exit code 2 (as the rest of the `risk` command does)."""
    typer.echo(f"risk: error: {message}", err=True)
    raise typer.Exit(code=2)


class PlayCommand(TyperCommand):
    """``play``, where ``--load`` may be given without a file: it then lists the recent saves."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        args = list(args)
        for index, arg in enumerate(args):
            if arg == "--":
                break
            if arg == "--load" and (index + 1 == len(args) or args[index + 1].startswith("-")):
                args.insert(index + 1, "")  # no file: choose from the list
                break
        return super().parse_args(ctx, args)


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command(
        "play",
        cls=PlayCommand,
        help="Play RISK in the terminal against bots, or with friends at one keyboard.",
    )(play_command)


def parse_seat_list(text: str, what: str) -> list[int]:
    """'1,3' -> [0, 2] (seats are numbered from 1 on the command line)."""
    if text.strip().lower() in ("none", ""):
        return []
    if text.strip() == "0":  # not "no human": seats count from 1, and "none" says that
        fail(f"{what} {text!r}: seats are numbered from 1 (for no human seat: {what} none)")
    seats: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) < 1:
            fail(f"{what} {text!r}: seats are numbers from 1, separated by commas")
        seats.append(int(part) - 1)
    if len(set(seats)) != len(seats):
        fail(f"{what} {text!r} names a seat twice")
    return sorted(seats)


def seat_kinds(count: int, humans: list[int], bots: list[str]) -> list[str]:
    """Each seat's kind: "human" for the human seats, the bots in order for the others."""
    if any(seat >= count for seat in humans):
        fail(f"there are only {count} seats, numbered 1 to {count}")
    bot_seats = [seat for seat in range(count) if seat not in humans]
    if len(bots) > 1 and len(bots) != len(bot_seats):
        fail(f"--bots names {len(bots)} bots for {len(bot_seats)} bot seats")
    kinds = [HUMAN] * count
    for index, seat in enumerate(bot_seats):
        kinds[seat] = bots[index] if len(bots) > 1 else bots[0]
    return kinds


def check_save_path(path: Path) -> None:
    """`--save FILE`: refuse, before the game starts, a file the game could not be saved to (as
    `simulate --record` refuses a folder it cannot create). A missing folder is fine: the first save
    creates it. Nothing is left behind: an existing file is opened without being changed, and a new
    one is tried as a temporary file in the nearest folder that exists."""
    try:
        if path.is_dir():
            fail(f"cannot save to {path}: it is a folder (--save takes a file, e.g. {path / 'game.risk'})")
        if path.exists():
            with path.open("a", encoding="utf-8"):
                return
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir():
            fail(f"cannot save to {path}: {folder} is a file, not a folder")
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        fail(f"cannot save to {path}: {error.strerror or error}")


# The options of `risk play`, each with its help text.
RulesOption = Annotated[str, typer.Option("--rules", "-r", help="preset: 1993, 2003, 2008 (or an alias)")]
PlayersOption = Annotated[
    int | None,
    typer.Option(
        "--players", "-p", help="number of players, neutral armies not counted (default 3; two-player: 2)"
    ),
]
BotsOption = Annotated[
    str | None,
    typer.Option(
        "--bots",
        "-b",
        help=f"bot(s) or level(s) for the other seats, comma-separated "
        f"(one name: every bot seat; default {DEFAULT_BOT}; {bot_choices()}; see `risk bots`)",
    ),
]
LevelOption = Annotated[
    str | None,
    typer.Option("--level", "-l", help=f"the level of every bot seat: {', '.join(LEVELS)} (as --bots LEVEL)"),
]
SeatOption = Annotated[int | None, typer.Option("--seat", help="your seat, from 1 (default 1)")]
HumansOption = Annotated[
    str | None, typer.Option("--humans", help="human seats for hot-seat play, e.g. 1,3 (none: bots only)")
]
HotseatOption = Annotated[bool, typer.Option("--hotseat", help="every seat is a human at this keyboard")]
NamesOption = Annotated[str | None, typer.Option("--names", help="player names by seat, comma-separated")]
SeedOption = Annotated[int | None, typer.Option("--seed", "-s", help="seed of the dice and cards")]
LoadOption = Annotated[
    str | None,
    typer.Option(
        "--load",
        help="resume a saved game (a record file or a save's name); alone: choose among recent saves",
        metavar="[FILE]",
    ),
]
SaveOption = Annotated[
    Path | None,
    typer.Option(
        "--save", help="where to save the game as it goes (default: a new file in your saves folder)"
    ),
]
RuleOverrides = Annotated[list[str] | None, typer.Option("--option", "-o", help="rule override: name=value")]
GameOption = Annotated[
    str,
    typer.Option(
        "--game",
        "-g",
        help=f"which game: {', '.join(GAMES)} (or an alias; `risk rules` lists which rulebook has which)",
    ),
]
AutoDefendOption = Annotated[
    bool, typer.Option("--auto-defend", help="always defend with the most dice, without asking")
]
BoardOption = Annotated[
    str | None,
    typer.Option(
        "--board",
        "--map",
        help="the board: a shipped name (`risk board list`) or a .json board file (default classic)",
        metavar="NAME|FILE",
    ),
]


@dataclass
class SeatChoice:
    """Who sits where, as the options say: the bots' names, and the human seats (None: the default,
    one human in seat 1)."""

    bot_names: list[str]
    human_seats: list[int] | None
    hotseat: bool

    def humans_among(self, count: int) -> list[int]:
        """The human seats of a game of ``count`` players."""
        if self.hotseat:
            return list(range(count))
        return self.human_seats if self.human_seats is not None else [0]


def play_command(
    rules: RulesOption = "2008",
    players: PlayersOption = None,
    bots: BotsOption = None,
    level: LevelOption = None,
    seat: SeatOption = None,
    humans: HumansOption = None,
    hotseat: HotseatOption = False,
    names: NamesOption = None,
    seed: SeedOption = None,
    load: LoadOption = None,
    save: SaveOption = None,
    option: RuleOverrides = None,
    game_name: GameOption = "world",
    auto_defend: AutoDefendOption = False,
    board_name: BoardOption = None,
) -> None:
    """Play RISK in the terminal."""
    seating = seat_choice(seat, humans, hotseat, bots, level)
    if save is not None:
        check_save_path(save)
    board = chosen_board(board_name)
    grown = ""  # why there are more players than asked for
    settings = SavedSettings()
    if load is not None:
        if game_name != "world":
            fail("--load resumes a saved game: --game does not apply (the record names its game)")
        load_path = choose_save(Console(highlight=False)) if load == "" else find_save(load)
        game, kinds, settings = load_game(load_path, players, seed, option, names, rules, board)
        if seating.human_seats is not None or hotseat or bots is not None or level is not None:
            kinds = seat_kinds(game.humans, seating.humans_among(game.humans), seating.bot_names)
    else:
        load_path = None
        game, kinds, grown = new_game(rules, game_name, option, players, seating, names, seed, board)
    session = PlaySession(
        game,
        make_seats(kinds, game.seed),
        save_path=save,
        auto_defend=auto_defend,
        loaded_from=load_path,
        settings=settings,
    )
    console = Console(highlight=False)
    if grown:
        console.print(grown)
    if load_path is not None:
        actions = sum(1 for kind, _, _ in game.history if kind == "action")
        where = f"round {session.rounds.current}" if game.turn else "the setup"
        console.print(f"Resumed {load_path}: {actions} actions, {where}.")
    reader = terminal_reader(session) if sys.stdin.isatty() else stream_reader(sys.stdin, console)
    run_session(session, console, reader)


def seat_choice(
    seat: int | None, humans: str | None, hotseat: bool, bots: str | None, level: str | None
) -> SeatChoice:
    """Who sits where, from ``--seat``, ``--humans``, ``--hotseat``, ``--bots`` and ``--level``
    (refused when they contradict each other or name no bot)."""
    if sum(x is not None for x in (seat, humans)) + hotseat > 1:
        fail("give only one of --seat, --humans and --hotseat")
    if level is not None:
        if bots is not None:
            fail("give only one of --bots and --level")
        if level.strip().lower() not in LEVELS:
            fail(f"no level called {level!r}; levels: {', '.join(LEVELS)}")
        bots = level
    bot_names = [b.strip().lower() for b in bots.split(",")] if bots else [DEFAULT_BOT]
    for name in bot_names:
        if not is_bot_name(name):
            fail(f"no bot or level called {name!r}; {bot_choices()}")
    human_seats: list[int] | None = None
    if seat is not None:
        if seat < 1:
            fail("--seat counts from 1")
        human_seats = [seat - 1]
    elif humans is not None:
        human_seats = parse_seat_list(humans, "--humans")
    return SeatChoice(bot_names, human_seats, hotseat)


def chosen_board(board_name: str | None) -> Board | None:
    """The board ``--board`` names (None: the game's default, classic)."""
    if board_name is None:
        return None
    try:
        return load_map(board_name)
    except RiskError as error:
        fail(str(error))


def new_game(
    rules: str,
    game_name: str,
    option: list[str] | None,
    players: int | None,
    seating: SeatChoice,
    names: str | None,
    seed: int | None,
    board: Board | None,
) -> tuple[Game, list[str], str]:
    """A new game as the options ask, its seat kinds, and why it has more players than asked for
    ("" if it does not)."""
    try:
        # The game first: it sets options that --option may then change again.
        ruleset = Rules.preset(rules).for_game(game_name).with_option_text(option or [])
    except RiskError as error:
        fail(str(error))
    count, grown = player_count(ruleset, players, seating, board)
    try:
        ruleset.check_player_count(count, board)
    except RiskError as error:
        # Name the game unless the message does already ("Team RISK is for 4 or 6 players ...") or
        # it is world domination, whose player counts are the edition's.
        named = goal_of(ruleset).kind is GoalKind.WORLD or game_title(ruleset.game) in str(error)
        fail(str(error) if named else f"{error} ({ruleset.game} game)")
    kinds = seat_kinds(count, seating.humans_among(count), seating.bot_names)
    player_names = [n.strip() for n in names.split(",")] if names else list(DEFAULT_NAMES[:count])
    if len(player_names) != count:
        fail(f"--names gives {len(player_names)} names for {count} players")
    try:
        game = Game(ruleset, player_names, seed=seed, board=board or "classic")
    except RiskError as error:
        fail(str(error))
    return game, kinds, grown


def player_count(
    ruleset: Rules, players: int | None, seating: SeatChoice, board: Board | None
) -> tuple[int, str]:
    """How many players: ``--players``, else one a bot named and the humans, else 3 where the game
    allows it (2 in 2-player RISK), more if ``--seat``/``--humans`` need them (and then why)."""
    human_seats = seating.human_seats
    if players is not None:
        return players, ""
    if len(seating.bot_names) > 1:
        return len(seating.bot_names) + len(human_seats if human_seats is not None else [0]), ""
    low, high = ruleset.player_range(board)
    usual = min(max(3, low), high)
    count = max(usual, 1 + max(human_seats or [0]))
    if count > usual:  # said, not done silently
        return count, f"{count} players, so that there is a seat {count} (--players sets the number)."
    return count, ""


def find_save(name: str) -> Path:
    """A file to load: the path as given, else a save of that name in the saves folder."""
    path = Path(name)
    if not path.exists():
        for candidate in (saves_dir() / name, saves_dir() / f"{name}{SUFFIX}"):
            if candidate.is_file():
                return candidate
    return path


def choose_save(console: Console) -> Path:
    """`--load` without a file: the recent saves, numbered; the player picks one."""
    folder = saves_dir()
    saves = recent_saves(folder, limit=10)
    if not saves:
        typer.echo(f"risk: no saved games in {folder}; start one with: risk play", err=True)
        raise typer.Exit(code=1)
    console.print(Text(f"Saved games in {folder}, newest first:", style="bold"))
    for number, info in enumerate(saves, start=1):
        console.print(Text.assemble((f"{number:>2}) ", "dim"), info.describe()))
        console.print(Text(f"    {info.details()}", style="dim"))
    prompt = "Which game? A number (Enter: 1, q: none)> "
    while True:
        try:
            if sys.stdin.isatty():
                answer = input(prompt)
            else:
                answer = sys.stdin.readline()
                if not answer:
                    raise EOFError
                console.print(Text(prompt, style="bold") + Text(answer.rstrip("\n")))
        except (EOFError, KeyboardInterrupt):
            console.print()
            raise typer.Exit(code=0) from None
        answer = answer.strip().lower()
        if answer in ("q", "quit", "n", "none"):
            raise typer.Exit(code=0)
        if not answer:
            return saves[0].path
        if answer.isdigit() and 1 <= int(answer) <= len(saves):
            return saves[int(answer) - 1].path
        console.print(Text(f"Type a number from 1 to {len(saves)}, Enter for the newest, or q.", style="red"))


def load_game(
    path: Path,
    players: int | None,
    seed: int | None,
    option: list[str] | None,
    names: str | None,
    rules: str,
    board: Board | None = None,
) -> tuple[Game, list[str], SavedSettings]:
    """The saved game, the seat kinds it names (or one human in seat 1 and the default bot), and the
    session's settings it keeps (``autodefend``, ``auto``). ``board``: the board the save was played
    on, for a save that does not hold it (refused if it is not the save's)."""
    if players is not None or seed is not None or option or names or rules != "2008":
        fail("--load resumes a saved game: --rules, --players, --seed, --option and --names do not apply")
    try:
        text = read_record_text(path)  # its errors name the file already
    except RiskError as error:
        fail(str(error))
    try:
        game = read_record(text, board=board)
    except RiskError as error:
        fail(f"{path}: {error}")
    kinds = seat_kinds_in_record(text)
    if kinds is not None and len(kinds) == len(game.players) > game.humans:
        kinds = kinds[: game.humans]  # a list that named the neutral seats too
    if kinds is None or len(kinds) != game.humans or any(k != HUMAN and not is_bot_name(k) for k in kinds):
        kinds = [HUMAN] + [DEFAULT_BOT] * (game.humans - 1)
    return game, kinds, SavedSettings.from_record(text)


def run_session(session: PlaySession, console: Console, read_line: LineReader) -> None:
    """Show, read a line, hand it to the session, show, ... until the session is finished."""
    for renderable in session.start():
        console.print(renderable)
    while not session.finished:
        try:
            line = read_line(session.prompt)
        except (EOFError, KeyboardInterrupt):
            console.print()
            output = session.end_of_input()
        else:
            try:
                output = session.handle(line)
            except Exception as error:  # a bug must not cost a player the game: report it, play on
                console.print(
                    Text(
                        f"Internal error (please report it): {error!r}. The game so far is saved "
                        f"in {session.save_file}.",
                        "red",
                    )
                )
                continue
        for renderable in output:
            console.print(renderable)


def stream_reader(stream: TextIO, console: Console) -> LineReader:
    """Lines from a pipe or file; each is echoed after its prompt, as a terminal would show it."""

    def read_line(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        console.print(Text(prompt, style="bold") + Text(line.rstrip("\n")))
        return line

    return read_line


def terminal_reader(session: PlaySession) -> LineReader:
    """``input`` with readline's history and Tab completion from the session, where available."""
    try:
        import readline
    except ImportError:  # e.g. Windows without pyreadline: plain input still works
        return input
    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            line = readline.get_line_buffer()[: readline.get_endidx()]
            matches[:] = session.completions(line)
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return input
