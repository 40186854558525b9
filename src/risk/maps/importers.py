"""Boards imported from other games' files: Domination (``.map`` and its ``.cards``), Conquest
(``.map`` with ``[Territories]``), Lux Delux (``.luxb``, XML) and Conquer Club (XML). Docs:
docs/boards.md, "Importing a board".

:func:`import_board` reads a file the user has (these games' boards are not ours to ship) and
returns a board in our format (a dict, as ``classic.json`` holds), checked by the one validator
(:func:`risk.maps.validate.board_problems`). Anything wrong is a :class:`BoardImportError` whose
problems each name the file and line: a file that cannot be read or parsed, a number that is not
one, a link to a territory the file does not have, a one-way link (our rules have none), a feature
of the other game our rules do not have (Conquer Club's bombardments, neutral starts, ...), or what
the validator refuses (names twice, a board in pieces, ...).

XML is read with the standard library's expat parser, refusing any DOCTYPE (so no entity can be
declared: no "billion laughs" expansion, no external entity read from disk or the network).
"""

from __future__ import annotations

import codecs
import difflib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from xml.parsers import expat

from risk.errors import RiskError
from risk.maps.armies import default_players, starting_armies
from risk.maps.validate import (
    MAX_BOARD_BYTES,
    MAX_COORDINATE,
    MAX_NAME,
    MAX_OUTLINE_POINTS,
    MAX_PLAYERS,
    MAX_TITLE,
    MAX_WILDS,
    MIN_PLAYERS,
    SYMBOLS,
    board_problems,
    normalise,
)
from risk.textfile import MB, file_problem, open_regular_file

FORMATS = ("domination", "conquest", "lux", "conquerclub")
FORMAT_TITLES = {
    "domination": "Domination map",
    "conquest": "Conquest map",
    "lux": "Lux Delux board",
    "conquerclub": "Conquer Club map",
}
MAX_IMPORT_BYTES = 4 * MB  # a source file; the board it makes must still fit a board file (1 MiB)
MAX_XML_DEPTH = 32  # these formats nest 5 deep; deeper is not one of them
OTHER_CONTINENT = "Other territories"  # territories a file puts in no continent: a continent of bonus 0
WILD_CARDS = 2  # without a cards file, as the classic deck
MARGIN = 40  # around the label points, for a drawing's size when the file gives none
# A Conquest [Territories] line: name,x,y,continent,... (a Domination map has no commas in its lines)
CONQUEST_TERRITORY = re.compile(r"^[^\[;=,\r\n][^=,\r\n]*,\s*[-+]?[\d.]+\s*,\s*[-+]?[\d.]+\s*,", re.MULTILINE)
DOMINATION_CARDS = {
    "infantry": "infantry",
    "cavalry": "cavalry",
    "cannon": "artillery",
    "artillery": "artillery",
}
COLOUR_NAMES = {  # the colour names Domination maps use (Java's), as "#rrggbb"
    "black": "#000000",
    "blue": "#0000ff",
    "cyan": "#00ffff",
    "darkgray": "#404040",
    "gray": "#808080",
    "green": "#00ff00",
    "lightgray": "#c0c0c0",
    "magenta": "#ff00ff",
    "orange": "#ffc800",
    "pink": "#ffafaf",
    "red": "#ff0000",
    "white": "#ffffff",
    "yellow": "#ffff00",
}


@dataclass(frozen=True, slots=True)
class ImportProblem:
    """One thing that stops a file becoming a board: the file and line, and what is wrong."""

    file: str
    line: int | None
    message: str

    def __str__(self) -> str:
        return (
            f"{self.file}:{self.line}: {self.message}"
            if self.line is not None
            else f"{self.file}: {self.message}"
        )


class BoardImportError(RiskError):
    """A file that does not make a board we can play; ``problems`` lists every reason found."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


@dataclass
class ImportResult:
    """An imported board (our format, valid), the format it was read as, and notes: what the
    import left out or decided (missions dropped, card symbols dealt in turn, ...), one line each."""

    board: dict[str, Any]
    format: str
    notes: list[str]


@dataclass
class _Territory:
    name: str
    line: int
    continent: int | None  # index into the continents; None: the file puts it in none
    label: tuple[float, float] | None = None
    outline: list[tuple[float, float]] | None = None
    card: str | None = None
    links: list[tuple[int, int]] = field(default_factory=list)  # (neighbour, line where it is listed)


@dataclass
class _Continent:
    name: str
    bonus: int
    line: int
    colour: str | None = None


class _Source:
    """What a reader took from a file, and the problems and notes it found on the way."""

    def __init__(self, path: str, fmt: str, skip_unsupported: bool) -> None:
        self.path = path
        self.format = fmt
        self.skip_unsupported = skip_unsupported
        self.title: str | None = None
        self.size: tuple[float, float] | None = None
        self.continents: list[_Continent] = []
        self.territories: list[_Territory] = []
        self.wilds = WILD_CARDS
        self.problems: list[ImportProblem] = []
        self.notes: list[str] = []

    def fail(self, line: int | None, message: str, file: str | None = None) -> NoReturn:
        """A problem that stops the reading (the rest of the file cannot be made sense of)."""
        raise BoardImportError([*self.problems, ImportProblem(file or self.path, line, message)])

    def problem(self, line: int | None, message: str) -> None:
        problem = ImportProblem(self.path, line, message)
        if problem not in self.problems:  # a file may list one fault twice: said once
            self.problems.append(problem)

    def unsupported(self, line: int, feature: str) -> None:
        """A feature of the other game that our rules do not have: refused, or left out when asked."""
        if self.skip_unsupported:
            self.notes.append(f"line {line}: left out {feature} (not in our rules)")
        else:
            self.problem(
                line,
                f"{feature}: our rules have no such thing; "
                "remove it, or import with --skip-unsupported to leave it out",
            )

    def number(self, text: str, line: int, what: str) -> float:
        """A coordinate: a finite number within the format's limits."""
        try:
            value = float(text)
        except ValueError:
            self.fail(line, f"{what} must be a number, not {_quoted(text)}")
        if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
            self.fail(
                line, f"{what} is {_quoted(text)}: a coordinate is at most {MAX_COORDINATE:,} either way"
            )
        return value

    def whole(self, text: str, line: int, what: str) -> int:
        text = text.strip()
        if not re.fullmatch(r"[+-]?\d{1,9}", text):
            self.fail(line, f"{what} must be a whole number, not {_quoted(text)}")
        return int(text)


