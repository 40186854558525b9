"""``render_mode="rgb_array"``: the board as a picture (an ``H x W x 3`` ``uint8`` array), NumPy only.

Each territory is filled with its holder's colour (grey: unclaimed or unseen), its border darker, and
a white disc at its label point whose size grows with its armies (no digits: a learner's video shows
who holds what and where the stacks are). The territories' shapes come from the board's drawing (the
classic board's outlines, a generated or file board's ``outline`` polygons); a board with neither is
drawn as discs at its label points, or on a circle. The shapes are rasterised once per board and
size (scanline, even-odd), so a frame is a few array lookups.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from risk.maps import Board, load_drawing

WIDTH: Final = 600  # pixels across; the height follows the board's proportions
SEA: Final = (24, 48, 72)
UNSEEN: Final = (120, 120, 120)
UNCLAIMED: Final = (180, 180, 170)
# Seat colours (relative to no one: seat 0 is the first player), distinct from each other and the sea.
SEAT_COLOURS: Final = (
    (213, 94, 0),
    (0, 114, 178),
    (0, 158, 115),
    (230, 159, 0),
    (204, 121, 167),
    (86, 180, 233),
    (240, 228, 66),
    (150, 90, 40),
    (160, 160, 160),
    (100, 100, 100),
)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")

Raster = NDArray[np.int16]


class BoardPicture:
    """The pictures of one board: :meth:`frame` colours the territories of a position."""

    def __init__(self, board: Board, width: int = WIDTH) -> None:
        drawing = load_drawing(board.drawing) if board.drawing else None
        shapes, (left, top, right, bottom) = _shapes(board, drawing)
        scale = width / max(right - left, 1e-9)
        self.width = width
        self.height = max(1, round((bottom - top) * scale))
        points = _label_points(board, drawing, shapes)
        self.points = [((x - left) * scale, (y - top) * scale) for x, y in points]
        self.index: Raster = np.full((self.height, width), -1, dtype=np.int16)
        self.edge = np.zeros((self.height, width), dtype=bool)
        self.has_shapes = bool(shapes)
        if shapes:
            for territory, rings in enumerate(shapes):
                scaled = [[((x - left) * scale, (y - top) * scale) for x, y in ring] for ring in rings]
                self.index[_fill(scaled, self.height, width)] = territory
            # A territory's border: a pixel of it beside another territory or the sea.
            inner = self.index
            self.edge[:-1] |= inner[:-1] != inner[1:]
            self.edge[1:] |= inner[1:] != inner[:-1]
            self.edge[:, :-1] |= inner[:, :-1] != inner[:, 1:]
            self.edge[:, 1:] |= inner[:, 1:] != inner[:, :-1]
            self.edge &= inner >= 0
        rows, columns = np.mgrid[0 : self.height, 0:width]
        self._rows, self._columns = rows.astype(np.float32), columns.astype(np.float32)
        self.radius = max(3.0, width / 110)  # a one-army disc; it grows with the square root of armies

    def frame(
        self, owner: Sequence[int], armies: Sequence[int], seen: Sequence[bool] | None = None
    ) -> NDArray[np.uint8]:
        """The picture of a position: ``owner`` per territory (a seat, ``-1`` unclaimed, below that
        none), ``armies`` per territory, ``seen`` (fog): where ``False`` the territory is grey."""
        count = len(owner)
        colours = np.empty((count + 1, 3), dtype=np.uint8)
        colours[count] = SEA
        for territory, seat in enumerate(owner):
            if seen is not None and not seen[territory]:
                colours[territory] = UNSEEN
            elif seat >= 0:
                colours[territory] = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            else:
                colours[territory] = UNCLAIMED
        picture = colours[self.index]  # -1 (the sea) takes the last row
        picture[self.edge] = (picture[self.edge] * 0.55).astype(np.uint8)
        for territory, (x, y) in enumerate(self.points):
            if not self.has_shapes:
                self._disc(picture, x, y, self.radius * 3, colours[territory])
            if armies[territory] > 0 and (seen is None or seen[territory]):
                size = self.radius * (0.75 + 0.25 * math.sqrt(min(armies[territory], 64)))
                self._disc(picture, x, y, size, (250, 250, 250))
        return picture

    def _disc(
        self,
        picture: NDArray[np.uint8],
        x: float,
        y: float,
        radius: float,
        colour: Sequence[int] | NDArray[np.uint8],
    ) -> None:
        low_y, high_y = max(0, int(y - radius)), min(self.height, int(y + radius) + 2)
        low_x, high_x = max(0, int(x - radius)), min(self.width, int(x + radius) + 2)
        if low_y >= high_y or low_x >= high_x:
            return
        rows = self._rows[low_y:high_y, low_x:high_x]
        columns = self._columns[low_y:high_y, low_x:high_x]
        inside = (rows - y) ** 2 + (columns - x) ** 2 <= radius * radius
        picture[low_y:high_y, low_x:high_x][inside] = colour


@cache
def board_picture(board: Board, width: int = WIDTH) -> BoardPicture:
    """One :class:`BoardPicture` per board and width (rasterising the shapes takes a moment)."""
    return BoardPicture(board, width)


def _shapes(
    board: Board, drawing: dict[str, Any] | None
) -> tuple[list[list[list[tuple[float, float]]]], tuple[float, float, float, float]]:
    """Each territory's rings (polygons) and the picture's bounds (left, top, right, bottom)."""
    shapes: list[list[list[tuple[float, float]]]] = []
    if drawing is not None and all(board.slug_of(t) in drawing["territories"] for t in range(len(board))):
        shapes = [_path_rings(drawing["territories"][board.slug_of(t)]["path"]) for t in range(len(board))]
        left, top, width, height = (float(v) for v in drawing["viewBox"])
        return shapes, (left, top, left + width, top + height)
    if all(t.outline for t in board.territories):
        shapes = [[list(t.outline)] for t in board.territories]
    points = [point for rings in shapes for ring in rings for point in ring] or _label_points(
        board, drawing, []
    )
    if board.size is not None:
        return shapes, (0.0, 0.0, board.size[0], board.size[1])
    xs, ys = [x for x, _ in points], [y for _, y in points]
    margin = 0.05 * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    return shapes, (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


def _label_points(
    board: Board, drawing: dict[str, Any] | None, shapes: list[list[list[tuple[float, float]]]]
) -> list[tuple[float, float]]:
    """Where each territory's disc goes: the drawing's label point, else the board's, else the
    centre of its outline, else a place on a circle."""
    points: list[tuple[float, float]] = []
    count = len(board)
    for t, territory in enumerate(board.territories):
        entry = drawing["territories"].get(board.slug_of(t)) if drawing is not None else None
        if entry is not None and "label" in entry:
            points.append((float(entry["label"][0]), float(entry["label"][1])))
        elif territory.label is not None:
            points.append(territory.label)
        elif shapes and shapes[t]:
            ring = max(shapes[t], key=len)
            points.append((sum(x for x, _ in ring) / len(ring), sum(y for _, y in ring) / len(ring)))
        else:
            angle = 2 * math.pi * t / count
            points.append((500 + 400 * math.cos(angle), 500 + 400 * math.sin(angle)))
    return points


def _path_rings(path: str) -> list[list[tuple[float, float]]]:
    """The rings of an SVG path made of ``M``, ``L`` and ``Z`` commands (the shipped drawings')."""
    rings: list[list[tuple[float, float]]] = []
    for part in re.split(r"(?=M)", path):
        numbers = [float(n) for n in _NUMBER.findall(part)]
        ring = list(zip(numbers[0::2], numbers[1::2], strict=False))
        if len(ring) >= 3:
            rings.append(ring)
    return rings


def _fill(rings: list[list[tuple[float, float]]], height: int, width: int) -> NDArray[np.bool_]:
    """The pixels inside ``rings`` (even-odd), sampled at pixel centres, row by row."""
    inside = np.zeros((height, width), dtype=bool)
    starts = np.concatenate([np.asarray(ring, dtype=np.float64) for ring in rings])
    ends = np.concatenate([np.roll(np.asarray(ring, dtype=np.float64), -1, axis=0) for ring in rings])
    x0, y0, x1, y1 = starts[:, 0], starts[:, 1], ends[:, 0], ends[:, 1]
    low, high = (
        max(0, math.floor(min(y0.min(), y1.min()))),
        min(height, math.ceil(max(y0.max(), y1.max())) + 1),
    )
    if low >= high:
        return inside
    centres = np.arange(low, high, dtype=np.float64)[:, None] + 0.5
    crosses = (y0 <= centres) != (y1 <= centres)  # rows x edges: the edge crosses the row's centre line
    with np.errstate(divide="ignore", invalid="ignore"):
        at = x0 + (centres - y0) * (x1 - x0) / (y1 - y0)
    columns = np.arange(width, dtype=np.float64) + 0.5
    for row in range(high - low):
        xs = np.sort(at[row][crosses[row]])
        for left, right in zip(xs[0::2], xs[1::2], strict=False):
            inside[low + row, (columns >= left) & (columns < right)] = True
    return inside
