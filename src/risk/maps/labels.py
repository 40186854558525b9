"""Where each territory's name goes on a drawn board, so that no name covers another name or a badge.

The web board draws every territory's army badge (a disc) at the drawing's label point, and its name
near it. Names of small, crowded territories (Europe, Central America, Australia) collide with each
other and with their neighbours' badges when each name simply sits under its badge. This pass
places the names once per board, for any drawing:

- every badge is fixed (at the label point) and so are the continents' names;
- each name gets the cheapest spot that overlaps no badge, no continent name, no name already
  placed and stays on the board. Cheap is: right under its own badge, on one line, at full size,
  over its own land. A name may wrap onto two lines, shrink to 80 %, move off-centre (over its
  own territory, then over the sea, then over a neighbour), or, when its neighbourhood is full,
  sit farther away with a leader line to its badge;
- the most crowded territories choose first, then every name is placed again among the others
  (a few rounds), which settles what the first choices left awkward.

The sizes are those board.js draws with (in the drawing's units, scaled with the board): a name
of ``NAME_SIZE`` units (bold), a badge of radius ``BADGE_RADIUS`` plus its rim. Widths are those of
DejaVu Sans Bold, the widest of the common sans-serif faces, so a narrower font only leaves more room.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

# -- type: DejaVu Sans Bold advance widths (thousandths of an em), characters 32..126 ------------------
_WIDTHS = (
    348,
    456,
    521,
    838,
    696,
    1002,
    872,
    306,
    457,
    457,
    523,
    838,
    380,
    415,
    380,
    365,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    400,
    400,
    838,
    838,
    838,
    580,
    1000,
    774,
    762,
    734,
    830,
    683,
    683,
    821,
    837,
    372,
    372,
    775,
    637,
    995,
    837,
    850,
    733,
    850,
    770,
    720,
    682,
    812,
    774,
    1103,
    771,
    724,
    725,
    457,
    365,
    457,
    838,
    500,
    500,
    675,
    716,
    593,
    716,
    678,
    435,
    716,
    712,
    343,
    343,
    665,
    343,
    1042,
    712,
    687,
    716,
    716,
    493,
    595,
    478,
    712,
    652,
    924,
    645,
    652,
    582,
    712,
    365,
    712,
    838,
)
WIDE = 1000  # any other character (accented letters are as wide as their base letter or less)
ASCENT, DESCENT = 0.928, 0.236  # of the em: the text box of one line is ASCENT + DESCENT tall
LINE_HEIGHT = 1.08  # between the baselines of a two-line name, in ems

# -- what board.js draws, in units of ``unit`` (see ``board_unit``) ------------------------------------
NAME_SIZE = 10.0  # a name's font size
NAME_HALO = 1.3  # half the dark outline drawn around a name's letters
BADGE_RADIUS = 11.0 + 1.3  # the army badge's disc and half its rim
HQ_OFFSET, HQ_RADIUS = (13.0, -12.0), 9.5  # a headquarters star beside the badge (capital games)
CONTINENT_SIZE = 13.0  # continent names: bold, letter-spaced 0.12 em, then "+bonus" 5 units on
CONTINENT_SPACING, BONUS_GAP = 0.12, 5.0

# -- the choices and their costs -------------------------------------------------------------------------
SCALES = (1.0, 0.9, 0.8)  # a name may shrink to 80 %
GAP = 1.5  # between a badge and its name
PAD = 0.6  # between a name and anything else
GRID = 2.0  # the cell of the map of which land is whose, in units of the drawing
NEAR = 0.8  # a name farther from its badge than this many badge radii gets a leader line
SEARCH = 6.0  # how far a name may go, in badge radii, with a leader line
STEP = 0.33  # the steps of that search, in badge radii
ROUNDS = 3
# The names that may look farther (the slow search, thousands of spots each), the most crowded first:
# a board of 1,000 territories would take minutes; the others keep the best spot beside their badge.
FAR_SEARCHES = 150
AMBIGUOUS = 1.0  # for each other badge as near a name as its own
FAR_ENOUGH = 2.0  # a name whose best spot beside its badge costs more looks farther too


# A board of fewer territories than the classic board's 42 has larger ones: its names and badges grow
# with them (by the square root of 42 over the count, at most SPARSE_MOST times), so that a small
# board's names are not specks in the middle of wide cells.
DENSE_TERRITORIES = 42
SPARSE_MOST = 3.0


def board_unit(view_box: Iterable[float], territories: int = 0) -> float:
    """The size unit of a board's drawing of ``territories`` territories (0: not counted), as board.js
    computes it: 1 for a 1000-wide board of 42 territories or more, larger for fewer."""
    _, _, width, height = (float(v) for v in view_box)
    unit = max(0.4, min(width, height * 1.6) / 1000)
    if 0 < territories < DENSE_TERRITORIES:
        unit *= min(SPARSE_MOST, math.sqrt(DENSE_TERRITORIES / territories))
    return unit


def text_width(text: str, size: float, spacing: float = 0.0) -> float:
    """The advance width of ``text`` at font size ``size`` (``spacing``: letter-spacing, in ems)."""
    ems = sum(_WIDTHS[ord(c) - 32] if 32 <= ord(c) < 127 else WIDE for c in text) / 1000
    return (ems + spacing * len(text)) * size


@dataclass(frozen=True, slots=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, pad: float = 0.0) -> bool:
        return (
            self.x0 < other.x1 + pad
            and other.x0 < self.x1 + pad
            and self.y0 < other.y1 + pad
            and other.y0 < self.y1 + pad
        )

    def distance(self, other: Box) -> float:
        dx = max(other.x0 - self.x1, self.x0 - other.x1, 0.0)
        dy = max(other.y0 - self.y1, self.y0 - other.y1, 0.0)
        return math.hypot(dx, dy)

    def crosses(self, line: tuple[float, float, float, float]) -> bool:
        """Whether the segment (x1, y1, x2, y2) passes through the box (Liang-Barsky clipping)."""
        x1, y1, x2, y2 = line
        low, high = 0.0, 1.0
        sides = (
            (x1 - x2, x1 - self.x0),
            (x2 - x1, self.x1 - x1),
            (y1 - y2, y1 - self.y0),
            (y2 - y1, self.y1 - y1),
        )
        for p, q in sides:
            if p == 0:
                if q < 0:
                    return False
                continue
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
            if low > high:
                return False
        return True

    def rounded(self) -> list[float]:
        return [round(v, 1) for v in (self.x0, self.y0, self.x1, self.y1)]


def around(x: float, y: float, radius: float) -> Box:
    return Box(x - radius, y - radius, x + radius, y + radius)


class BoxIndex:
    """Boxes bucketed on a grid of ``cell``-sized squares: the ones near a box without looking at
    every box (a board of 1,000 territories has 1,000 badges; each name looks at a few)."""

    def __init__(self, boxes: Iterable[Box], cell: float) -> None:
        self.cell = max(cell, 1e-6)
        self.boxes: list[Box] = []
        self.buckets: dict[tuple[int, int], list[int]] = {}
        for found in boxes:
            self.add(found)

    def add(self, found: Box) -> None:
        index = len(self.boxes)
        self.boxes.append(found)
        for key in self._keys(found, 0.0):
            self.buckets.setdefault(key, []).append(index)

    def _keys(self, found: Box, pad: float) -> list[tuple[int, int]]:
        cell = self.cell
        xs = range(math.floor((found.x0 - pad) / cell), math.floor((found.x1 + pad) / cell) + 1)
        ys = range(math.floor((found.y0 - pad) / cell), math.floor((found.y1 + pad) / cell) + 1)
        return [(gx, gy) for gx in xs for gy in ys]

    def indices(self, found: Box, pad: float = 0.0) -> set[int]:
        """The places of every box that may overlap ``found`` grown by ``pad``,
        touching included: the boxes in its cells, a few more than those."""
        buckets = self.buckets
        out: set[int] = set()
        for key in self._keys(found, pad):
            bucket = buckets.get(key)
            if bucket:
                out.update(bucket)
        return out

    def near(self, found: Box, pad: float = 0.0) -> list[Box]:
        """The boxes of :meth:`indices`, in the order they were added."""
        return [self.boxes[i] for i in sorted(self.indices(found, pad))]

    def overlaps(self, found: Box, pad: float = 0.0) -> bool:
        """Whether any box overlaps ``found`` (``Box.overlaps``, with ``pad``)."""
        buckets, boxes = self.buckets, self.boxes
        for key in self._keys(found, pad):
            for i in buckets.get(key, ()):
                if found.overlaps(boxes[i], pad):
                    return True
        return False


def continent_box(name: str, bonus: int, x: float, y: float, unit: float) -> Box:
    """The box of a continent's name and bonus, drawn centred on (x, baseline y)."""
    size = CONTINENT_SIZE * unit
    width = text_width(name.upper(), size, CONTINENT_SPACING) + BONUS_GAP * unit
    width += text_width(f"+{bonus}", size, 0.02)
    return Box(x - width / 2, y - ASCENT * size, x + width / 2, y + DESCENT * size)