def _count(number: int, one: str, many: str | None = None) -> str:
    return f"{number} {one if number == 1 else many or one + 's'}"


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:27] + "...")


# ---------------------------------------------------------------------------------------------
# Reading the file


def import_board(
    path: str | Path,
    fmt: str | None = None,
    *,
    players: tuple[int, int] | None = None,
    encoding: str | None = None,
    cards: str | Path | None = None,
    skip_unsupported: bool = False,
) -> ImportResult:
    """The board in the file ``path``, in our format and valid, with notes on what was left out.

    ``fmt``: ``"domination"``, ``"conquest"``, ``"lux"`` or ``"conquerclub"`` (None: told from the
    file's name and content). ``players``: the player counts the board declares (default: 2 up to 6,
    at least 4 territories each). ``encoding``: the file's text encoding, over the format's own rule
    (Domination: Latin-1 unless a UTF-8 byte-order mark; Conquest: UTF-8, else Latin-1; XML: its
    declaration, else UTF-8). ``cards``: a
    Domination cards file (default: the map's ``crd`` file, or the ``.cards`` of the same name,
    when present). ``skip_unsupported``: leave out the other game's features our rules do not have
    (listed in the notes) instead of refusing the file. Raises :class:`BoardImportError`.
    """
    name = str(path)
    raw = _read_bytes(name)
    if fmt is None:
        fmt = guess_format(name, raw)
    elif fmt not in FORMATS:
        raise BoardImportError([ImportProblem(name, None, f"unknown format {fmt!r}: {', '.join(FORMATS)}")])
    if encoding is not None:
        _check_encoding(name, encoding)
    source = _Source(name, fmt, skip_unsupported)
    if fmt == "domination":
        _read_domination(
            source, _domination_text(raw, name, encoding), encoding, None if cards is None else str(cards)
        )
    elif fmt == "conquest":
        _read_conquest(source, _conquest_text(source, raw, encoding))
    elif fmt == "lux":
        _read_lux(source, _parse_xml(raw, name, encoding))
    else:
        _read_conquerclub(source, _parse_xml(raw, name, encoding))
    if cards is not None and fmt != "domination":
        source.notes.append("--cards is for Domination maps: ignored")
    board = _board(source, players)
    if source.problems:
        raise BoardImportError(source.problems)
    return ImportResult(board, fmt, list(dict.fromkeys(source.notes)))  # each note once


