"""Boards as data: territories, continents, links, the territory cards and the player counts.

A board is loaded from a JSON file (``classic.json`` is the standard world map; the format is in
docs/boards.md). Every board is checked by :mod:`risk.maps.validate` first, the same checks as
``risk board validate``. Territories are numbered in file order; the engine works with those
indices and the board translates names. Lookups ignore case, spaces and punctuation, and accept
the aliases listed in the file.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from risk.errors import FileInputError, RiskError
from risk.maps.labels import place_names
from risk.maps.validate import FORMAT_VERSION, MAX_BOARD_BYTES, board_problems, parse_board_text
from risk.maps.validate import SYMBOLS as SYMBOLS  # re-exported: defined there, for the validator
from risk.maps.validate import normalise as normalise
from risk.maps.validate import slug as slug  # re-exported: the validator checks a board file's slugs
from risk.textfile import read_text_file

INFANTRY, CAVALRY, ARTILLERY = 0, 1, 2
WILD = 3  # the symbol of a wild card: counts as any of the three
MAX_MAP_BYTES = MAX_BOARD_BYTES  # a board file: 1 MiB (classic.json is 14 KB)


class MapError(RiskError):
    """A board file that is malformed, or a lookup of a name that is on no board."""


def problems_summary(problems: list[str]) -> str:
    """A board's first problem, and how many more (one line: ``risk board validate`` lists them all)."""
    more = f" (and {len(problems) - 1} more: `risk board validate FILE` lists them all)"
    return problems[0] + (more if len(problems) > 1 else "")