# -- which land is whose ---------------------------------------------------------------------------------
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def rings(path: str) -> list[list[tuple[float, float]]]:
    """The closed rings of an SVG path made of M, L and Z commands (the drawings' paths)."""
    out = []
    for part in re.split(r"[Mm]", path):
        numbers = [float(n) for n in _NUMBER.findall(part)]
        points = list(zip(numbers[::2], numbers[1::2], strict=False))
        if len(points) >= 3:
            out.append(points)
    return out


class LandMap:
    """Which territory holds each cell of a grid over the board (0: sea), filled by scanlines."""

    def __init__(self, shapes: Mapping[str, str], x0: float, y0: float, width: float, height: float) -> None:
        self.x0, self.y0 = x0, y0
        self.cols = max(1, math.ceil(width / GRID))
        self.rows = max(1, math.ceil(height / GRID))
        # 16 bits a cell: a board has up to 1,000 territories (a byte held 255)
        self.cells = array("H", bytes(2 * self.cols * self.rows))
        self.ids = {slug: i + 1 for i, slug in enumerate(shapes)}
        self.area: dict[str, int] = {}
        for slug, path in shapes.items():
            self.area[slug] = self._fill(self.ids[slug], rings(path))

    def _fill(self, ident: int, shape: list[list[tuple[float, float]]]) -> int:
        crossings: dict[int, list[float]] = {}
        for ring in shape:
            for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
                if y1 == y2:
                    continue
                low, high = min(y1, y2), max(y1, y2)
                first = max(0, math.ceil((low - self.y0) / GRID - 0.5))
                last = min(self.rows - 1, math.ceil((high - self.y0) / GRID - 0.5) - 1)
                for row in range(first, last + 1):
                    y = self.y0 + (row + 0.5) * GRID
                    crossings.setdefault(row, []).append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
        filled = 0
        for row, xs in crossings.items():
            xs.sort()
            base = row * self.cols
            for a, b in zip(xs[::2], xs[1::2], strict=False):  # even-odd, as the SVG fills
                start = max(0, math.ceil((a - self.x0) / GRID - 0.5))
                stop = min(self.cols, math.ceil((b - self.x0) / GRID - 0.5))
                for col in range(start, stop):
                    self.cells[base + col] = ident
                filled += max(0, stop - start)
        return filled

    def shares(self, box: Box, slug: str) -> tuple[float, float]:
        """The parts of a box over other territories and over the sea (samples on the grid)."""
        own = self.ids[slug]
        nx = max(2, min(12, math.ceil((box.x1 - box.x0) / GRID)))
        ny = max(2, min(4, math.ceil((box.y1 - box.y0) / GRID)))
        foreign = sea = 0
        for j in range(ny):
            y = box.y0 + (j + 0.5) * (box.y1 - box.y0) / ny
            row = int((y - self.y0) / GRID)
            for i in range(nx):
                x = box.x0 + (i + 0.5) * (box.x1 - box.x0) / nx
                col = int((x - self.x0) / GRID)
                if not (0 <= row < self.rows and 0 <= col < self.cols):
                    sea += 1
                    continue
                cell = self.cells[row * self.cols + col]
                if cell == 0:
                    sea += 1
                elif cell != own:
                    foreign += 1
        total = nx * ny
        return foreign / total, sea / total