def _check_encoding(path: str, encoding: str) -> None:
    """``--encoding``: a text encoding Python knows (``rot13``, ``base64``, ``zlib_codec`` are codecs
    too, but of bytes to bytes or text to text: decoding a file with one is no reading of it)."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise BoardImportError(
            [ImportProblem(path, None, f"unknown encoding {encoding!r}: try utf-8, cp1252 or latin-1")]
        ) from None
    if not getattr(info, "_is_text_encoding", True):
        raise BoardImportError(
            [
                ImportProblem(
                    path,
                    None,
                    f"{encoding!r} is not a text encoding (it does not turn bytes into text): "
                    "give the file's own, such as utf-8, cp1252 or latin-1",
                )
            ]
        )


def _read_bytes(path: str, limit: int = MAX_IMPORT_BYTES) -> bytes:
    try:
        with open_regular_file(path) as stream:
            data = stream.read(limit + 1)  # one byte past the limit tells a file too large
    except OSError as error:
        raise BoardImportError([ImportProblem(path, None, file_problem(error))]) from None
    if len(data) > limit:
        raise BoardImportError(
            [ImportProblem(path, None, f"too large: a file to import is at most {limit // MB} MB")]
        )
    if not data.strip():
        raise BoardImportError([ImportProblem(path, None, "is empty")])
    return data


def guess_format(path: str, raw: bytes) -> str:
    """The format of a file, from its content (an XML root element, Domination's sections) and
    its name's extension; a :class:`BoardImportError` when neither tells."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        head = raw[:8192].decode("utf-16", errors="ignore")
    else:
        head = raw[:8192].decode("latin-1")
    head = head.lstrip("\ufeff\xef\xbb\xbf \t\r\n")
    suffix = Path(path).suffix.lower()
    if head.startswith("<"):
        root = re.search(r"<(?![?!])([A-Za-z_][\w.:-]*)", head)
        tag = root.group(1).lower() if root else ""
        if tag == "luxboard":
            return "lux"
        if tag == "map":
            return "conquerclub"
        raise BoardImportError(
            [
                ImportProblem(
                    path,
                    None,
                    f"an XML file whose root element is <{tag}>: neither a Lux board (<luxboard>) "
                    "nor a Conquer Club map (<map>)",
                )
            ]
        )
    sections = {s.strip().lower() for s in re.findall(r"^\s*\[([^\]\r\n]*)\]", head, re.MULTILINE)}
    if suffix == ".cards" or ("cards" in sections and "countries" not in sections):
        raise BoardImportError(
            [ImportProblem(path, None, "a Domination cards file: import the .map file beside it")]
        )
    if "countries" not in sections and (
        sections & {"map", "territories"} or CONQUEST_TERRITORY.search(head) is not None
    ):
        return "conquest"
    if sections & {"countries", "continents", "borders"} or suffix == ".map":
        return "domination"
    if suffix == ".luxb":
        return "lux"
    raise BoardImportError(
        [
            ImportProblem(
                path,
                None,
                "cannot tell the format: not a Domination map ([countries] and [borders] sections), "
                "a Conquest map ([Territories]) nor XML; give --format domination, conquest, lux or "
                "conquerclub",
            )
        ]
    )


def _domination_text(raw: bytes, path: str, encoding: str | None) -> str:
    """A Domination file's text as Domination reads it: ISO-8859-1 (every byte is a character), or
    UTF-8 after a UTF-8 byte-order mark; ``encoding`` when given."""
    if encoding is None and not raw.startswith(codecs.BOM_UTF8):
        encoding = "latin-1"
    return _text(raw, path, encoding)


def _text(raw: bytes, path: str, encoding: str | None) -> str:
    """A text file's content: UTF-8 (a byte-order mark is dropped), or ``encoding`` if given."""
    try:
        return raw.decode(encoding or "utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        hint = (
            "save it as UTF-8, or give its encoding (--encoding cp1252 for a Windows file)"
            if encoding is None
            else f"is it {encoding}?"
        )
        raise BoardImportError(
            [
                ImportProblem(
                    path, line, f"not {encoding or 'UTF-8'} text (byte 0x{raw[error.start]:02x}): {hint}"
                )
            ]
        ) from None


# ---------------------------------------------------------------------------------------------
# Domination: .map and .cards


def _read_domination(source: _Source, text: str, encoding: str | None, cards: str | None) -> None:
    section: str | None = None
    seen: dict[str, int] = {}
    files: dict[str, tuple[str, int]] = {}  # key: (value, line)
    continent_refs: list[tuple[int, int]] = []  # per territory: (continent number, line)
    borders: list[tuple[int, list[int], int]] = []  # (country, neighbours, line)
    ignored: list[str] = []
    for number, raw_line in enumerate(text.splitlines(), 1):
        line = raw_line.split(";", 1)[0].strip()  # ";" starts a comment
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                source.fail(number, f"a section starts with a line [name], not {_quoted(line)}")
            section = line[1:-1].strip().lower()
            if section in ("territories", "map"):
                source.fail(
                    number,
                    f"a [{section}] section: this looks like a Conquest map (.map with [Map] and "
                    "[Territories]), not a Domination map; that format is not one we import",
                )
            if section in seen:
                source.fail(number, f"the section [{section}] appears twice (first at line {seen[section]})")
            seen[section] = number
            continue
        if section is None or section == "files":
            key, value = _key_value(line)
            if section == "files":
                files[key.lower()] = (value, number)
            elif key.lower() == "name" and value:
                source.title = value.replace("_", " ")
        elif section == "continents":
            _domination_continent(source, line, number)
        elif section == "countries":
            _domination_country(source, line, number, continent_refs)
        elif section == "borders":
            tokens = line.split()
            numbers = [source.whole(t, number, "a country number in [borders]") for t in tokens]
            borders.append((numbers[0], numbers[1:], number))
        elif section not in ignored:
            ignored.append(section)
    for needed in ("continents", "countries", "borders"):
        if needed not in seen:
            source.fail(
                None, f"no [{needed}] section: a Domination map has [continents], [countries] and [borders]"
            )
    if not source.territories:
        source.fail(seen["countries"], "the [countries] section is empty")
    if ignored:
        source.notes.append(f"sections left out: {', '.join(f'[{s}]' for s in ignored)}")
    for territory, (continent, at) in zip(source.territories, continent_refs, strict=True):
        if continent == 0:
            territory.continent = None
        elif 1 <= continent <= len(source.continents):
            territory.continent = continent - 1
        else:
            source.fail(
                at,
                f"country {territory.name!r} is in continent {continent}, but the map has continents "
                f"1 to {len(source.continents)} ([continents], in order)",
            )
    count = len(source.territories)
    for country, neighbours, at in borders:
        for n in (country, *neighbours):
            if not 1 <= n <= count:
                source.fail(at, f"country {n} does not exist: the map has countries 1 to {count}")
        source.territories[country - 1].links.extend((n - 1, at) for n in neighbours)
    _domination_cards(source, files.get("crd"), cards, encoding)


def _beside(folder: Path, name: str) -> bool:
    """Whether the file ``name`` (relative to ``folder``) is in ``folder``: a map names a file
    beside it; ``../x`` or ``/etc/x`` would read any file the user can."""
    if Path(name).is_absolute():
        return False
    try:
        return (folder / name).resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):  # a loop of links
        return False


def _key_value(line: str) -> tuple[str, str]:
    """``key value`` or ``key=value``, as Domination's [files] and header lines have them."""
    match = re.match(r"([^\s=]+)\s*(?:=\s*|\s+)?(.*)", line)
    assert match is not None  # the line is not blank
    return match.group(1), match.group(2).strip()


def _domination_continent(source: _Source, line: str, number: int) -> None:
    tokens = line.split()
    # name bonus colour; a name is one word (underscores for spaces), but some maps have spaces
    colour_token: str | None = None
    if len(tokens) >= 3 and not re.fullmatch(r"[+-]?\d+", tokens[-1]):
        colour_token = tokens.pop()
    if len(tokens) < 2:
        source.fail(number, f"a continent line is 'name bonus colour', not {_quoted(line)}")
    name = " ".join(tokens[:-1]).replace("_", " ")
    bonus = source.whole(tokens[-1], number, f"the bonus of continent {name!r}")
    colour = None
    if colour_token is not None:
        colour = COLOUR_NAMES.get(colour_token.lower())
        if colour is None and re.fullmatch(r"#[0-9a-fA-F]{6}", colour_token):
            colour = colour_token.lower()
    source.continents.append(_Continent(name, bonus, number, colour))


