"""Importing boards (risk.maps.importers, `risk board import`; docs/boards.md, "Importing a board").

Every board here is written by the tests, in each format (never a third-party map file): imported,
validated, and played by bots to an end; malformed files of each kind give one line naming the file
and the line, exit code 2, never a traceback."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risk.cli.main import app
from risk.maps import Board
from risk.maps.importers import MAX_IMPORT_BYTES, BoardImportError, guess_format, import_board
from risk.maps.validate import board_problems
from risk.play.simulate import play_game
from risk.rules.options import Rules

runner = CliRunner()

# A small board: 3 continents of 4 territories in a 4 x 3 grid, each linked to the ones beside,
# above and below it. Names with spaces (Domination writes them with underscores).
COLUMNS, ROWS = 4, 3
CONTINENTS = [("Upper Land", 2), ("Middle Land", 3), ("Lower Land", 1)]
NAMES = [f"{row.split()[0]} {k + 1}" for row, _ in CONTINENTS for k in range(COLUMNS)]
PAIRS = sorted(
    {
        (min(a, b), max(a, b))
        for a in range(COLUMNS * ROWS)
        for b in (a + 1 if (a + 1) % COLUMNS else None, a + COLUMNS if a + COLUMNS < COLUMNS * ROWS else None)
        if b is not None
    }
)


def neighbours(t: int) -> list[int]:
    return sorted([b for a, b in PAIRS if a == t] + [a for a, b in PAIRS if b == t])


def point(t: int) -> tuple[int, int]:
    return (40 + 100 * (t % COLUMNS), 30 + 100 * (t // COLUMNS))


def domination_map(cards: str | None = "grid.cards") -> str:
    lines = ["; a test board: 12 territories in a grid", "name Grid_Test", "", "[files]", "pic grid_pic.png"]
    if cards:
        lines.append(f"crd {cards}")
    lines += ["", "[continents]"]
    lines += [
        f"{name.replace(' ', '_')} {bonus} {colour}"
        for (name, bonus), colour in zip(CONTINENTS, ["red", "green", "blue"], strict=True)
    ]
    lines += ["", "[countries]"]
    lines += [
        f"{t + 1} {n.replace(' ', '_')} {t // COLUMNS + 1} {point(t)[0]} {point(t)[1]}"
        for t, n in enumerate(NAMES)
    ]
    lines += ["", "[borders]"]
    lines += [" ".join(str(x + 1) for x in [t, *neighbours(t)]) for t in range(len(NAMES))]
    return "\n".join(lines) + "\n"


def domination_cards() -> str:
    kinds = ["Cannon", "Infantry", "Cavalry"]
    lines = [
        "[cards]",
        *[f"{kinds[t % 3]} {t + 1}" for t in range(len(NAMES))],
        "Wildcard",
        "Wildcard",
        "Wildcard",
    ]
    lines += [
        "",
        "[missions]",
        "0 0 8 1 0 0 0 Conquer 8 territories",
        "0 0 0 0 1 2 0 Conquer Upper and Middle",
    ]
    return "\n".join(lines) + "\n"


HEIGHT = 400


def lux_board(extra: str = "") -> str:
    """Lux ids are not file positions (here 100 and up, in reverse), and y counts up from the bottom."""
    ids = {t: 100 + len(NAMES) - t for t in range(len(NAMES))}
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<luxboard>", "<version>1.0</version>"]
    parts += ["<width>500</width>", f"<height>{HEIGHT}</height>", "<title>Grid Test</title>", extra]
    for c, (name, bonus) in enumerate(CONTINENTS):
        parts += ["<continent>", f"<continentname>{name}</continentname>", f"<bonus>{bonus}</bonus>"]
        parts.append("<color>1.0/0.5/0.0</color>")
        for t in range(c * COLUMNS, (c + 1) * COLUMNS):
            x, y = point(t)
            square = " ".join(
                f"{x + dx},{HEIGHT - (y + dy)}" for dx, dy in ((-40, -30), (40, -30), (40, 30), (-40, 30))
            )
            parts += [
                "<country>",
                f"<id>{ids[t]}</id>",
                f"<name>{NAMES[t]}</name>",
                "<initialOwner>1</initialOwner>",
                f"<adjoining>{','.join(str(ids[n]) for n in neighbours(t))}</adjoining>",
                f"<armylocation>{x},{HEIGHT - y}</armylocation>",
                f"<polygon>{square}</polygon>",
                "</country>",
            ]
        parts.append("</continent>")
    parts.append("</luxboard>")
    return "\n".join(parts) + "\n"


def conquerclub_map(territory_extra: str = "", continent_extra: str = "", map_extra: str = "") -> str:
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<map>", map_extra]
    for t, name in enumerate(NAMES):
        x, y = point(t)
        parts += ["<territory>", f"<name>{name}</name>", "<borders>"]
        parts += [f"<border>{NAMES[n]}</border>" for n in neighbours(t)]
        parts += ["</borders>", "<coordinates>", f"<smallx>{x // 2}</smallx><smally>{y // 2}</smally>"]
        parts += [f"<largex>{x}</largex><largey>{y}</largey>", "</coordinates>"]
        if t == 0:
            parts.append(territory_extra)
        parts.append("</territory>")
    for c, (name, bonus) in enumerate(CONTINENTS):
        parts += ["<continent>", f"<name>{name}</name>", f"<bonus>{bonus}</bonus>", "<components>"]
        parts += [f"<territory>{NAMES[t]}</territory>" for t in range(c * COLUMNS, (c + 1) * COLUMNS)]
        parts += ["</components>", continent_extra if c == 0 else "", "</continent>"]
    parts.append("</map>")
    return "\n".join(parts) + "\n"


def write(folder: Path, name: str, content: str | bytes) -> str:
    path = folder / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return str(path)


def grid_files(folder: Path) -> dict[str, str]:
    """One file of each format, the same board in each."""
    write(folder, "grid.cards", domination_cards())
    return {
        "domination": write(folder, "grid.map", domination_map()),
        "lux": write(folder, "grid.luxb", lux_board()),
        "conquerclub": write(folder, "grid.xml", conquerclub_map()),
    }


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """The line number of the ``occurrence``-th line holding ``needle``."""
    found = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return found[occurrence - 1]


def refused(args: list[str]) -> str:
    """The output of a `risk board import` that must fail with exit code 2 and no traceback."""
    result = runner.invoke(app, ["board", "import", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.output


# ---------------------------------------------------------------------------------------------
# Each format imported, validated and played


@pytest.mark.parametrize("fmt", ["domination", "lux", "conquerclub"])
def test_each_format_imports_to_a_valid_board_that_bots_play_to_the_end(tmp_path: Path, fmt: str) -> None:
    source = grid_files(tmp_path)[fmt]
    out = tmp_path / f"{fmt}.json"
    result = runner.invoke(app, ["board", "import", source, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (
        f"imported {fmt} board 'grid': 12 territories, 3 continents, 17 links, players 2-3" in result.output
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    assert board_problems(data) == []
    assert runner.invoke(app, ["board", "validate", str(out)]).exit_code == 0
    board = Board(data)
    assert [t.name for t in board.territories] == NAMES
    assert [(c.name, c.bonus) for c in board.continents] == CONTINENTS
    assert {tuple(sorted(link["between"])) for link in data["links"]} == {
        tuple(sorted((NAMES[a], NAMES[b]))) for a, b in PAIRS
    }
    # Coordinates carried over for drawing: the labels where the file puts the armies (y downwards).
    assert [t.label for t in board.territories] == [tuple(float(v) for v in point(t)) for t in range(12)]
    for seats, seed in ((3, 1), (3, 2)):
        game, report = play_game(
            Rules.preset("2003"), ["quick"] * seats, seed=seed, max_turns=600, board=str(out)
        )
        assert game.is_over and report.winner is not None
        assert game.territory_count[report.winner] == len(board)


def test_domination_cards_give_symbols_and_wilds_and_missions_are_left_out(tmp_path: Path) -> None:
    source = grid_files(tmp_path)["domination"]
    result = import_board(source)
    cards = [t["card"] for t in result.board["territories"]]
    assert cards == [("artillery", "infantry", "cavalry")[t % 3] for t in range(12)]  # Cannon is artillery
    assert result.board["deck"] == {"wilds": 3, "symbols": "listed"}
    assert result.board["title"] == "Grid Test"
    assert result.board["continents"][0]["colour"] == "#ff0000"
    assert result.board["size"] == [340 + 40, 230 + 40]  # the labels' extent and a margin
    assert any("2 missions in grid.cards left out" in note for note in result.notes)
    assert "missions" not in json.dumps(result.board)


def test_without_a_cards_file_symbols_go_in_turn_with_two_wilds(tmp_path: Path) -> None:
    source = write(tmp_path, "plain.map", domination_map(cards=None))
    result = import_board(source)
    assert [t["card"] for t in result.board["territories"]] == [
        ("infantry", "cavalry", "artillery")[t % 3] for t in range(12)
    ]
    assert result.board["deck"]["wilds"] == 2
    assert any("dealt in turn" in note for note in result.notes)
    # A crd the map names that is not there: said, and the same symbols.
    named = write(tmp_path, "named.map", domination_map(cards="missing.cards"))
    assert any("'missing.cards'" in note for note in import_board(named).notes)


def test_the_same_stem_cards_file_and_an_explicit_one_are_read(tmp_path: Path) -> None:
    write(tmp_path, "stem.map", domination_map(cards=None))
    write(tmp_path, "stem.cards", domination_cards())
    assert import_board(tmp_path / "stem.map").board["deck"]["wilds"] == 3
    other = write(tmp_path, "other.txt", "[cards]\nWildcard\nInfantry 1\n")
    result = import_board(tmp_path / "stem.map", cards=other)
    assert result.board["deck"]["wilds"] == 1 and result.board["territories"][0]["card"] == "infantry"


def test_lux_outlines_and_colours_carried_over(tmp_path: Path) -> None:
    result = import_board(grid_files(tmp_path)["lux"])
    first = result.board["territories"][0]
    assert first["outline"] == [[0, 0], [80, 0], [80, 60], [0, 60]]  # y flipped: Lux counts it upwards
    assert result.board["size"] == [500, HEIGHT]
    assert result.board["continents"][0]["colour"] == "#ff8000"
    assert any("starting scenario" in note for note in result.notes)


def test_the_format_is_told_from_the_content_whatever_the_name(tmp_path: Path) -> None:
    assert guess_format("x.txt", lux_board().encode()) == "lux"
    assert guess_format("x.luxb", conquerclub_map().encode()) == "conquerclub"
    assert guess_format("x.txt", domination_map().encode()) == "domination"
    assert guess_format("x.txt", b"\xef\xbb\xbf" + domination_map().encode()) == "domination"
    output = refused([write(tmp_path, "notes.txt", "hello\n")])
    assert "cannot tell the format" in output and "--format" in output
    output = refused([write(tmp_path, "x.xml", "<?xml version='1.0'?>\n<svg></svg>\n")])
    assert "<svg>" in output
    output = refused([write(tmp_path, "x.cards", domination_cards())])
    assert "import the .map file" in output
    # --format forces a reader: a Lux file read as Conquer Club says what its root is.
    output = refused([grid_files(tmp_path)["lux"], "--format", "conquerclub"])
    assert "<luxboard>" in output and "<map>" in output


def test_players_option_declares_up_to_ten_with_scaled_armies(tmp_path: Path) -> None:
    source = grid_files(tmp_path)["conquerclub"]
    result = runner.invoke(app, ["board", "import", source, "--players", "2-4"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == {"min": 2, "max": 4} and set(data["starting_armies"]) == {"3", "4"}
    assert "--players takes LOW-HIGH" in refused([source, "--players", "2-11"])
    assert "--format takes" in refused([source, "--format", "risk"])


def test_a_subprocess_import_error_is_one_line_without_traceback(tmp_path: Path) -> None:
    source = write(tmp_path, "bad.map", domination_map().replace("2 Upper_2 1", "2 Upper_2 one"))
    done = subprocess.run(
        [sys.executable, "-m", "risk", "board", "import", source], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    line = line_of(domination_map(), "2 Upper_2 1")
    assert done.stderr.strip().splitlines() == [
        f"risk: error: {source}:{line}: the continent of country 'Upper 2' must be a whole number, not 'one'"
    ]


# ---------------------------------------------------------------------------------------------
# Malformed files of each kind


@pytest.mark.parametrize(
    ("fmt", "upto", "message", "at_end"),
    [
        ("domination", "7 Mi", "a country line is 'number name continent x y', not '7 Mi'", True),
        ("domination", "12 Lower_4 3 340 230\n", "no [borders] section", False),
        ("lux", "<adjoining>1", "not well-formed XML", True),
        ("conquerclub", "<border>Upper 3", "not well-formed XML", True),
    ],
)
def test_a_truncated_file_is_refused_naming_the_line(
    tmp_path: Path, fmt: str, upto: str, message: str, at_end: bool
) -> None:
    text = {"domination": domination_map(), "lux": lux_board(), "conquerclub": conquerclub_map()}[fmt]
    truncated = text[: text.index(upto) + len(upto)]
    source = write(tmp_path, {"domination": "t.map", "lux": "t.luxb", "conquerclub": "t.xml"}[fmt], truncated)
    output = refused([source])
    assert message in output and len(output.strip().splitlines()) == 1
    if at_end:  # the line where the file stops
        assert f"{source}:{truncated.count(chr(10)) + 1}:" in output


def test_encodings_utf8_with_or_without_bom_else_say_which_line(tmp_path: Path) -> None:
    # Domination's own rule (Latin-1 unless a byte-order mark): test_domination_files_are_latin1_...
    text = domination_map().replace("Middle_2", "Médio_2")
    assert import_board(write(tmp_path, "b.map", b"\xef\xbb\xbf" + text.encode("utf-8"))).board["name"] == "b"
    latin = write(tmp_path, "l.map", text.encode("latin-1"))
    assert import_board(latin, encoding="cp1252").board["territories"][5]["name"] == "Médio 2"
    assert "unknown encoding 'klingon'" in refused([latin, "--encoding", "klingon"])
    bad_utf8 = refused([latin, "--encoding", "utf-8"])
    assert f"{latin}:{line_of(text, 'Médio_2')}: not utf-8 text (byte 0xe9): is it utf-8?" in bad_utf8
    # XML follows its declaration; an undeclared Latin-1 byte is named by its line.
    lux = lux_board().replace("Middle 2", "Médio 2")
    declared = lux.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').encode("latin-1")
    assert import_board(write(tmp_path, "d.luxb", declared)).board["territories"][5]["name"] == "Médio 2"
    undeclared = write(tmp_path, "n.luxb", lux.encode("latin-1"))
    assert f"{undeclared}:{line_of(lux, 'Médio 2')}: not UTF-8 text" in refused([undeclared])
    utf16 = write(
        tmp_path, "w.xml", conquerclub_map().replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16")
    )
    assert len(import_board(utf16).board["territories"]) == 12


def test_links_to_unknown_territories_name_the_line(tmp_path: Path) -> None:
    text = domination_map().replace("\n1 2 5\n", "\n1 2 5 99\n")
    source = write(tmp_path, "u.map", text)
    assert (
        f"{source}:{line_of(text, '1 2 5 99')}: country 99 does not exist: the map has countries 1 to 12"
        in refused([source])
    )

    lux = lux_board().replace("<adjoining>111,", "<adjoining>7,111,", 1)
    source = write(tmp_path, "u.luxb", lux)
    assert f"{source}:{line_of(lux, '<adjoining>7,')}: 'Upper 1' adjoins country id 7" in refused([source])

    cc = conquerclub_map().replace("<border>Upper 2</border>", "<border>Uper 2</border>", 1)
    source = write(tmp_path, "u.xml", cc)
    output = refused([source])
    assert f"{source}:{line_of(cc, 'Uper 2')}: 'Upper 1' borders 'Uper 2'" in output
    assert "did you mean 'Upper 2'?" in output

    cc = conquerclub_map().replace("<territory>Lower 4</territory>", "<territory>Nowhere</territory>")
    source = write(tmp_path, "c.xml", cc)
    assert f"{source}:{line_of(cc, 'Nowhere')}: continent 'Lower Land' holds 'Nowhere'" in refused([source])


def test_huge_and_empty_files_are_refused(tmp_path: Path) -> None:
    huge = write(tmp_path, "huge.map", domination_map() + ";" + "x" * MAX_IMPORT_BYTES + "\n")
    assert f"{huge}: too large: a file to import is at most 4 MB" in refused([huge])
    assert "is empty" in refused([write(tmp_path, "e.map", "  \n")])
    assert "no such file" in refused([str(tmp_path / "missing.map")])
    assert "is a folder" in refused([str(tmp_path)])


@pytest.mark.parametrize(
    "bomb",
    [
        # "Billion laughs": entities that expand to gigabytes.
        '<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n'
        '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">\n]>\n'
        "<luxboard><title>&lol3;</title></luxboard>\n",
        # An external entity: a file read from disk.
        '<!DOCTYPE map [\n<!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n<map><title>&secret;</title></map>\n',
        # No DOCTYPE at all, but an entity used: undefined, refused by the parser.
        "<map><title>&lol;</title></map>\n",
    ],
)
def test_xml_bombs_and_external_entities_are_refused(tmp_path: Path, bomb: str) -> None:
    source = write(tmp_path, "bomb.xml", '<?xml version="1.0"?>\n' + bomb)
    output = refused([source])
    assert f"{source}:2:" in output
    assert "DOCTYPE" in output or "undefined entity" in output
    assert "root:" not in output  # nothing of /etc/passwd


def test_deep_xml_is_refused(tmp_path: Path) -> None:
    source = write(tmp_path, "deep.xml", "<map>" + "<a>" * 100 + "</a>" * 100 + "</map>")
    assert "nested more than 32 deep" in refused([source])


@pytest.mark.parametrize(
    ("fmt", "old", "new", "message"),
    [
        (
            "domination",
            "Upper_Land 2 red",
            "Upper_Land two red",
            "the bonus of continent 'Upper Land' must be a whole number, not 'two'",
        ),
        ("domination", "1 Upper_1 1 40 30", "1 Upper_1 1 40 1e999", "the y of country 'Upper 1' is '1e999'"),
        ("domination", "1 Upper_1 1 40 30", "1 Upper_1 1 nan 30", "the x of country 'Upper 1' is 'nan'"),
        ("domination", "2 Upper_2 1", "7 Upper_2 1", "country number 7 out of order"),
        (
            "domination",
            "2 Upper_2 1",
            "2 Upper_2 9",
            "country 'Upper 2' is in continent 9, but the map has continents 1 to 3",
        ),
        (
            "lux",
            "<bonus>3</bonus>",
            "<bonus>3.5</bonus>",
            "the bonus of continent 'Middle Land' must be a whole number, not '3.5'",
        ),
        (
            "lux",
            "<width>500</width>",
            "<width>wide</width>",
            "the board's <width> must be a number, not 'wide'",
        ),
        ("lux", "<id>112</id>", "<id>x12</id>", "a country's <id> must be a whole number, not 'x12'"),
        ("lux", "<armylocation>40,370", "<armylocation>40;370", "the <armylocation> of 'Upper 1' is 'x,y'"),
        (
            "conquerclub",
            "<largex>40</largex>",
            "<largex>4O</largex>",
            "the x of 'Upper 1' must be a number, not '4O'",
        ),
        (
            "conquerclub",
            "<bonus>1</bonus>",
            "<bonus>+-1</bonus>",
            "the bonus of continent 'Lower Land' must be a whole number",
        ),
    ],
)
def test_bad_numbers_name_the_line(tmp_path: Path, fmt: str, old: str, new: str, message: str) -> None:
    text = {"domination": domination_map(), "lux": lux_board(), "conquerclub": conquerclub_map()}[
        fmt
    ].replace(old, new, 1)
    source = write(tmp_path, {"domination": "n.map", "lux": "n.luxb", "conquerclub": "n.xml"}[fmt], text)
    output = refused([source])
    assert f"risk: error: {source}:{line_of(text, new)}: {message}" in output
    assert len(output.strip().splitlines()) == 1


def test_one_way_links_are_refused_or_left_out_on_request(tmp_path: Path) -> None:
    text = domination_map().replace("\n2 1 3 6\n", "\n2 3 6\n")  # 1 lists 2; 2 no longer lists 1
    source = write(tmp_path, "o.map", text)
    output = refused([source])
    assert f"{source}:{line_of(text, '1 2 5')}: a one-way link from 'Upper 1' to 'Upper 2'" in output
    assert "every link can be crossed both ways" in output
    result = runner.invoke(app, ["board", "import", source, "--skip-unsupported"])
    assert result.exit_code == 0, result.output
    assert "left out a one-way link from 'Upper 1' to 'Upper 2'" in result.output
    assert ["Upper 1", "Upper 2"] not in json.loads(result.stdout)["links"]


@pytest.mark.parametrize(
    ("where", "extra", "feature"),
    [
        ("territory", "<bombardments><bombardment>Lower 4</bombardment></bombardments>", "bombardments"),
        ("territory", '<neutral killer="yes">3</neutral>', "a killer neutral"),
        ("territory", "<neutral>3</neutral>", "a neutral start"),
        ("territory", "<bonus>-1</bonus>", "an autodeploy or decay bonus"),
        ("continent", "<required><territory>Upper 1</territory></required>", "required territories"),
        (
            "map",
            "<positions><position><territory>Upper 1</territory></position></positions>",
            "starting positions",
        ),
        ("map", "<objective><name>X</name></objective>", "an objective"),
        ("map", "<minreinforcement>4</minreinforcement>", "a minimum reinforcement of 4"),
    ],
)
def test_conquer_club_features_our_rules_lack_are_refused_by_line(
    tmp_path: Path, where: str, extra: str, feature: str
) -> None:
    text = conquerclub_map(**{f"{where}_extra": extra})
    source = write(tmp_path, "f.xml", text)
    output = refused([source])
    assert f"{source}:{line_of(text, extra.split('>')[0] + '>')}: " in output and feature in output
    assert "--skip-unsupported" in output
    skipped = import_board(source, skip_unsupported=True)
    assert board_problems(skipped.board) == [] and any(feature in note for note in skipped.notes)


def test_conquer_club_continent_features(tmp_path: Path) -> None:
    # A negative bonus, a continent of continents, overlapping continents: each by line.
    text = conquerclub_map().replace("<bonus>1</bonus>", "<bonus>-2</bonus>")
    text = text.replace(
        "</map>",
        "<continent><name>World</name><bonus>5</bonus><components><continent>Upper Land</continent>"
        "</components></continent>\n<continent><name>Corner</name><bonus>1</bonus><components>"
        "<territory>Upper 1</territory></components></continent>\n</map>",
    )
    source = write(tmp_path, "c.xml", text)
    output = refused([source])
    assert f"{source}:{line_of(text, '<bonus>-2')}: continent 'Lower Land': a negative bonus (-2)" in output
    assert f"{source}:{line_of(text, 'World')}: continent 'World' is made of continents" in output
    assert (
        f"{source}:{line_of(text, 'Corner')}: overlapping continents: 'Upper 1' is in 'Upper Land'" in output
    )
    assert "cannot be imported as a board: 3 problems" in output


def test_territories_in_no_continent_go_to_one_of_bonus_zero(tmp_path: Path) -> None:
    cc = (
        conquerclub_map()
        .replace("<territory>Lower 3</territory>", "")
        .replace("<territory>Lower 4</territory>", "")
    )
    result = import_board(write(tmp_path, "a.xml", cc))
    assert result.board["continents"][-1] == {"name": "Other territories", "bonus": 0}
    assert [t["continent"] for t in result.board["territories"][-2:]] == ["Other territories"] * 2
    text = domination_map().replace("12 Lower_4 3", "12 Lower_4 0")
    assert (
        import_board(write(tmp_path, "a.map", text)).board["territories"][-1]["continent"]
        == "Other territories"
    )


def test_what_the_validator_refuses_names_the_line_of_the_source(tmp_path: Path) -> None:
    # A name twice (as players type it), and a board in two pieces.
    text = domination_map().replace("4 Upper_4 1", "4 upper_1 1")
    source = write(tmp_path, "v.map", text)
    output = refused([source])
    assert f"{source}:{line_of(text, '4 upper_1 1')}: territories[3] ('upper 1').name:" in output
    pieces = "\n".join(
        line for line in domination_map().splitlines() if line not in ("1 2 5", "2 1 3 6", "3 2 4 7", "4 3 8")
    )
    pieces = pieces.replace("\n5 1 6 9\n", "\n5 6 9\n").replace("\n6 2 5 7 10\n", "\n6 5 7 10\n")
    pieces = pieces.replace("\n7 3 6 8 11\n", "\n7 6 8 11\n").replace("\n8 4 7 12\n", "\n8 7 12\n")
    assert "the board is not connected" in refused([write(tmp_path, "p.map", pieces + "\n")])


def test_a_conquest_map_read_as_domination_is_named_not_misread(tmp_path: Path) -> None:
    source = write(tmp_path, "c.map", "[Map]\nimage=world.bmp\n\n[Territories]\nA,1,2,X,B\n")
    assert "a Conquest map" in refused([source, "--format", "domination"])


def test_import_errors_keep_every_problem(tmp_path: Path) -> None:
    text = conquerclub_map(territory_extra="<neutral>3</neutral>", map_extra="<positions></positions>")
    with pytest.raises(BoardImportError) as caught:
        import_board(write(tmp_path, "k.xml", text))
    assert len(caught.value.problems) == 2 and "(and 1 more)" in str(caught.value)


@pytest.mark.parametrize(
    ("declared", "message"),
    [
        ("UTF-x", "the file declares the encoding 'UTF-x', which is not one we know"),
        ("Shift_JIS", "cannot read the file's encoding: multi-byte encodings are not supported"),
    ],
)
def test_an_xml_encoding_we_cannot_read_is_named(tmp_path: Path, declared: str, message: str) -> None:
    source = write(tmp_path, "e.xml", conquerclub_map().replace('encoding="UTF-8"', f'encoding="{declared}"'))
    assert f"risk: error: {source}:1: {message}" in refused([source])


@pytest.mark.parametrize("fmt", ["domination", "conquest", "lux", "conquerclub"])
def test_damaged_files_give_an_import_error_never_another_exception(tmp_path: Path, fmt: str) -> None:
    """Every cut of the file (every 17th byte) and 150 random damages of a few bytes each: each
    import ends in a valid board or a BoardImportError of one line per problem."""
    text = {
        "domination": domination_map(cards=None),
        "conquest": conquest_map(),
        "lux": lux_board(),
        "conquerclub": conquerclub_map(),
    }[fmt]
    raw = text.encode()
    rng = random.Random(fmt)
    cases = [raw[:i] for i in range(1, len(raw), 17)]
    for _ in range(150):
        damaged = bytearray(raw)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(len(damaged))] = rng.choice(b"0123456789<>/,; \n_-x\xe9\x00[]&")
        cases.append(bytes(damaged))
    path = (
        tmp_path / {"domination": "d.map", "conquest": "c.map", "lux": "d.luxb", "conquerclub": "d.xml"}[fmt]
    )
    imported = 0
    for case in cases:
        path.write_bytes(case)
        try:
            board = import_board(path).board
        except BoardImportError as error:
            assert all("\n" not in str(problem) for problem in error.problems)
            continue
        assert board_problems(board) == []
        imported += 1
    assert 0 < imported < len(cases)


# ---------------------------------------------------------------------------------------------
# Real files (issue 36): encodings, Conquest maps, Lux's duplicates, what is not a file


def plays_to_the_end(board_data: dict[str, object], folder: Path, name: str) -> None:
    """The board validates (library and command) and quick bots play it to the end."""
    assert board_problems(board_data) == []
    out = folder / f"{name}.json"
    out.write_text(json.dumps(board_data), encoding="utf-8")
    assert runner.invoke(app, ["board", "validate", str(out)]).exit_code == 0
    game, report = play_game(Rules.preset("2003"), ["quick"] * 3, seed=1, max_turns=600, board=str(out))
    assert game.is_over and report.winner is not None
    assert game.territory_count[report.winner] == len(board_data["territories"])  # type: ignore[arg-type]


def test_domination_files_are_latin1_unless_they_start_with_a_utf8_bom(tmp_path: Path) -> None:
    """As Domination reads them: ISO-8859-1, or UTF-8 after a byte-order mark; --encoding overrides."""
    text = (
        domination_map()
        .replace("Middle_2", "Médio_2")
        .replace("[continents]", "[prv]\n; prévu\n\n[continents]")
    )
    cards = domination_cards().replace("[missions]", "[missions]\n0 0 9 1 0 0 0 Conquérir 9")
    write(tmp_path, "grid.cards", cards.encode("latin-1"))
    latin = write(tmp_path, "grid.map", text.encode("latin-1"))
    result = runner.invoke(app, ["board", "import", latin])
    assert result.exit_code == 0, result.output
    board_data = json.loads(result.stdout)
    assert board_data["territories"][5]["name"] == "Médio 2" and board_data["deck"]["wilds"] == 3
    plays_to_the_end(board_data, tmp_path, "latin")
    with_bom = write(tmp_path, "bom.map", b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert import_board(with_bom).board["territories"][5]["name"] == "Médio 2"
    # UTF-8 without the mark is read as Domination reads it (Latin-1), unless --encoding says so.
    plain = write(tmp_path, "plain.map", domination_map(cards=None).replace("Middle_2", "Médio_2").encode())
    assert import_board(plain).board["territories"][5]["name"] == "MÃ©dio 2"
    assert import_board(plain, encoding="utf-8").board["territories"][5]["name"] == "Médio 2"


@pytest.mark.parametrize("codec", ["rot13", "base64", "hex", "zlib_codec"])
def test_an_encoding_that_is_not_a_text_encoding_is_one_line(tmp_path: Path, codec: str) -> None:
    for source in grid_files(tmp_path).values():
        output = refused([source, "--encoding", codec])
        assert f"{codec!r} is not a text encoding" in output and len(output.strip().splitlines()) == 1


def test_what_is_not_a_regular_file_is_refused_without_waiting(tmp_path: Path) -> None:
    """A FIFO as the file or as --cards: refused at once (opening one waits for a writer)."""
    fifo = tmp_path / "pipe.map"
    os.mkfifo(fifo)
    source = grid_files(tmp_path)["domination"]
    for args in (
        ["board", "import", str(fifo)],
        ["board", "import", source, "--cards", str(fifo)],
        ["board", "validate", str(fifo)],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "risk", *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2, done.stderr
        assert "not a regular file" in done.stderr and "Traceback" not in done.stderr
        if args[1] == "import":  # validate lists the problems, then counts them
            assert len(done.stderr.strip().splitlines()) == 1


def test_a_cards_file_outside_the_maps_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "maps"
    folder.mkdir()
    write(tmp_path, "x.cards", "[cards]\nWildcard\n")
    secret = write(tmp_path, "secret.txt", "[cards]\nroot:x:0:0\n")
    for named in ("../x.cards", secret):
        text = domination_map(cards=named)
        source = write(folder, "m.map", text)
        output = refused([source])
        assert f"{source}:{line_of(text, 'crd ')}: the cards file {named!r}" in output
        assert "outside the map's folder" in output and "root:" not in output
    # --cards names a file anywhere: the user's own choice.
    assert import_board(source, cards=tmp_path / "x.cards").board["deck"]["wilds"] == 1


def test_a_control_character_in_a_name_is_refused(tmp_path: Path) -> None:
    text = domination_map(cards=None).replace("Middle_2", "Mid\x00dle_2")
    source = write(tmp_path, "nul.map", text)
    output = refused([source])
    line = line_of(text, "Mid\x00dle_2")
    assert f"{source}:{line}: " in output and "control character (U+0000)" in output
    assert len(output.strip().splitlines()) == 1  # the name still names it: no link is lost
    board_file = tmp_path / "nul.json"
    data = import_board(grid_files(tmp_path)["lux"]).board
    data["territories"][5]["name"] = "Mid\x00dle 2"
    board_file.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["board", "validate", str(board_file)])
    assert result.exit_code == 2 and "control character" in result.output


def test_too_many_links_is_said_without_a_false_not_connected(tmp_path: Path) -> None:
    count = 201  # every pair linked: 20,100 links, over the 20,000 a board may have
    lines = ["[continents]", "All 5 red", "[countries]"]
    lines += [f"{t} T{t} 1 {t} {t}" for t in range(1, count + 1)]
    lines += ["[borders]"] + [
        " ".join(str(n) for n in [t, *range(1, t), *range(t + 1, count + 1)]) for t in range(1, count + 1)
    ]
    source = write(tmp_path, "dense.map", "\n".join(lines) + "\n")
    output = refused([source, "--players", "2-10"])
    assert "20100 links: a board has at most 20000" in output
    assert "not connected" not in output


LUX_UPPER_1, LUX_LOWER_4 = 112, 101  # lux_board()'s ids: 100 + 12 - position


def test_lux_duplicate_names_are_made_unique_and_links_follow_ids(tmp_path: Path) -> None:
    text = lux_board().replace("<name>Middle 2</name>", "<name>Upper 1</name>")
    text = text.replace("<name>Lower 3</name>", "<name>UPPER-1</name>")
    result = import_board(write(tmp_path, "dup.luxb", text))
    names = [t["name"] for t in result.board["territories"]]
    assert names[0] == "Upper 1" and names[5] == "Upper 1 (2)" and names[10] == "UPPER-1 (3)"
    assert any("'Upper 1' twice" in note or "names twice" in note for note in result.notes)
    links = {tuple(sorted(link["between"])) for link in result.board["links"]}
    expected_names = [*NAMES]
    expected_names[5], expected_names[10] = "Upper 1 (2)", "UPPER-1 (3)"
    assert links == {tuple(sorted((expected_names[a], expected_names[b]))) for a, b in PAIRS}
    plays_to_the_end(result.board, tmp_path, "dup")


def test_lux_self_links_and_repeated_ids_are_refused_once_or_left_out(tmp_path: Path) -> None:
    own = f"<adjoining>{LUX_UPPER_1},{LUX_UPPER_1},111,111,"  # itself twice, a neighbour twice
    text = lux_board().replace("<adjoining>111,", own, 1)
    # Lower 4 lists Upper 1 twice, which does not list it back: one one-way link.
    text = text.replace("<adjoining>105,102<", f"<adjoining>{LUX_UPPER_1},{LUX_UPPER_1},105,102<", 1)
    source = write(tmp_path, "self.luxb", text)
    output = refused([source])
    assert output.count("'Upper 1' is linked to itself") == 1
    assert output.count("a one-way link from 'Lower 4' to 'Upper 1'") == 1
    result = runner.invoke(app, ["board", "import", source, "--skip-unsupported"])
    assert result.exit_code == 0, result.output
    assert result.output.count("left out a link from 'Upper 1' to itself") == 1
    assert "'Upper 1' lists 'Upper 2' twice" in result.output
    board_data = json.loads(result.stdout)
    plays_to_the_end(board_data, tmp_path, "self")


def conquest_map(header: bool = True) -> str:
    """A Conquest map: [Map], [Continents] Name=bonus, [Territories] Name,x,y,Continent,Neighbours."""
    lines = ["[Map]", "author=Tester", "image=grid.bmp", "wrap=no", "scroll=horizontal", "warn=yes", ""]
    lines = lines if header else []
    lines += ["[Continents]", *[f"{name}={bonus}" for name, bonus in CONTINENTS], "", "[Territories]"]
    for c, (continent, _) in enumerate(CONTINENTS):
        for t in range(c * COLUMNS, (c + 1) * COLUMNS):
            x, y = point(t)
            lines.append(",".join([NAMES[t], str(x), str(y), continent, *(NAMES[n] for n in neighbours(t))]))
        lines.append("")
    return "\n".join(lines)


@pytest.mark.parametrize("header", [True, False])
def test_conquest_maps_import_with_or_without_their_map_section(tmp_path: Path, header: bool) -> None:
    text = conquest_map(header)
    source = write(tmp_path, "grid.map", text)
    assert guess_format(source, text.encode()) == "conquest"
    out = tmp_path / "conquest.json"
    result = runner.invoke(app, ["board", "import", source, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert (
        "imported conquest board 'grid': 12 territories, 3 continents, 17 links, players 2-3" in result.output
    )
    data = json.loads(out.read_text(encoding="utf-8"))
    board = Board(data)
    assert [t.name for t in board.territories] == NAMES
    assert [(c.name, c.bonus) for c in board.continents] == CONTINENTS
    assert [t.label for t in board.territories] == [tuple(float(v) for v in point(t)) for t in range(12)]
    assert data["size"] == [340 + 40, 230 + 40]
    plays_to_the_end(data, tmp_path, "conquest")


def test_conquest_map_problems_name_the_line(tmp_path: Path) -> None:
    cases = [
        (
            "Upper 1,40,30,Upper Land,Upper 2",
            "Upper 1,40,30,Upper Land,Uper 2",
            "'Upper 1' borders 'Uper 2', which is not a territory of the map (did you mean 'Upper 2'?)",
        ),
        ("Upper 1,40,30,Upper Land", "Upper 1,40,30,Uper Land", "'Upper 1' is in the continent 'Uper Land'"),
        ("Upper 1,40,30", "Upper 1,4O,30", "the x of 'Upper 1' must be a number, not '4O'"),
        ("Upper Land=2", "Upper Land=two", "the bonus of continent 'Upper Land' must be a whole number"),
        (
            "Upper 1,40,30,Upper Land,Upper 2,Middle 1",
            "Upper 1,40",
            "a territory line is 'name,x,y,continent,neighbour,...'",
        ),
    ]
    for old, new, message in cases:
        text = conquest_map().replace(old, new, 1)
        source = write(tmp_path, "bad.map", text)
        output = refused([source])
        assert f"{source}:{line_of(text, new)}: {message}" in output, output
    # A one-way link (Conquest allows them with warn=no): refused, or left out on request.
    text = conquest_map().replace("Upper 2,140,30,Upper Land,Upper 1,", "Upper 2,140,30,Upper Land,", 1)
    source = write(tmp_path, "oneway.map", text)
    assert "a one-way link from 'Upper 1' to 'Upper 2'" in refused([source])
    assert import_board(source, skip_unsupported=True).board["links"]


def test_generate_makes_boards_as_large_as_the_validator_accepts(tmp_path: Path) -> None:
    out = tmp_path / "big.json"
    result = runner.invoke(
        app, ["board", "generate", "-t", "1000", "-c", "2", "--shape", "chain", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert runner.invoke(app, ["board", "validate", str(out)]).exit_code == 0
    output = runner.invoke(app, ["board", "generate", "-t", "1001"]).output
    assert "1001 territories" in output and "1000" in output and len(output.strip().splitlines()) == 1
