"""The drawing of the classic board: maps/drawings/classic.json, made by tools/make_board_drawing.py."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from risk.maps import Board, load_drawing, load_map

NUMBER = r"-?\d+(?:\.\d)?"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_map("classic")


@pytest.fixture(scope="module")
def drawing() -> dict:
    shipped = load_drawing("classic")
    assert shipped is not None
    return shipped


def points(path: str) -> list[tuple[float, float]]:
    numbers = [float(n) for n in re.findall(NUMBER, path)]
    return list(zip(numbers[::2], numbers[1::2], strict=True))


def inside(point: tuple[float, float], path: str) -> bool:
    """Even-odd point-in-polygon over all the rings of an SVG path of M/L/Z commands."""
    x, y = point
    result = False
    for ring in re.findall(r"M([^MZ]*)Z", path):
        corners = points(ring)
        for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
    return result


def test_shape(drawing: dict) -> None:
    assert drawing["board"] == "classic"
    assert "Natural Earth" in drawing["source"]
    x0, y0, width, height = drawing["viewBox"]
    assert (x0, y0) == (0, 0)
    assert 1000 <= width <= 1200 and 550 <= height <= 700
    assert set(drawing) == {"board", "source", "viewBox", "territories", "continents", "sea_lines", "names"}


def test_every_territory_is_drawn_and_nothing_else(board: Board, drawing: dict) -> None:
    assert set(drawing["territories"]) == {board.slug_of(i) for i in range(len(board))}


def test_paths_and_labels(board: Board, drawing: dict) -> None:
    _, _, width, height = drawing["viewBox"]
    for slug, territory in drawing["territories"].items():
        path = territory["path"]
        assert re.fullmatch(r"(M[^MZ]+Z)+", path), slug
        corners = points(path)
        assert len(corners) >= 3, slug
        assert all(0 <= x <= width and 0 <= y <= height for x, y in corners), slug
        assert all(re.fullmatch(NUMBER, n) for n in re.findall(r"-?[\d.]+", path)), slug  # 1 decimal
        x, y = territory["label"]
        assert 0 <= x <= width and 0 <= y <= height, slug
        assert inside((x, y), path), f"the label of {slug} is outside it"


def test_continent_labels(board: Board, drawing: dict) -> None:
    _, _, width, height = drawing["viewBox"]
    assert set(drawing["continents"]) == {c.name for c in board.continents}
    for name, continent in drawing["continents"].items():
        x, y = continent["label"]
        assert 0 <= x <= width and 0 <= y <= height, name
        for territory in drawing["territories"].values():
            assert not inside((x, y), territory["path"]), f"the {name} label is on land"


def test_every_sea_link_has_a_line(board: Board, drawing: dict) -> None:
    data = json.loads(resources.files("risk.maps").joinpath("classic.json").read_text(encoding="utf-8"))
    sea = {
        frozenset(board.slug_of(board.territory(n)) for n in link["between"])
        for link in data["links"]
        if link.get("by") == "sea"
    }
    lines = {frozenset(line["between"]): line for line in drawing["sea_lines"]}
    assert sea <= set(lines)
    for pair in lines:  # any other line is for a land link whose territories barely touch
        a, b = (board.territory(s) for s in pair)
        assert b in board.adjacent[a]
    _, _, width, height = drawing["viewBox"]
    for pair, line in lines.items():
        assert re.fullmatch(r"(M[^M]+)+", line["path"]), pair
        assert all(0 <= x <= width and 0 <= y <= height for x, y in points(line["path"])), pair
    wrap = lines[frozenset({"alaska", "kamchatka"})]
    assert wrap["wrap"] is True and wrap["path"].count("M") == 2


def test_load_drawing_names(drawing: dict) -> None:
    assert load_drawing("Classic") == drawing
    assert load_drawing("no-such-board") is None
    assert load_drawing("") is None
