"""The drawing of any board: its outlines, or cells computed from its label points, or a layout.

The web board draws a board from a *drawing* (``risk.maps.load_drawing``: the classic board's is
shipped, ``maps/drawings/classic.json``). :func:`board_drawing` makes one in the same shape for
every other board that validates:

- a board whose territories all have an ``outline`` is drawn from them, scaled from its ``size``;
- a board whose territories all have a ``label`` point gets *cells*: the Voronoi diagram of the
  label points, clipped to a coast drawn around them (a disc around each point, merged, its
  corners rounded), so that near territories touch and far ones are islands;
- a board with neither gets a layout of its link graph first (spectral, then force-directed:
  linked territories near, continents together), then cells around those points.

Links the shapes do not show are drawn: a sea link, and a border link between shapes that do not
touch, as a line between the two territories (``sea_lines``, dashed for the sea; ``link_lines``,
solid); and where computed cells touch but are not linked, a wall on their common edge
(``walls``), so that touching always means linked. Continent names go where they cover no army
badge, and the territories' names are placed by :func:`risk.maps.labels.place_names`, as on the
classic board: no name covers another name or a badge.

Every drawing is scaled so that ``min(width, 1.6 * height)`` is 1000 units: the web board sizes
its badges and names from that (``risk.maps.labels.board_unit``), so they come out the same size
on every board. Needs shapely 2 (the ``boards`` extra); without it :func:`board_drawing` answers
``None`` and the web board places round nodes itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from risk.maps import Board
from risk.maps.labels import (
    BADGE_RADIUS,
    Box,
    BoxIndex,
    around,
    board_unit,
    continent_box,
    place_names,
)

try:
    import shapely
    import shapely.affinity
    from shapely.geometry import LineString, MultiPoint, Point, Polygon, box
    from shapely.ops import nearest_points, polylabel, unary_union

    SHAPELY_MISSING: str | None = None
except ImportError as error:  # the optional extra is not installed
    SHAPELY_MISSING = str(error)

SCALE_TO = 1000.0  # min(width, 1.6 * height) of every computed drawing: board.js's unit is then 1
MARGIN = 40.0  # around the land, in those units
TOUCH = 1.0  # shapes nearer than this touch: a border link between them needs no line
WALL = 2.0  # a shared edge at least this long between cells that are not linked gets a wall
LAYOUT_STEPS = 300
RELAX_STEPS = 200
ASPECT = 1.15  # the longest a layout's long side may be, as a share of its short side
ROOM = 0.85  # the least distance between two points of a layout, as a share of even spacing


def available() -> bool:
    """Whether drawings can be computed here (shapely is installed)."""
    return SHAPELY_MISSING is None


def board_drawing(data: Mapping[str, Any], *, names: bool = True) -> dict[str, Any] | None:
    """The drawing of a board that validates (its JSON data), in the shape of the shipped drawings:
    ``viewBox``, ``territories`` (slug: ``path``, ``label``), ``continents`` (name: ``label``),
    ``sea_lines``, ``link_lines``, ``walls``, ``names`` and ``kind`` (``outlines``, ``cells`` or
    ``layout``). ``None`` without shapely. ``names=False``: without the names and continent names (a
    preview: placing them takes a few seconds on a board of 100 territories)."""
    if SHAPELY_MISSING is not None:
        return None
    board = Board(dict(data))
    rows: Sequence[Mapping[str, Any]] = data["territories"]
    sea = sea_links(data, board)
    if all(row.get("outline") for row in rows):
        kind = "outlines"
        shapes, points = _outlined(board, data.get("size"))
    else:
        if all(row.get("label") for row in rows):
            kind = "cells"
            raw = [(float(row["label"][0]), float(row["label"][1])) for row in rows]
        else:
            kind = "layout"
            raw = layout(board)
        shapes, points = _cells(raw)
    if kind == "outlines" and data.get("size"):  # the board's own canvas, scaled
        factor = _scale(float(data["size"][0]), float(data["size"][1]))
        minx, miny = 0.0, 0.0
        width, height = float(data["size"][0]) * factor, float(data["size"][1]) * factor
    else:  # the land and a margin around it
        minx = min(s.bounds[0] for s in shapes) - MARGIN
        miny = min(s.bounds[1] for s in shapes) - MARGIN
        width = max(s.bounds[2] for s in shapes) + MARGIN - minx
        height = max(s.bounds[3] for s in shapes) + MARGIN - miny
    shapes = [shapely.affinity.translate(s, -minx, -miny) for s in shapes]
    points = [(x - minx, y - miny) for x, y in points]
    view_box = [0.0, 0.0, round(width, 1), round(height, 1)]

    slugs = [board.slug_of(i) for i in range(len(board))]
    territories = {
        slugs[i]: {"path": svg_path(shapes[i]), "label": [round(points[i][0], 1), round(points[i][1], 1)]}
        for i in range(len(board))
    }
    sea_lines, link_lines, walls = _links(board, shapes, points, sea, slugs, computed=kind != "outlines")
    drawing: dict[str, Any] = {
        "board": board.name,
        "kind": kind,
        "source": f"computed by risk.maps.cells ({kind})",
        "viewBox": view_box,
        "territories": territories,
        "continents": continent_labels(board, shapes, points, view_box) if names else {},
        "sea_lines": sea_lines,
        "link_lines": link_lines,
        "walls": walls,
    }
    if names:
        words = {slugs[i]: board.name_of(i) for i in range(len(board))}
        drawing["names"] = place_names(drawing, words, {c.name: c.bonus for c in board.continents})
    return drawing


def sea_links(data: Mapping[str, Any], board: Board) -> set[tuple[int, int]]:
    """The links given ``"by": "sea"`` (as index pairs, lower first)."""
    out = set()
    for link in data.get("links", ()):
        if link.get("by") == "sea":
            a, b = (board.territory(name) for name in link["between"])
            out.add((min(a, b), max(a, b)))
    return out


# -- the shapes ------------------------------------------------------------------------------------------
def _scale(width: float, height: float) -> float:
    return SCALE_TO / max(1e-9, min(width, 1.6 * height))


def _outlined(board: Board, size: Sequence[float] | None) -> tuple[list[Any], list[tuple[float, float]]]:
    """The outlines (made valid), scaled from the board's ``size`` (or their extent) to the drawing's."""
    shapes = [_valid(Polygon(t.outline)) for t in board.territories]
    if size:
        width, height = float(size[0]), float(size[1])
    else:
        bounds = unary_union(shapes).bounds
        width, height = bounds[2] - bounds[0], bounds[3] - bounds[1]
    factor = _scale(width, height)
    shapes = [shapely.affinity.scale(s, factor, factor, origin=(0, 0)) for s in shapes]
    points = []
    for t, shape in zip(board.territories, shapes, strict=True):
        if t.label is not None and shape.buffer(TOUCH).contains(
            Point(t.label[0] * factor, t.label[1] * factor)
        ):
            points.append((t.label[0] * factor, t.label[1] * factor))
        else:  # no label, or one outside its outline: the point inside farthest from its edges
            inner = polylabel(_largest(shape), tolerance=1.0)
            points.append((inner.x, inner.y))
    return shapes, points


def _valid(shape: Any) -> Any:
    return shape if shape.is_valid else _largest(shapely.make_valid(shape))


def _largest(shape: Any) -> Any:
    parts = [g for g in shapely.get_parts(shape) if isinstance(g, Polygon) and not g.is_empty]
    return max(parts, key=lambda g: g.area) if parts else shape.buffer(0.5)


def _cells(raw: Sequence[tuple[float, float]]) -> tuple[list[Any], list[tuple[float, float]]]:
    """Voronoi cells of the points, clipped to a coast around them, scaled to the drawing's units."""
    xs = [x for x, _ in raw]
    ys = [y for _, y in raw]
    spread = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    # Points the same or almost (a board may give two territories one point): moved apart a little.
    points = _apart([((x - min(xs)) / spread, (y - min(ys)) / spread) for x, y in raw], 1e-3)
    width = max(p[0] for p in points)
    height = max(p[1] for p in points)
    # Scaled to the drawing's units (the margins and the coast's width come on top).
    factor = (SCALE_TO - 4 * MARGIN) / max(1e-9, min(width, 1.6 * height), 0.3 * max(width, height))
    points = [(x * factor, y * factor) for x, y in points]
    nearest = _nearest_distances(points)
    radius = min(max(0.75 * float(np.median(nearest)), 30.0), 110.0)
    discs = [
        Point(p).buffer(max(radius, 0.62 * d), quad_segs=12) for p, d in zip(points, nearest, strict=True)
    ]
    rounding = radius * 0.35
    coast = unary_union(discs).buffer(rounding, quad_segs=8).buffer(-rounding, quad_segs=8)
    coast = coast.simplify(0.6)
    frame = box(
        -2 * radius,
        -2 * radius,
        max(p[0] for p in points) + 2 * radius,
        max(p[1] for p in points) + 2 * radius,
    )
    diagram = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    cells = list(shapely.get_parts(diagram))
    if len(cells) != len(points):  # never with points apart; a safeguard for the match below
        raise ValueError("the Voronoi diagram lost a point")
    shapes = []
    for point, cell in zip(points, cells, strict=True):
        if not cell.contains(Point(point)):  # "ordered" needs GEOS 3.12: match by containment
            cell = next(c for c in cells if c.contains(Point(point)))
        clipped = cell.intersection(coast).intersection(Point(point).buffer(radius * 2.2, quad_segs=12))
        parts = [g for g in shapely.get_parts(clipped) if isinstance(g, Polygon) and g.area > 0]
        own = next((g for g in parts if g.buffer(1e-6).contains(Point(point))), None)
        shape = own or max(parts, key=lambda g: g.area, default=Point(point).buffer(radius * 0.5))
        shapes.append(shapely.set_precision(shape, 0.1))
    return shapes, points