def _domination_country(source: _Source, line: str, number: int, refs: list[tuple[int, int]]) -> None:
    tokens = line.split()
    if len(tokens) < 5:
        source.fail(number, f"a country line is 'number name continent x y', not {_quoted(line)}")
    index = source.whole(tokens[0], number, "the country's number")
    expected = len(source.territories) + 1
    if index != expected:
        source.fail(
            number,
            f"country number {index} out of order: countries are numbered 1, 2, 3...; expected {expected}",
        )
    name = " ".join(tokens[1:-3]).replace("_", " ")
    continent = source.whole(tokens[-3], number, f"the continent of country {name!r}")
    x = source.number(tokens[-2], number, f"the x of country {name!r}")
    y = source.number(tokens[-1], number, f"the y of country {name!r}")
    source.territories.append(_Territory(name, number, None, (x, y)))
    refs.append((continent, number))


def _domination_cards(
    source: _Source, crd: tuple[str, int] | None, given: str | None, encoding: str | None
) -> None:
    """Card symbols and wild cards from the map's .cards file (missions are left out, noted)."""
    folder = Path(source.path).parent
    named = crd[0] if crd else None
    if given is not None:
        path: Path | None = Path(given)
    else:
        if crd is not None and named and not _beside(folder, named):
            source.fail(
                crd[1],
                f"the cards file {named!r} the map names is outside the map's folder: refused "
                "(a map's cards file is beside it; --cards FILE reads one from elsewhere)",
            )
        candidates = [folder / named] if named else []
        candidates.append(Path(source.path).with_suffix(".cards"))
        path = next((c for c in candidates if c.is_file()), None)
        if path is None:
            if named:
                source.notes.append(
                    f"the cards file {named!r} the map names is not beside it: card symbols dealt in turn"
                )
            return
    cards_file = str(path)
    text = _domination_text(_read_bytes(cards_file), cards_file, encoding)
    section: str | None = None
    wilds = 0
    missions = 0
    card_line: dict[int, int] = {}
    for number, raw_line in enumerate(text.splitlines(), 1):
        line = raw_line.split(";", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            section = line.strip("[] ").lower()
            continue
        if section == "missions":
            missions += 1
        elif section == "cards":
            tokens = line.split()
            kind = tokens[0].lower()
            if kind == "wildcard":
                wilds += 1
                continue
            symbol = DOMINATION_CARDS.get(kind)
            if symbol is None:
                source.fail(
                    number,
                    "a card is Infantry, Cavalry or Cannon with a country number, or Wildcard; "
                    f"not {_quoted(line)}",
                    cards_file,
                )
            if len(tokens) != 2:
                source.fail(
                    number, f"a {tokens[0]} card names one country by its number: {_quoted(line)}", cards_file
                )
            country = (
                source.whole(tokens[1], number, "the card's country number")
                if tokens[1].lstrip("+-").isdigit()
                else 0
            )
            if not 1 <= country <= len(source.territories):
                source.fail(
                    number,
                    f"the card's country {tokens[1]!r} is not one of the map's countries "
                    f"1 to {len(source.territories)}",
                    cards_file,
                )
            if country in card_line:
                source.fail(
                    number,
                    f"country {country} has a card already (line {card_line[country]}): one card a country",
                    cards_file,
                )
            card_line[country] = number
            source.territories[country - 1].card = symbol
    if wilds > MAX_WILDS:
        source.fail(None, f"{wilds} wild cards: at most {MAX_WILDS}", cards_file)
    source.wilds = wilds
    if missions:
        source.notes.append(
            f"{_count(missions, 'mission')} in {Path(cards_file).name} left out: "
            "our board format has no missions (Secret Mission RISK deals its own)"
        )


# ---------------------------------------------------------------------------------------------
# Conquest: .map with [Map], [Continents] and [Territories]


def _conquest_text(source: _Source, raw: bytes, encoding: str | None) -> str:
    """A Conquest map's text: ``encoding`` if given, else UTF-8 (a byte-order mark dropped), else
    Latin-1 (noted): maps made on Windows are in its code page, and every byte is a Latin-1 one."""
    if encoding is not None:
        return _text(raw, source.path, encoding)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        source.notes.append("not UTF-8 text: read as Latin-1 (--encoding gives another)")
        return raw.decode("latin-1")


@dataclass
class _ConquestRow:
    """A [Territories] line's names, resolved once every line is read (a line may name a later one)."""

    line: int
    continent: str
    neighbours: list[str]


def _read_conquest(source: _Source, text: str) -> None:
    section: str | None = None
    seen: dict[str, int] = {}
    settings: list[str] = []
    ignored: list[str] = []
    continents: dict[str, int] = {}
    index: dict[str, int] = {}
    rows: list[_ConquestRow] = []
    for number, raw_line in enumerate(text.splitlines(), 1):
        line = raw_line.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                source.fail(number, f"a section starts with a line [Name], not {_quoted(line)}")
            section = line[1:-1].strip().lower()
            if section in seen:
                source.fail(number, f"the section [{section}] appears twice (first at line {seen[section]})")
            seen[section] = number
            continue
        if section is None:
            source.fail(number, f"a line before the first section: {_quoted(line)}")
        if section == "map":
            settings.append(line.partition("=")[0].strip())
        elif section == "continents":
            _conquest_continent(source, line, number, continents)
        elif section == "territories":
            _conquest_territory(source, line, number, index, rows)
        elif section not in ignored:
            ignored.append(section)
    for needed in ("continents", "territories"):
        if needed not in seen:
            source.fail(None, f"no [{needed}] section: a Conquest map has [Continents] and [Territories]")
    if not source.territories:
        source.fail(seen["territories"], "the [Territories] section is empty")
    if settings:
        source.notes.append(f"[Map] left out: {', '.join(settings)} (the picture and how it is shown)")
    if ignored:
        source.notes.append(f"sections left out: {', '.join(f'[{s}]' for s in ignored)}")
    for territory, row in zip(source.territories, rows, strict=True):
        if row.continent:
            c = _by_name(row.continent, continents)
            if c is None:
                source.fail(
                    row.line,
                    f"{territory.name!r} is in the continent {row.continent!r}, which [Continents] "
                    "does not have" + _near(row.continent, continents),
                )
            territory.continent = c
        for name in row.neighbours:
            t = _by_name(name, index)
            if t is None:
                source.fail(
                    row.line,
                    f"{territory.name!r} borders {name!r}, which is not a territory of the map"
                    + _near(name, index),
                )
            territory.links.append((t, row.line))


def _by_name(name: str, index: dict[str, int]) -> int | None:
    """A name's index: as written, else as players type it (case, spaces and punctuation aside)
    when that is one name only."""
    if name in index:
        return index[name]
    matches = {i for known, i in index.items() if normalise(known) == normalise(name)}
    return matches.pop() if len(matches) == 1 else None


def _conquest_continent(source: _Source, line: str, number: int, continents: dict[str, int]) -> None:
    name, equals, bonus_text = line.rpartition("=")
    name = name.strip()
    if not equals or not name:
        source.fail(number, f"a continent line is 'name=bonus', not {_quoted(line)}")
    if name in continents:
        first = source.continents[continents[name]].line
        source.fail(number, f"the continent {name!r} appears twice (first at line {first})")
    bonus = source.whole(bonus_text, number, f"the bonus of continent {name!r}")
    if bonus < 0:
        source.unsupported(number, f"continent {name!r}: a negative bonus ({bonus})")
    continents[name] = len(source.continents)
    source.continents.append(_Continent(name, max(bonus, 0), number))


def _conquest_territory(
    source: _Source, line: str, number: int, index: dict[str, int], rows: list[_ConquestRow]
) -> None:
    fields = [f.strip() for f in line.split(",")]
    if len(fields) < 4 or not fields[0]:
        source.fail(number, f"a territory line is 'name,x,y,continent,neighbour,...', not {_quoted(line)}")
    name = fields[0]
    if name in index:
        first = source.territories[index[name]].line
        source.fail(number, f"the territory {name!r} appears twice (first at line {first})")
    x = source.number(fields[1], number, f"the x of {name!r}")
    y = source.number(fields[2], number, f"the y of {name!r}")  # counted downwards, as ours
    index[name] = len(source.territories)
    source.territories.append(_Territory(name, number, None, (x, y)))
    rows.append(_ConquestRow(number, fields[3], [n for n in fields[4:] if n]))  # "A,B," ends in nothing


# ---------------------------------------------------------------------------------------------
# XML, safely


@dataclass
class _Node:
    tag: str
    attributes: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""

    def all(self, tag: str) -> list[_Node]:
        return [c for c in self.children if c.tag == tag]

    def first(self, tag: str) -> _Node | None:
        return next((c for c in self.children if c.tag == tag), None)


class _XMLRefused(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line


def _declared_encoding(raw: bytes) -> str | None:
    match = re.match(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", raw)
    return match.group(1).decode("ascii") if match else None


def _parse_xml(raw: bytes, path: str, encoding: str | None) -> _Node:
    """The XML tree of a file, each element with its line; DOCTYPE (and so entities) refused."""
    if encoding is not None:  # the user's word over the file's declaration
        data = _text(raw, path, encoding).encode("utf-8")
        parser = expat.ParserCreate("UTF-8")
    else:
        declared = _declared_encoding(raw)
        if declared is not None:
            try:
                codecs.lookup(declared)
            except LookupError:
                raise BoardImportError(
                    [
                        ImportProblem(
                            path,
                            1,
                            f"the file declares the encoding {declared!r}, which is not one we know: "
                            "save it as UTF-8, or give its encoding (--encoding)",
                        )
                    ]
                ) from None
        utf16 = raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
        if not utf16 and (declared is None or declared.lower().replace("_", "-") in ("utf-8", "utf8")):
            _text(raw, path, None)  # not UTF-8: say where, before expat's "invalid token"
        data = raw
        parser = expat.ParserCreate()
    root: list[_Node] = []
    stack: list[_Node] = []

    def start(tag: str, attributes: dict[str, str]) -> None:
        node = _Node(tag, attributes, parser.CurrentLineNumber)
        if len(stack) >= MAX_XML_DEPTH:
            raise _XMLRefused(node.line, f"elements nested more than {MAX_XML_DEPTH} deep: not a board file")
        (stack[-1].children if stack else root).append(node)
        stack.append(node)

    def end(tag: str) -> None:
        node = stack.pop()
        node.text = node.text.strip()

    def characters(text: str) -> None:
        if stack:
            stack[-1].text += text

    def doctype(*_: object) -> None:
        raise _XMLRefused(
            parser.CurrentLineNumber,
            "a <!DOCTYPE> declaration: refused (it can declare entities that expand without limit "
            "or read other files); these board files need none, remove it",
        )

    parser.buffer_text = True
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = characters
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    try:
        parser.Parse(data, True)
    except _XMLRefused as refused:
        raise BoardImportError([ImportProblem(path, refused.line, str(refused))]) from None
    except (LookupError, ValueError) as error:  # an encoding expat cannot read (multi-byte, say)
        raise BoardImportError(
            [ImportProblem(path, 1, f"cannot read the file's encoding: {error}")]
        ) from None
    except expat.ExpatError as error:
        message = expat.ErrorString(error.code)
        raise BoardImportError(
            [ImportProblem(path, error.lineno, f"not well-formed XML: {message} (column {error.offset + 1})")]
        ) from None
    return root[0]


def _child_text(source: _Source, node: _Node, tag: str, what: str) -> tuple[str, int]:
    child = node.first(tag)
    if child is None:
        source.fail(node.line, f"{what} has no <{tag}>")
    return child.text, child.line


# ---------------------------------------------------------------------------------------------
# Lux Delux: <luxboard>


LUX_SCENARIO = ("initialOwner", "initialArmies")


def _read_lux(source: _Source, root: _Node) -> None:
    if root.tag != "luxboard":
        source.fail(root.line, f"the root element is <{root.tag}>: a Lux board's is <luxboard>")
    height_text, height_line = _child_text(source, root, "height", "the board")
    width_text, width_line = _child_text(source, root, "width", "the board")
    width = source.number(width_text, width_line, "the board's <width>")
    height = source.number(height_text, height_line, "the board's <height>")
    if width <= 0 or height <= 0:
        source.fail(width_line, f"the board's size must be above 0, not {width_text} by {height_text}")
    source.size = (width, height)
    title = root.first("title")
    if title is not None and title.text:
        source.title = title.text
    ids: dict[int, int] = {}  # Lux id -> our index
    id_line: dict[int, int] = {}
    adjoining: list[tuple[str, int]] = []
    scenario = False
    several = 0
    for c, node in enumerate(root.all("continent")):
        name_node = node.first("continentname")
        name = name_node.text if name_node is not None and name_node.text else f"Continent {c + 1}"
        bonus_text, bonus_line = _child_text(source, node, "bonus", f"continent {name!r}")
        bonus = source.whole(bonus_text, bonus_line, f"the bonus of continent {name!r}")
        colour_node = node.first("color")
        colour = _lux_colour(colour_node.text) if colour_node is not None else None
        source.continents.append(_Continent(name, bonus, node.line, colour))
        for country in node.all("country"):
            id_text, id_line_number = _child_text(source, country, "id", "a country")
            lux_id = source.whole(id_text, id_line_number, "a country's <id>")
            if lux_id in ids:
                source.fail(
                    id_line_number, f"country id {lux_id} appears twice (first at line {id_line[lux_id]})"
                )
            ids[lux_id] = len(source.territories)
            id_line[lux_id] = id_line_number
            name_node = country.first("name")
            territory_name = (
                name_node.text if name_node is not None and name_node.text else f"Country {lux_id}"
            )
            polygons = [_lux_points(source, p, height, territory_name) for p in country.all("polygon")]
            polygons = [p for p in polygons if len(p) >= 3]
            outline = max(polygons, key=_area) if polygons else None
            several += len(polygons) > 1
            if outline is not None and len(outline) > MAX_OUTLINE_POINTS:
                outline = None
            label = _lux_label(source, country, height, territory_name) or (
                _centroid(outline) if outline else None
            )
            territory = _Territory(territory_name, country.line, c, label, outline)
            source.territories.append(territory)
            adjoining_node = country.first("adjoining")
            adjoining.append(
                (adjoining_node.text, adjoining_node.line)
                if adjoining_node is not None
                else ("", country.line)
            )
            scenario = scenario or any(country.first(tag) is not None for tag in LUX_SCENARIO)
    if not source.territories:
        source.fail(root.line, "the board has no <continent> with a <country>")
    _unique_names(source)
    for territory, (text, line) in zip(source.territories, adjoining, strict=True):
        for item in filter(None, (t.strip() for t in text.split(","))):
            neighbour = source.whole(item, line, f"an id in the <adjoining> of {territory.name!r}")
            if neighbour not in ids:
                source.fail(
                    line, f"{territory.name!r} adjoins country id {neighbour}, which the board does not have"
                )
            territory.links.append((ids[neighbour], line))
    if scenario:
        source.notes.append(
            "the starting scenario (initialOwner, initialArmies) left out: our games deal the territories"
        )
    if several:
        source.notes.append(
            f"{_count(several, 'country', 'countries')} drawn in several polygons: "
            "the outline keeps the largest"
        )


def _unique_names(source: _Source) -> None:
    """Lux tells its countries by id, so two countries of one name (as players type it) are two
    countries: the later ones are renamed ``NAME (2)``, ``NAME (3)``..., each noted."""
    taken = {normalise(t.name) for t in source.territories}
    first: set[str] = set()
    for territory in source.territories:
        key = normalise(territory.name)
        if key not in first:
            first.add(key)
            continue
        number = 2
        while True:
            renamed = f"{territory.name[: MAX_NAME - 6]} ({number})"
            if normalise(renamed) not in taken:
                break
            number += 1
        taken.add(normalise(renamed))
        source.notes.append(
            f"line {territory.line}: the name {territory.name!r} twice (as players type it): "
            f"this country is named {renamed!r}"
        )
        territory.name = renamed


def _lux_colour(text: str) -> str | None:
    """Lux's ``r/g/b`` (each 0 to 1) as ``#rrggbb``; None if it is not that."""
    parts = text.split("/")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        return None
    if len(values) != 3 or not all(0 <= v <= 1 for v in values):
        return None
    return "#" + "".join(f"{round(v * 255):02x}" for v in values)


def _lux_points(source: _Source, node: _Node, height: float, name: str) -> list[tuple[float, float]]:
    """A Lux ``x,y x,y ...`` list, y turned to count downwards (Lux counts it up from the bottom)."""
    points = []
    for pair in node.text.split():
        x, comma, y = pair.partition(",")
        if not comma:
            source.fail(node.line, f"a point of {name!r}'s polygon is 'x,y', not {_quoted(pair)}")
        points.append(
            (
                source.number(x, node.line, f"an x of {name!r}'s polygon"),
                height - source.number(y, node.line, f"a y of {name!r}'s polygon"),
            )
        )
    return points


def _lux_label(source: _Source, country: _Node, height: float, name: str) -> tuple[float, float] | None:
    node = country.first("armylocation")
    if node is None or not node.text:
        return None
    x, comma, y = node.text.partition(",")
    if not comma:
        source.fail(node.line, f"the <armylocation> of {name!r} is 'x,y', not {_quoted(node.text)}")
    return (
        source.number(x, node.line, f"the x of {name!r}'s <armylocation>"),
        height - source.number(y, node.line, f"the y of {name!r}'s <armylocation>"),
    )


def _area(points: list[tuple[float, float]]) -> float:
    pairs = zip(points, points[1:] + points[:1], strict=True)
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in pairs)) / 2


def _centroid(points: list[tuple[float, float]]) -> tuple[float, float]:
    return (sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points))


