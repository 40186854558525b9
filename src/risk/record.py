"""Game records: a text file, a header then one action per line, with every chance outcome.

    risk-record 1
    rules: 2008
    board: classic
    players: Ann, Bob, Cy
    seed: 42
    result: Ann
    ---
    ~ first 1
    claim alaska
    ...
    attack kamchatka alaska 3
    defend 2
    ~ dice 6,4,4 5,5
    ...

Action lines use the action notation (``risk.rules.actions``). Lines starting with ``~`` are chance
outcomes: ``first P`` / ``first-turn P`` (a roll-off won by player number P), ``deal T,T,...`` (the
territories in dealing order), ``dice A,A,A D,D`` (a battle, each side sorted high to low),
``draw CARD``, ``die N`` (a re-rolled die) and a variant's outcome of one key per seat, ``KIND
KEY,...`` (its ``chance_keys``: ``missions``, ``mission-cards``). Replay takes the outcomes
from the record, so it needs no generator; a record that does not follow the rules is refused
with its line number and the reason. ``#`` starts a comment.

Names (``players:``, ``result:``, ``fogged-for:``): a plain name is written as it is; one that holds
``#``, ``,``, ``"``, a character that cannot be shown (a control character, a line break) or leading
or trailing space, or is empty, is written in double quotes as a JSON string, with ``\\``, ``\\"``
and ``\\uXXXX`` escapes (:func:`format_name`), so that any name reads back as it was. A ``#`` inside
quotes starts no comment. Records before quoting held no quotes in names (``Game`` refused them),
so they read as they always did.

A record that names a seed holds exactly the outcomes that seed's generator gives: replay checks
each one (the generator runs beside the record at no extra cost) and refuses the first that differs,
with its line. A record without a seed (a position made by hand, or a game whose dice were given)
replays with its outcomes unverified.

A record written for one player (``viewer=``) hides the other players' card draws (``~ draw ?``)
and the seed: such a record can be read but not replayed past a hidden draw. Under fog of war, while
the game runs, it also leaves out every entry that player did not witness (``View.public_history``),
and its header says so (``fogged-for: NAME``): replay refuses it at that line, since the game it
tells cannot be rebuilt from it. The full record, written once the game is over, replays exactly,
the fog included (each player's memory is rebuilt as the actions are applied).

The board: ``board: NAME`` names it. A game on any board but the shipped classic one also gets
``board-sha256: HEX``, the digest of the board's canonical JSON (``Board.digest``), and, unless the
board is one shipped with the package (same name, same digest), ``board-json: {...}``, the board
itself on one line (no comment on that line: ``#`` may be part of the JSON), so that the record
replays alone. Replay uses the board given to it (``risk replay REC --board FILE``), else the
embedded one, else the shipped board of that name, and refuses one whose digest is not the
record's. The classic board's records carry neither line, as every record did before boards
had digests: the golden records stay byte for byte, and a record without a digest replays on the
shipped board it names.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from risk.errors import FileInputError, RecordError, RiskError
from risk.maps import Board, MapError, available_maps, board_from_json, load_map, normalise, shipped_board
from risk.rules.actions import Action
from risk.rules.game import ChanceMismatch, Game
from risk.rules.options import Rules
from risk.rules.variants import chance_keys
from risk.textfile import MB, read_text_file, write_text_file
from risk.view import history_leaves_out, indexed_history

MAGIC = "risk-record 1"
SEPARATOR = "---"
# The header line of a player's record of a game under fog of war, written while it runs.
FOGGED_FOR = "fogged-for"
# The header lines that carry a board other than the classic one (module docstring).
BOARD_DIGEST = "board-sha256"
BOARD_JSON = "board-json"
# The largest record file read: a long game (9,000 actions) is 250 KB; the web app takes 1 MB.
MAX_RECORD_BYTES = 16 * MB


# The characters that make a name be written in quotes: anywhere in a plain name they would end it
# (a comma), start a comment (#) or start a quoted name (").
_QUOTED_CHARACTERS = frozenset(',#"')
_JSON = json.JSONDecoder()


def format_name(name: str) -> str:
    """A player's name as a record writes it: as it is when it is plain, else in double quotes as a
    JSON string whose characters are all printable ('"A#n"', '" Bob"', '"a\\u0009tab"')."""
    if name and name == name.strip() and name.isprintable() and not _QUOTED_CHARACTERS & set(name):
        return name
    quoted = []
    for character in name:
        if character in '"\\':
            quoted.append("\\" + character)
        elif character.isprintable() and character != "\x7f":
            quoted.append(character)
        else:  # \uXXXX, as a UTF-16 pair beyond the first plane (as JSON has it)
            units = character.encode("utf-16-be", "surrogatepass")
            quoted += [f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2)]
    return '"' + "".join(quoted) + '"'


def format_names(names: Sequence[str]) -> str:
    """The ``players:`` line's value: 'Ann, "A#n", Cy'."""
    return ", ".join(format_name(name) for name in names)


