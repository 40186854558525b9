"""Generated boards: a seeded, valid, drawable and playable board of any size (issue 26, item 3).

``generate_board(territories=42, continents=6, seed=7)`` returns a board in the JSON format of
``classic.json`` (``risk.maps.Board`` loads it), with the optional drawing fields: a ``label`` point
and an ``outline`` polygon per territory and the drawing's ``size`` (width, height; x to the right,
y downwards, as in SVG). The same arguments give the same board, byte for byte, on the same versions
of Python and shapely.

How a board is made (the default shape, ``"world"``):

1. Points: seeded random points in a rectangle, spread evenly by Lloyd relaxation (each point moved
   to the centre of its Voronoi cell, twice). There are about twice as many cells as territories.
2. Land: a few land masses grown cell by cell from seed cells far apart, compact, kept apart by sea,
   until they hold ``territories`` cells; the other cells are sea. The land shape (the union of its
   cells, its corners rounded) clips the cells: each land cell is a territory.
3. Links: territories whose outlines share an edge are neighbours; sea links join the land masses
   (the shortest crossings, as a spanning tree, and a few more) so the board is connected.
4. Continents: grown from seed territories far apart, the smallest continent first, over land
   links before sea links: connected, of balanced sizes. A continent's bonus follows its size and
   its border territories as the classic board's do (:func:`continent_bonus`).
5. Names from syllables (unique, pronounceable), card symbols balanced, two wild cards.

Two degenerate shapes, for tests of the engine and the bots on unusual boards: ``"chain"`` (the
territories in a row, each linked to the next: the two ends have one link each) and ``"star"`` (a
hub island linked by sea to every other territory, each an island of one territory with one link).
With as many continents as territories, every continent holds one territory.

Needs shapely 2 (the ``boards`` extra: ``pip install 'risk[boards]'``); without it,
:func:`generate_board` raises :class:`GeneratorUnavailableError` saying so.
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Sequence
from typing import Any

from risk.errors import RiskError
from risk.maps import SYMBOLS, normalise
from risk.maps.armies import default_players, starting_armies
from risk.maps.validate import MAX_BONUS
from risk.maps.validate import MAX_TERRITORIES as MAX_BOARD_TERRITORIES

try:
    import shapely
    from shapely.geometry import MultiPoint, Point, Polygon, box
    from shapely.geometry.base import BaseGeometry
    from shapely.geometry.polygon import orient
    from shapely.ops import polylabel, unary_union

    SHAPELY_MISSING: str | None = None
except ImportError as error:  # the optional extra is not installed
    SHAPELY_MISSING = str(error)

MIN_TERRITORIES = 6
MAX_TERRITORIES = MAX_BOARD_TERRITORIES  # what a board may have (time grows: 1,000 take a few seconds)
MIN_CONTINENTS = 1
MAX_CONTINENTS = 24
MIN_PLAYERS, MAX_PLAYERS = 2, 10
SHAPES = ("world", "chain", "star")
WILD_CARDS = 2

CELL = 80.0  # the side of an average territory, in drawing units: room for a name and an army badge
LAND_SHARE = 0.5  # about half of the cells of a "world" board are land
LLOYD_STEPS = 2
SHARED_EDGE = 2.0  # outlines touching along less than this (a corner) are not neighbours
DECIMALS = 1  # coordinates are rounded: the output stays small and the same on every machine


class GeneratorUnavailableError(RiskError):
    """Board generation needs shapely, an optional dependency, which is not installed."""


def generate_board(
    territories: int,
    continents: int,
    seed: int,
    players: tuple[int, int] | None = None,
    *,
    shape: str = "world",
) -> dict[str, Any]:
    """A new board: ``territories`` territories in ``continents`` continents, made from ``seed``.

    ``players`` (lowest, highest) is written as the board's ``players`` field, the player counts it
    is meant for (by default 2 up to 6, at least 4 territories a player), with a ``starting_armies``
    table for them (:func:`starting_armies`). ``shape`` is ``"world"`` (land masses in a sea), or a degenerate
    ``"chain"`` or ``"star"`` (see the module's notes). Raises :class:`ValueError` (a
    :class:`~risk.errors.RiskError`) for a request no board can meet, saying what to change.
    """
    _check_request(territories, continents, seed, players, shape)
    if SHAPELY_MISSING is not None:
        raise GeneratorUnavailableError(
            "generating a board needs shapely 2, which is not installed "
            f"(pip install 'risk[boards]' or pip install 'shapely>=2'): {SHAPELY_MISSING}"
        )
    rng = random.Random(f"risk-board:{shape}:{territories}:{continents}:{seed}")
    if shape == "chain":
        cells, size = _chain_cells(territories, rng)
    elif shape == "star":
        cells, size = _star_cells(territories, rng)
    else:
        cells, size = _world_cells(territories, rng)
    labels = [_label_point(cell) for cell in cells]
    land_links = _shared_edges(cells)
    if shape == "star":  # the hub reaches every island: the islands' one link each
        sea_links = [(0, island) for island in range(1, len(cells))]
    else:
        sea_links = _sea_links(labels, land_links, len(cells), extra=shape == "world")
    members = _grow_continents(len(cells), continents, land_links, sea_links, labels, rng)
    return _board_json(
        cells,
        labels,
        size,
        land_links,
        sea_links,
        members,
        rng,
        players,
        name=f"generated-{shape}-{territories}-{continents}-{seed}",
        title=f"Generated {shape} board: {territories} territories, {continents} continents, seed {seed}",
    )


def _check_request(
    territories: int, continents: int, seed: int, players: tuple[int, int] | None, shape: str
) -> None:
    def whole(value: object) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if not whole(territories) or not MIN_TERRITORIES <= territories <= MAX_TERRITORIES:
        raise ValueError(
            f"cannot generate a board of {territories!r} territories: "
            f"ask for {MIN_TERRITORIES} to {MAX_TERRITORIES}"
        )
    if not whole(continents) or not MIN_CONTINENTS <= continents <= MAX_CONTINENTS:
        raise ValueError(
            f"cannot generate a board of {continents!r} continents: "
            f"ask for {MIN_CONTINENTS} to {MAX_CONTINENTS}"
        )
    if continents > territories:
        raise ValueError(
            f"cannot split {territories} territories into {continents} continents: a continent needs a "
            f"territory; ask for at most {territories} continents"
        )
    if not whole(seed):
        raise ValueError(f"the seed must be a whole number, not {seed!r}")
    if shape not in SHAPES:
        raise ValueError(f"no board shape called {shape!r}; shapes: {', '.join(SHAPES)}")
    if players is not None:
        if not isinstance(players, tuple | list) or len(players) != 2 or not all(whole(p) for p in players):
            raise ValueError(f"players must be a pair (fewest, most), not {players!r}")
        low, high = players
        if not MIN_PLAYERS <= low <= high <= MAX_PLAYERS:
            raise ValueError(
                f"cannot make a board for {low} to {high} players: ask for {MIN_PLAYERS} to {MAX_PLAYERS}, "
                "the fewest first"
            )
        if high > territories:
            raise ValueError(
                f"{territories} territories cannot hold {high} players (each needs a territory): "
                f"ask for at least {high} territories or at most {territories} players"
            )


# -- the cells: one polygon per territory --------------------------------------------------------


def _voronoi(points: Sequence[tuple[float, float]], frame: BaseGeometry) -> list[Polygon]:
    """The Voronoi cell of each point, clipped to ``frame``, in the points' order."""
    diagram = shapely.voronoi_polygons(MultiPoint(list(points)), extend_to=frame)
    polygons = list(diagram.geoms)
    tree = shapely.STRtree(polygons)
    cells: list[Polygon] = []
    for x, y in points:
        point = Point(x, y)
        found = [int(i) for i in tree.query(point, predicate="intersects")]
        owner = min(found, key=lambda i: polygons[i].distance(point)) if found else 0
        cells.append(_largest(polygons[owner].intersection(frame)))
    return cells


