"""Make the shipped boards of our own design (src/risk/maps/NAME.json) from the generator.

    python tools/make_shipped_boards.py             # writes every board below
    python tools/make_shipped_boards.py crossroads  # one of them

Each board is ``risk.maps.generate.generate_board`` with the arguments below (the seed chosen by
simulation, among 75 small boards (25 at each of 21, 22 and 24 territories) or 12 large ones:
docs/boards.md, "The boards we ship"), then given its name, title and continent names, and the
continent bonuses, sea links and moved territories that the balance measurements settled on
(``tools/balance_board.py``). Territory names are the generator's. The same versions of Python and
shapely give the same files, byte for byte.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from risk.maps import Board
from risk.maps.generate import generate_board

MAPS = Path(__file__).resolve().parent.parent / "src" / "risk" / "maps"


@dataclass(frozen=True)
class Design:
    name: str
    title: str
    territories: int
    continents: int
    seed: int
    players: tuple[int, int]
    continent_names: tuple[str, ...]  # in the generator's order (west to east)
    bonuses: dict[str, int]  # bonuses changed after measuring, by the new continent name
    sea_links: tuple[tuple[str, str], ...] = ()  # links added after measuring (drawn dashed)
    moved: tuple[tuple[str, str], ...] = ()  # (territory, continent it moves to) after measuring


DESIGNS = (
    Design(
        name="crossroads",
        title="The Crossroads: four lands that meet in the middle, for quick 2 or 3 player games "
        "(24 territories, 4 continents)",
        territories=24,
        continents=4,
        seed=3,
        players=(2, 3),
        continent_names=("Ashford", "Fernvale", "Stormcrest", "Goldmere"),
        # It replaced the isles (22 territories, seed 4), whose 3-player game favoured the first
        # player once measured with the order of territories shuffled. The generator's Fernvale 4
        # and Goldmere 3 left the 3rd player winning 29% at 3 players and homes in Stormcrest 42%;
        # one step down each balanced both (docs/boards.md).
        bonuses={"Fernvale": 3, "Goldmere": 2},
    ),
    Design(
        name="pangaea",
        title="Pangaea: one great land for 3 to 10 players (90 territories, 9 continents)",
        territories=90,
        continents=9,
        seed=11,
        players=(3, 10),
        continent_names=(
            "Westmarch",
            "Thornwood",
            "Saltplain",
            "Crown Peaks",
            "Heartland",
            "Sunfields",
            "Frostmere",
            "Red Canyons",
            "Eastwatch",
        ),
        # Measured on the generator's bonuses, players starting in the east corner won well above
        # chance (Red Canyons 19-26%, Eastwatch 20-32% against 12.5-17%), those in Thornwood and
        # Frostmere below it: their bonuses moved one step the other way.
        bonuses={"Red Canyons": 8, "Eastwatch": 5, "Thornwood": 10, "Frostmere": 8},
        # Eastwatch still won 22-30% at 6 and 10 players: a corner of nine territories, four of them
        # out of reach, is a refuge whatever its bonus. Its shape changed: Red Canyons' two
        # territories on its west side join it (eleven territories, more border to hold), and a sea
        # link joins its inner Keheim to the Heartland's inner Zogrouven.
        sea_links=(("Keheim", "Zogrouven"),),
        moved=(("Dagard", "Eastwatch"), ("Shedilia", "Eastwatch")),
    ),
)


def make(design: Design) -> dict[str, Any]:
    data = generate_board(design.territories, design.continents, design.seed, players=design.players)
    renamed = dict(zip((c["name"] for c in data["continents"]), design.continent_names, strict=True))
    for continent in data["continents"]:
        continent["name"] = renamed[continent["name"]]
        continent["bonus"] = design.bonuses.get(continent["name"], continent["bonus"])
    for territory in data["territories"]:
        territory["continent"] = renamed[territory["continent"]]
    known = {t["name"] for t in data["territories"]}
    for name, continent in design.moved:
        if name not in known or continent not in design.continent_names:
            raise ValueError(
                f"{design.name}: cannot move {name} to {continent}: no such territory or continent"
            )
        next(t for t in data["territories"] if t["name"] == name)["continent"] = continent
    for continent in data["continents"]:  # each continent's list, in file order, after the moves
        own = continent["name"]
        continent["territories"] = [t["name"] for t in data["territories"] if t["continent"] == own]
    for a, b in design.sea_links:
        if not {a, b} <= known:  # a generator change renamed them: say so, do not link elsewhere
            raise ValueError(f"{design.name}: sea link {a} - {b} names no territory of the board")
        data["links"].append({"between": [a, b], "by": "sea"})
    data["name"], data["title"] = design.name, design.title
    Board(data)  # the validator's checks: a board we ship passes them
    return data


def board_text(data: dict[str, Any]) -> str:
    """The board's JSON, a continent, territory or link a line (readable, diffable)."""
    lines = ["{"]
    items = list(data.items())
    for i, (key, value) in enumerate(items):
        end = "," if i < len(items) - 1 else ""
        if isinstance(value, list) and all(isinstance(row, dict) for row in value):
            rows = [json.dumps(row, ensure_ascii=False) for row in value]
            lines.append(f'  "{key}": [\n    ' + ",\n    ".join(rows) + f"\n  ]{end}")
        else:
            lines.append(f'  "{key}": {json.dumps(value, ensure_ascii=False)}{end}')
    return "\n".join(lines) + "\n}\n"


def main(argv: list[str]) -> int:
    wanted = [d for d in DESIGNS if not argv or d.name in argv]
    if not wanted:
        print(
            f"make_shipped_boards: error: no design {argv}; designs: {[d.name for d in DESIGNS]}",
            file=sys.stderr,
        )
        return 2
    for design in wanted:
        path = MAPS / f"{design.name}.json"
        path.write_text(board_text(make(design)), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