def _apart(points: list[tuple[float, float]], least: float) -> list[tuple[float, float]]:
    seen: dict[tuple[int, int], int] = {}
    out = []
    for i, (x, y) in enumerate(points):
        key = (round(x / least), round(y / least))
        while key in seen:  # a spiral step: deterministic, and never onto another point
            i += 1
            x += least * 1.5 * math.cos(i * 2.4)
            y += least * 1.5 * math.sin(i * 2.4)
            key = (round(x / least), round(y / least))
        seen[key] = i
        out.append((x, y))
    return out


def _nearest_distances(points: Sequence[tuple[float, float]]) -> Any:
    array = np.array(points, dtype=float)
    if len(array) < 2:
        return np.ones(len(array))
    tree = shapely.STRtree([Point(p) for p in points])
    nearest = np.empty(len(array))
    for i, p in enumerate(points):
        found = tree.query_nearest(Point(p), exclusive=True, return_distance=True)
        nearest[i] = float(found[1][0]) if len(found[1]) else 1.0
    return nearest


def layout(board: Board) -> list[tuple[float, float]]:
    """Points for a board without coordinates: a spectral layout of its link graph (deterministic),
    relaxed by forces (links pull, every pair pushes, territories of a continent pull together)."""
    n = len(board)
    adjacency = np.zeros((n, n))
    for a in range(n):
        for b in board.neighbours[a]:
            adjacency[a, b] = 1.0
    same = np.array(
        [[board.continent_of[a] == board.continent_of[b] for b in range(n)] for a in range(n)], dtype=float
    )
    weights = adjacency * (1.0 + same)
    laplacian = np.diag(weights.sum(axis=1)) - weights
    _, vectors = np.linalg.eigh(laplacian)
    spectral = vectors[:, 1:3] if n > 2 else np.array([[0.0, 0.0], [1.0, 0.0]][:n])
    # Spectral layouts bunch up; keep their order, spread them evenly (rank), as a start.
    start = np.zeros((n, 2))
    for axis in range(2):
        start[np.argsort(spectral[:, axis], kind="stable"), axis] = np.linspace(0.0, 1.0, n)
    start[:, 0] *= 1.6
    positions = start * math.sqrt(n)
    pull = adjacency * (1.0 + 0.5 * same)
    temperature = math.sqrt(n) / 4
    for _ in range(LAYOUT_STEPS):  # Fruchterman-Reingold: links of length about 1
        delta = positions[:, None, :] - positions[None, :, :]
        distance = np.maximum(np.sqrt((delta**2).sum(axis=2)) + np.eye(n), 0.01)
        repulse = (1.0 / distance**2)[:, :, None] * delta
        attract = (pull * distance)[:, :, None] * delta
        force = repulse.sum(axis=1) - attract.sum(axis=1)
        force -= 0.01 * (positions - positions.mean(axis=0))  # keep the parts of the board together
        length = np.sqrt((force**2).sum(axis=1)) + 1e-9
        positions += force / length[:, None] * np.minimum(length, temperature)[:, None]
        temperature = max(temperature * 0.985, 0.01)
    # A drawing's unit is min(width, 1.6 * height) / 1000: a long flat layout gets little land per
    # territory for its names, so its short side is stretched (a square-ish one gets the most).
    extent = np.maximum(np.ptp(positions, axis=0), 1e-9)
    short = int(np.argmin(extent))
    stretch = min(10.0, max(1.0, extent[1 - short] / (ASPECT * extent[short])))
    middle = positions[:, short].mean()
    positions[:, short] = middle + (positions[:, short] - middle) * stretch
    # Then no two points nearer than a territory needs: forces leave dense knots in much empty sea,
    # and the drawing is scaled to its extent, so the room each point needs is a share of that
    # extent (a fraction of the spacing of n points packed evenly over it), or its names collide.
    for _ in range(RELAX_STEPS):
        extent = np.maximum(np.ptp(positions, axis=0), 1.0)
        room = max(1.3, ROOM * math.sqrt(2.0 * extent[0] * extent[1] / (math.sqrt(3.0) * n)))
        delta = positions[:, None, :] - positions[None, :, :]
        distance = np.sqrt((delta**2).sum(axis=2)) + np.eye(n) * 1e9
        overlap = np.maximum(room - distance, 0.0)
        if overlap.max() < 1e-3 * room:
            break
        push = (overlap / np.maximum(distance, 1e-6))[:, :, None] * delta
        positions += 0.5 * push.sum(axis=1)
    return [(float(x), float(y)) for x, y in positions]


