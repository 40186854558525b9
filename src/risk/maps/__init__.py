"""Boards as data: territories, continents, links and the territory cards.

A board is loaded from a JSON file (``classic.json`` is the standard world map). Territories are
numbered in file order; the engine works with those indices and the board translates names.
Lookups ignore case, spaces and punctuation, and accept the aliases listed in the file.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from risk.errors import FileInputError, RiskError
from risk.maps.labels import place_names
from risk.textfile import MB, read_text_file

SYMBOLS = ("infantry", "cavalry", "artillery")
INFANTRY, CAVALRY, ARTILLERY = 0, 1, 2
WILD = 3  # the symbol of a wild card: counts as any of the three
MAX_MAP_BYTES = 4 * MB  # a board file (classic.json is 13 KB)


class MapError(RiskError):
    """A board file that is malformed, or a lookup of a name that is on no board."""


def normalise(name: str) -> str:
    """The lookup key of a name: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def slug(name: str) -> str:
    """The notation form of a name: lower case words joined by hyphens (``western-united-states``)."""
    return re.sub(r"[^0-9a-z]+", "-", name.lower()).strip("-")


@dataclass(frozen=True, slots=True)
class Continent:
    index: int
    name: str
    bonus: int
    territories: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Territory:
    index: int
    name: str
    continent: int
    card_symbol: int
    aliases: tuple[str, ...]


class Board:
    """An immutable board. Territory ``i`` is ``board.territories[i]``.

    Cards are numbered: card ``i < len(territories)`` shows territory ``i``; the cards after them
    are the wild cards.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        try:
            self.name: str = data["name"]
            self.title: str = data.get("title", self.name)
            continent_rows = data["continents"]
            territory_rows = data["territories"]
            link_rows = data["links"]
            wild_cards = int(data.get("wild_cards", 2))
        except (KeyError, TypeError) as error:
            raise MapError(f"board file is missing a field: {error}") from None

        index_by_name: dict[str, int] = {}
        territories: list[Territory] = []
        continent_names = [row["name"] for row in continent_rows]
        for i, row in enumerate(territory_rows):
            name = row["name"]
            if row["continent"] not in continent_names:
                raise MapError(f"territory {name!r} names an unknown continent {row['continent']!r}")
            symbol = row.get("card", SYMBOLS[i % 3])
            if symbol not in SYMBOLS:
                raise MapError(f"territory {name!r} has an unknown card symbol {symbol!r}")
            territories.append(
                Territory(
                    i,
                    name,
                    continent_names.index(row["continent"]),
                    SYMBOLS.index(symbol),
                    tuple(row.get("aliases", ())),
                )
            )
            index_by_name[name] = i
        self.territories: tuple[Territory, ...] = tuple(territories)

        self.continents: tuple[Continent, ...] = tuple(
            Continent(
                ci,
                row["name"],
                int(row["bonus"]),
                tuple(t.index for t in territories if t.continent == ci),
            )
            for ci, row in enumerate(continent_rows)
        )

        neighbours: list[set[int]] = [set() for _ in territories]
        sea_only: list[bool] = [True] * len(territories)
        for link in link_rows:
            a_name, b_name = link["between"]
            if a_name not in index_by_name or b_name not in index_by_name:
                raise MapError(f"link {a_name!r}-{b_name!r} names an unknown territory")
            a, b = index_by_name[a_name], index_by_name[b_name]
            if a == b:
                raise MapError(f"territory {a_name!r} is linked to itself")
            neighbours[a].add(b)
            neighbours[b].add(a)
            if link.get("by", "border") != "sea":
                sea_only[a] = sea_only[b] = False
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in neighbours)
        self.adjacent: tuple[frozenset[int], ...] = tuple(frozenset(n) for n in neighbours)
        # An island (Mission RISK): a territory connected to the others by sea-lines only.
        self.islands: frozenset[int] = frozenset(
            i for i in range(len(territories)) if sea_only[i] and neighbours[i]
        )
        self.continent_of: tuple[int, ...] = tuple(t.continent for t in territories)

        self.card_count = len(territories) + wild_cards
        self.wild_cards: tuple[int, ...] = tuple(range(len(territories), self.card_count))
        # Card symbols indexed by card number; wild cards count as any symbol.
        self.card_symbols: tuple[int, ...] = tuple(t.card_symbol for t in territories) + (WILD,) * wild_cards

        self._slugs: tuple[str, ...] = tuple(slug(t.name) for t in territories)  # notation is hot
        self._lookup: dict[str, int] = {}
        for t in territories:
            for key in (t.name, slug(t.name), *t.aliases):
                self._lookup.setdefault(normalise(key), t.index)
        self._continent_lookup = {normalise(c.name): c.index for c in self.continents}
        self._check_connected()

    def _check_connected(self) -> None:
        seen = {0}
        frontier = [0]
        while frontier:
            for n in self.neighbours[frontier.pop()]:
                if n not in seen:
                    seen.add(n)
                    frontier.append(n)
        if len(seen) != len(self.territories):
            missing = sorted(self.territories[i].name for i in set(range(len(self.territories))) - seen)
            raise MapError(f"board {self.name!r} is not connected: cannot reach {', '.join(missing)}")

    def __len__(self) -> int:
        return len(self.territories)

    def __repr__(self) -> str:
        return f"<Board {self.name}: {len(self.territories)} territories, {len(self.continents)} continents>"

    # -- names -------------------------------------------------------------------------------
    def territory(self, name: str | int) -> int:
        """The index of a territory, by index, name, notation slug or alias (case and punctuation ignored)."""
        if isinstance(name, int):
            if 0 <= name < len(self.territories):
                return name
            raise MapError(f"no territory number {name} on the {self.name} board")
        index = self._lookup.get(normalise(name))
        if index is None:
            raise MapError(f"no territory called {name!r} on the {self.name} board")
        return index

    def find_territory(self, name: str) -> int | None:
        """Like :meth:`territory`, but ``None`` when the name is unknown."""
        return self._lookup.get(normalise(name))

    def continent(self, name: str | int) -> int:
        if isinstance(name, int):
            if 0 <= name < len(self.continents):
                return name
            raise MapError(f"no continent number {name} on the {self.name} board")
        index = self._continent_lookup.get(normalise(name))
        if index is None:
            raise MapError(f"no continent called {name!r} on the {self.name} board")
        return index

    def name_of(self, territory: int) -> str:
        return self.territories[territory].name

    def slug_of(self, territory: int) -> str:
        return self._slugs[territory]

    def card_name(self, card: int) -> str:
        """The notation of a card: the territory's slug, or ``wild1``, ``wild2``..."""
        if card < len(self.territories):
            return self._slugs[card]
        return f"wild{card - len(self.territories) + 1}"

    def card(self, name: str) -> int:
        key = normalise(name)
        if key.startswith("wild"):
            number = key[4:] or "1"
            if number.isascii() and number.isdigit() and 1 <= int(number) <= len(self.wild_cards):
                return len(self.territories) + int(number) - 1
            raise MapError(f"no card called {name!r}: wild cards are wild1..wild{len(self.wild_cards)}")
        index = self._lookup.get(key)
        if index is None:
            raise MapError(f"no card called {name!r} on the {self.name} board")
        return index

    def to_json(self) -> dict[str, Any]:
        """The board in the ``risk map --json`` shape."""
        return {
            "name": self.name,
            "territories": [
                {
                    "name": t.name,
                    "continent": self.continents[t.continent].name,
                    "neighbors": [self.territories[n].name for n in self.neighbours[t.index]],
                    "card": SYMBOLS[t.card_symbol],
                    "island": t.index in self.islands,
                }
                for t in self.territories
            ],
            "continents": [
                {
                    "name": c.name,
                    "bonus": c.bonus,
                    "territories": [self.territories[i].name for i in c.territories],
                }
                for c in self.continents
            ],
        }


