"""The board format (docs/boards.md): the validator, its JSON Schema, `risk board`, and games of more
than 6 players on a board that declares them."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from risk.cli.main import app
from risk.errors import RulesError
from risk.maps import Board, MapError, load_map
from risk.maps.validate import MAX_BOARD_BYTES, board_problems
from risk.play.simulate import play_game
from risk.rules.game import Game
from risk.rules.missions import COLOURS, destroy_mission, mission_deck
from risk.rules.options import GAMES, MOST_PLAYERS, PRESETS, Rules
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.storage import MemoryStorage
from risk.view import View

runner = CliRunner()
SCHEMA = json.loads(resources.files("risk.maps").joinpath("schema", "board.schema.json").read_text("utf-8"))
CLASSIC = json.loads(resources.files("risk.maps").joinpath("classic.json").read_text("utf-8"))


def eight_player_board() -> dict[str, Any]:
    """A small board for up to 8 players: 4 continents of 6 territories, each a ring, the rings
    joined in a ring; starting armies for 3 to 8 players."""
    continents = ["North", "East", "South", "West"]
    territories, links = [], []
    for c, continent in enumerate(continents):
        names = [f"{continent} {k + 1}" for k in range(6)]
        territories += [
            {"name": name, "continent": continent, "card": ("infantry", "cavalry", "artillery")[k % 3]}
            for k, name in enumerate(names)
        ]
        links += [{"between": [names[k], names[(k + 1) % 6]]} for k in range(6)]
        links.append({"between": [names[0], f"{continents[(c + 1) % 4]} 4"], "by": "sea"})
    return {
        "format": 1,
        "name": "octagon",
        "title": "A test board for 8 players",
        "players": {"min": 2, "max": 8},
        "starting_armies": {"3": 24, "4": 20, "5": 17, "6": 15, "7": 13, "8": 12},
        "deck": {"wilds": 2, "symbols": "listed"},
        "continents": [{"name": c, "bonus": 3, "colour": "#336699"} for c in continents],
        "territories": territories,
        "links": links,
    }


def write(tmp_path: Path, data: Any, name: str = "board.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def messages(data: Any) -> list[str]:
    return [str(p) for p in board_problems(data)]


# -- the shipped board, and the schema ----------------------------------------------------------------
def test_the_classic_board_is_valid_by_the_schema_and_the_validator() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(CLASSIC)
    assert board_problems(CLASSIC) == []
    classic = load_map("classic")
    assert classic.players == (2, 6)
    assert classic.starting_armies == ((3, 35), (4, 30), (5, 25), (6, 20))
    assert len(classic.wild_cards) == 2 and classic.drawing == "classic"


def test_the_test_board_is_valid() -> None:
    data = eight_player_board()
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert messages(data) == []
    board = Board(data)
    assert len(board) == 24 and board.players == (2, 8) and board.continents[0].colour == "#336699"


def with_an_isle() -> dict[str, Any]:
    """The 8-player board with an island: a territory linked to the others by sea only."""
    data = eight_player_board()
    data["territories"].append({"name": "Isle", "continent": "North", "card": "infantry"})
    data["links"] += [
        {"between": ["Isle", "North 3"], "by": "sea"},
        {"between": ["East 2", "Isle"], "by": "sea"},
    ]
    return data


def test_a_board_shown_as_json_is_a_board_file_that_loads_back_the_same() -> None:
    board = Board(with_an_isle())
    shown = board.to_json()
    jsonschema.Draft202012Validator(SCHEMA).validate(shown)
    assert messages(shown) == []
    again = Board(shown)
    assert again.to_json() == shown
    assert again.islands == board.islands == {board.territory("Isle")}
    assert again.neighbours == board.neighbours and again.link_kinds == board.link_kinds
    assert again.starting_armies == board.starting_armies and again.continents == board.continents
    isle = shown["territories"][-1]
    assert isle["slug"] == "isle" and isle["island"] is True and isle["neighbours"] == ["North 3", "East 2"]
    assert {"between": ["North 3", "Isle"], "by": "sea"} in shown["links"]


def test_a_neighbour_list_beside_a_sea_link_keeps_the_link_by_sea() -> None:
    data = with_an_isle()
    data["territories"][-1]["neighbours"] = ["North 3"]
    data["territories"][2]["neighbours"] = ["Isle"]  # North 3
    assert messages(data) == []
    board = Board(data)
    assert board.islands == {board.territory("Isle")}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("slug", "north-one", "the slug of 'North 1' is 'north-1', not \"north-one\""),
        ("slug", 3, "the slug of 'North 1' is 'north-1', not 3"),
        ("island", True, "island is true, but the territory has a border link: write false"),
        ("island", "no", "island must be true or false, not text"),
    ],
)
def test_a_shown_field_that_disagrees_with_the_board_is_a_problem(
    field: str, value: Any, message: str
) -> None:
    data = changed(f"territories.0.{field}", value)
    problems = board_problems(data)
    assert [(p.where, p.message.split(": fix")[0].split(", or remove")[0]) for p in problems] == [
        (f"territories[0] ('North 1').{field}", message)
    ]
    isle = with_an_isle()
    isle["territories"][-1]["island"] = False
    assert messages(isle) == [
        "territories[24] ('Isle').island: island is false, but the territory is linked by sea only: "
        "write true, or remove it (it is made from the links)"
    ]


def changed(path: str, value: Any) -> dict[str, Any]:
    """The 8-player board with one field set (``path`` like ``territories.0.card``; ``None`` deletes)."""
    data = eight_player_board()
    *parents, last = path.split(".")
    node: Any = data
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if value is None:
        del node[key]
    else:
        node[key] = value
    return data


# Boards both the schema and the validator refuse: (change, where the validator says it is, what it says).
SHAPE_ERRORS = [
    ("name", None, "name", "the board has no name"),
    ("name", 7, "name", "must be text"),
    ("name", "x" * 61, "name", "at most 60"),
    ("neighbors", ["x"], "$.neighbors", "unknown field"),
    ("continents.0.bonus", 101, "continents[0] ('North').bonus", "from 0 to 100"),
    ("continents.0.bonus", -1, "continents[0] ('North').bonus", "from 0 to 100"),
    ("continents.0.bonus", "two", "continents[0] ('North').bonus", "whole number"),
    ("continents.0.bonus", True, "continents[0] ('North').bonus", "whole number"),
    ("continents.0.colour", "blue", "continents[0] ('North').colour", "#rrggbb"),
    ("territories.0.card", "tank", "territories[0] ('North 1').card", "not one of infantry"),
    ("territories.0.continent", None, "territories[0] ('North 1')", "names no continent"),
    ("territories.0.label", [1], "territories[0] ('North 1').label", "point [x, y]"),
    ("territories.0.label", [10**400, 1], "territories[0] ('North 1').label", "beyond ±1,000,000"),
    ("territories.0.outline", [[0, 0], [1, 1]], "territories[0] ('North 1').outline", "3 to 1000 points"),
    ("territories.0.aliases", ["a"] * 11, "territories[0] ('North 1').aliases", "at most 10"),
    ("links.0.by", "tunnel", "links[0].by", 'border" or "sea'),
    ("links.0", {"from": "North 1", "to": "North 2"}, "links[0]", "one-way links are not allowed"),
    ("players.max", 11, "players.max", "from 2 to 10"),
    ("players.min", 1, "players.min", "from 2 to 10"),
    ("players", None, "starting_armies", 'needs "players"'),
    ("starting_armies.2", 30, "starting_armies['2']", "not a player count of this board"),
    ("starting_armies.8", 0, "starting_armies['8']", "from 1 to 1000"),
    ("deck.wilds", 101, "deck.wilds", "from 0 to 100"),
    ("territories.0.island", "no", "territories[0] ('North 1').island", "true or false"),
    ("deck.symbols", "random", "deck.symbols", "the deck rule must be"),
    ("format", 2, "format", "from 1 to 1"),
    ("territories", [], "territories", "at least 2 territories"),
    ("continents", "North", "continents", "must be a list"),
]


@pytest.mark.parametrize(("path", "value", "where", "message"), SHAPE_ERRORS)
def test_the_schema_and_the_validator_refuse_the_same_malformed_boards(
    path: str, value: Any, where: str, message: str
) -> None:
    data = changed(path, value)
    assert not jsonschema.Draft202012Validator(SCHEMA).is_valid(data)
    problems = board_problems(data)
    assert any(p.where == where and message in p.message for p in problems), [str(p) for p in problems]


# What a schema cannot say, the validator checks: (change to the board, where, what it says).
def _one_way(data: dict[str, Any]) -> None:
    data["territories"][0]["neighbours"] = ["South 3"]


def _two_way(data: dict[str, Any]) -> None:
    data["territories"][0]["neighbours"] = ["South 3"]
    data["territories"][14]["neighbours"] = ["North 1"]


def _cut(data: dict[str, Any]) -> None:
    data["links"] = [link for link in data["links"] if "West 1" not in link["between"]]


def _same_name(data: dict[str, Any]) -> None:
    data["territories"][1]["name"] = "north-1"  # the same as "North 1" once normalised


def _alias_of_another(data: dict[str, Any]) -> None:
    data["territories"][2]["aliases"] = ["NORTH 1"]


def _no_card(data: dict[str, Any]) -> None:
    del data["territories"][3]["card"]


def _empty_continent(data: dict[str, Any]) -> None:
    data["continents"].append({"name": "Atlantis", "bonus": 2})


def _wrong_list(data: dict[str, Any]) -> None:
    data["continents"][0]["territories"] = ["North 1", "East 1"]


def _few_armies(data: dict[str, Any]) -> None:
    data["starting_armies"]["8"] = 2


def _missing_count(data: dict[str, Any]) -> None:
    del data["starting_armies"]["7"]


def _duplicate_link(data: dict[str, Any]) -> None:
    data["links"].append({"between": ["North 2", "North 1"]})


def _self_link(data: dict[str, Any]) -> None:
    data["links"].append({"between": ["North 2", "North 2"]})


def _unknown_end(data: dict[str, Any]) -> None:
    data["links"].append({"between": ["North 2", "Nort 3"]})


def _wild_name(data: dict[str, Any]) -> None:
    data["territories"][5]["name"] = "Wild 2"
    data["links"] = [
        {**link, "between": ["Wild 2" if n == "North 6" else n for n in link["between"]]}
        for link in data["links"]
    ]


def _continent_spelling(data: dict[str, Any]) -> None:
    data["territories"][0]["continent"] = "north"


def _min_above_max(data: dict[str, Any]) -> None:
    data["players"] = {"min": 6, "max": 4}


SEMANTIC_ERRORS = [
    (
        _one_way,
        "territories[0] ('North 1').neighbours",
        "lists 'South 3', but 'South 3' does not list 'North 1'",
    ),
    (_cut, "links", "the board is not connected: 'West 1' cannot be reached from 'North 1'"),
    (_same_name, "territories[1] ('north-1').name", "has the name of territory 'North 1'"),
    (
        _alias_of_another,
        "territories[2] ('North 3').aliases[0]",
        "also the name or an alias of territory 'North 1'",
    ),
    (_no_card, "territories[3] ('North 4')", "the territory has no card"),
    (_empty_continent, "continents[4] ('Atlantis')", "has no territories"),
    (
        _wrong_list,
        "continents[0] ('North').territories",
        "lists 'East 1', which is not a territory of 'North'",
    ),
    (_wrong_list, "continents[0] ('North').territories", "does not list 'North 2'"),
    (_few_armies, "starting_armies['8']", "cannot hold 24 territories (one army each): give at least 3"),
    (_missing_count, "starting_armies", "no starting armies for 7 players"),
    (_duplicate_link, "links[28]", "listed twice"),
    (_self_link, "links[28].between", "linked to itself"),
    (_unknown_end, "links[28].between", "no territory called 'Nort 3' (did you mean 'North 3'?)"),
    (_wild_name, "territories[5] ('Wild 2').name", "how wild cards are named"),
    (_continent_spelling, "territories[0] ('North 1').continent", "write it as 'North'"),
    (_min_above_max, "players", "min 6 is more than max 4"),
]


@pytest.mark.parametrize(("change", "where", "message"), SEMANTIC_ERRORS)
def test_each_error_names_where_it_is_and_what_to_fix(change: Any, where: str, message: str) -> None:
    data = eight_player_board()
    change(data)
    problems = board_problems(data)
    assert any(p.where == where and message in p.message for p in problems), [str(p) for p in problems]
    with pytest.raises(MapError, match="not a board"):  # the loader refuses what the validator refuses
        Board(data)


def test_a_two_way_neighbour_list_is_a_link() -> None:
    data = eight_player_board()
    _two_way(data)
    assert messages(data) == []
    board = Board(data)
    assert board.territory("South 3") in board.adjacent[0]
    assert 0 not in board.islands  # a neighbour list is a border, not a sea line


def test_every_problem_is_reported_not_only_the_first() -> None:
    data = eight_player_board()
    _no_card(data)
    _cut(data)
    data["continents"][1]["bonus"] = 500
    data["players"]["max"] = 12
    found = messages(data)
    assert len(found) >= 4, found
    assert [m for m in found if "no card" in m] and [m for m in found if "not connected" in m]
    assert [m for m in found if "bonus" in m] and [m for m in found if "players.max" in m]


def test_a_deck_rule_stands_for_the_cards() -> None:
    data = eight_player_board()
    for row in data["territories"]:
        del row["card"]
    assert any("no card" in m for m in messages(data))
    data["deck"]["symbols"] = "in-turn"
    board = Board(data)
    assert board.card_symbols[:4] == (0, 1, 2, 0) and len(board.wild_cards) == 2


def test_the_legacy_wild_cards_field_still_loads() -> None:
    data = eight_player_board()
    del data["deck"]
    data["wild_cards"] = 3
    assert len(Board(data).wild_cards) == 3
    data["deck"] = {"wilds": 1}
    assert any("disagree" in m for m in messages(data))


def test_a_territory_may_start_with_wild() -> None:
    data = eight_player_board()
    data["territories"][5]["name"] = "Wildlands"
    data["links"] = [
        {**link, "between": ["Wildlands" if n == "North 6" else n for n in link["between"]]}
        for link in data["links"]
    ]
    board = Board(data)
    assert board.card("wildlands") == 5 and board.card("wild2") == 25


# -- risk board validate ------------------------------------------------------------------------------
def test_validate_a_valid_board_prints_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, eight_player_board())
    result = runner.invoke(app, ["board", "validate", path])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{path}: valid board 'octagon': 24 territories, 4 continents, 28 links, players 2-8"
    ]
    result = runner.invoke(app, ["board", "validate", path, "--json"])
    data = json.loads(result.stdout)
    assert (
        result.exit_code == 0 and data["valid"] is True and data["board"]["players"] == {"min": 2, "max": 8}
    )


def test_validate_lists_every_problem_and_exits_2(tmp_path: Path) -> None:
    data = eight_player_board()
    _no_card(data)
    _one_way(data)
    path = write(tmp_path, json.dumps(data, indent=1))
    result = runner.invoke(app, ["board", "validate", path])
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert lines[-1] == f"risk: error: {path} is not a valid board: 2 problems"
    text = Path(path).read_text().splitlines()
    at = text.index('   "neighbours": [') + 1  # the line of North 1's neighbours, counted from 1
    assert lines[0] == (
        f"{path}:{at}: territories[0] ('North 1').neighbours: lists 'South 3', but 'South 3' does not list "
        "'North 1': one-way links are not allowed: in our rules every link can be crossed both ways; add "
        "'North 1' to 'South 3''s neighbours, or remove it from these"
    )
    north_4 = text.index('   "name": "North 4",')  # the line of its object's "{", counted from 1
    no_card = f"{path}:{north_4}: territories[3] ('North 4'): the territory has no card: add"
    assert lines[1].startswith(no_card)
    assert len(lines) == 3
    result = runner.invoke(app, ["board", "validate", path, "--json"])
    answer = json.loads(result.stdout)
    assert result.exit_code == 2 and answer["valid"] is False and len(answer["problems"]) == 2
    assert answer["problems"][0]["line"] == at and answer["problems"][1]["line"] == north_4


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"name": "x",\n "continents": [', "line 2 column 17: not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8 text"),
        ("[1, 2, 3]", "a board file holds a JSON object with the board's fields, not a list"),
        ('{"name": "x", "name": "y"}', "the field 'name' appears twice"),
        ('{"name": NaN}', "NaN is not a number JSON allows"),
        ('{"name": 1' + "0" * 5000 + "}", "not valid JSON: Exceeds the limit"),
        ("[" * 100000 + "]" * 100000, "nested too deeply"),
        ('{"name": "x", "continents": 3, "territories": {"a": 1}, "links": "none"}', "must be a list"),
        ("", "is empty"),
    ],
)
def test_validate_never_shows_a_traceback(tmp_path: Path, content: str | bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["board", "validate", str(path)])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit | None)
    assert "Traceback" not in result.output and message in result.stderr, result.stderr
    assert result.stdout == ""


def test_validate_refuses_a_file_too_big_and_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    path.write_text(" " * (MAX_BOARD_BYTES + 1))
    result = runner.invoke(app, ["board", "validate", str(path)])
    assert result.exit_code == 2 and "too large: a board file is at most 1 MB" in result.stderr
    result = runner.invoke(app, ["board", "validate", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "no such file" in result.stderr


# -- risk board list, show, and risk map --------------------------------------------------------------
def test_board_list() -> None:
    result = runner.invoke(app, ["board", "list", "--json"])
    boards = {b["name"]: b for b in json.loads(result.stdout)["boards"]}
    assert result.exit_code == 0
    assert boards["classic"] | {} == {
        "name": "classic",
        "title": "The classic world map (42 territories, 6 continents)",
        "territories": 42,
        "continents": 6,
        "links": 83,
        "players": {"min": 2, "max": 6},
        "starting_armies": {"3": 35, "4": 30, "5": 25, "6": 20},
        "wild_cards": 2,
    }
    result = runner.invoke(app, ["board", "list"])
    assert result.exit_code == 0 and "classic" in result.stdout and "2-6" in result.stdout


def test_board_show_is_what_map_prints(tmp_path: Path) -> None:
    for args in (["classic"], ["classic", "--json"], [write(tmp_path, eight_player_board())]):
        shown = runner.invoke(app, ["board", "show", *args])
        mapped = runner.invoke(app, ["map", *args])
        assert shown.exit_code == mapped.exit_code == 0 and shown.stdout == mapped.stdout
    assert "North 1" in shown.stdout and "players 2-8" in shown.stdout
    bad = runner.invoke(app, ["board", "show", "atlantis"])
    assert bad.exit_code == 2 and bad.stderr.startswith("risk: error: no map called 'atlantis'")


def test_a_file_the_validator_refuses_is_refused_everywhere(tmp_path: Path) -> None:
    data = eight_player_board()
    _one_way(data)
    path = write(tmp_path, data)
    for args in (["map", path], ["simulate", "--map", path], ["board", "show", path]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "one-way links are not allowed" in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


# -- player counts and starting armies from the board -------------------------------------------------
def test_the_classic_board_keeps_the_rulebooks_figures() -> None:
    classic = load_map("classic")
    for name, rules in PRESETS.items():
        for game in ("world", "secret-mission", "capital", "two-player", "mission", "team"):
            try:
                ruleset = rules.for_game(game)
            except RulesError:
                continue  # not a game of this edition
            assert ruleset.player_range(classic) == ruleset.players, (name, game)
            low, high = ruleset.players
            for count in range(low, high + 1):
                assert ruleset.starting_armies_for(count, classic) == ruleset.starting_armies_for(count)
    with pytest.raises(RulesError, match="the classic board is for 2 to 6 players, not 7"):
        Rules.preset("1993").check_player_count(7, classic)
    with pytest.raises(RulesError, match="the 2008 rules are for 3 to 5 players, not 6"):
        Rules.preset("2008").check_player_count(6, classic)
    with pytest.raises(RulesError, match="use --game two-player"):
        Rules.preset("1993").check_player_count(2, classic)


def test_the_board_sets_the_player_counts_and_the_starting_armies(tmp_path: Path) -> None:
    board = Board(eight_player_board())
    rules = Rules.preset("1993")
    assert rules.player_range(board) == (3, 8)
    assert [rules.starting_armies_for(n, board) for n in range(3, 9)] == [24, 20, 17, 15, 13, 12]
    game = Game(rules, 8, seed=3, board=board)
    assert game.setup_armies == [12] * 8
    # The option set by hand wins over the board's table; the 2-player game keeps its own armies.
    assert rules.with_options(starting_armies="3:40,4:40").starting_armies_for(4, board) == 40
    assert Rules.preset("2003").for_game("two-player").starting_armies_for(2, board) == 36
    with pytest.raises(RulesError, match="the octagon board is for 2 to 8 players, not 9"):
        Game(rules, 9, seed=1, board=board)
    # Every edition plays the board's counts; a range set by hand narrower than the board's says so.
    assert Game(Rules.preset("2008"), 8, seed=1, board=board).humans == 8
    with pytest.raises(RulesError, match=r"2008 rules are for 3 to 5 players, not 8 .*-o players="):
        Game(Rules.preset("2008").with_options(players="3-5"), 8, seed=1, board=board)
    with pytest.raises(RulesError, match="Team RISK is for 4 or 6 players"):
        Game(Rules.preset("2003").for_game("team"), 8, seed=1, board=board)
    with pytest.raises(RulesError, match=r"players=.*bad value|allowed"):
        rules.with_options(players="3-11")


def test_the_mission_games_play_on_another_board_with_missions_made_from_it(tmp_path: Path) -> None:
    board = Board(eight_player_board())
    secret = Rules.preset("1993").for_game("secret-mission")
    assert secret.player_range(board) == (3, 8)  # a "destroy" mission for each colour in play
    for rules in (secret, Rules.preset("2003").for_game("mission")):
        # The missions name this board's continents (docs/rules.md, "Missions on other boards").
        assert Game(rules, 4, seed=1, board=board).humans == 4
    for rules in (Rules.preset("1993").for_game("capital"), Rules.preset("2003").for_game("team")):
        path = write(tmp_path, eight_player_board(), "octagon.json")
        game, report = play_game(rules, ["quick"] * 6, seed=2, max_turns=1000, board=path)
        assert game.is_over and report.winner is not None


def test_a_board_too_big_for_the_rules_armies_is_refused_with_why() -> None:
    data = eight_player_board()
    del data["players"], data["starting_armies"]  # the rules' table applies: 35 armies for 3 players
    names = [row["name"] for row in data["territories"]]
    for k in range(120):  # a long chain of extra territories
        data["territories"].append({"name": f"Far {k}", "continent": "West", "card": "infantry"})
        data["links"].append({"between": [names[-1] if k == 0 else f"Far {k - 1}", f"Far {k}"]})
    board = Board(data)
    with pytest.raises(RulesError, match="3 players with 35 starting armies each cannot claim the 144"):
        Game(Rules.preset("1993"), 3, seed=1, board=board)


def test_an_8_player_game_is_played_to_the_end(tmp_path: Path) -> None:
    path = write(tmp_path, eight_player_board(), "octagon.json")
    game, report = play_game(Rules.preset("1993"), ["quick"] * 8, seed=5, max_turns=2000, board=path)
    assert game.is_over and report.winner is not None
    assert len(game.players) == 8 and game.board.name == "octagon"
    assert game.territory_count[report.winner] == len(game.board)
    # The same from the command line, with its one-line errors for the counts the board refuses.
    result = runner.invoke(app, ["simulate", "--map", path, "-r", "1993", "-p", "8", "--json"])
    answer = json.loads(result.stdout)
    assert result.exit_code == 0 and answer["players"] == 8 and answer["unfinished"] == 0
    result = runner.invoke(app, ["simulate", "--map", path, "-r", "1993", "-p", "9"])
    assert result.exit_code == 2
    assert result.stderr == "risk: error: the octagon board is for 2 to 8 players, not 9\n"
    result = runner.invoke(app, ["simulate", "-r", "1993", "-p", "7"])
    assert result.exit_code == 2
    assert result.stderr == "risk: error: the classic board is for 2 to 6 players, not 7\n"


def test_the_server_refuses_a_game_the_board_cannot_support() -> None:
    master = GameMaster(MemoryStorage())
    spec = GameSpec(edition="1993", seats=[SeatSpec("bot", bot="quick")] * 7)
    with pytest.raises(Refusal, match="the classic board is for 2 to 6 players, not 7"):
        master.create_game(spec)


# The drawing's canvas and `risk board generate` (a generated board is a board like any other).


def test_a_generated_board_passes_the_schema_and_the_validator() -> None:
    from risk.maps.generate import generate_board

    data = generate_board(60, 6, 4, (2, 8))
    jsonschema.validate(data, SCHEMA)
    assert board_problems(data) == []
    board = Board(data)
    assert board.players == (2, 8)
    # Every count's armies can claim the board: one army on every territory at least.
    assert all(armies * count >= len(board) for count, armies in board.starting_armies)


@pytest.mark.parametrize("size", [[0, 100], [100, -5], "wide", [100], [1e7, 10]])
def test_a_bad_drawing_size_is_refused_by_both(size: Any) -> None:
    data = {**eight_player_board(), "size": size}
    assert [problem.where for problem in board_problems(data)] == ["size"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, SCHEMA)


def test_risk_board_generate_writes_a_valid_board(tmp_path: Path) -> None:
    out = tmp_path / "made.json"
    result = runner.invoke(app, ["board", "generate", "-t", "24", "-c", "3", "--seed", "7", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "24 territories, 3 continents" in result.output
    assert runner.invoke(app, ["board", "validate", str(out)]).exit_code == 0
    printed = runner.invoke(app, ["board", "generate", "-t", "24", "-c", "3", "--seed", "7"])
    assert json.loads(printed.stdout) == json.loads(out.read_text(encoding="utf-8"))  # same seed, same board


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["-t", "3"], "cannot generate a board of 3 territories"),
        (["-t", "10", "-c", "11"], "continents"),
        (["--players", "9"], "--players takes LOW-HIGH"),
        (["--players", "2-11"], "players"),
        (["--shape", "ring"], "shape"),
    ],
)
def test_risk_board_generate_refuses_what_no_board_can_meet(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, ["board", "generate", *arguments])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


def test_validate_a_file_that_cannot_be_read_says_so_in_one_line(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.json")
    result = runner.invoke(app, ["board", "validate", missing])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"risk: error: {missing}: no such file\n"
    answer = json.loads(runner.invoke(app, ["board", "validate", missing, "--json"]).stdout)
    assert answer["problems"][0]["message"] == f"{missing}: no such file"  # JSON: a problem like any other


# -- issue 36: every edition on a board's counts; Secret Mission and 2-player RISK on big boards -------
@pytest.fixture(scope="module")
def big_board() -> Board:
    """A generated board of 120 territories for 2 to 10 players (its starting armies: 3 to 10)."""
    from risk.maps.generate import generate_board

    return Board(generate_board(120, 8, 1, (2, 10)))


def test_every_edition_plays_the_player_counts_a_board_declares() -> None:
    pangaea = load_map("pangaea")
    for edition in PRESETS:
        assert Rules.preset(edition).player_range(pangaea) == (3, 10), edition
        for game in ("capital", "mission"):
            if edition in GAMES[game]:
                assert Rules.preset(edition).for_game(game).player_range(pangaea) == (3, 10), edition
        Rules.preset(edition).check_player_count(8, pangaea)
    assert Game(Rules.preset("2008"), 8, seed=1, board=pangaea).setup_armies == [32] * 8
    # The 2-player game and Team RISK keep their counts; a range set with -o players is the user's.
    with pytest.raises(RulesError, match=r"^the pangaea board is for 3 to 10 players, not 2$"):
        Rules.preset("2008").for_game("two-player").check_player_count(2, pangaea)
    with pytest.raises(RulesError, match="Team RISK is for 4 or 6 players in two teams, not 8"):
        Rules.preset("2003").for_game("team").check_player_count(8, pangaea)
    with pytest.raises(RulesError, match="the 2008 rules are for 3 to 5 players, not 8"):
        Rules.preset("2008").with_options(players="3-5").check_player_count(8, pangaea)
    # docs/boards.md's examples, under the default (2008) rules.
    for flag in ("--map", "--board"):
        result = runner.invoke(app, ["simulate", flag, "pangaea", "-p", "10", "--max-turns", "2", "--json"])
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["players"] == 10


def test_the_lobby_is_told_which_board_keeps_the_rulebooks_counts() -> None:
    from risk.server.boards import summary

    assert summary(load_map("classic"))["rulebooks"] is True
    assert summary(load_map("pangaea"))["rulebooks"] is False
    assert summary(Board(eight_player_board()))["rulebooks"] is False


def test_a_range_of_one_player_count_reads_as_one_count() -> None:
    three = Board(dict(eight_player_board(), players={"min": 3, "max": 3}, starting_armies={"3": 24}))
    with pytest.raises(RulesError, match=r"^the octagon board is for 3 players, not 4$"):
        Rules.preset("1993").check_player_count(4, three)
    two = Board(dict(eight_player_board(), players={"min": 2, "max": 2}, starting_armies={}))
    with pytest.raises(RulesError, match=r"^the octagon board is for 2 players, not 3$"):
        Rules.preset("1993").check_player_count(3, two)
    with pytest.raises(RulesError, match="use --game two-player") as refused:
        Rules.preset("2008").check_player_count(2, two)
    assert "3 to 2" not in str(refused.value)
    Rules.preset("2008").for_game("two-player").check_player_count(2, two)
    # The validator's words for such boards.
    found = messages(dict(eight_player_board(), players={"min": 3, "max": 3}, starting_armies={"4": 9}))
    assert any("(3 players;" in m for m in found), found
    found = messages(dict(eight_player_board(), players={"min": 2, "max": 2}, starting_armies={"3": 9}))
    assert found and not any("3 to 2" in m for m in found), found
    found = messages(changed("starting_armies", None) | {"players": {"min": 3, "max": 3}})
    assert any("supports 3 players:" in m for m in found) and not any("3 to 3" in m for m in found), found
    found = messages(changed("starting_armies", None) | {"players": {"min": 2, "max": 2}})
    assert any('"starting_armies": {}' in m for m in found), found


@pytest.mark.parametrize("count", [7, 10])
def test_secret_mission_deals_a_destroy_card_for_every_colour_in_play(count: int, big_board: Board) -> None:
    for board in (load_map("pangaea"), big_board):
        for edition in ("1993", "2008"):
            rules = Rules.preset(edition).for_game("secret-mission")
            assert rules.player_range(board) == (3, 10)
            game = Game(rules, count, seed=count, board=board)
            destroyed = sorted(m.destroy for m in mission_deck(count, board) if m.destroy is not None)
            assert destroyed == list(range(count))
            assert all(View(game, p).mission is not None for p in range(count))
    # As the issue had it: the range set by hand, on the command line and through the web API.
    result = runner.invoke(
        app,
        [
            "simulate",
            "--map",
            "pangaea",
            "-g",
            "secret-mission",
            "-p",
            str(count),
            "-o",
            "players=3-10",
            "--max-turns",
            "3",
            "--json",
        ],
    )
    assert result.exit_code == 0 and json.loads(result.stdout)["failed"] == 0, result.output
    master = GameMaster(MemoryStorage())
    spec = GameSpec(
        edition="1993",
        game="secret-mission",
        board="pangaea",
        options={"players": "3-10"},
        seats=[SeatSpec("bot", bot="quick")] * count,
    )
    _record, seats = master.create_game(spec)
    assert len(seats) == count


def test_the_colours_of_secret_mission_cover_every_seat_a_board_may_have() -> None:
    assert len(COLOURS) == len(set(COLOURS)) == MOST_PLAYERS
    assert destroy_mission(9).text.startswith(f"Destroy all {COLOURS[9]} armies.")


# The starting armies of 2-player RISK on a board of 120 territories: the book's armies for each
# territory a seat is dealt on the classic board (1993 and 2008: 40 for 14, here 40 a seat; 2003:
# players 36 for 9, here 48; each neutral 24 for its 6, here 6 too).
BIG_TWO_PLAYER_ARMIES = {"1993": [114] * 3, "2008": [114] * 3, "2003": [192, 192, 24, 24, 24, 24]}


def armies_at_start(game: Game) -> list[int]:
    """Each seat's starting armies: those on the territories it was dealt and those still to place."""
    return [dealt + left for dealt, left in zip(game.territory_count, game.setup_armies, strict=True)]