def parse_names(text: str, line: int | None = None) -> list[str]:
    """The names of a ``players:`` line (:func:`format_names`); unquoted ones are stripped and empty
    ones skipped, as records have always been read. Raises :class:`RecordError` (at ``line``) for a
    quoted name that is not closed or not followed by a comma."""
    names: list[str] = []
    position, end = 0, len(text)
    while position < end:
        while position < end and text[position].isspace():
            position += 1
        if position == end:
            break
        if text[position] != '"':
            comma = text.find(",", position)
            comma = end if comma < 0 else comma
            if name := text[position:comma].strip():
                names.append(name)
            position = comma + 1
            continue
        try:
            name, position = _JSON.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"the quoted name {text[position : position + 20]!r} is not closed or holds a bad escape "
                f"({error.msg.lower()})",
                line,
            ) from None
        rest = text[position:].lstrip()
        if rest and not rest.startswith(","):
            raise RecordError(f"the quoted name {name!r} is followed by {rest[:20]!r}, not a comma", line)
        names.append(name)
        position = end - len(rest) + 1
    return names


def parse_name(text: str, line: int | None = None) -> str:
    """One name (``result:``, ``fogged-for:``), as :func:`format_name` wrote it."""
    if not text.startswith('"'):
        return text
    names = parse_names(text, line)
    if len(names) != 1:
        raise RecordError(f"{text[:40]!r} is not one name (a name with a comma is written in quotes)", line)
    return names[0]


def _format_chance(board: Board, kind: str, value: Any) -> str:
    if kind in ("first", "first-turn", "die"):
        return f"~ {kind} {value}"
    if kind == "dice":
        attack, defence = value
        return f"~ dice {','.join(map(str, attack))} {','.join(map(str, defence))}"
    if kind == "draw":
        return "~ draw ?" if value is None else f"~ draw {board.card_name(value)}"
    if kind == "deal":
        return "~ deal " + ",".join(board.slug_of(t) for t in value)
    if kind in chance_keys():  # a variant's outcome of one key per seat
        return f"~ {kind} " + ",".join("?" if k is None else k for k in value)
    raise ValueError(f"unknown chance outcome {kind!r}")


def write_record(game: Game, viewer: int | None = None, result: str | None = None) -> str:
    """The record of ``game`` so far. With ``viewer``, what that player may see (no seed, no other draws)."""
    if result is None:
        result = game.players[game.winner] if game.winner is not None else "unfinished"
    lines = [
        MAGIC,
        f"rules: {game.rules.describe()}",
        f"board: {game.board.name}",
        *board_lines(game.board),
        f"players: {format_names(game.players[: game.humans])}",
    ]
    if viewer is None and game.chance_from_seed:
        # Only a seed that gave every outcome is named: a record that names one is checked against it.
        lines.append(f"seed: {game.seed}")
    if viewer is not None and history_leaves_out(game):
        # Entries it did not see are left out.
        lines.append(f"{FOGGED_FOR}: {format_name(game.players[viewer])}")
    lines += [f"result: {format_name(result)}", SEPARATOR]
    history = list(enumerate(game.history)) if viewer is None else indexed_history(game, viewer)
    for index, (kind, who, value) in history:
        if kind == "action" and value is None:
            # An action a variant hides (a headquarters chosen in secret): its verb, then "?".
            verb = game.history[index][2].text(game.board).split()[0]
            lines.append(f"{verb} ?")
        elif kind == "action":
            lines.append(value.text(game.board))
        else:
            lines.append(_format_chance(game.board, who, value))
    return "\n".join(lines) + "\n"