def _largest(geometry: BaseGeometry) -> Polygon:
    """The largest polygon of a geometry (clipping can cut a cell in pieces; the rest is dropped)."""
    if isinstance(geometry, Polygon):
        return geometry
    parts = [g for g in shapely.get_parts(geometry) if isinstance(g, Polygon)]
    if not parts:
        return Polygon()
    return max(parts, key=lambda p: p.area)


def _relaxed_points(count: int, width: float, height: float, rng: random.Random) -> list[tuple[float, float]]:
    """``count`` random points in the rectangle, evened out by Lloyd relaxation."""
    frame = box(0, 0, width, height)
    points = [(rng.uniform(0, width), rng.uniform(0, height)) for _ in range(count)]
    for _ in range(LLOYD_STEPS):
        points = [(c.centroid.x, c.centroid.y) for c in _voronoi(points, frame)]
    return points


def _world_cells(territories: int, rng: random.Random) -> tuple[list[Polygon], tuple[int, int]]:
    """Land masses in a sea: the territories' cells, and the drawing's size."""
    total = max(territories + 6, round(territories / LAND_SHARE))
    area = total * CELL * CELL
    width = math.sqrt(area * 1.5)
    height = area / width
    frame = box(0, 0, width, height)
    cells = _voronoi(_relaxed_points(total, width, height, rng), frame)
    land = _grow_land(cells, territories, width, height, rng)
    land_cells = [cells[i] for i in land]
    # Round the coast: an opening (shrink, then grow back) of the land shape, which clips the cells.
    radius = CELL * 0.12
    coast = unary_union(land_cells).buffer(-radius, quad_segs=4).buffer(radius, quad_segs=4)
    clipped = []
    for cell in land_cells:
        inside = _largest(cell.intersection(coast))
        # A cell the rounding would cut down to a sliver keeps its own shape.
        clipped.append(inside if inside.area >= 0.5 * cell.area else cell)
    return clipped, (math.ceil(width), math.ceil(height))