# ---------------------------------------------------------------------------------------------
# Conquer Club: <map>


CC_MAP_FEATURES = {  # <map> children our rules do not have, by what they are
    "objectives": "objectives (a win by holding named territories)",
    "objective": "an objective (a win by holding named territories)",
    "positions": "starting positions",
    "reinforcements": "a reinforcement table (ours: territories / 3, at least 3)",
    "requirements": "requirements",
}
CC_TERRITORY_FEATURES = {
    "neutral": "a neutral start (armies that no player holds)",
    "bonus": "an autodeploy or decay bonus on a territory",
    "bombardments": "bombardments (attacks on territories that are not neighbours)",
}
CC_CONTINENT_FEATURES = {
    "required": "required territories in a continent",
    "overrides": "overriding continent bonuses",
}


def _read_conquerclub(source: _Source, root: _Node) -> None:
    if root.tag != "map":
        source.fail(root.line, f"the root element is <{root.tag}>: a Conquer Club map's is <map>")
    index: dict[str, int] = {}
    borders: list[list[tuple[str, int]]] = []
    for child in root.children:
        if child.tag == "territory":
            _cc_territory(source, child, index, borders)
        elif child.tag == "minreinforcement":
            if source.whole(child.text, child.line, "<minreinforcement>") != 3:
                source.unsupported(child.line, f"a minimum reinforcement of {child.text} (ours: 3)")
        elif child.tag not in ("continent", "title"):
            source.unsupported(child.line, CC_MAP_FEATURES.get(child.tag, f"<{child.tag}>"))
    title = root.first("title")
    if title is not None and title.text:
        source.title = title.text
    if not source.territories:
        source.fail(root.line, "the map has no <territory>")
    member_of: dict[int, tuple[str, int]] = {}
    for node in root.all("continent"):
        _cc_continent(source, node, index, member_of)
    for t, names in enumerate(borders):
        territory = source.territories[t]
        for name, line in names:
            if name not in index:
                source.fail(
                    line,
                    f"{territory.name!r} borders {name!r}, which is not a territory of the map"
                    + _near(name, index),
                )
            territory.links.append((index[name], line))