def board_lines(board: Board) -> list[str]:
    """The header lines that tie a record to its board, beyond its name: none for the shipped classic
    board (records before digests, the golden ones among them, stay as they were), the digest for
    any other, and the board's JSON too for one not shipped with the package."""
    if board.name == "classic" and shipped_board(board):
        return []
    lines = [f"{BOARD_DIGEST}: {board.digest}"]
    if not shipped_board(board):
        lines.append(f"{BOARD_JSON}: {board.canonical_json}")
    return lines


@dataclass
class RecordHeader:
    rules: Rules
    board: str
    players: list[str]
    seed: int | None
    result: str | None
    board_digest: str | None = None
    board_json: tuple[int, str] | None = None  # the line it is on, and the JSON
    board_line: int | None = None  # the line of ``board:`` (None: the record names none: classic)
    fogged_for: tuple[int, str] | None = None  # a player's record under fog: its line, the player
    players_line: int | None = None


def _parse_header(lines: list[tuple[int, str]]) -> tuple[RecordHeader, int]:
    if not lines or lines[0][1] != MAGIC:
        raise RecordError(f"a record starts with {MAGIC!r}", lines[0][0] if lines else 1)
    fields: dict[str, tuple[int, str]] = {}
    index = 1
    while index < len(lines) and lines[index][1] != SEPARATOR:
        number, text = lines[index]
        key, sep, value = text.partition(":")
        if not sep:
            raise RecordError(f"header line {text!r} is not 'key: value'", number)
        fields[key.strip().lower()] = (number, value.strip())
        index += 1
    if index == len(lines):
        raise RecordError(f"the header does not end with a {SEPARATOR!r} line", lines[-1][0])
    for required in ("rules", "players"):
        if required not in fields:
            raise RecordError(f"the header has no {required!r} line", lines[index][0])
    try:
        rules = Rules.from_description(fields["rules"][1])
    except RiskError as error:
        raise RecordError(str(error), fields["rules"][0]) from None
    seed: int | None = None
    if "seed" in fields:
        number, text = fields["seed"]
        if not re.fullmatch(r"-?[0-9]{1,20}", text):
            raise RecordError(f"the seed {text!r} is not a whole number", number)
        seed = int(text)
    players = parse_names(fields["players"][1], fields["players"][0])
    digest: str | None = None
    if BOARD_DIGEST in fields:
        number, text = fields[BOARD_DIGEST]
        if not re.fullmatch(r"[0-9a-f]{64}", text):
            raise RecordError(
                f"the {BOARD_DIGEST} line holds {text[:20]!r}, not 64 hexadecimal digits", number
            )
        digest = text
    result_line, result = fields.get("result", (0, ""))
    fogged_for = fields.get(FOGGED_FOR)
    header = RecordHeader(
        rules=rules,
        board=fields.get("board", (0, "classic"))[1],
        players=players,
        seed=seed,
        result=parse_name(result, result_line) if result else None,
        board_digest=digest,
        board_json=fields.get(BOARD_JSON),
        board_line=fields["board"][0] if "board" in fields else None,
        fogged_for=None if fogged_for is None else (fogged_for[0], parse_name(fogged_for[1], fogged_for[0])),
        players_line=fields["players"][0],
    )
    return header, index + 1


def read_header(text: str) -> RecordHeader:
    """The header of a record, without replaying it. Raises :class:`RecordError` with the line."""
    return _parse_header(_record_lines(text))[0]


def _short(digest: str) -> str:
    return digest[:12]


def _record_board(header: RecordHeader, given: Board | None) -> Board:
    """The board a record is replayed on: ``given`` (checked against the record's digest, or its
    board's name when it has none), else the board embedded in the record, else the shipped board
    it names. Raises :class:`RecordError` saying which board the record needs."""
    name, digest = header.board, header.board_digest
    shipped = next((m for m in available_maps() if normalise(m) == normalise(name)), None)
    if digest is None and shipped is not None:
        digest = load_map(shipped).digest  # a record without a digest: the shipped board it names
    if given is not None:
        if digest is not None and given.digest != digest:
            raise RecordError(
                f"the record was played on the {name!r} board (sha256 {_short(digest)}...), and the board "
                f"given is another one ({given.name!r}, sha256 {_short(given.digest)}...): give the record's "
                "own board",
                header.board_line,
            )
        if digest is None and normalise(given.name) != normalise(name):
            raise RecordError(
                f"the record was played on the {name!r} board, not on {given.name!r}: "
                "give the record's own board",
                header.board_line,
            )
        return given
    if header.board_json is not None:
        number, text = header.board_json
        try:
            board = board_from_json(text, f"the record's {BOARD_JSON}")
        except MapError as error:
            raise RecordError(str(error), number) from None
        if digest is not None and header.board_digest is not None and board.digest != digest:
            raise RecordError(
                f"the record's {BOARD_JSON} is not the board of its {BOARD_DIGEST} line: the record was "
                "changed",
                number,
            )
        return board
    if shipped is None:
        raise RecordError(
            f"the record was played on the {name!r} board, which is not shipped with risk and not in the "
            "record: give its file (risk replay RECORD --board FILE)",
            header.board_line,
        )
    board = load_map(shipped)
    if digest is not None and board.digest != digest:
        raise RecordError(
            f"the record was played on a {name!r} board (sha256 {_short(digest)}...) that is not the "
            f"shipped one (sha256 {_short(board.digest)}...): give the record's board file "
            "(risk replay RECORD --board FILE)",
            header.board_line,
        )
    return board