def _grow_land(
    cells: list[Polygon], territories: int, width: float, height: float, rng: random.Random
) -> list[int]:
    """Which cells are land: a few compact masses, apart, grown from cells far from each other."""
    adjacency = _adjacency(len(cells), _shared_edges(cells))
    on_frame = [
        c.bounds[0] <= 1 or c.bounds[1] <= 1 or c.bounds[2] >= width - 1 or c.bounds[3] >= height - 1
        for c in cells
    ]
    masses = 1 if territories < 14 else rng.choice([1, 2, 2, 3, 3, min(4, 1 + territories // 25)])
    centres = [(c.centroid.x, c.centroid.y) for c in cells]
    inland = [i for i in range(len(cells)) if not on_frame[i]] or list(range(len(cells)))
    # The first mass starts near the middle (a lone mass then sits in its sea), the others far off.
    middle = (rng.uniform(0.35, 0.65) * width, rng.uniform(0.35, 0.65) * height)
    seeds = [min(inland, key=lambda i: (math.dist(centres[i], middle), i))]
    while len(seeds) < masses:
        seeds.append(max(inland, key=lambda i: (min(math.dist(centres[i], centres[s]) for s in seeds), -i)))
    weights = [rng.uniform(1.0, 2.0) for _ in seeds]
    targets = _split(territories, weights)
    mass_of = [-1] * len(cells)
    for m, s in enumerate(seeds):
        mass_of[s] = m
    sizes = [1] * len(seeds)
    apart = True  # masses keep a cell of sea between them while they can
    while sum(sizes) < territories:
        options: list[tuple[float, float, int]] = []
        for m in range(len(seeds)):
            if sizes[m] >= targets[m] and any(sizes[o] < targets[o] for o in range(len(seeds))):
                continue
            for n in _frontier(mass_of, m, adjacency):
                if apart and any(mass_of[x] not in (-1, m) for x in adjacency[n]):
                    continue
                same = sum(1 for x in adjacency[n] if mass_of[x] == m)
                score = same + rng.random() * 1.5 - (3.0 if on_frame[n] else 0.0)
                options.append((sizes[m] / targets[m], -score, n * len(seeds) + m))
        if not options:
            if not apart:
                targets = [max(t, s + 1) for t, s in zip(targets, sizes, strict=True)]
            apart = False
            continue
        _, _, code = min(options)
        n, m = divmod(code, len(seeds))
        mass_of[n] = m
        sizes[m] += 1
    return [i for i in range(len(cells)) if mass_of[i] >= 0]


def _frontier(group_of: Sequence[int], group: int, adjacency: Sequence[Sequence[int]]) -> list[int]:
    """The cells in no group yet (-1) next to a cell of ``group``, in order."""
    return sorted({n for i, g in enumerate(group_of) if g == group for n in adjacency[i] if group_of[n] < 0})


def _chain_cells(territories: int, rng: random.Random) -> tuple[list[Polygon], tuple[int, int]]:
    """Territories in a row: vertical strips, each touching the one before and the one after."""
    margin, step, depth = CELL * 0.4, CELL * 0.9, CELL * 1.1
    width, height = territories * step + 2 * margin, depth + 2 * margin
    xs = [margin + (i + 0.5) * step + rng.uniform(-0.2, 0.2) * step for i in range(territories)]
    points = [(x, height / 2) for x in xs]
    land = box(margin, margin, width - margin, height - margin).buffer(-margin / 2).buffer(margin / 2)
    cells = [_largest(c.intersection(land)) for c in _voronoi(points, box(0, 0, width, height))]
    return cells, (math.ceil(width), math.ceil(height))


def _star_cells(territories: int, rng: random.Random) -> tuple[list[Polygon], tuple[int, int]]:
    """A hub island in the middle and one small island for each other territory around it."""
    radius = CELL * 0.35
    islands = territories - 1
    ring = max(CELL * 2.2, islands * radius * 2.8 / (2 * math.pi))
    side = 2 * (ring + 2 * radius)
    centre = side / 2
    spin = rng.uniform(0, 2 * math.pi)
    points = [(centre, centre)] + [
        (
            centre + ring * math.cos(spin + 2 * math.pi * k / islands),
            centre + ring * math.sin(spin + 2 * math.pi * k / islands),
        )
        for k in range(islands)
    ]
    discs = [Point(points[0]).buffer(radius * 1.6, quad_segs=6)]
    discs += [Point(p).buffer(radius * rng.uniform(0.8, 1.0), quad_segs=4) for p in points[1:]]
    land = unary_union(discs)
    cells = [_largest(c.intersection(land)) for c in _voronoi(points, box(0, 0, side, side))]
    return cells, (math.ceil(side), math.ceil(side))


def _label_point(cell: Polygon) -> tuple[float, float]:
    """Where a territory's name goes: the point inside it farthest from its edges."""
    point = polylabel(cell, tolerance=1.0)
    return (point.x, point.y)


# -- the links --------------------------------------------------------------------------------------


def _shared_edges(cells: Sequence[Polygon]) -> list[tuple[int, int]]:
    """The pairs of cells whose outlines share an edge (not just a corner), lowest index first."""
    tree = shapely.STRtree(list(cells))
    pairs: list[tuple[int, int]] = []
    for i, cell in enumerate(cells):
        for j in sorted(int(j) for j in tree.query(cell.buffer(0.5), predicate="intersects")):
            if j > i and cell.boundary.intersection(cells[j].boundary).length >= SHARED_EDGE:
                pairs.append((i, j))
    return pairs


def _adjacency(count: int, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    adjacency: list[list[int]] = [[] for _ in range(count)]
    for a, b in pairs:
        adjacency[a].append(b)
        adjacency[b].append(a)
    return [sorted(n) for n in adjacency]


def _components(count: int, pairs: Sequence[tuple[int, int]]) -> list[int]:
    """The connected part each territory is in, numbered from 0 in order of first territory."""
    adjacency = _adjacency(count, pairs)
    part = [-1] * count
    parts = 0
    for start in range(count):
        if part[start] >= 0:
            continue
        part[start] = parts
        queue = deque([start])
        while queue:
            for n in adjacency[queue.popleft()]:
                if part[n] < 0:
                    part[n] = parts
                    queue.append(n)
        parts += 1
    return part


def _sea_links(
    labels: Sequence[tuple[float, float]], land: Sequence[tuple[int, int]], count: int, extra: bool
) -> list[tuple[int, int]]:
    """Links across the sea that connect the land masses: the shortest crossings between masses
    (Kruskal's spanning tree), and, with ``extra``, a second crossing for every two masses."""
    part = _components(count, land)
    crossings = sorted(
        (math.dist(labels[a], labels[b]), a, b)
        for a in range(count)
        for b in range(a + 1, count)
        if part[a] != part[b]
    )
    joined = list(range(max(part) + 1))

    def root(p: int) -> int:
        while joined[p] != p:
            p = joined[p]
        return p

    links: list[tuple[int, int]] = []
    spare: list[tuple[int, int]] = []
    used_pairs: set[tuple[int, int]] = set()
    for _, a, b in crossings:
        ra, rb = root(part[a]), root(part[b])
        masses = (min(part[a], part[b]), max(part[a], part[b]))
        if ra != rb:
            joined[ra] = rb
            links.append((a, b))
            used_pairs.add(masses)
        elif masses not in used_pairs and len(spare) < (max(part) + 1) // 2:
            spare.append((a, b))
            used_pairs.add(masses)
    # Never two sea links from one territory to the same mass: the spare crossings are other masses'.
    return links + (spare if extra else [])


# -- the continents -------------------------------------------------------------------------------


def _grow_continents(
    count: int,
    continents: int,
    land: Sequence[tuple[int, int]],
    sea: Sequence[tuple[int, int]],
    labels: Sequence[tuple[float, float]],
    rng: random.Random,
) -> list[list[int]]:
    """The territories of each continent: connected regions of balanced sizes, grown over land links
    first, from seed territories spread over the land masses in proportion to their sizes."""
    by_land = _adjacency(count, land)
    by_any = _adjacency(count, [*land, *sea])
    part = _components(count, land)
    masses = max(part) + 1
    mass_sizes = [part.count(m) for m in range(masses)]
    # Each mass gets seeds in proportion to its size (the largest masses first when too few).
    order = sorted(range(masses), key=lambda m: (-mass_sizes[m], m))
    seeds_in = [0] * masses
    for m in order[:continents]:
        seeds_in[m] = 1
    spare = continents - sum(seeds_in)
    if spare:
        extra = _split(spare + sum(seeds_in), [float(s) for s in mass_sizes])
        for _ in range(spare):  # hand out one at a time to the mass furthest below its share
            m = max(range(masses), key=lambda m: (extra[m] - seeds_in[m], mass_sizes[m] - seeds_in[m], -m))
            if seeds_in[m] >= mass_sizes[m]:
                m = max(range(masses), key=lambda m: (mass_sizes[m] - seeds_in[m], -m))
            seeds_in[m] += 1
    seeds: list[int] = []
    for m in range(masses):
        members = [t for t in range(count) if part[t] == m]
        seeds += _spread_seeds(members, seeds_in[m], by_land, rng)
    continent_of = [-1] * count
    for c, s in enumerate(seeds):
        continent_of[s] = c
    sizes = [1] * continents
    left = count - continents
    while left:
        best: tuple[int, float, int, int] | None = None
        for adjacency in (by_land, by_any):
            for c in sorted(range(continents), key=lambda c: (sizes[c], c)):
                frontier = _frontier(continent_of, c, adjacency)
                for n in frontier:
                    together = sum(1 for x in by_any[n] if continent_of[x] == c)
                    key = (sizes[c], -(together + rng.random() * 0.5), n, c)
                    if best is None or key < best:
                        best = key
                if best is not None:
                    break
            if best is not None:
                break
        assert best is not None, "the board is connected, so some continent can grow"
        _, _, n, c = best
        continent_of[n] = c
        sizes[c] += 1
        left -= 1
    regions = [[t for t in range(count) if continent_of[t] == c] for c in range(continents)]
    # West to east, then north to south: a stable order people can read on the drawing.
    return sorted(
        regions,
        key=lambda ts: (
            round(sum(labels[t][0] for t in ts) / len(ts) / CELL / 3),
            sum(labels[t][1] for t in ts) / len(ts),
        ),
    )


def _spread_seeds(
    members: list[int], wanted: int, adjacency: Sequence[Sequence[int]], rng: random.Random
) -> list[int]:
    """``wanted`` territories of one land mass far apart (farthest-point, by steps over the links)."""
    if wanted <= 0:
        return []
    seeds = [rng.choice(members)]
    nearest = _steps_from(seeds[0], adjacency)
    while len(seeds) < wanted:
        far = max(members, key=lambda t: (nearest.get(t, 0), -t))
        seeds.append(far)
        for t, d in _steps_from(far, adjacency).items():
            nearest[t] = min(nearest.get(t, d), d)
    return seeds


def _steps_from(start: int, adjacency: Sequence[Sequence[int]]) -> dict[int, int]:
    steps = {start: 0}
    queue = deque([start])
    while queue:
        t = queue.popleft()
        for n in adjacency[t]:
            if n not in steps:
                steps[n] = steps[t] + 1
                queue.append(n)
    return steps


def continent_bonus(size: int, borders: int) -> int:
    """A continent's bonus from its territories and its border territories (those with a neighbour
    outside it): ``(2 size + 4 borders) // 5 - 1``, at least 1 and at most a board's 100. On the
    classic board this gives North America 5, South America 2, Europe 5, Africa 3, Asia 7: its
    bonuses but Australia's (1, not 2).
    """
    return min(MAX_BONUS, max(1, (2 * size + 4 * borders) // 5 - 1))


def _split(total: int, weights: Sequence[float]) -> list[int]:
    """``total`` shared in proportion to ``weights`` (largest remainders), each share at least 1."""
    scale = total / sum(weights)
    shares = [max(1, int(w * scale)) for w in weights]
    order = sorted(range(len(weights)), key=lambda i: (-(weights[i] * scale - int(weights[i] * scale)), i))
    k = 0
    while sum(shares) < total:
        shares[order[k % len(order)]] += 1
        k += 1
    while sum(shares) > total:
        biggest = max(range(len(shares)), key=lambda i: (shares[i], -i))
        shares[biggest] -= 1
    return shares


# -- names ------------------------------------------------------------------------------------------

_ONSETS = (
    "b",
    "d",
    "g",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "gr",
    "kr",
    "tr",
    "st",
    "th",
    "sh",
    "h",
    "f",
    "",
)
_VOWELS = ("a", "e", "i", "o", "u", "a", "e", "o", "ai", "ea", "ou", "y")
_ENDINGS = (
    "n",
    "r",
    "l",
    "s",
    "th",
    "nd",
    "rn",
    "sk",
    "x",
    "ria",
    "mar",
    "dor",
    "ven",
    "gard",
    "land",
    "heim",
    "los",
    "tis",
    "ra",
    "na",
    "via",
    "lia",
    "stan",
    "mir",
)


def _names(count: int, rng: random.Random, taken: set[str]) -> list[str]:
    """``count`` new pronounceable names (one to three syllables, then an ending), unique as board
    look-ups see them, none starting as a wild card's or a neutral's notation does."""
    names: list[str] = []
    while len(names) < count:
        syllables = rng.choice((1, 2, 2, 2, 3))
        word = "".join(rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables))
        word += rng.choice(_ENDINGS)
        key = normalise(word)
        if 4 <= len(word) <= 10 and key not in taken and not key.startswith(("wild", "neutral")):
            taken.add(key)
            names.append(word.capitalize())
    return names


# -- the board's JSON --------------------------------------------------------------------------------


def _board_json(
    cells: Sequence[Polygon],
    labels: Sequence[tuple[float, float]],
    size: tuple[int, int],
    land: Sequence[tuple[int, int]],
    sea: Sequence[tuple[int, int]],
    members: Sequence[Sequence[int]],
    rng: random.Random,
    players: tuple[int, int] | None,
    name: str,
    title: str,
) -> dict[str, Any]:
    count = len(cells)
    taken: set[str] = set()
    territory_names = _names(count, rng, taken)
    continent_names = _names(len(members), rng, taken)

    # Territories in the file: continent by continent, north to south, west to east.
    def reading(t: int) -> tuple[int, float]:
        return (round(labels[t][1] / CELL), labels[t][0])

    order = [t for ts in members for t in sorted(ts, key=reading)]
    position = {t: i for i, t in enumerate(order)}
    continent_of = {t: c for c, ts in enumerate(members) for t in ts}
    symbols = [SYMBOLS[i % len(SYMBOLS)] for i in range(count)]
    rng.shuffle(symbols)
    neighbours = _adjacency(count, [*land, *sea])

    def point(x: float, y: float) -> list[float]:
        return [round(x, DECIMALS), round(y, DECIMALS)]

    territory_rows = []
    for i, t in enumerate(order):
        outline = orient(cells[t], sign=1.0).exterior.coords[:-1]  # counter-clockwise, not closed again
        territory_rows.append(
            {
                "name": territory_names[i],
                "continent": continent_names[continent_of[t]],
                "card": symbols[i],
                "label": point(*labels[t]),
                "outline": [point(x, y) for x, y in outline],
            }
        )
    continent_rows = []
    for c, ts in enumerate(members):
        inside = set(ts)
        borders = sum(1 for t in ts if any(n not in inside for n in neighbours[t]))
        continent_rows.append(
            {
                "name": continent_names[c],
                "bonus": continent_bonus(len(ts), borders),
                "territories": [territory_names[position[t]] for t in sorted(ts, key=position.__getitem__)],
            }
        )
    links = sorted(
        (min(position[a], position[b]), max(position[a], position[b]), by)
        for pairs, by in ((land, "border"), (sea, "sea"))
        for a, b in pairs
    )
    low, high = players if players is not None else default_players(len(territory_rows))
    return {
        "format": 1,
        "name": name,
        "title": title,
        "players": {"min": low, "max": high},
        "starting_armies": starting_armies(len(territory_rows), low, high),
        "deck": {"wilds": WILD_CARDS, "symbols": "listed"},
        "size": list(size),
        "continents": continent_rows,
        "territories": territory_rows,
        "links": [{"between": [territory_names[a], territory_names[b]], "by": by} for a, b, by in links],
    }


__all__ = [
    "MAX_CONTINENTS",
    "MAX_TERRITORIES",
    "MIN_CONTINENTS",
    "MIN_TERRITORIES",
    "SHAPES",
    "GeneratorUnavailableError",
    "continent_bonus",
    "default_players",
    "generate_board",
    "starting_armies",
]