def canonical_json(data: dict[str, Any]) -> str:
    """A board's JSON in one canonical form: keys sorted, no spaces, one line (strings keep their
    characters; a newline inside one is written ``\\n``)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Continent:
    index: int
    name: str
    bonus: int
    territories: tuple[int, ...]
    colour: str | None = None  # "#rrggbb", for drawing


@dataclass(frozen=True, slots=True)
class Territory:
    index: int
    name: str
    continent: int
    card_symbol: int
    aliases: tuple[str, ...]
    label: tuple[float, float] | None = None  # where its name goes on a drawing
    outline: tuple[tuple[float, float], ...] = ()  # its shape on a drawing (a polygon), if the board has one


class Board:
    """An immutable board. Territory ``i`` is ``board.territories[i]``.

    Cards are numbered: card ``i < len(territories)`` shows territory ``i``; the cards after them
    are the wild cards.
    """

    def __init__(self, data: dict[str, Any]) -> None:
        # The validator's checks, all of them: no part of the product takes a board it refuses.
        problems = board_problems(data)
        if problems:
            raise MapError(f"not a board: {problems_summary([str(p) for p in problems])}")
        self.name: str = data["name"]
        self.title: str = data.get("title", self.name)
        # The board's canonical JSON (keys sorted, no spaces) and its SHA-256: what a record names and
        # embeds, and what the server stores with a game (the same board however its file is laid out).
        self.canonical_json: str = canonical_json(data)
        self.digest: str = hashlib.sha256(self.canonical_json.encode("utf-8")).hexdigest()
        continent_rows: list[dict[str, Any]] = data["continents"]
        territory_rows: list[dict[str, Any]] = data["territories"]
        link_rows: list[dict[str, Any]] = data.get("links", [])
        deck: dict[str, Any] = data.get("deck", {})
        wild_cards = int(deck.get("wilds", data.get("wild_cards", 2)))
        self.drawing: str | None = data.get("drawing")
        size = data.get("size")
        self.size: tuple[float, float] | None = None if size is None else (size[0], size[1])
        # The player counts the board supports and its starting armies by count (None and () when
        # it declares none: the rules' figures apply, risk.rules.options).
        players: dict[str, int] | None = data.get("players")
        self.players: tuple[int, int] | None = None if players is None else (players["min"], players["max"])
        armies: dict[str, int] = data.get("starting_armies", {})
        self.starting_armies: tuple[tuple[int, int], ...] = tuple(
            sorted((int(count), number) for count, number in armies.items())
        )

        index_by_name: dict[str, int] = {}
        territories: list[Territory] = []
        continent_names = [row["name"] for row in continent_rows]
        for i, row in enumerate(territory_rows):
            name = row["name"]
            label = row.get("label")
            territories.append(
                Territory(
                    i,
                    name,
                    continent_names.index(row["continent"]),
                    SYMBOLS.index(row.get("card", SYMBOLS[i % 3])),
                    tuple(row.get("aliases", ())),
                    None if label is None else (float(label[0]), float(label[1])),
                    tuple((float(x), float(y)) for x, y in row.get("outline", ())),
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
                row.get("colour"),
            )
            for ci, row in enumerate(continent_rows)
        )

        neighbours: list[set[int]] = [set() for _ in territories]
        # How each pair is linked ("border" or "sea"), by (lower index, higher index).
        self.link_kinds: dict[tuple[int, int], str] = {}
        for link in link_rows:
            a_name, b_name = link["between"]
            a, b = index_by_name[a_name], index_by_name[b_name]
            neighbours[a].add(b)
            neighbours[b].add(a)
            self.link_kinds[(min(a, b), max(a, b))] = link.get("by", "border")
        # Neighbour lists (given both ways: validated): a border, unless `links` says how the pair is linked.
        for a, row in enumerate(territory_rows):
            for b_name in row.get("neighbours", ()):
                b = index_by_name[b_name]
                neighbours[a].add(b)
                neighbours[b].add(a)
                self.link_kinds.setdefault((min(a, b), max(a, b)), "border")
        sea_only: list[bool] = [True] * len(territories)
        for (a, b), kind in self.link_kinds.items():
            if kind != "sea":
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
        index = self._lookup.get(key)  # first: a territory may be called "Wildlands"
        if index is not None:
            return index
        if key.startswith("wild"):
            number = key[4:] or "1"
            if number.isascii() and number.isdigit() and 1 <= int(number) <= len(self.wild_cards):
                return len(self.territories) + int(number) - 1
            raise MapError(f"no card called {name!r}: wild cards are wild1..wild{len(self.wild_cards)}")
        raise MapError(f"no card called {name!r} on the {self.name} board")

    def to_json(self) -> dict[str, Any]:
        """The board as a board file (docs/boards.md), every field written out, that loads back to
        this board: what ``risk board show --json``, ``risk map --json`` and the web API give. For
        its readers each territory also lists its ``neighbours`` (all of them, by name: ``links``
        says which are by sea) and has its ``slug`` and ``island``, which the validator checks."""
        data: dict[str, Any] = {"format": FORMAT_VERSION, "name": self.name, "title": self.title}
        if self.players is not None:
            data["players"] = {"min": self.players[0], "max": self.players[1]}
            data["starting_armies"] = {str(count): armies for count, armies in self.starting_armies}
        data["deck"] = {"wilds": len(self.wild_cards), "symbols": "listed"}
        if self.drawing is not None:
            data["drawing"] = self.drawing
        if self.size is not None:
            data["size"] = list(self.size)
        data["continents"] = [
            {"name": c.name, "bonus": c.bonus}
            | ({} if c.colour is None else {"colour": c.colour})
            | {"territories": [self.territories[i].name for i in c.territories]}
            for c in self.continents
        ]
        territories = []
        for t in self.territories:
            row: dict[str, Any] = {
                "name": t.name,
                "slug": self._slugs[t.index],
                "continent": self.continents[t.continent].name,
                "card": SYMBOLS[t.card_symbol],
                "aliases": list(t.aliases),
            }
            if t.label is not None:
                row["label"] = list(t.label)
            if t.outline:
                row["outline"] = [list(point) for point in t.outline]
            row["neighbours"] = [self.territories[n].name for n in self.neighbours[t.index]]
            row["island"] = t.index in self.islands
            territories.append(row)
        data["territories"] = territories
        data["links"] = [
            {"between": [self.territories[a].name, self.territories[b].name], "by": kind}
            for (a, b), kind in sorted(self.link_kinds.items())
        ]
        return data


def available_maps() -> list[str]:
    """The names of the boards shipped with the package."""
    folder = resources.files(__package__)
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


@cache
def load_map(name: str = "classic") -> Board:
    """A shipped board by name, or a board file by path (a name ending in ``.json``).

    Raises :class:`MapError` for an unknown name, for a file that cannot be read (missing, a folder,
    not UTF-8, empty, larger than :data:`MAX_MAP_BYTES`) or is not JSON, and for a board that
    ``risk board validate`` refuses (the message gives its first problem).
    """
    if Path(name).suffix.lower() == ".json":
        try:
            text = read_text_file(name, "a board file", MAX_MAP_BYTES)
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
    return board_from_json(text, f"map {name!r}")


def shipped_board(board: Board) -> bool:
    """Whether ``board`` is a board shipped with the package, exactly (same name, same digest): a
    board loaded from a file that only borrows a shipped board's name is not."""
    return board.name in available_maps() and load_map(board.name).digest == board.digest


def board_from_json(text: str, what: str = "the board") -> Board:
    """A board from its JSON text (a record's embedded board, a board stored with a game), with the
    validator's checks and size limit. Raises :class:`MapError` naming ``what`` and the first problem."""
    if len(text) > MAX_MAP_BYTES or len(text.encode("utf-8")) > MAX_MAP_BYTES:
        raise MapError(f"{what} is larger than {MAX_MAP_BYTES // 1024 // 1024} MiB, the largest board taken")
    data, problems = parse_board_text(text)
    if problems:  # not JSON (its line and column), or JSON no board can be
        where = f" ({problems[0].where})" if problems[0].where else ""
        raise MapError(f"{what} is {problems[0].message}{where}")
    if not isinstance(data, dict):  # checked here: the compiled Board takes only a dict
        raise MapError(
            f"{what} is not a board: it holds a JSON {type(data).__name__}, "
            "not an object with the board's fields"
        )
    try:
        return Board(data)
    except MapError as error:
        raise MapError(f"{what} is {error}") from None


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