# -- the links, the walls ---------------------------------------------------------------------------------
def _crosses_land(line: Any, shapes: list[Any], a: int, b: int) -> bool:
    """Whether a coast-to-coast sea line runs over other territories (a sea link across a land)."""
    return any(c not in (a, b) and shape.intersection(line).length > TOUCH for c, shape in enumerate(shapes))


def _links(
    board: Board,
    shapes: list[Any],
    points: list[tuple[float, float]],
    sea: set[tuple[int, int]],
    slugs: list[str],
    computed: bool,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
    sea_lines: list[dict[str, Any]] = []
    link_lines: list[dict[str, Any]] = []
    walls: list[dict[str, Any]] = []
    for a in range(len(board)):
        for b in board.neighbours[a]:
            if b <= a:
                continue
            by_sea = (a, b) in sea
            if not by_sea and shapes[a].distance(shapes[b]) <= TOUCH:
                continue  # the shapes touch: the border shows the link
            if computed:  # badge to badge: a computed board's lines run between its points
                line = LineString([points[a], points[b]])
            else:  # coast to coast, as the classic drawing's sea lines
                near_a, near_b = nearest_points(shapes[a], shapes[b])
                line = LineString([near_a, near_b])
            row: dict[str, Any] = {"between": [slugs[a], slugs[b]], "path": svg_line(line)}
            if not computed and by_sea and _crosses_land(line, shapes, a, b):
                row["over_land"] = True  # drawn above the land, or the land would hide it
            (sea_lines if by_sea else link_lines).append(row)
    if computed:  # cells touch where they were cut apart, linked or not: a wall where they are not
        tree = shapely.STRtree(shapes)
        for a, shape in enumerate(shapes):
            for b in tree.query(shape.buffer(TOUCH)):
                b = int(b)
                if b <= a or b in board.adjacent[a]:
                    continue
                edge = shape.boundary.intersection(shapes[b].buffer(TOUCH))
                if edge.length >= WALL:
                    walls.append({"between": [slugs[a], slugs[b]], "path": svg_line(edge)})
    return sea_lines, link_lines, walls


# -- continent names ----------------------------------------------------------------------------------------
def continent_labels(
    board: Board, shapes: list[Any], points: list[tuple[float, float]], view_box: list[float]
) -> dict[str, dict[str, list[float]]]:
    """Where each continent's name and bonus go: near the middle of its land, over no army badge and
    no other continent's name, inside the drawing (nearest to its middle that is free)."""
    unit = board_unit(view_box, len(board.territories))
    radius = BADGE_RADIUS * unit
    badges = BoxIndex((around(x, y, radius) for x, y in points), 4 * radius)
    taken = BoxIndex((), 4 * radius)
    frame = Box(
        view_box[0] + 2, view_box[1] + 2, view_box[0] + view_box[2] - 2, view_box[1] + view_box[3] - 2
    )
    out: dict[str, dict[str, list[float]]] = {}
    for continent in board.continents:
        land = unary_union([shapes[i] for i in continent.territories])
        middle = land.centroid
        mx, my = middle.x, middle.y  # read once: shapely's accessors are slow in a sort's key
        x0, y0, x1, y1 = land.bounds
        step = 6.0 * unit
        reach = max(x1 - x0, y1 - y0) / 2 + 120 * unit
        candidates = sorted(
            (
                (mx + i * step, my + j * step)
                for i in range(-int(reach / step), int(reach / step) + 1)
                for j in range(-int(reach / step), int(reach / step) + 1)
            ),
            key=lambda p: (math.hypot(p[0] - mx, (p[1] - my) * 1.5), p),
        )
        chosen = None
        shape = continent_box(continent.name, continent.bonus, 0.0, 0.0, unit)  # moved to each candidate
        for x, y in candidates:
            found = Box(x + shape.x0, y + shape.y0, x + shape.x1, y + shape.y1)
            if not (
                frame.x0 <= found.x0
                and found.x1 <= frame.x1
                and frame.y0 <= found.y0
                and found.y1 <= frame.y1
            ):
                continue
            if badges.overlaps(found, 3 * unit) or taken.overlaps(found, 4 * unit):
                continue
            chosen = (x, y, found)
            break
        if chosen is None:  # nowhere free: at its middle (a board too crowded to say it apart)
            chosen = (
                middle.x,
                middle.y,
                continent_box(continent.name, continent.bonus, middle.x, middle.y, unit),
            )
        taken.add(chosen[2])
        out[continent.name] = {"label": [round(chosen[0], 1), round(chosen[1], 1)]}
    return out


# -- SVG ---------------------------------------------------------------------------------------------------
def _number(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def svg_path(shape: Any) -> str:
    """An SVG path (M, L and Z: what risk.maps.labels reads) of a polygon or several, holes included."""
    parts = []
    for polygon in shapely.get_parts(shape):
        if not isinstance(polygon, Polygon) or polygon.is_empty:
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            coords = list(ring.coords)[:-1]
            parts.append("M" + "L".join(f"{_number(x)} {_number(y)}" for x, y in coords) + "Z")
    return "".join(parts)


def svg_line(line: Any) -> str:
    """An SVG path of a line or several (M and L)."""
    out = []
    for part in shapely.get_parts(line):
        coords = list(getattr(part, "coords", ()))
        if len(coords) >= 2:
            out.append("M" + "L".join(f"{_number(x)} {_number(y)}" for x, y in coords))
    return "".join(out)


__all__ = ["available", "board_drawing", "layout", "svg_line", "svg_path"]
