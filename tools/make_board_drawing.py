"""Build the drawing of the classic board: ``src/risk/maps/drawings/classic.json``.

The web app draws the 42 territories of the classic board as an SVG. This script makes that
drawing from real coastlines and borders, so that the board reads as the board game's world map.

Data
    Natural Earth's 1:50m "Admin 0 - countries" (version 4.1.0), as the TopoJSON file
    ``countries-50m.json`` of the npm package ``world-atlas@2.0.2`` (Mike Bostock's
    redistribution, ISC licence). Natural Earth is public domain: "No permission is needed to
    use Natural Earth. Crediting the authors is unnecessary." (naturalearthdata.com/about/terms-
    of-use). Nothing else is used: no commercial board and no other game's art.

Method
    1. The TopoJSON arcs are decoded and projected with the Miller cylindrical projection
       (longitudes -173 to 193, so that the Americas are on the left, Asia and Australia on the
       right, and the Bering strait is the left and right edge of the map: Alaska-Kamchatka is
       the sea-line that wraps around). Latitudes 84N to 56S, Antarctica left out.
    2. Each arc is simplified (Douglas-Peucker) once, before the countries are assembled, so
       neighbouring territories keep exactly the same border.
    3. Countries are merged into territories (``RULES``). Countries that hold several territories
       (Canada, the USA, Russia, Kazakhstan, China, Australia, ...) are cut with straight
       longitude/latitude lines; their islands go whole to the territory whose region holds them.
       Far-away islands and countries that are on no territory (New Zealand, the Pacific,
       Antarctica...) are left out.
    4. Each territory gets a label point (the pole of inaccessibility of its largest piece), each
       continent a label point in the sea, and every sea link of ``classic.json`` (and every land
       link whose territories do not touch in the drawing) a short line. (Where each territory's
       name goes beside its badge is not stored: ``risk.maps.labels`` places the names of any
       drawing when the server loads it.)
    5. The result is checked: every territory present, land links touching, unlinked territories
       not sharing a border, labels inside; problems are printed.

Re-running
    The script needs Python 3.11+ with shapely (2.x) and npm (to fetch ``world-atlas``); neither
    is a dependency of the package, whose shipped drawing is plain JSON::

        python3 -m venv /tmp/drawing-venv && /tmp/drawing-venv/bin/pip install shapely
        /tmp/drawing-venv/bin/python tools/make_board_drawing.py [--world countries-50m.json]
            [--preview board.svg]

    Without ``--world`` it runs ``npm pack world-atlas@2.0.2`` in a temporary folder. ``--preview``
    also writes an SVG with the territories filled by continent, for looking at the result
    (``rsvg-convert -w 1200 board.svg -o board.png``; docs/images/board-drawing.png is one).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, polylabel

ROOT = Path(__file__).resolve().parent.parent
BOARD_FILE = ROOT / "src" / "risk" / "maps" / "classic.json"
OUTPUT = ROOT / "src" / "risk" / "maps" / "drawings" / "classic.json"
WORLD_ATLAS = "world-atlas@2.0.2"
SOURCE = (
    "Natural Earth 1:50m admin 0 countries v4.1.0 (public domain), via the npm package "
    f"{WORLD_ATLAS}; made by tools/make_board_drawing.py"
)

# -- projection ---------------------------------------------------------------------------------
WIDTH = 1200.0
LON_WEST, LON_EAST = -173.0, 193.0  # the Bering strait is both edges
LAT_NORTH, LAT_SOUTH = 84.0, -56.5
MARGIN_TOP, MARGIN_BOTTOM = 6.0, 6.0
SIMPLIFY = 0.5  # Douglas-Peucker tolerance, in output units
MIN_PIECE = 6.0  # pieces smaller than this (square output units) are left out...
KEEP_PIECE = 40.0  # ...and islands only from this size on
# output units per radian of longitude (and of Miller y)
SCALE = WIDTH / math.radians(LON_EAST - LON_WEST)


def miller_y(lat: float) -> float:
    return 1.25 * math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat)))


Y_TOP = miller_y(LAT_NORTH)
HEIGHT = round((Y_TOP - miller_y(LAT_SOUTH)) * SCALE + MARGIN_TOP + MARGIN_BOTTOM)


def project(lon: float, lat: float) -> tuple[float, float]:
    lat = max(min(lat, 89.0), -89.0)
    return (math.radians(lon - LON_WEST) * SCALE, (Y_TOP - miller_y(lat)) * SCALE + MARGIN_TOP)


def unproject(x: float, y: float) -> tuple[float, float]:
    lon = math.degrees(x / SCALE) + LON_WEST
    my = Y_TOP - (y - MARGIN_TOP) / SCALE
    lat = math.degrees((math.atan(math.exp(my / 1.25)) - math.pi / 4) / 0.4)
    return lon, lat


def region(*points: tuple[float, float]) -> Polygon:
    """A region given by longitude/latitude corners; its edges are straight on the map."""
    return Polygon([project(lon, lat) for lon, lat in points])


def box(west: float, south: float, east: float, north: float) -> Polygon:
    return region((west, south), (east, south), (east, north), (west, north))


# -- which land makes which territory ----------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    territory: str
    countries: tuple[str, ...]
    where: Polygon | None = None  # only the land inside this region (None: all of it)


EUROPE = box(-12, 34, 45, 72)  # keeps overseas islands out of European countries
WEST_US = region((-130, 24), (-130, 50), (-96, 50), (-96, 33), (-100.5, 28.5), (-100.5, 24))
EAST_US = region((-96, 50), (-96, 33), (-100.5, 28.5), (-100.5, 24), (-66, 24), (-66, 50))
# Canada: Alberta and British Columbia west of 110W; Ontario, Manitoba and Saskatchewan to the
# Quebec border (79.5W, then the Ottawa river); north of 60N the Northwest Territory.
ONTARIO_QUEBEC = [(-79.5, 46.8), (-77.0, 45.8), (-74.4, 45.3), (-74.6, 44.0)]
ALBERTA = box(-141.5, 47, -110, 60)
ONTARIO = region((-110, 40), (-110, 60), (-79.5, 60), *ONTARIO_QUEBEC, (-80, 40))
QUEBEC = region((-79.5, 63.5), *ONTARIO_QUEBEC, (-50, 40), (-50, 63.5))
# Russia and Kazakhstan: the Ural line, then columns of Siberia, Irkutsk/Yakutsk and Kamchatka.
URAL_LINE = [(66, 80), (66, 69), (59, 62), (59, 52), (52, 48), (52, 40)]
RUSSIA_WEST = region((19, 40), (19, 80), *URAL_LINE)
URAL = region(*URAL_LINE, (59, 47.5), (79, 45), (83, 45), (83, 80))
SIBERIA = region((83, 45), (83, 80), (112, 80), (112, 59), (100, 59), (100, 45))
IRKUTSK = box(100, 40, 127, 59)
YAKUTSK = box(112, 59, 145, 80)
KAMCHATKA = region((127, 40), (127, 59), (145, 59), (145, 80), (192, 80), (192, 40))
# China north of the Great Wall (Inner Mongolia's east, Manchuria) is the board's Mongolia.
MANCHURIA = region(
    (96, 42.6),
    (111, 41.6),
    (117.5, 41.2),
    (119.7, 39.9),
    (119.7, 39.0),
    (122, 38.0),
    (136, 38),
    (136, 54),
    (96, 54),
)
KAZAKH_URAL = region((59, 47.5), (59, 57), (83, 57), (83, 45), (79, 45))
KAZAKH_SIBERIA = box(83, 45, 90, 57)

RULES: list[Rule] = [
    # North America
    Rule("alaska", ("United States of America",), box(-172, 51, -129.5, 72)),
    Rule("alberta", ("Canada",), ALBERTA),
    Rule("ontario", ("Canada",), ONTARIO),
    Rule("quebec", ("Canada",), QUEBEC),
    Rule("northwest-territory", ("Canada",), box(-141.5, 55, -60, 84)),
    Rule("greenland", ("Greenland",)),
    Rule("western-united-states", ("United States of America",), WEST_US),
    Rule("eastern-united-states", ("United States of America",), EAST_US),
    Rule(
        "central-america",
        (
            "Mexico",
            "Guatemala",
            "Belize",
            "Honduras",
            "El Salvador",
            "Nicaragua",
            "Costa Rica",
            "Panama",
            "Cuba",
            "Jamaica",
            "Haiti",
            "Dominican Rep.",
            "Puerto Rico",
            "Bahamas",
        ),
    ),
    # South America
    Rule("venezuela", ("Venezuela", "Colombia", "Guyana", "Suriname", "Trinidad and Tobago")),
    Rule("venezuela", ("France",), box(-55, 1, -51, 6.5)),  # French Guiana
    Rule("peru", ("Peru", "Bolivia")),
    Rule("peru", ("Ecuador",), box(-85, -6, -75, 2)),  # not the Galapagos
    Rule("brazil", ("Brazil",)),
    Rule("argentina", ("Argentina", "Uruguay", "Paraguay")),
    Rule("argentina", ("Chile",), box(-76, -56.5, -66, -17)),
    # Europe
    Rule("iceland", ("Iceland",)),
    Rule("great-britain", ("United Kingdom", "Ireland", "Isle of Man"), EUROPE),
    Rule("scandinavia", ("Norway", "Sweden", "Finland", "Åland"), EUROPE),
    Rule(
        "northern-europe",
        (
            "Germany",
            "Poland",
            "Denmark",
            "Netherlands",
            "Belgium",
            "Luxembourg",
            "Czechia",
            "Slovakia",
            "Austria",
            "Switzerland",
            "Liechtenstein",
        ),
        EUROPE,
    ),
    Rule("western-europe", ("France", "Spain", "Portugal", "Andorra", "Monaco"), EUROPE),
    Rule(
        "southern-europe",
        (
            "Italy",
            "Vatican",
            "San Marino",
            "Malta",
            "Slovenia",
            "Croatia",
            "Bosnia and Herz.",
            "Serbia",
            "Kosovo",
            "Montenegro",
            "Albania",
            "Macedonia",
            "Greece",
            "Bulgaria",
            "Romania",
            "Hungary",
        ),
    ),
    Rule("ukraine", ("Ukraine", "Belarus", "Moldova", "Estonia", "Latvia", "Lithuania")),
    Rule("ukraine", ("Russia",), RUSSIA_WEST),
    # Africa
    Rule(
        "north-africa",
        (
            "Morocco",
            "W. Sahara",
            "Algeria",
            "Tunisia",
            "Mauritania",
            "Mali",
            "Niger",
            "Chad",
            "Senegal",
            "Gambia",
            "Guinea-Bissau",
            "Guinea",
            "Sierra Leone",
            "Liberia",
            "Côte d'Ivoire",
            "Burkina Faso",
            "Ghana",
            "Togo",
            "Benin",
            "Nigeria",
        ),
    ),
    Rule("egypt", ("Egypt", "Libya")),
    Rule(
        "east-africa",
        (
            "Sudan",
            "S. Sudan",
            "Ethiopia",
            "Eritrea",
            "Djibouti",
            "Somalia",
            "Somaliland",
            "Kenya",
            "Uganda",
            "Rwanda",
            "Burundi",
            "Tanzania",
        ),
    ),
    Rule(
        "congo",
        ("Dem. Rep. Congo", "Congo", "Gabon", "Eq. Guinea", "Cameroon", "Central African Rep.", "Angola"),
    ),
    Rule(
        "south-africa",
        (
            "South Africa",
            "Namibia",
            "Botswana",
            "Zimbabwe",
            "Mozambique",
            "Zambia",
            "Malawi",
            "Lesotho",
            "eSwatini",
        ),
    ),
    Rule("madagascar", ("Madagascar",)),
    # Asia
    Rule("ural", ("Russia",), URAL),
    Rule("ural", ("Kazakhstan",), KAZAKH_URAL),
    Rule("siberia", ("Russia",), SIBERIA),
    Rule("siberia", ("Kazakhstan",), KAZAKH_SIBERIA),
    Rule("irkutsk", ("Russia",), IRKUTSK),
    Rule("yakutsk", ("Russia",), YAKUTSK),
    Rule("kamchatka", ("Russia",), KAMCHATKA),
    Rule("mongolia", ("Mongolia", "North Korea", "South Korea")),
    Rule("mongolia", ("China",), MANCHURIA),
    Rule("china", ("China", "Taiwan", "Hong Kong", "Macao")),
    Rule("japan", ("Japan",)),
    Rule(
        "afghanistan",
        ("Afghanistan", "Turkmenistan", "Uzbekistan", "Tajikistan", "Kyrgyzstan", "Kazakhstan"),
    ),
    Rule(
        "middle-east",
        (
            "Turkey",
            "Syria",
            "Lebanon",
            "Israel",
            "Palestine",
            "Jordan",
            "Iraq",
            "Saudi Arabia",
            "Yemen",
            "Oman",
            "United Arab Emirates",
            "Qatar",
            "Bahrain",
            "Kuwait",
            "Iran",
            "Cyprus",
            "N. Cyprus",
            "Georgia",
            "Armenia",
            "Azerbaijan",
        ),
    ),
    Rule("india", ("India", "Pakistan", "Nepal", "Bhutan", "Bangladesh", "Sri Lanka", "Siachen Glacier")),
    Rule("siam", ("Myanmar", "Thailand", "Laos", "Cambodia", "Vietnam", "Singapore")),
    Rule("siam", ("Malaysia",), box(98, 0, 105, 8)),
    # Australia
    Rule("new-guinea", ("Indonesia",), box(130.8, -9.5, 142, -0.3)),  # Papua
    Rule("new-guinea", ("Papua New Guinea",), box(130, -12, 156, 0)),
    Rule("indonesia", ("Indonesia",), box(94, -12, 134, 7)),
    Rule("indonesia", ("Malaysia", "Brunei", "Timor-Leste")),
    Rule("western-australia", ("Australia",), box(110, -45, 133, -9)),
    Rule("eastern-australia", ("Australia",), box(133, -45, 155, -9)),
]
# Land left out on purpose (the Arctic islands off Europe and the Urals).
LEFT_OUT = [box(10, 74, 34, 81), box(44, 70.3, 70, 82)]

# Where the continents' names and bonuses go (longitude, latitude): in the sea next to each.
CONTINENT_LABELS = {
    "North America": (-148, 32),
    "South America": (-102, -22),
    "Europe": (-27, 47),
    "Africa": (-12, -18),
    "Asia": (135, 81),
    "Australia": (124, -41),
}
# Where a label goes when the widest spot of a territory is not the best (longitude, latitude).
LABEL_AT = {"western-europe": (2.0, 46.2), "great-britain": (-1.6, 53.6)}
# Sea lines that would cross other land go by these points (longitude, latitude).
VIA = {("ontario", "greenland"): [(-79.5, 63.5), (-64, 61.0)]}
# Sea lines from the coast nearest the first point to the coast nearest the second (lon, lat).
ENDS = {("northwest-territory", "greenland"): ((-68.0, 70.0), (-53.0, 70.0))}
MIN_SEA_LINE = 12.0  # sea lines across narrow straits are drawn this long, to be seen
# Islands that are too small on the map to read are scaled up about their centre.
ENLARGE = {"iceland": 1.25}


# -- reading the source -------------------------------------------------------------------------
def fetch_world() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="world-atlas-"))
    subprocess.run(
        ["npm", "pack", WORLD_ATLAS, "--pack-destination", str(folder)],
        check=True,
        capture_output=True,
        text=True,
    )
    tarball = next(folder.glob("world-atlas-*.tgz"))
    with tarfile.open(tarball) as archive:
        member = archive.getmember("package/countries-50m.json")
        target = folder / "countries-50m.json"
        target.write_bytes(archive.extractfile(member).read())  # type: ignore[union-attr]
    return target


def decoded_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """The arcs of a quantized TopoJSON file, in projected coordinates, each simplified."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append(project(x * sx + tx, y * sy + ty))
        if len(points) > 2:
            simple = LineString(points).simplify(SIMPLIFY, preserve_topology=False)
            points = list(simple.coords)
        arcs.append(points)
    return arcs