def _cc_territory(
    source: _Source, node: _Node, index: dict[str, int], borders: list[list[tuple[str, int]]]
) -> None:
    name, line = _child_text(source, node, "name", "a <territory>")
    if not name:
        source.fail(line, "a <territory> with an empty <name>")
    if name in index:
        source.fail(
            line,
            f"the territory {name!r} appears twice (first at line {source.territories[index[name]].line})",
        )
    label = None
    coordinates = node.first("coordinates")
    if coordinates is not None:
        big = coordinates.first("largex"), coordinates.first("largey")
        small = coordinates.first("smallx"), coordinates.first("smally")
        x_node, y_node = big if None not in big else small
        if x_node is not None and y_node is not None:
            label = (
                source.number(x_node.text, x_node.line, f"the x of {name!r}"),
                source.number(y_node.text, y_node.line, f"the y of {name!r}"),
            )
    listed: list[tuple[str, int]] = []
    for child in node.children:
        if child.tag == "borders":
            for border in child.all("border"):
                if border.attributes:
                    source.unsupported(border.line, f"a conditional border ({', '.join(border.attributes)})")
                    continue
                listed.append((border.text, border.line))
        elif child.tag == "neutral" and child.attributes.get("killer", "").lower() == "yes":
            source.unsupported(child.line, "a killer neutral (a territory that turns neutral again)")
        elif child.tag not in ("name", "coordinates"):
            source.unsupported(
                child.line, CC_TERRITORY_FEATURES.get(child.tag, f"<{child.tag}> in a territory")
            )
    index[name] = len(source.territories)
    source.territories.append(_Territory(name, node.line, None, label))
    borders.append(listed)