def _parse_chance(text: str, game_board: Any, number: int) -> tuple[str, Any]:
    parts = text[1:].split()
    if not parts:
        raise RecordError("an empty chance line", number)
    kind, args = parts[0], parts[1:]
    try:
        if kind in ("first", "first-turn", "die") and len(args) == 1 and args[0].isdigit():
            return kind, int(args[0])
        if kind == "dice" and len(args) == 2:
            attack = tuple(int(x) for x in args[0].split(","))
            defence = tuple(int(x) for x in args[1].split(","))
            if not all(1 <= x <= 6 for x in attack + defence):
                raise RecordError("dice show 1 to 6", number)
            if list(attack) != sorted(attack, reverse=True) or list(defence) != sorted(defence, reverse=True):
                raise RecordError("dice are written sorted from high to low", number)
            return kind, (attack, defence)
        if kind == "draw" and len(args) == 1:
            if args[0] == "?":
                raise RecordError("this record hides a card draw: it was written for one player", number)
            return kind, game_board.card(args[0])
        if kind in chance_keys() and len(args) == 1:  # a variant's outcome of one key per seat
            if "?" in args[0].split(","):
                raise RecordError(f"this record hides the {kind}: it was written for one player", number)
            return kind, tuple(args[0].split(","))
        if kind == "deal" and len(args) == 1:
            return kind, tuple(game_board.territory(t) for t in args[0].split(","))
    except RecordError:
        raise
    except ValueError as error:
        raise RecordError(f"bad chance outcome {text!r}: {error}", number) from None
    raise RecordError(f"bad chance outcome {text!r}", number)


@dataclass
class Replay:
    """A replayed record: the game it reaches, the seed it names, and whether every chance outcome
    is the one that seed gives (always False without a seed: nothing to check against)."""

    game: Game
    seed: int | None
    verified: bool
    # The turn of the last action: a record stopped at a turn cap ends as the next turn begins, with
    # no action in it, so ``game.turn`` would count one turn more than was played.
    turns_played: int = 0


def _without_comment(line: str) -> str:
    line = line.strip()
    if "#" not in line:
        return line
    if line.lower().startswith(BOARD_JSON + ":"):
        return line  # JSON to the end of the line: a "#" there is part of it (a colour)
    if '"' not in line:
        return line.split("#", 1)[0].strip()
    # A quoted name (format_name) may hold a "#": the comment starts at the first one outside quotes.
    quoted = escaped = False
    for index, character in enumerate(line):
        if escaped:
            escaped = False
        elif quoted and character == "\\":
            escaped = True
        elif character == '"':
            quoted = not quoted
        elif character == "#" and not quoted:
            return line[:index].strip()
    return line


def _record_lines(text: str) -> list[tuple[int, str]]:
    """The record's lines that are not blank once comments are taken out, with their numbers."""
    lines = [(number, _without_comment(line)) for number, line in enumerate(text.splitlines(), start=1)]
    return [(number, line) for number, line in lines if line]


def _header_error_line(header: RecordHeader, board: Board, first_line: int) -> int | None:
    """The line a game that cannot be made from a record is refused at: the ``players:`` line when
    its seats alone cannot make a game (their count, their names), else the first chance line."""
    try:
        Game(header.rules, header.players, seed=0, board=board)
    except RiskError:
        return header.players_line
    return first_line