def available_maps() -> list[str]:
    """The names of the boards shipped with the package."""
    folder = resources.files(__package__)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def load_map(name: str = "classic") -> Board:
    """A shipped board by name, or a board file by path (a name ending in ``.json``).

    Raises :class:`MapError` for an unknown name, and for a file that cannot be read (missing, a
    folder, not UTF-8, empty, larger than :data:`MAX_MAP_BYTES`) or is not a board.
    """
    if Path(name).suffix.lower() == ".json":
        try:
            text = read_text_file(name, "a map", MAX_MAP_BYTES)
        except FileInputError as error:
            raise MapError(str(error)) from None
    else:
        key = normalise(name)
        matches = [m for m in available_maps() if normalise(m) == key]
        if not matches:
            raise MapError(
                f"no map called {name!r}; available: {', '.join(available_maps())} (or a .json board file)"
            )
        text = resources.files(__package__).joinpath(f"{matches[0]}.json").read_text(encoding="utf-8")
    try:
        data = json.loads(text)
        if not isinstance(data, dict):  # checked here: the compiled Board takes only a dict
            raise MapError(f"board file is missing a field: {name!r} holds a JSON {type(data).__name__}, "
                           "not an object with the board's fields")
        return Board(data)
    except json.JSONDecodeError as error:
        raise MapError(f"map {name!r} is not valid JSON: {error}") from None
    except MapError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        # A row of the wrong shape (a number where a territory's object belongs, a field missing).
        raise MapError(f"map {name!r} is not a board: {type(error).__name__}: {error}") from None


def load_drawing(name: str = "classic") -> dict[str, Any] | None:
    """The drawing of a shipped board (territory outlines, label points, sea lines, and ``names``:
    where each territory's name goes, see ``risk.maps.labels``), or ``None``.

    Drawings live in ``maps/drawings/{name}.json`` (made by ``tools/make_board_drawing.py``); a board
    without one, or a name that is no shipped board, gives ``None``.
    """
    key = normalise(name)
    folder = resources.files(__package__).joinpath("drawings")
    if not key or not folder.is_dir():
        return None
    for entry in folder.iterdir():
        if entry.name.endswith(".json") and normalise(entry.name.removesuffix(".json")) == key:
            drawing: dict[str, Any] = json.loads(entry.read_text(encoding="utf-8"))
            drawing["names"] = copy.deepcopy(_placed_names(entry.name.removesuffix(".json")))
            return drawing
    return None


@cache
def _placed_names(name: str) -> dict[str, dict[str, Any]]:
    """Where the territories' names go on a shipped drawing (risk.maps.labels), placed once a board."""
    board = load_map(name)
    drawing = json.loads(
        resources.files(__package__).joinpath("drawings", f"{name}.json").read_text(encoding="utf-8")
    )
    names = {board.slug_of(i): board.name_of(i) for i in range(len(board))}
    return place_names(drawing, names, {c.name: c.bonus for c in board.continents})
