"""The boards we ship (docs/boards.md, "The boards we ship"): each validates, is listed, plays to an
end with quick bots at its fewest and most players, and tools/balance_board.py measures it."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from risk.cli.main import app
from risk.maps import Board, available_maps, load_map
from risk.maps.cells import board_drawing
from risk.maps.generate import generate_board
from risk.play.simulate import play_game
from risk.rules.options import Rules

runner = CliRunner()
MAPS = Path(__file__).resolve().parent.parent / "src" / "risk" / "maps"
OURS = ("crossroads", "pangaea")  # the boards of our design, besides the classic one


def _tool(name: str) -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "tools" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # the balance tool's worker processes find it by name
    spec.loader.exec_module(module)
    return module


def test_every_shipped_board_is_listed() -> None:
    assert set(available_maps()) >= {"classic", *OURS}
    result = runner.invoke(app, ["board", "list", "--json"])
    assert result.exit_code == 0
    listed = {b["name"]: b for b in json.loads(result.stdout)["boards"]}
    assert listed["crossroads"]["players"] == {"min": 2, "max": 3}
    assert 20 <= listed["crossroads"]["territories"] <= 25
    assert listed["pangaea"]["players"] == {"min": 3, "max": 10}
    assert 80 <= listed["pangaea"]["territories"] <= 100
    text = runner.invoke(app, ["board", "list"]).stdout
    assert all(name in text for name in ("classic", *OURS))


@pytest.mark.parametrize("name", OURS)
def test_a_shipped_board_validates_and_is_drawn(name: str) -> None:
    result = runner.invoke(app, ["board", "validate", str(MAPS / f"{name}.json")])
    assert result.exit_code == 0, result.stderr
    assert f"valid board '{name}'" in result.stdout
    board = load_map(name)
    assert all(len(t.outline) >= 3 and t.label is not None for t in board.territories)
    assert len({c.name for c in board.continents}) == len(board.continents)


@pytest.mark.parametrize("name", OURS)
def test_the_board_file_is_what_the_maker_makes(name: str) -> None:
    maker = _tool("make_shipped_boards")
    design = next(d for d in maker.DESIGNS if d.name == name)
    assert json.loads((MAPS / f"{name}.json").read_text(encoding="utf-8")) == maker.make(design)


@pytest.mark.parametrize(("name", "edge"), [(name, edge) for name in OURS for edge in (0, 1)])
def test_quick_bots_play_a_shipped_board_to_the_end(name: str, edge: int) -> None:
    board = load_map(name)
    assert board.players is not None
    players = board.players[edge]
    rules = Rules.from_description("1993 game=two-player" if players == 2 else "1993")
    game, report = play_game(rules, ["quick"] * players, seed=3, board=board)
    assert game.is_over and report.winner is not None
    assert sum(1 for owner in game.owner if owner == report.winner) == len(board.territories)


def test_the_balance_tool_measures_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    tool = _tool("balance_board")
    assert tool.main(["crossroads", "--players", "2", "3", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "crossroads: 2 players, 1993 2-player game" in out and "crossroads: 3 players, 1993 rules" in out
    assert "| 3rd |" in out and "chi-square" in out and "| Ashford |" in out
    outcomes = tool.measure("crossroads", 3, 6)
    decided = [o for o in outcomes if o.winner_place is not None]
    rows = tool.turn_order_rows(outcomes)
    assert sum(r.wins for r in rows) == len(decided) and all(r.games == len(decided) for r in rows)
    assert tool.main(["crossroads", "--players", "9"]) == 2  # a count the board refuses: exit 2


def test_the_balance_tool_shuffles_the_order_not_the_map() -> None:
    tool = _tool("balance_board")
    board = load_map("pangaea")
    orders = [tool.shuffled(board, seed) for seed in (1, 2)]
    assert [t.name for t in orders[0].territories] != [t.name for t in orders[1].territories]
    assert [t.name for t in orders[0].territories] != [t.name for t in board.territories]

    def shape(b: Board) -> set[tuple[str, frozenset[str], str, int]]:
        return {
            (
                t.name,
                frozenset(b.territories[n].name for n in b.neighbours[t.index]),
                b.continents[t.continent].name,
                b.continents[t.continent].bonus,
            )
            for t in b.territories
        }

    assert all(shape(other) == shape(board) for other in orders)  # the same map under other numbers
    assert tool.shuffled(board, 1).canonical_json != board.canonical_json
    assert [t.name for t in tool.shuffled(board, 1).territories] == [t.name for t in orders[0].territories]
    # A game's homes are counted by the continents as listed, whatever order it was played in.
    shuffled_outcomes = tool.measure("crossroads", 3, 4)
    file_outcomes = tool.measure("crossroads", 3, 4, order="file")
    count = len(load_map("crossroads").continents)
    assert all(0 <= home < count for o in (*shuffled_outcomes, *file_outcomes) for home in o.homes)
    assert shuffled_outcomes != file_outcomes


def test_the_balance_tool_statistics() -> None:
    tool = _tool("balance_board")
    assert tool.chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert tool.chi_square_p(5.991, 2) == pytest.approx(0.05, abs=1e-3)
    assert tool.chi_square_p(16.919, 9) == pytest.approx(0.05, abs=1e-3)
    low, high = tool.wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_the_designs_sea_links_are_in_the_board_file_and_drawn_as_sea() -> None:
    maker = _tool("make_shipped_boards")
    for design in maker.DESIGNS:
        links = json.loads((MAPS / f"{design.name}.json").read_text(encoding="utf-8"))["links"]
        sea = {frozenset(link["between"]) for link in links if link["by"] == "sea"}
        assert {frozenset(pair) for pair in design.sea_links} <= sea


def test_a_sea_link_or_move_naming_no_territory_is_refused_by_name() -> None:
    maker = _tool("make_shipped_boards")
    design = next(d for d in maker.DESIGNS if d.name == "crossroads")
    wrong = dataclasses.replace(design, sea_links=(("Nowhere", design.continent_names[0]),))
    with pytest.raises(ValueError, match="sea link Nowhere - Ashford names no territory"):
        maker.make(wrong)
    with pytest.raises(ValueError, match="cannot move Nowhere to Ashford: no such territory"):
        maker.make(dataclasses.replace(design, moved=(("Nowhere", "Ashford"),)))


def test_a_moved_territory_is_listed_by_its_new_continent_only() -> None:
    maker = _tool("make_shipped_boards")
    pangaea = next(d for d in maker.DESIGNS if d.name == "pangaea")
    data = maker.make(pangaea)
    continent_of = {t["name"]: t["continent"] for t in data["territories"]}
    for name, continent in pangaea.moved:
        assert continent_of[name] == continent
        assert [c["name"] for c in data["continents"] if name in c["territories"]] == [continent]


def test_a_sea_link_across_the_land_is_drawn_above_it() -> None:
    def sea_lines(data: dict[str, Any]) -> list[dict[str, object]]:
        drawing = board_drawing(data)
        assert drawing is not None
        return drawing["sea_lines"]

    pangaea = json.loads((MAPS / "pangaea.json").read_text(encoding="utf-8"))
    lines = {frozenset(line["between"]): line for line in sea_lines(pangaea)}
    assert lines[frozenset({"keheim", "zogrouven"})].get("over_land") is True
    # Three islands (the isles, once shipped): sea lines that cross the sea only are drawn under the land.
    islands = sea_lines(generate_board(22, 4, 4, players=(2, 3)))
    assert islands and not any(line.get("over_land") for line in islands)