@pytest.mark.parametrize("edition", ["1993", "2003", "2008"])
def test_two_player_risk_plays_a_big_board_with_armies_for_its_size(edition: str, big_board: Board) -> None:
    rules = Rules.preset(edition).for_game("two-player")
    game = Game(rules, 2, seed=1, board=big_board)
    assert armies_at_start(game) == BIG_TWO_PLAYER_ARMIES[edition]
    # The options set by hand still win; the classic board and smaller ones keep the book's armies.
    own = Game(rules.with_options(starting_armies="2:200", neutral_armies="150"), 2, seed=1, board=big_board)
    assert armies_at_start(own) == [200, 200] + [150] * rules.neutrals
    book = [rules.starting_armies_for(2)] * 2 + [rules.neutral_armies] * rules.neutrals
    for board in ("classic", "crossroads"):
        small = Game(rules, 2, seed=1, board=board)
        assert armies_at_start(small) == book
    game, _report = play_game(rules, ["quick", "quick"], seed=3, max_turns=20, board=big_board)
    assert game.turn > 1
    two_on_pangaea = ["simulate", "--map", "pangaea", "-r", edition, "-g", "two-player", "-p", "2"]
    result = runner.invoke(app, two_on_pangaea)
    assert result.exit_code == 2 and "the pangaea board is for 3 to 10 players, not 2" in result.stderr