# -- placing -----------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Layout:
    lines: tuple[str, ...]
    scale: float
    size: float
    width: float
    height: float

    @property
    def cost(self) -> float:
        return (1.0 - self.scale) * 8 + (0.8 if len(self.lines) > 1 else 0.0)


@dataclass(frozen=True, slots=True)
class Spot:
    layout: Layout
    box: Box
    leader: tuple[float, float, float, float] | None  # from the badge's edge to the box's
    cost: float  # without the land under it, a lower bound of the whole cost

    @property
    def extent(self) -> Box:
        """The box around the name and its leader line."""
        if self.leader is None:
            return self.box
        x1, y1, x2, y2 = self.leader
        box = self.box
        return Box(min(box.x0, x1, x2), min(box.y0, y1, y2), max(box.x1, x1, x2), max(box.y1, y1, y2))

    def clear_of(self, other: Spot, pad: float) -> bool:
        """Neither the names nor their leader lines run into each other."""
        if self.box.overlaps(other.box, pad):
            return False
        if self.leader and other.box.crosses(self.leader):
            return False
        return not (other.leader and self.box.crosses(other.leader))


class Placed(dict[str, Spot]):
    """The names placed so far, by slug, with their extents on a grid: a spot is checked against
    the few placed near it, not all of them."""

    def __init__(self, cell: float) -> None:
        super().__init__()
        self.cell = max(cell, 1e-6)
        self.buckets: dict[tuple[int, int], set[str]] = {}

    def _keys(self, found: Box, pad: float) -> Iterator[tuple[int, int]]:
        cell = self.cell
        for gx in range(math.floor((found.x0 - pad) / cell), math.floor((found.x1 + pad) / cell) + 1):
            for gy in range(math.floor((found.y0 - pad) / cell), math.floor((found.y1 + pad) / cell) + 1):
                yield gx, gy

    def __setitem__(self, slug: str, spot: Spot) -> None:
        old = self.get(slug)
        if old is not None:
            for key in self._keys(old.extent, 0.0):
                self.buckets[key].discard(slug)
        super().__setitem__(slug, spot)
        for key in self._keys(spot.extent, 0.0):
            self.buckets.setdefault(key, set()).add(slug)

    def free(self, slug: str, spot: Spot, pad: float) -> bool:
        """Whether ``spot`` runs into no name placed but ``slug``'s own (``Spot.clear_of``)."""
        near: set[str] = set()
        for key in self._keys(spot.extent, pad):
            near.update(self.buckets.get(key, ()))
        near.discard(slug)
        return all(spot.clear_of(self[name], pad) for name in near)