def _cc_continent(
    source: _Source, node: _Node, index: dict[str, int], member_of: dict[int, tuple[str, int]]
) -> None:
    name, _ = _child_text(source, node, "name", "a <continent>")
    bonuses = node.all("bonus")
    if len(bonuses) != 1 or bonuses[0].attributes:
        source.unsupported(node.line, f"continent {name!r}: bonuses that depend on how much of it is held")
        bonus = 0
    else:
        bonus = source.whole(bonuses[0].text, bonuses[0].line, f"the bonus of continent {name!r}")
        if bonus < 0:
            source.unsupported(bonuses[0].line, f"continent {name!r}: a negative bonus ({bonus})")
    for child in node.children:
        if child.tag in CC_CONTINENT_FEATURES:
            source.unsupported(child.line, f"continent {name!r}: {CC_CONTINENT_FEATURES[child.tag]}")
    components = node.first("components")
    if components is None:
        source.fail(node.line, f"continent {name!r} has no <components>")
    c = len(source.continents)
    source.continents.append(_Continent(name, max(bonus, 0), node.line))
    for part in components.children:
        if part.tag == "continent":
            source.unsupported(part.line, f"continent {name!r} is made of continents ({part.text!r})")
            continue
        if part.tag != "territory":
            source.unsupported(part.line, f"<{part.tag}> in continent {name!r}")
            continue
        if part.text not in index:
            source.fail(
                part.line,
                f"continent {name!r} holds {part.text!r}, which is not a territory of the map"
                + _near(part.text, index),
            )
        t = index[part.text]
        if t in member_of and member_of[t][0] != name:
            first, first_line = member_of[t]
            source.unsupported(
                part.line,
                f"overlapping continents: {part.text!r} is in {first!r} (line {first_line}) and {name!r}",
            )
            continue
        member_of[t] = (name, part.line)
        source.territories[t].continent = c


