"""Boards in the web app (docs/boards.md, "Boards in the web app"): any board that validates is
drawn (outlines, computed cells, a layout), an uploaded or generated board plays and is stored with
its game (it replays after a restart), an invalid upload is refused with its problems."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import shapely
from fastapi.testclient import TestClient
from shapely.geometry import Polygon

from risk.maps import Board
from risk.maps.cells import board_drawing
from risk.maps.generate import generate_board
from risk.maps.labels import rings
from risk.server.app import create_app
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage
from test_labels import collisions


@cache
def generated(territories: int = 100, continents: int = 10, seed: int = 3) -> dict[str, Any]:
    return generate_board(territories, continents, seed, players=(2, 10))


def without(data: dict[str, Any], *fields: str) -> dict[str, Any]:
    """The board with these territory fields (and the canvas) left out."""
    out = copy.deepcopy(data)
    out.pop("size", None)
    out["name"] = f"{data['name']}-no-{'-'.join(fields)}"
    for row in out["territories"]:
        for name in fields:
            row.pop(name, None)
    return out


def shapes(drawing: dict[str, Any]) -> dict[str, Polygon]:
    out = {}
    for slug, row in drawing["territories"].items():
        polygons = [Polygon(ring) for ring in rings(row["path"])]
        out[slug] = shapely.unary_union(polygons)
    return out


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(MemoryStorage())) as test_client:
        yield test_client


# -- drawings -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("drop", [("outline",), ("outline", "label")], ids=["labels only", "no coordinates"])
def test_a_board_without_outlines_gets_a_cell_for_every_territory_and_no_two_overlap(
    drop: tuple[str, ...],
) -> None:
    data = without(generated(60, 7, 5), *drop)
    board = Board(data)
    drawing = board_drawing(data)
    assert drawing is not None
    assert drawing["kind"] == ("cells" if drop == ("outline",) else "layout")
    cells = shapes(drawing)
    assert set(cells) == {board.slug_of(i) for i in range(len(board))}
    for slug, cell in cells.items():
        assert cell.is_valid and cell.area > 100, slug  # a cell a badge fits in (badges are 25 wide)
        assert cell.contains(shapely.Point(drawing["territories"][slug]["label"])), slug
    overlapping = [
        (a, b) for (a, x), (b, y) in itertools.combinations(cells.items(), 2) if x.intersection(y).area > 1.0
    ]
    assert overlapping == []
    # every link shows: touching cells, or a line (dashed for the sea); touching cells are linked
    lines = {frozenset(row["between"]) for row in drawing["sea_lines"] + drawing["link_lines"]}
    walls = {frozenset(row["between"]) for row in drawing["walls"]}
    for a in range(len(board)):
        for b in board.neighbours[a]:
            pair = frozenset((board.slug_of(a), board.slug_of(b)))
            assert pair in lines or cells[board.slug_of(a)].distance(cells[board.slug_of(b)]) <= 1.0, pair
            assert pair not in walls
    sea = {frozenset(link["between"]) for link in data["links"] if link["by"] == "sea"}
    drawn_sea = {
        frozenset(board.name_of(board.territory(s)) for s in row["between"]) for row in drawing["sea_lines"]
    }
    assert drawn_sea == sea


def test_a_board_with_outlines_is_drawn_from_them_scaled_to_its_size() -> None:
    data = generated()
    drawing = board_drawing(data)
    assert drawing is not None and drawing["kind"] == "outlines"
    width, height = data["size"]
    scale = 1000 / min(width, 1.6 * height)
    assert drawing["viewBox"] == [
        0,
        0,
        pytest.approx(width * scale, abs=0.1),
        pytest.approx(height * scale, abs=0.1),
    ]
    first = data["territories"][0]
    cell = shapes(drawing)[Board(data).slug_of(0)]
    expected = shapely.affinity.scale(Polygon(first["outline"]), scale, scale, origin=(0, 0))
    assert cell.symmetric_difference(expected).area < 0.01 * expected.area


@cache
def chain(territories: int = 40) -> dict[str, Any]:
    return generate_board(territories, territories // 2, 3, players=(2, 10), shape="chain")


NO_COORDINATES = ("outline", "label")


@pytest.mark.parametrize(
    ("board", "drop"),
    [
        (generated, ()),
        (generated, ("outline",)),
        (generated, NO_COORDINATES),  # drawn from a layout of its links: 100 territories
        (lambda: generated(150, 12, 5), NO_COORDINATES),
        (chain, NO_COORDINATES),
    ],
    ids=["generated", "without outlines", "no coordinates", "150 without coordinates", "chain"],
)
def test_no_name_covers_another_name_or_a_badge_on_any_board(
    board: Callable[[], dict[str, Any]], drop: tuple[str, ...]
) -> None:
    data = without(board(), *drop) if drop else board()
    drawing = board_drawing(data)
    assert drawing is not None
    assert set(drawing["names"]) == set(drawing["territories"])
    assert collisions(drawing) == []


# -- the API ------------------------------------------------------------------------------------------------
def test_the_shipped_boards_are_listed_with_a_preview(client: TestClient) -> None:
    listed = client.get("/api/boards").json()
    classic = next(b for b in listed["boards"] if b["name"] == "classic")
    assert classic["territories"] == 42 and classic["players"] == [2, 6]
    picture = client.get(classic["preview"])
    assert picture.status_code == 200 and picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text.count("<path") >= 42
    assert listed["max_bytes"] == 1024 * 1024


def test_an_uploaded_board_is_checked_played_and_replays_after_a_restart(tmp_path: Path) -> None:
    data = without(generated(), "outline")
    text = json.dumps(data)
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(SqlStorage(url))) as client:
        checked = client.post("/api/boards/check", content=text.encode()).json()
        assert checked["valid"] and checked["summary"]["territories"] == 100
        assert checked["summary"]["players"] == [2, 10]
        assert checked["preview"].count("<path") >= 100
        seats = [{"kind": "bot", "bot": "quick"} for _ in range(8)]
        body = {"edition": "1993", "seats": seats, "seed": 4, "bot_delay": 0, "board": checked["board"]}
        created = client.post("/api/games", json=body)
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        summary = client.get(f"/api/games/{game_id}").json()
        assert summary["board"] == data["name"] and len(summary["seats"]) == 8
        drawn = client.get(f"/api/games/{game_id}/board").json()
        assert len(drawn["board"]["territories"]) == 100
        assert drawn["board"]["players"] == {"min": 2, "max": 10}
        assert set(drawn["drawing"]["territories"]) == {t["slug"] for t in drawn["board"]["territories"]}
    with TestClient(create_app(SqlStorage(url))) as client:  # the server again, from its store
        again = client.get(f"/api/games/{game_id}/board").json()
        assert again["board"] == drawn["board"]
        view = client.get(f"/api/games/{game_id}/view")
        assert view.status_code == 200, view.text
        assert len(view.json()["view"]["territories"]) == 100


def test_an_invalid_upload_says_what_is_wrong_and_a_game_on_it_is_not_created(client: TestClient) -> None:
    data = copy.deepcopy(generated(20, 3, 1))
    data["territories"][0]["neighbours"] = ["Nowhere"]
    data["continents"][0]["bonus"] = -3
    checked = client.post("/api/boards/check", content=json.dumps(data).encode()).json()
    assert not checked["valid"] and checked["count"] >= 2
    assert any("Nowhere" in p["message"] for p in checked["problems"])
    assert "board" not in checked
    before = client.get("/api/games").json()["games"]
    answer = client.post("/api/games", json={"seats": [{"kind": "bot", "bot": "quick"}] * 3, "board": data})
    assert answer.status_code == 422
    assert answer.json()["error"]["message"].startswith("the board is not valid: ")
    assert client.get("/api/games").json()["games"] == before
    assert client.post("/api/boards/check", content=b"").status_code == 422
    for raw, words in [(b"\xff\xfe{", "UTF-8"), (b'{"name": ', "not valid JSON")]:
        checked = client.post("/api/boards/check", content=raw).json()
        assert not checked["valid"] and words in checked["problems"][0]["message"], checked


def test_a_board_over_the_size_limit_is_refused(client: TestClient) -> None:
    huge = b" " * (1024 * 1024 + 1)
    answer = client.post("/api/boards/check", content=huge)
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too-large"
    data = copy.deepcopy(generated(20, 3, 1))
    data["title"] = "x"
    data["padding"] = "x" * (1024 * 1024)
    answer = client.post("/api/games", json={"seats": [{"kind": "bot", "bot": "quick"}] * 3, "board": data})
    assert answer.status_code == 413, answer.text


def test_a_board_is_generated_for_the_lobby(client: TestClient) -> None:
    answer = client.post("/api/boards/generate", json={"territories": 30, "continents": 4, "seed": 9})
    assert answer.status_code == 200, answer.text
    made = answer.json()
    assert made["valid"] and made["summary"]["territories"] == 30 and made["summary"]["continents"] == 4
    assert made["board"] == generate_board(30, 4, 9)
    refused = client.post("/api/boards/generate", json={"territories": 6, "continents": 9, "seed": 1})
    assert refused.status_code == 422 and "continents" in refused.json()["error"]["message"]


def test_a_game_takes_up_to_the_boards_players(client: TestClient) -> None:
    board = generated()
    ten = [{"kind": "bot", "bot": "quick"} for _ in range(10)]
    assert (
        client.post(
            "/api/games", json={"edition": "2003", "seats": ten, "board": board, "bot_delay": 0}
        ).status_code
        == 201
    )
    classic = client.post("/api/games", json={"edition": "2003", "seats": ten[:7], "board": "classic"})
    assert classic.status_code == 422 and "6" in classic.json()["error"]["message"]


# -- one board format: what is shown is a board file ------------------------------------------------------
def board_facts(board: Board) -> dict[str, Any]:
    """Everything a board says, to compare two boards loaded from different files."""
    return {
        "name": board.name,
        "title": board.title,
        "players": board.players,
        "starting_armies": board.starting_armies,
        "drawing": board.drawing,
        "territories": [
            (t.name, t.continent, t.card_symbol, t.aliases, t.label, t.outline) for t in board.territories
        ],
        "continents": board.continents,
        "neighbours": board.neighbours,
        "islands": board.islands,
        "wild_cards": board.wild_cards,
    }


def shown_boards(client: TestClient, name: str, data: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    """A board as each output shows it: the API (the shipped board's, or a game's on it), `risk board
    show --json` and `risk map --json` (by name, or of its file)."""
    from typer.testing import CliRunner

    from risk.cli.main import app

    runner = CliRunner()
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    given = name if name in ("classic", "crossroads", "pangaea") else str(path)
    if given == name:
        api = client.get(f"/api/boards/{name}").json()["board"]
    else:
        seats = [{"kind": "bot", "bot": "quick"} for _ in range(3)]
        created = client.post("/api/games", json={"seats": seats, "board": data, "bot_delay": 0})
        assert created.status_code == 201, created.text
        api = client.get(f"/api/games/{created.json()['id']}/board").json()["board"]
    shown = {"api": api}
    for command in (["board", "show", given, "--json"], ["map", given, "--json"]):
        result = runner.invoke(app, command)
        assert result.exit_code == 0, result.output
        shown[" ".join(command[:1])] = json.loads(result.stdout)
    return shown


@pytest.mark.parametrize("name", ["classic", "crossroads", "pangaea", "generated"])
def test_every_shown_board_is_a_board_file_that_loads_back_to_the_same_board(
    client: TestClient, name: str, tmp_path: Path
) -> None:
    from risk.maps import load_map
    from risk.maps.validate import board_problems

    if name == "generated":
        data = generated(40, 5, 7)
        original = Board(data)
    else:
        original = load_map(name)
        data = json.loads(original.canonical_json)
    for where, shown in shown_boards(client, name, data, tmp_path).items():
        assert [str(p) for p in board_problems(shown)] == [], where
        checked = client.post("/api/boards/check", content=json.dumps(shown, indent=1).encode()).json()
        assert checked["valid"] and checked["count"] == 0, (where, checked["problems"])
        assert board_facts(Board(shown)) == board_facts(original), where
        assert Board(shown).to_json() == original.to_json(), where  # shown again, the same file


def test_an_upload_lists_every_problem_with_its_line_one_of_each_kind_first(
    client: TestClient, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from risk.cli.main import app
    from risk.maps import load_map

    # The shape `risk map --json` had before it was a board file: 130 problems.
    data = load_map("classic").to_json()
    for row in data["territories"]:
        row["neighbors"] = row.pop("neighbours")
        del row["slug"]
    data["players"] = [2, 6]
    data["mission_cards"] = []
    text = json.dumps(data, indent=2)
    checked = client.post("/api/boards/check", content=text.encode()).json()
    path = tmp_path / "shown.json"
    path.write_text(text, encoding="utf-8")
    by_cli = json.loads(CliRunner().invoke(app, ["board", "validate", str(path), "--json"]).stdout)
    assert not checked["valid"]
    assert checked["count"] == len(checked["problems"]) == len(by_cli["problems"]) > 40
    assert checked["problems"] == by_cli["problems"]  # the same problems, lines and order as the command
    assert all(p["line"] for p in checked["problems"])
    first = [p["where"] for p in checked["problems"][:4]]
    assert first == [
        "$.mission_cards",
        "territories[0] ('Alaska').neighbors",
        "players",
        "territories[1] ('Northwest Territory').neighbors",
    ]
    shown_line = text.splitlines()[checked["problems"][1]["line"] - 1]
    assert '"neighbors"' in shown_line


def test_the_apis_whole_answer_uploaded_says_to_take_its_board(client: TestClient) -> None:
    answer = client.get("/api/boards/crossroads").text
    checked = client.post("/api/boards/check", content=answer.encode()).json()
    assert not checked["valid"] and checked["count"] == 1
    assert 'its "board" field is the board file' in checked["problems"][0]["message"]
    board = json.dumps(json.loads(answer)["board"])
    assert client.post("/api/boards/check", content=board.encode()).json()["valid"]


def crowded_board(territories: int) -> dict[str, Any]:
    """A board of ``territories`` label points on a grid, each linked to the ones beside it: more than
    a byte's worth of territories (the map of which land is whose held each one's number in a byte)."""
    columns = 32
    names = [f"Land {k}" for k in range(territories)]
    rows = []
    for k, name in enumerate(names):
        row, column = divmod(k, columns)
        beside = [k - 1 if column else -1, k + 1 if column < columns - 1 else -1, k - columns, k + columns]
        rows.append(
            {
                "name": name,
                "continent": f"Part {k * 20 // territories}",
                "card": ("infantry", "cavalry", "artillery")[k % 3],
                "label": [column * 80 + row % 2 * 30, row * 70],
                "neighbours": [names[j] for j in beside if 0 <= j < territories],
            }
        )
    return {
        "format": 1,
        "name": f"crowded-{territories}",
        "players": {"min": 3, "max": 3},
        "starting_armies": {"3": 1000},
        "continents": [{"name": f"Part {c}", "bonus": 3} for c in range(20)],
        "territories": rows,
    }


def test_a_board_of_1000_territories_is_drawn_once_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    import risk.server.boards as server_boards

    made = []

    def counted(data: Any, *, names: bool = True) -> Any:
        made.append(names)
        return board_drawing(data, names=names)

    monkeypatch.setattr(server_boards, "board_drawing", counted)
    data = crowded_board(1000)
    with TestClient(create_app(MemoryStorage())) as client:
        created = client.post("/api/games", json={"board": data, "seats": [{"kind": "open"}] * 3})
        assert created.status_code == 201, created.text
        first = client.get(f"/api/games/{created.json()['id']}/board")
        assert first.status_code == 200, first.text
        drawing = first.json()["drawing"]
        assert len(drawing["territories"]) == len(drawing["names"]) == 1000
        again = client.get(f"/api/games/{created.json()['id']}/board")
        assert again.json() == first.json() and made == [True]  # drawn once, then kept