def replay_record(text: str, verify: bool = True, board: Board | None = None) -> Replay:
    """Replay a record. Raises :class:`RecordError` with the line of the first action or outcome
    that breaks the rules and, with ``verify`` (the default), of the first chance line that is not
    what the record's seed gives. ``board``: the board to replay on (a file the record names but
    does not hold); refused when it is not the record's board (its digest, or its name)."""
    lines = _record_lines(text)
    header, start = _parse_header(lines)
    if header.fogged_for is not None:
        number, viewer = header.fogged_for
        raise RecordError(
            f"this record was written for {viewer} during a game under fog of war: it leaves out what "
            f"{viewer} did not see, so it cannot be replayed (the full record is written once the game "
            "is over)",
            number,
        )

    # Group the body: the chance outcomes before the first action, then each action with the
    # outcomes that follow it. Each group's outcomes must be exactly the ones its action needs.
    board = _record_board(header, board)
    opening: deque[tuple[str, Any]] = deque()
    opening_lines: list[tuple[int, str]] = []
    groups: list[tuple[int, str, deque[tuple[str, Any]], list[tuple[int, str]]]] = []
    for number, line in lines[start:]:
        if line.startswith("~"):
            outcome = _parse_chance(line, board, number)
            (groups[-1][2] if groups else opening).append(outcome)
            (groups[-1][3] if groups else opening_lines).append((number, line))
        else:
            groups.append((number, line, deque(), []))

    def differs(error: ChanceMismatch, left: deque[Any], where: list[tuple[int, str]]) -> RecordError:
        number, line = where[len(where) - len(left) - 1]  # the outcome just taken from the script
        seed_gives = _format_chance(board, error.kind, error.generated)
        return RecordError(
            f"{line!r} is not what seed {error.seed} gives ({seed_gives!r}): the record's chance lines "
            "were changed, or it was not made with this seed",
            number,
        )

    first_line = lines[start][0] if start < len(lines) else lines[-1][0]
    checked = verify and header.seed is not None
    try:
        game = Game(
            header.rules, header.players, seed=header.seed or 0, board=board, _script=opening, _verify=checked
        )
    except ChanceMismatch as error:
        raise differs(error, opening, opening_lines) from None
    except RiskError as error:
        raise RecordError(str(error), _header_error_line(header, board, first_line)) from None
    if opening:
        raise RecordError(
            "the record has chance outcomes before the first action that the game did not use", first_line
        )
    turns_played = 0
    for number, line, outcomes, outcome_lines in groups:
        try:
            action: Action = game.parse(line)
            game.replay_chance(outcomes, checked)
            turns_played = game.turn
            game.apply(action)
        except ChanceMismatch as error:
            raise differs(error, outcomes, outcome_lines) from None
        except RiskError as error:
            raise RecordError(str(error), number) from None
        if outcomes:
            raise RecordError(f"{line!r} does not lead to the chance outcome that follows it", number)
    game.replay_chance(None)
    if header.seed is None:
        game.chance_from_seed = False  # seed 0 stands in for the generator: the record did not name it
    if header.result and header.result != "unfinished":
        winner = game.players[game.winner] if game.winner is not None else "unfinished"
        if header.result != winner:
            raise RecordError(
                f"the header says the result is {header.result!r}, the replay gives {winner!r}", lines[-1][0]
            )
    return Replay(game, header.seed, game.chance_from_seed, turns_played)


def read_record(text: str, verify: bool = True, board: Board | None = None) -> Game:
    """Replay a record and return the game it reaches. Raises :class:`RecordError` with the line;
    with ``verify`` (the default), a record that names a seed must hold exactly that seed's outcomes."""
    return replay_record(text, verify, board).game


def read_record_file(path: str | Path, verify: bool = True, board: Board | None = None) -> Game:
    return replay_record_file(path, verify, board).game


def read_record_text(path: str | Path) -> str:
    """The text of a record file. Raises :class:`FileInputError` (naming the file) for a file that is
    missing, a folder, unreadable, not UTF-8, empty or larger than :data:`MAX_RECORD_BYTES`."""
    return read_text_file(path, "a game record", MAX_RECORD_BYTES)


def replay_record_file(path: str | Path, verify: bool = True, board: Board | None = None) -> Replay:
    try:
        text = read_record_text(path)
    except FileInputError as error:
        raise RecordError(str(error)) from None
    return replay_record(text, verify, board)


def save_record(game: Game, path: str | Path) -> None:
    write_text_file(path, write_record(game))  # whole or not at all