def _near(name: str, index: dict[str, int]) -> str:
    near = difflib.get_close_matches(name, list(index), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


# ---------------------------------------------------------------------------------------------
# Our format


def _board(source: _Source, players: tuple[int, int] | None) -> dict[str, Any]:
    """The board in our format; one-way links and what the validator refuses added to the problems."""
    territories = source.territories
    continents = list(source.continents)
    if any(t.continent is None for t in territories):
        taken = {normalise(c.name) for c in continents}
        name = OTHER_CONTINENT
        while normalise(name) in taken:
            name = f"{name} ({len(taken)})"
        continents.append(_Continent(name, 0, territories[0].line))
        alone = sum(1 for t in territories if t.continent is None)
        source.notes.append(
            f"{_count(alone, 'territory', 'territories')} in no continent: put in {name!r} (bonus 0)"
        )
        for t in territories:
            if t.continent is None:
                t.continent = len(continents) - 1
    used = {t.continent for t in territories}
    kept = [c for i, c in enumerate(continents) if i in used]
    if len(kept) < len(continents):
        dropped = [c.name for i, c in enumerate(continents) if i not in used]
        source.notes.append(f"continents without a territory left out: {', '.join(map(repr, dropped))}")
    continent_lines = [c.line for c in kept]
    continent_name = {i: c.name for i, c in enumerate(continents)}

    links: list[tuple[int, int]] = []
    link_lines: list[int] = []
    listed = [{n for n, _ in t.links} for t in territories]
    seen: set[tuple[int, int]] = set()
    for a, territory in enumerate(territories):
        own: set[int] = set()
        for b, line in territory.links:
            if b in own:  # the same link: one kept (Lux files repeat ids)
                source.notes.append(
                    f"line {line}: {territory.name!r} lists {territories[b].name!r} twice: one link kept"
                )
                continue
            own.add(b)
            if a == b:
                if source.skip_unsupported:
                    source.notes.append(f"line {line}: left out a link from {territory.name!r} to itself")
                else:
                    source.problem(
                        line,
                        f"{territory.name!r} is linked to itself: remove it from its own list "
                        "(--skip-unsupported leaves such links out)",
                    )
                continue
            if a not in listed[b]:
                one_way = f"a one-way link from {territory.name!r} to {territories[b].name!r}"
                if source.skip_unsupported:
                    source.notes.append(f"line {line}: left out {one_way} (not in our rules)")
                else:
                    source.problem(
                        line,
                        f"{one_way} ({territories[b].name!r}, line {territories[b].line}, "
                        "does not list it back): "
                        "in our rules every link can be crossed both ways; list it both ways or remove it "
                        "(--skip-unsupported leaves one-way links out)",
                    )
                continue
            pair = (min(a, b), max(a, b))
            if pair not in seen:
                seen.add(pair)
                links.append(pair)
                link_lines.append(line)

    symbols = [t.card for t in territories]
    if all(s is None for s in symbols):
        source.notes.append("card symbols dealt in turn (infantry, cavalry, artillery) in file order")
    elif any(s is None for s in symbols):
        missing = sum(1 for s in symbols if s is None)
        source.notes.append(
            f"{_count(missing, 'territory', 'territories')} without a card: symbols dealt in turn for them"
        )
    cards = [s or SYMBOLS[i % len(SYMBOLS)] for i, s in enumerate(symbols)]

    count = len(territories)
    low, high = players if players is not None else default_players(count)
    low, high = max(MIN_PLAYERS, low), min(MAX_PLAYERS, high)
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(source.path).stem).strip("-")[:MAX_NAME] or "imported"
    title = source.title or f"{name} ({FORMAT_TITLES[source.format]})"
    rows = []
    for territory, card in zip(territories, cards, strict=True):
        row: dict[str, Any] = {
            "name": territory.name,
            "continent": continent_name[territory.continent if territory.continent is not None else 0],
            "card": card,
        }
        if territory.label is not None:
            row["label"] = [_round(v) for v in territory.label]
        if territory.outline is not None:
            row["outline"] = [[_round(x), _round(y)] for x, y in territory.outline]
        rows.append(row)
    board: dict[str, Any] = {
        "format": 1,
        "name": name,
        "title": title[:MAX_TITLE],
        "players": {"min": low, "max": high},
        "starting_armies": starting_armies(count, low, high),
        "deck": {"wilds": source.wilds, "symbols": "listed"},
    }
    size = source.size or _extent(territories)
    if size is not None:
        board["size"] = [_round(v) for v in size]
    board["continents"] = [
        {"name": c.name, "bonus": c.bonus, **({"colour": c.colour} if c.colour else {})} for c in kept
    ]
    board["territories"] = rows
    board["links"] = [
        {"between": [territories[a].name, territories[b].name], "by": "border"} for a, b in links
    ]

    lines = {"territories": [t.line for t in territories], "continents": continent_lines, "links": link_lines}
    for problem in board_problems(board):
        source.problem(_source_line(problem.where, lines), str(problem))
    if not source.problems:
        size_bytes = len(json.dumps(board, indent=1))
        if size_bytes > MAX_BOARD_BYTES:
            source.problem(
                None,
                f"the board would be {size_bytes // 1024} KB: "
                f"over the {MAX_BOARD_BYTES // MB} MB of a board file "
                "(its outlines take the room)",
            )
    return board


def _source_line(where: str, lines: dict[str, list[int]]) -> int | None:
    """The line of the source file behind a validator problem's place (``territories[3] ('X').card``)."""
    match = re.match(r"(territories|continents|links)\[(\d+)\]", where)
    if match is None:
        return None
    rows = lines[match.group(1)]
    i = int(match.group(2))
    return rows[i] if i < len(rows) else None


def _extent(territories: list[_Territory]) -> tuple[float, float] | None:
    """A drawing's size when the file gives none: the label points' extent and a margin."""
    points = [t.label for t in territories if t.label is not None]
    if not points:
        return None
    return (max(1.0, max(x for x, _ in points) + MARGIN), max(1.0, max(y for _, y in points) + MARGIN))


def _round(value: float) -> float | int:
    rounded = round(value, 1)
    return int(rounded) if rounded == int(rounded) else rounded


__all__ = [
    "FORMATS",
    "MAX_IMPORT_BYTES",
    "BoardImportError",
    "ImportProblem",
    "ImportResult",
    "guess_format",
    "import_board",
]