def test_a_board_of_1000_misspelt_names_is_checked_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each unknown name got a "did you mean" from difflib against every territory's name: 4,000 wrong
    names on a board of 1,000 took 19 s. The first few get one; the rest say only what to fix."""
    import difflib

    from risk.maps import validate

    count = 1000
    names = [f"Territory {k}" for k in range(count)]
    data = {
        "format": 1,
        "name": "misspelt",
        "continents": [{"name": "All", "bonus": 1}],
        "territories": [
            {
                "name": n,
                "continent": "All",
                "card": "infantry",
                "neighbours": [f"{names[k - 1]}x", f"{names[(k + 1) % count]}x", "Teritory 3"],
            }
            for k, n in enumerate(names)
        ],
    }
    compared = []
    close_matches = difflib.get_close_matches

    def counted(word: str, possibilities: Any, *args: Any, **kwargs: Any) -> list[str]:
        compared.append(len(list(possibilities)))
        return close_matches(word, possibilities, *args, **kwargs)

    monkeypatch.setattr(validate.difflib, "get_close_matches", counted)
    problems = [str(p) for p in board_problems(data)]
    unknown = [p for p in problems if "no territory called" in p]
    assert len(unknown) == 3 * count  # every wrong name is still reported, where it is
    assert sum(compared) <= validate.SUGGESTIONS * count  # a few suggestions, each against every name
    assert unknown[0].endswith("no territory called 'Territory 999x' (did you mean 'Territory 999'?)")
    assert unknown[-3].endswith("no territory called 'Territory 998x': add the territory, or fix the name")
    assert unknown[-1].endswith("(did you mean 'Territory 3'?)")  # a name seen before: its hint again


@pytest.mark.parametrize("edition", ["1993", "2003"])
def test_two_player_armies_on_a_big_board_do_not_hang_on_an_equal_rules_made_before(
    edition: str, big_board: Board
) -> None:
    """Rules that differ only in which options were set by hand are equal, and share their variants
    (risk.rules.variants.hooks_for is cached by Rules): a game whose starting armies were given by hand,
    equal to the book's, made first, left the next game on the big board without its scaled armies
    (found on the compiled build, where the order of the tests put such a game first)."""
    from risk.rules.options import format_option

    rules = Rules.preset(edition).for_game("two-player")
    by_hand = rules.with_options(starting_armies=format_option("starting_armies", rules.starting_armies))
    assert by_hand == rules and "starting_armies" in by_hand.overrides
    Game(by_hand, 2, seed=1)  # on the classic board
    assert armies_at_start(Game(rules, 2, seed=1, board=big_board)) == BIG_TWO_PLAYER_ARMIES[edition]