def ring(arc_ids: list[int], arcs: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    points: list[tuple[float, float]] = []
    for i in arc_ids:
        part = arcs[i] if i >= 0 else arcs[~i][::-1]
        points.extend(part if not points else part[1:])
    return points


def country_pieces(topology: dict, arcs: list[list[tuple[float, float]]]) -> dict[str, list[Polygon]]:
    """Each country's pieces (polygons), valid, with Russia's far east moved past 180E."""
    seam_x = project(-169.0, 0)[0]  # Chukotka's land west of 180W goes to the right of the map
    shift = project(180.0, 0)[0] - project(-180.0, 0)[0]
    countries: dict[str, list[Polygon]] = {}
    for geometry in topology["objects"]["countries"]["geometries"]:
        name = geometry["properties"]["name"]
        if geometry["type"] == "Polygon":
            polygons = [geometry["arcs"]]
        elif geometry["type"] == "MultiPolygon":
            polygons = geometry["arcs"]
        else:
            continue
        pieces = []
        for rings in polygons:
            coords = [ring(r, arcs) for r in rings]
            if name == "Russia":  # some of its rings cross 180E
                coords = [[(x + shift if x < seam_x else x, y) for x, y in c] for c in coords]
            if len(coords[0]) < 4:
                continue
            shape = shapely.make_valid(Polygon(coords[0], [c for c in coords[1:] if len(c) >= 4]))
            pieces.extend(polygons_of(shape))
        # pieces that meet (Chukotka across 180) become one
        merged = polygons_of(shapely.union_all(pieces)) if pieces else []
        countries[name] = [p for p in merged if p.area > 0]
    return countries


def polygons_of(shape) -> list[Polygon]:
    if shape.is_empty:
        return []
    if isinstance(shape, Polygon):
        return [shape]
    if isinstance(shape, MultiPolygon):
        return list(shape.geoms)
    if hasattr(shape, "geoms"):
        return [p for g in shape.geoms for p in polygons_of(g)]
    return []


# -- territories --------------------------------------------------------------------------------
def build_territories(countries: dict[str, list[Polygon]]) -> dict[str, MultiPolygon]:
    used: set[str] = set()
    parts: dict[str, list[Polygon]] = {}
    by_country: dict[str, list[Rule]] = {}
    for rule in RULES:
        for name in rule.countries:
            if name not in countries:
                raise SystemExit(f"no country called {name!r} in the source")
            by_country.setdefault(name, []).append(rule)
    all_pieces = [(name, piece) for name, pieces in countries.items() for piece in pieces]
    tree = shapely.STRtree([piece for _, piece in all_pieces])

    def on_a_border(name: str, piece: Polygon) -> bool:
        """Whether a piece of a country touches another country (Thrace, Kaliningrad...)."""
        return any(all_pieces[i][0] != name for i in tree.query(piece, predicate="intersects"))

    for name, rules in by_country.items():
        used.add(name)
        pieces = countries[name]
        if not pieces:  # too small to draw (Vatican, Monaco...)
            continue
        largest = max(p.area for p in pieces)
        for piece in pieces:
            point = piece.representative_point()
            if any(area.contains(point) for area in LEFT_OUT):
                continue
            small = piece.area < 0.2 * largest
            tiny = piece.area < KEEP_PIECE and not on_a_border(name, piece)
            if small and tiny:
                continue
            if small:  # an island: whole, to the territory whose region holds it
                for rule in rules:
                    if rule.where is None or rule.where.contains(point):
                        parts.setdefault(rule.territory, []).append(piece)
                        break
                continue
            rest = piece
            for rule in rules:
                if rest.is_empty:
                    break
                if rule.where is None:
                    parts.setdefault(rule.territory, []).extend(polygons_of(rest))
                    rest = Polygon()
                    break
                inside = rest.intersection(rule.where)
                parts.setdefault(rule.territory, []).extend(polygons_of(inside))
                rest = rest.difference(rule.where)
            if rest.area > MIN_PIECE:
                lon, lat = unproject(*rest.representative_point().coords[0])
                print(f"note: {rest.area:.0f} of {name} near {lon:.0f},{lat:.0f} is on no territory")
    left = sorted(
        (sum(p.area for p in pieces), name) for name, pieces in countries.items() if name not in used
    )
    for area, name in left:
        if area > 30:
            print(f"note: left out {name} ({area:.0f})")
    territories: dict[str, MultiPolygon] = {}
    for slug, polys in parts.items():
        shape = shapely.union_all(polys)
        pieces = [p for p in polygons_of(shape) if p.area >= MIN_PIECE]
        biggest = max(pieces, key=lambda p: p.area)
        others = [q for other, polys in parts.items() if other != slug for q in polys]
        pieces = [
            p
            for p in pieces
            if p is biggest
            or p.area >= min(KEEP_PIECE, biggest.area / 4)
            or any(p.distance(q) < 0.01 for q in others)
        ]
        factor = ENLARGE.get(slug)
        if factor:
            centre = shapely.union_all(pieces).centroid
            pieces = [affinity.scale(p, factor, factor, origin=centre) for p in pieces]
        # no specks of holes (slits left between countries), and coordinates on the 0.1 grid
        snapped = polygons_of(shapely.set_precision(MultiPolygon(pieces), 0.1))
        snapped = [
            Polygon(p.exterior, [r for r in p.interiors if Polygon(r).area > 5 * MIN_PIECE])
            for p in snapped
            if p.area >= MIN_PIECE or len(snapped) == 1
        ]
        territories[slug] = MultiPolygon([orient(p, 1.0) for p in snapped])
    return territories


# -- output -------------------------------------------------------------------------------------
def fmt(value: float) -> str:
    text = f"{value:.1f}"
    text = text.rstrip("0").rstrip(".") if "." in text else text
    return "0" if text == "-0" else text


def path_of(shape: MultiPolygon) -> str:
    out = []
    for polygon in shape.geoms:
        for ring_ in (polygon.exterior, *polygon.interiors):
            points = []
            for x, y in ring_.coords[:-1]:
                p = (fmt(x), fmt(y))
                if not points or points[-1] != p:
                    points.append(p)
            while len(points) > 1 and points[0] == points[-1]:
                points.pop()
            if len(points) < 3:
                continue
            coords = [f"{x} {y}" for x, y in points]
            out.append("M" + coords[0] + "L" + " ".join(coords[1:]) + "Z")
    return "".join(out)


def label_point(slug: str, shape: MultiPolygon) -> tuple[float, float]:
    if slug in LABEL_AT:
        point = Point(project(*LABEL_AT[slug]))
    else:
        point = polylabel(max(shape.geoms, key=lambda p: p.area), tolerance=0.5)
    return (round(point.x, 1), round(point.y, 1))


def touching(a: MultiPolygon, b: MultiPolygon) -> float:
    """The length of the border two territories share (roughly), in output units."""
    if a.distance(b) > 0.3:
        return 0.0
    return a.buffer(0.4).intersection(b.buffer(0.4)).area / 0.8


def sea_line(a: str, b: str, shapes: dict[str, MultiPolygon]) -> list[tuple[float, float]]:
    """The points of the line of a link from ``a`` to ``b``: coast to coast, by VIA if given."""
    via = VIA.get((a, b)) or VIA.get((b, a), [])[::-1]
    ends = ENDS.get((a, b)) or ENDS.get((b, a), ())[::-1]
    if ends:
        start = nearest_points(shapes[a], Point(project(*ends[0])))[0].coords[0]
        end = nearest_points(shapes[b], Point(project(*ends[1])))[0].coords[0]
        points = [start, end]
    elif via:
        middle = [project(lon, lat) for lon, lat in via]
        start = nearest_points(shapes[a], Point(middle[0]))[0].coords[0]
        end = nearest_points(shapes[b], Point(middle[-1]))[0].coords[0]
        points = [start, *middle, end]
    else:
        pa, pb = nearest_points(shapes[a], shapes[b])
        points = [pa.coords[0], pb.coords[0]]
    (x1, y1), (x2, y2) = points[0], points[1]
    (x3, y3), (x4, y4) = points[-2], points[-1]
    if len(points) == 2 and math.hypot(x2 - x1, y2 - y1) < MIN_SEA_LINE:
        # a narrow strait: a line long enough to see, across it
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if math.hypot(x2 - x1, y2 - y1) < 0.5:  # coasts that meet: across, centre to centre
            (x1, y1), (x2, y2) = shapes[a].centroid.coords[0], shapes[b].centroid.coords[0]
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        half = MIN_SEA_LINE / 2
        return [(mx - half * ux, my - half * uy), (mx + half * ux, my + half * uy)]
    # start and end a little off the coasts
    first, last = math.hypot(x2 - x1, y2 - y1), math.hypot(x4 - x3, y4 - y3)
    if first > 8:
        points[0] = (x1 + 2 * (x2 - x1) / first, y1 + 2 * (y2 - y1) / first)
    if last > 8:
        points[-1] = (x4 - 2 * (x4 - x3) / last, y4 - 2 * (y4 - y3) / last)
    return points


def path_of_line(points: list[tuple[float, float]]) -> str:
    return "M" + "L".join(f"{fmt(x)} {fmt(y)}" for x, y in points)


def wrap_line(west: MultiPolygon, east: MultiPolygon) -> str:
    """A line from the westmost point of ``west`` out of the left edge, on from the right edge."""
    wx, wy = min((c for p in west.geoms for c in p.exterior.coords), key=lambda c: c[0])
    ex, ey = max((c for p in east.geoms for c in p.exterior.coords), key=lambda c: c[0])
    y = (wy + ey) / 2
    return f"M{fmt(wx - 2)} {fmt(wy)}L0 {fmt(y)}M{fmt(WIDTH)} {fmt(y)}L{fmt(ex + 2)} {fmt(ey)}"


def build(world: Path) -> tuple[dict, list[str]]:
    board = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    topology = json.loads(world.read_text(encoding="utf-8"))
    arcs = decoded_arcs(topology)
    countries = country_pieces(topology, arcs)
    shapes = build_territories(countries)

    slug_of = {t["name"]: slugify(t["name"]) for t in board["territories"]}
    problems = []
    for slug in slug_of.values():
        if slug not in shapes:
            problems.append(f"no land for {slug}")
    for slug in shapes:
        if slug not in slug_of.values():
            problems.append(f"unknown territory {slug}")
    if problems:
        return {}, problems

    links = {
        frozenset((slug_of[a], slug_of[b])): link.get("by", "border")
        for link in board["links"]
        for a, b in [link["between"]]
    }
    slugs = list(slug_of.values())
    sea_lines = []
    for i, a in enumerate(slugs):
        for b in slugs[i + 1 :]:
            shared = touching(shapes[a], shapes[b])
            if shapes[a].intersection(shapes[b]).area > 1:
                problems.append(f"{a} and {b} overlap")
            by = links.get(frozenset((a, b)))
            if by is None and shared > 0:
                problems.append(f"{a} and {b} touch ({shared:.1f}) but are not linked")
            if by == "sea" and shared > 0:
                problems.append(f"{a} and {b} are linked by sea but touch ({shared:.1f})")
            if by == "border" and shared < 3:
                print(f"note: {a} and {b} share a border of {shared:.1f} only: a sea line is drawn")
    for link in board["links"]:
        a, b = (slug_of[n] for n in link["between"])
        if link.get("by") == "sea" or touching(shapes[a], shapes[b]) < 3:
            if {a, b} == {"alaska", "kamchatka"}:
                sea_lines.append({"between": [a, b], "path": wrap_line(shapes[a], shapes[b]), "wrap": True})
            else:
                points = sea_line(a, b, shapes)
                line = LineString(points)
                for other, shape in shapes.items():
                    if other not in (a, b) and line.intersection(shape).length > 0.5:
                        problems.append(f"the sea line {a}-{b} crosses {other}")
                sea_lines.append({"between": [a, b], "path": path_of_line(points)})

    territories = {}
    for slug in slugs:
        label = label_point(slug, shapes[slug])
        if not shapes[slug].contains(Point(label)):
            problems.append(f"the label of {slug} is outside it")
        territories[slug] = {"path": path_of(shapes[slug]), "label": list(label)}
    land = shapely.union_all(list(shapes.values()))
    continents = {}
    for row in board["continents"]:
        x, y = project(*CONTINENT_LABELS[row["name"]])
        if land.distance(Point(x, y)) < 8:
            problems.append(f"the label of {row['name']} is on or next to land")
        continents[row["name"]] = {"label": [round(x, 1), round(y, 1)]}
    drawing = {
        "board": board["name"],
        "source": SOURCE,
        "viewBox": [0, 0, round(WIDTH), HEIGHT],
        "territories": territories,
        "continents": continents,
        "sea_lines": sea_lines,
    }
    return drawing, problems


def slugify(name: str) -> str:
    out = "".join(c if c.isalnum() else "-" for c in name.lower())
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


# -- preview ------------------------------------------------------------------------------------
COLOURS = {
    "North America": "#e8c547",
    "South America": "#d9723f",
    "Europe": "#5b8bd6",
    "Africa": "#b8864b",
    "Asia": "#6fae5c",
    "Australia": "#a865b5",
}


def preview_svg(drawing: dict) -> str:
    board = json.loads(BOARD_FILE.read_text(encoding="utf-8"))
    continent_of = {slugify(t["name"]): t["continent"] for t in board["territories"]}
    name_of = {slugify(t["name"]): t["name"] for t in board["territories"]}
    bonus = {c["name"]: c["bonus"] for c in board["continents"]}
    _, _, w, h = drawing["viewBox"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}">',
        f'<rect width="{w}" height="{h}" fill="#cfe3ef"/>',
    ]
    for slug, t in drawing["territories"].items():
        colour = COLOURS[continent_of[slug]]
        out.append(
            f'<path d="{t["path"]}" fill="{colour}" stroke="#ffffff" stroke-width="0.8" '
            'stroke-linejoin="round"/>'
        )
    for line in drawing["sea_lines"]:  # above the land: some cross narrow straits
        out.append(
            f'<path d="{line["path"]}" stroke="#2f4f63" stroke-width="1.2" '
            'stroke-dasharray="4 3" fill="none"/>'
        )
    for slug, t in drawing["territories"].items():
        x, y = t["label"]
        out.append(f'<circle cx="{x}" cy="{y}" r="6" fill="#fff" stroke="#333" stroke-width="0.8"/>')
        out.append(
            f'<text x="{x}" y="{y + 15}" font-family="sans-serif" font-size="8" '
            f'text-anchor="middle" fill="#222">{name_of[slug]}</text>'
        )
    for name, c in drawing["continents"].items():
        x, y = c["label"]
        out.append(
            f'<text x="{x}" y="{y}" font-family="sans-serif" font-size="13" font-weight="bold" '
            f'text-anchor="middle" fill="#29465a">{name.upper()} ({bonus[name]})</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def dumps(drawing: dict) -> str:
    """The drawing as JSON, one territory, continent or sea line a line (readable diffs)."""

    def compact(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    for key in ("board", "source", "viewBox"):
        lines.append(f"{compact(key)}:{compact(drawing[key])},")
    for key in ("territories", "continents"):
        items = [f"{compact(k)}:{compact(v)}" for k, v in drawing[key].items()]
        lines.append(f"{compact(key)}:{{\n" + ",\n".join(items) + "\n},")
    lines.append('"sea_lines":[\n' + ",\n".join(compact(s) for s in drawing["sea_lines"]) + "\n]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--world", type=Path, help="countries-50m.json of world-atlas (else npm pack)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--preview", type=Path, help="also write a coloured SVG to look at")
    args = parser.parse_args(argv)
    world = args.world or fetch_world()
    drawing, problems = build(world)
    for problem in problems:
        print("problem:", problem)
    if not drawing:
        return 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(dumps(drawing), encoding="utf-8")
    print(f"wrote {args.output} ({args.output.stat().st_size / 1024:.0f} KB)")
    if args.preview:
        args.preview.write_text(preview_svg(drawing), encoding="utf-8")
        print(f"wrote {args.preview}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
