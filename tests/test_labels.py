"""Territory names on a drawn board (risk.maps.labels): no name over another name or any army badge.

The placement is the one the web board draws (GET /api/boards/{name} sends it in the drawing's
`names`); tests/test_browser_board.py measures the same on the rendered page.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from risk.maps import available_maps, load_drawing, load_map
from risk.maps.labels import (
    ASCENT,
    BADGE_RADIUS,
    DESCENT,
    NAME_SIZE,
    Box,
    around,
    board_unit,
    continent_box,
    place_names,
    text_width,
)


def boxes(drawing: dict[str, Any]) -> tuple[dict[str, Box], dict[str, Box]]:
    unit = board_unit(drawing["viewBox"], len(drawing["territories"]))
    names = {slug: Box(*row["box"]) for slug, row in drawing["names"].items()}
    badges = {slug: around(*t["label"], BADGE_RADIUS * unit) for slug, t in drawing["territories"].items()}
    return names, badges


def collisions(drawing: dict[str, Any]) -> list[str]:
    """Every name box that overlaps another name box, a badge box, or whose leader crosses a name."""
    names, badges = boxes(drawing)
    out = []
    for (a, box_a), (b, box_b) in itertools.combinations(names.items(), 2):
        if box_a.overlaps(box_b):
            out.append(f"the names of {a} and {b}")
    for (a, box), (b, badge) in itertools.product(names.items(), badges.items()):
        if box.overlaps(badge):
            out.append(f"the name of {a} and the badge of {b}")
    for a, row in drawing["names"].items():
        if "leader" in row:
            out.extend(
                f"the leader of {a} and the name of {b}"
                for b, box in names.items()
                if b != a and box.crosses(tuple(row["leader"]))
            )
    return out


def with_names(drawing: dict[str, Any], names: dict[str, str], continents: dict[str, int]) -> dict[str, Any]:
    return {**drawing, "names": place_names(drawing, names, continents)}


@pytest.mark.parametrize("board", [name for name in available_maps() if load_drawing(name)])
def test_no_name_covers_another_name_or_a_badge(board: str) -> None:
    drawing = load_drawing(board)
    assert drawing is not None
    assert set(drawing["names"]) == set(drawing["territories"])
    assert collisions(drawing) == []


@pytest.mark.parametrize("board", [name for name in available_maps() if load_drawing(name)])
def test_each_name_is_whole_readable_and_on_the_board(board: str) -> None:
    drawing = load_drawing(board)
    assert drawing is not None
    shipped = load_map(board)
    unit = board_unit(drawing["viewBox"], len(drawing["territories"]))
    x0, y0, width, height = drawing["viewBox"]
    names, badges = boxes(drawing)
    for i in range(len(shipped)):
        slug, name = shipped.slug_of(i), shipped.name_of(i)
        row = drawing["names"][slug]
        assert " ".join(row["lines"]) == name and 1 <= len(row["lines"]) <= 2
        assert 0.8 * NAME_SIZE * unit - 0.01 <= row["size"] <= NAME_SIZE * unit + 0.01, slug
        box = names[slug]
        # the box holds the text: its widest line, from the top of the first line to the last's foot
        assert box.x1 - box.x0 >= max(text_width(line, row["size"]) for line in row["lines"]), slug
        assert box.y0 <= row["y"] - ASCENT * row["size"], slug
        assert row["y"] + (len(row["lines"]) - 1) * row["line_height"] + DESCENT * row["size"] <= box.y1, slug
        assert x0 <= box.x0 and box.x1 <= x0 + width and y0 <= box.y0 and box.y1 <= y0 + height, slug
        # near its own badge, or tied to it by a leader line that starts at the badge
        gap = box.distance(badges[slug])
        if "leader" in row:
            bx, by = drawing["territories"][slug]["label"]
            x1, y1, x2, y2 = row["leader"]
            assert abs((x1 - bx) ** 2 + (y1 - by) ** 2 - (BADGE_RADIUS * unit) ** 2) < 2 * unit, slug
            assert box.distance(Box(x2, y2, x2, y2)) < 0.2, slug
        else:
            assert gap <= BADGE_RADIUS * unit, slug


def test_the_names_under_their_badges_collided_on_the_classic_board() -> None:
    """What the board drew before the pass (each name centred under its badge) did collide."""
    drawing = load_drawing("classic")
    assert drawing is not None
    shipped = load_map("classic")
    unit = board_unit(drawing["viewBox"], len(drawing["territories"]))
    size = NAME_SIZE * unit
    naive = {}
    for i in range(len(shipped)):
        slug, name = shipped.slug_of(i), shipped.name_of(i)
        x, y = drawing["territories"][slug]["label"]
        half = text_width(name, size) / 2
        baseline = y + 21 * unit
        naive[slug] = {"box": [x - half, baseline - ASCENT * size, x + half, baseline + DESCENT * size]}
    found = collisions({**drawing, "names": naive})
    assert "the name of northern-europe and the badge of southern-europe" in found  # "thern Europ"
    assert "the names of western-australia and eastern-australia" in found
    assert collisions(drawing) == []


def test_a_crowded_board_of_any_shape_gets_names_that_do_not_collide() -> None:
    """Not tuned to the classic board: a made-up board of small square territories with long names."""
    territories = {}
    names = {}
    for row, col in itertools.product(range(5), range(7)):
        x, y = 80 + col * 120, 80 + row * 105
        slug = f"t{row}{col}"
        square = f"M{x - 45} {y - 40}L{x + 45} {y - 40}L{x + 45} {y + 40}L{x - 45} {y + 40}Z"
        territories[slug] = {"path": square, "label": [x, y]}
        names[slug] = f"Greater Province of {slug.upper()}"
    drawing = {
        "viewBox": [0, 0, 900, 600],
        "territories": territories,
        "continents": {"Middle": {"label": [450, 30]}},
    }
    placed = with_names(drawing, names, {"Middle": 7})
    assert collisions(placed) == []
    middle = continent_box("Middle", 7, 450, 30, board_unit(drawing["viewBox"], len(drawing["territories"])))
    assert not any(Box(*row["box"]).overlaps(middle) for row in placed["names"].values())
    assert any(len(row["lines"]) == 2 for row in placed["names"].values())  # too long for one line


def test_the_placement_is_deterministic() -> None:
    first, second = load_drawing("classic"), load_drawing("classic")
    assert first is not None and second is not None
    first["names"]["alaska"]["x"] = -1  # each caller gets its own copy
    assert second["names"]["alaska"]["x"] != -1
    shipped = load_map("classic")
    names = {shipped.slug_of(i): shipped.name_of(i) for i in range(len(shipped))}
    again = place_names(second, names, {c.name: c.bonus for c in shipped.continents})
    assert again == second["names"]


def test_a_board_of_fewer_territories_gets_larger_names_and_badges() -> None:
    """The unit grows by sqrt(42 / territories) below the classic board's 42 (at most 3 times), so that
    a small board's names are not specks in wide cells; 42 and more keep the drawing's own unit."""
    view = [0.0, 0.0, 1000.0, 625.0]
    assert board_unit(view) == board_unit(view, 42) == board_unit(view, 100) == 1.0
    assert board_unit(view, 24) == pytest.approx((42 / 24) ** 0.5)
    assert board_unit(view, 6) == pytest.approx(7**0.5)
    assert board_unit(view, 2) == 3.0  # at most three times
    assert board_unit([0.0, 0.0, 300.0, 200.0], 6) == pytest.approx(0.4 * 7**0.5)  # on the 0.4 floor