def layouts(name: str, unit: float) -> list[Layout]:
    """The ways to set a name: one line or two (split where the lines are most even), three sizes."""
    words = name.split()
    splits: list[tuple[str, ...]] = [(name,)]
    if len(words) > 1:
        best = min(
            ((" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))),
            key=lambda pair: max(text_width(pair[0], 1), text_width(pair[1], 1)),
        )
        splits.append(best)
    out = []
    halo = NAME_HALO * unit
    for scale in SCALES:
        size = NAME_SIZE * unit * scale
        for lines in splits:
            width = max(text_width(line, size) for line in lines) + 2 * halo
            height = (ASCENT + DESCENT + LINE_HEIGHT * (len(lines) - 1)) * size + 2 * halo
            out.append(Layout(lines, scale, size, width, height))
    return out


def spots(
    anchor: tuple[float, float],
    layout: Layout,
    unit: float,
    far: bool = False,
    keep: Callable[[Box], bool] | None = None,
) -> list[Spot]:
    """Where a name may go around its badge: beside it, or (``far``) on a grid around it, farther
    ones with a leader line; only the boxes ``keep`` keeps, if given."""
    bx, by = anchor
    radius = BADGE_RADIUS * unit
    badge = around(bx, by, radius)
    w, h = layout.width, layout.height
    reach = radius + GAP * unit
    preferred = (bx, by + reach + h / 2)
    centres = [
        preferred,
        (bx, by - reach - h / 2),
        (bx + reach + w / 2, by),
        (bx - reach - w / 2, by),
    ]
    for shift in (0.25, 0.5):
        for side in (-1, 1):
            centres.append((bx + side * shift * w, by + reach + h / 2))
            centres.append((bx + side * shift * w, by - reach - h / 2))
    for sx in (-1, 1):
        for sy in (-1, 1):
            centres.append((bx + sx * (reach * 0.7 + w / 2), by + sy * (reach * 0.7 + h / 2)))
    if far:
        step = STEP * radius
        count = int(SEARCH / STEP)
        centres = [
            (bx + i * step, by + j * step * 0.6)
            for i in range(-count, count + 1)
            for j in range(-count, count + 1)
        ]
    out = []
    for cx, cy in centres:
        box = Box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        if box.overlaps(badge) or (keep is not None and not keep(box)):
            continue
        leader = leader_line(box, anchor, radius) if box.distance(badge) > NEAR * radius else None
        distance = math.hypot(cx - preferred[0], cy - preferred[1]) / unit
        cost = layout.cost + 0.04 * distance + (1.5 if leader else 0.0)
        out.append(Spot(layout, box, leader, cost))
    return out


def hangs_under(box: Box, badge: Box, radius: float) -> bool:
    """Whether a box sits right under a badge, where that badge's own name would go."""
    middle = (badge.x0 + badge.x1) / 2
    return box.x0 <= middle <= box.x1 and 0 <= box.y0 - badge.y1 <= 1.5 * radius


def leader_line(box: Box, anchor: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    """From the badge's edge toward the box's nearest point, to that point."""
    bx, by = anchor
    nx = min(max(bx, box.x0), box.x1)
    ny = min(max(by, box.y0), box.y1)
    d = math.hypot(nx - bx, ny - by) or 1.0
    return (bx + (nx - bx) / d * radius, by + (ny - by) / d * radius, nx, ny)


def place_names(
    drawing: Mapping[str, Any], names: Mapping[str, str], continents: Mapping[str, int]
) -> dict[str, dict[str, Any]]:
    """Each drawn territory's name: where it goes (``x``, ``y``: the middle of the first line's
    baseline), its ``size``, its ``lines``, the ``line_height`` between them, its ``box`` and, when it
    sits away from its badge, a ``leader`` line (badge edge to box edge).

    ``names`` maps the drawing's territory slugs to their names; ``continents`` maps the continents
    whose names the drawing places (``drawing["continents"]``) to their bonuses.
    """
    x0, y0, width, height = (float(v) for v in drawing["viewBox"])
    unit = board_unit(drawing["viewBox"], len(drawing["territories"]))
    drawn = {
        slug: t
        for slug, t in drawing["territories"].items()
        if slug in names and t.get("path") and isinstance(t.get("label"), list)
    }
    anchors = {slug: (float(t["label"][0]), float(t["label"][1])) for slug, t in drawn.items()}
    land = LandMap({slug: t["path"] for slug, t in drawn.items()}, x0, y0, width, height)
    radius = BADGE_RADIUS * unit
    badges = [around(x, y, radius) for x, y in anchors.values()]
    fixed = list(badges)
    for name, row in (drawing.get("continents") or {}).items():
        if name in continents and isinstance(row.get("label"), list):
            x, y = (float(v) for v in row["label"][:2])
            fixed.append(continent_box(name, continents[name], x, y, unit))
    dx, dy = HQ_OFFSET
    stars = BoxIndex(
        (around(x + dx * unit, y + dy * unit, HQ_RADIUS * unit) for x, y in anchors.values()), 4 * radius
    )
    margin = 1.0 * unit
    frame = Box(x0 + margin, y0 + margin, x0 + width - margin, y0 + height - margin)
    pad = PAD * unit

    def allowed(slug: str, far: bool) -> list[Spot]:
        sets = layouts(names[slug], unit)
        region = around(*anchors[slug], SEARCH * radius + max(layout.width for layout in sets))
        near = BoxIndex((other for other in fixed_index.near(region) if other.overlaps(region)), 2 * radius)
        own = around(*anchors[slug], radius)
        others = {i for i in badge_index.indices(region) if i != place[slug] and badges[i].overlaps(region)}

        def keep(box: Box) -> bool:
            return (
                frame.x0 <= box.x0
                and box.x1 <= frame.x1
                and frame.y0 <= box.y0
                and box.y1 <= frame.y1
                and not near.overlaps(box, pad)
            )

        options = []
        for spot in (spot for layout in sets for spot in spots(anchors[slug], layout, unit, far, keep)):
            # a name as near another badge as its own, or hanging under another badge (where names
            # go), reads as that one's: only with a leader line, and rather not
            mine = spot.box.distance(own)
            reach = max(mine + GAP * unit, 1.5 * radius)  # the badges farther cannot count
            closer = sum(
                1
                for i in badge_index.indices(spot.box, reach)
                if i in others
                and (
                    spot.box.distance(badges[i]) <= mine + GAP * unit
                    or hangs_under(spot.box, badges[i], radius)
                )
            )
            leader, cost = spot.leader, spot.cost + AMBIGUOUS * closer
            if closer and leader is None:
                leader, cost = leader_line(spot.box, anchors[slug], radius), cost + 1.5
            options.append(Spot(spot.layout, spot.box, leader, cost))
        return sorted(options, key=lambda spot: spot.cost)

    # Looked up on grids: a board of 1,000 territories would compare every name with every badge.
    fixed_index = BoxIndex(fixed, 4 * radius)
    badge_index = BoxIndex(badges, 4 * radius)
    place = {slug: i for i, slug in enumerate(anchors)}
    # The spots beside each badge; the farther ones only for the names that need them (it is slow).
    candidates = {slug: allowed(slug, far=False) for slug in anchors}
    searched: set[str] = set()

    known: dict[tuple[str, Box], float] = {}

    def full_cost(slug: str, spot: Spot) -> float:
        key = (slug, spot.box)
        if key not in known:
            known[key] = land_cost(slug, spot)
        return spot.cost + known[key]

    def land_cost(slug: str, spot: Spot) -> float:
        foreign, sea = land.shares(spot.box, slug)
        cost = 6 * foreign + 2 * sea
        if stars.overlaps(spot.box):
            cost += 0.6  # a headquarters star may be drawn there
        return cost

    def best(slug: str, placed: Placed) -> Spot | None:
        chosen = nearest(slug, placed)
        if (
            slug not in searched
            and len(searched) < FAR_SEARCHES
            and (chosen is None or full_cost(slug, chosen) > FAR_ENOUGH)
        ):
            searched.add(slug)
            candidates[slug] = sorted(candidates[slug] + allowed(slug, far=True), key=lambda spot: spot.cost)
            chosen = nearest(slug, placed)
        return chosen

    def nearest(slug: str, placed: Placed) -> Spot | None:
        chosen, lowest = None, math.inf
        for spot in candidates[slug]:
            if spot.cost >= lowest:
                break
            if not placed.free(slug, spot, pad):
                continue
            if spot.leader and any(
                badges[i].crosses(spot.leader) for i in badge_index.indices(spot.extent) if i != place[slug]
            ):
                continue
            cost = full_cost(slug, spot)
            if cost < lowest:
                chosen, lowest = spot, cost
        return chosen

    def crowding(slug: str) -> tuple[int, int]:
        x, y = anchors[slug]
        points = [points_of[i] for i in badge_index.indices(around(x, y, 60 * unit))]
        near = sum(1 for a, b in points if math.hypot(a - x, b - y) < 60 * unit)
        return (-near, land.area[slug])

    points_of = list(anchors.values())
    order = sorted(anchors, key=crowding)
    placed = Placed(4 * radius)
    for slug in order:
        spot = best(slug, placed)
        if spot is not None:
            placed[slug] = spot
    for _ in range(ROUNDS):
        changed = False
        for slug in order:
            spot = best(slug, placed)
            if spot is not None and spot != placed.get(slug):
                placed[slug] = spot
                changed = True
        if not changed:
            break

    out: dict[str, dict[str, Any]] = {}
    for slug in anchors:
        spot = placed.get(slug)
        if spot is None:  # nowhere free at all: under the badge, as before (a board too crowded)
            layout = layouts(names[slug], unit)[0]
            x, y = anchors[slug]
            top = y + radius + GAP * unit
            box = Box(x - layout.width / 2, top, x + layout.width / 2, top + layout.height)
            spot = Spot(layout, box, None, 0)
        out[slug] = described(spot, unit)
    return out


def described(spot: Spot, unit: float) -> dict[str, Any]:
    layout, box = spot.layout, spot.box
    row: dict[str, Any] = {
        "x": round((box.x0 + box.x1) / 2, 1),
        "y": round(box.y0 + NAME_HALO * unit + ASCENT * layout.size, 1),
        "size": round(layout.size, 2),
        "lines": list(layout.lines),
        "line_height": round(LINE_HEIGHT * layout.size, 2),
        "box": box.rounded(),
    }
    if spot.leader:
        row["leader"] = [round(v, 1) for v in spot.leader]
    return row
