"""The board format's checks (docs/boards.md): every problem of a board, each saying where and what to fix.

:func:`board_problems` is the one validator: ``risk board validate`` prints all its problems, and
:class:`risk.maps.Board` (so ``load_map``, and everything that loads a board) refuses a board it
finds a problem in, so that no part of the product accepts a board the validator refuses. The
JSON Schema (``maps/schema/board.schema.json``) states the same shapes and limits for editors and
other tools; what a schema cannot say (links symmetric, the board connected, names unique after
normalising) only this module checks.

>>> [str(p) for p in board_problems({"name": "x", "continents": [], "territories": [], "links": []})]
['continents: a board needs at least one continent', 'territories: a board needs at least 2 territories']
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
import unicodedata
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from risk.errors import FileInputError
from risk.textfile import MB, read_text_file

# Here, not in risk.maps (which re-exports them): risk.maps imports this module, never the reverse.
SYMBOLS = ("infantry", "cavalry", "artillery")


def normalise(name: str) -> str:
    """The lookup key of a name: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def slug(name: str) -> str:
    """The notation form of a name: lower case words joined by hyphens (``western-united-states``)."""
    return re.sub(r"[^0-9a-z]+", "-", name.lower()).strip("-")


def drawing_names() -> list[str]:
    """The names of the shipped drawings (``risk/maps/drawings/NAME.json``), which a board may name."""
    folder = resources.files(__package__ or "").joinpath("drawings")  # risk.maps
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".json") for p in folder.iterdir() if p.name.endswith(".json"))


# The stated limits of a board (docs/boards.md, "Limits"); the schema states the same numbers.
MAX_BOARD_BYTES = MB  # 1 MiB; classic.json is 14 KB
MAX_TERRITORIES = 1000
MIN_TERRITORIES = 2
MAX_CONTINENTS = 200
MAX_LINKS = 20000
MAX_NAME = 60
MAX_TITLE = 200
MAX_ALIASES = 10
MAX_OUTLINE_POINTS = 1000
MAX_BONUS = 100
MAX_WILDS = 100
MIN_PLAYERS, MAX_PLAYERS = 2, 10
MAX_STARTING_ARMIES = 1000
MAX_COORDINATE = 1_000_000
FORMAT_VERSION = 1
DECK_RULES = ("listed", "in-turn")
LINK_KINDS = ("border", "sea")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")

TOP_FIELDS = (
    "format",
    "name",
    "title",
    "players",
    "starting_armies",
    "deck",
    "wild_cards",
    "drawing",
    "size",
    "continents",
    "territories",
    "links",
)
CONTINENT_FIELDS = ("name", "bonus", "colour", "territories")
TERRITORY_FIELDS = (
    "name",
    "continent",
    "card",
    "aliases",
    "neighbours",
    "label",
    "outline",
    "slug",
    "island",
)
# Fields a board file may carry for its readers (what `risk board show --json` and the API write): made
# from the other fields, so they must agree with them, and they change nothing when the board is loaded.
DERIVED_TERRITORY_FIELDS = ("slug", "island")
LINK_FIELDS = ("between", "by")
ONE_WAY_FIELDS = ("from", "to", "one_way", "direction")
ONE_WAY_WHY = "one-way links are not allowed: in our rules every link can be crossed both ways"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a board: where (a JSON path, or a line of the file) and what to fix;
    ``line``: the line of the file where the value at ``where`` starts, when it is known."""

    where: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


# Unknown names that get a "did you mean": each compares the name with every territory's (difflib), so
# a board of 1,000 territories with thousands of wrong names took 20 s; after these, only what to fix.
SUGGESTIONS = 20


class _Checker:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.suggestions: dict[str, str] = {}  # an unknown name: its hint, each worked out once

    def add(self, where: str, message: str) -> None:
        self.problems.append(Problem(where, message))

    def fields(self, row: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
        for key in row:
            if key not in allowed:
                near = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else f"; fields: {', '.join(allowed)}"
                self.add(f"{where}.{key}", f"unknown field {key!r}{hint}")

    def name(self, value: Any, where: str, what: str) -> str | None:
        """A name's text when it is a usable name, else None (and a problem); a name with a control
        character is refused (a problem) but still given, so what refers to it finds it."""
        if not isinstance(value, str):
            self.add(where, f"{what} must be text, not {_kind(value)}")
            return None
        if not value.strip():
            self.add(where, f"{what} is blank: give it a name")
            return None
        if len(value) > MAX_NAME:
            self.add(where, f"{what} {value[:20]!r}... is {len(value)} characters long: at most {MAX_NAME}")
            return None
        if not normalise(value):
            self.add(where, f"{what} {value!r} has no letter or digit: names are looked up by those")
            return None
        control = next((c for c in value if unicodedata.category(c) == "Cc"), None)
        if control is not None:  # a NUL or an escape code would reach every screen that shows it
            self.add(
                where,
                f"{what} {value!r} has a control character (U+{ord(control):04X}): a name is printable text",
            )  # still the name it is: links to it are found, so this is the one problem it makes
        return value

    def whole(self, value: Any, where: str, what: str, low: int, high: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(where, f"{what} must be a whole number from {low} to {high}, not {_kind(value)}")
            return None
        if not low <= value <= high:
            self.add(where, f"{what} is {_short(value)}: it must be from {low} to {high}")
            return None
        return value

    def point(self, value: Any, where: str, what: str) -> bool:
        if (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in value)
        ):
            if all(abs(c) <= MAX_COORDINATE for c in value):  # False for NaN and infinities too
                return True
            self.add(where, f"{what} has a coordinate beyond ±{MAX_COORDINATE:,}")
            return False
        self.add(where, f"{what} must be a point [x, y] of two numbers, not {_short(value)}")
        return False


def _kind(value: Any) -> str:
    return {
        dict: "an object",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a number with a fraction",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _at(base: str, index: int, name: str | None) -> str:
    return f"{base}[{index}]" + (f" ({name!r})" if name else "")


def board_problems(data: Any) -> list[Problem]:
    """Every problem of a board given as parsed JSON, in file order; an empty list for a valid board."""
    check = _Checker()
    if not isinstance(data, dict):
        check.add("", f"a board file holds a JSON object with the board's fields, not {_kind(data)}")
        return check.problems
    if isinstance(data.get("board"), dict) and not any(k in data for k in ("name", "territories")):
        # The web API's answer (GET /api/boards/NAME) saved whole: the board file is inside it.
        check.add(
            "$",
            'this is the web API\'s answer about a board, not a board file: its "board" field is the '
            "board file (save that alone)",
        )
        return check.problems
    check.fields(data, TOP_FIELDS, "$")
    if "format" in data:
        check.whole(data["format"], "format", "format", FORMAT_VERSION, FORMAT_VERSION)
    if "name" not in data:
        check.add("name", 'the board has no name: add "name": "my-board"')
    else:
        check.name(data["name"], "name", "the board's name")
    if "title" in data and not (isinstance(data["title"], str) and len(data["title"]) <= MAX_TITLE):
        check.add("title", f"the title must be text of at most {MAX_TITLE} characters")

    continent_names = _check_continents(check, data.get("continents"))
    territories = _check_territories(check, data.get("territories"), continent_names)
    if territories is not None:
        _check_continent_lists(check, data.get("continents"), territories)
        linked = _check_links(check, data.get("links"), data["territories"], territories)
        if linked is not None:  # (None: too many links to read)
            neighbours, bordered = linked
            if len(territories.names) >= MIN_TERRITORIES:
                _check_connected(check, territories, neighbours)
            _check_derived(check, data["territories"], territories, neighbours, bordered)
    _check_deck(check, data, data.get("territories"))
    _check_players(check, data, len(territories.names) if territories is not None else None)
    if "drawing" in data:
        _check_drawing(check, data["drawing"])
    if "size" in data:
        _check_size(check, data["size"])
    return check.problems


@dataclass(slots=True)
class _Territories:
    """The territories as far as they are well formed: by index, the name (None if unusable) and
    the continent (None if it names none); the index of each usable name."""

    names: list[str | None]
    continents: list[str | None]
    index: dict[str, int]

    def label(self, i: int) -> str:
        name = self.names[i]
        return repr(name) if name is not None else f"territories[{i}]"


def _check_continents(check: _Checker, rows: Any) -> dict[str, str]:
    """The continents' names by lookup key (only the well-formed ones)."""
    names: dict[str, str] = {}
    if rows is None:
        check.add(
            "continents", 'the board has no continents: add "continents": [{"name": ..., "bonus": ...}]'
        )
        return names
    if not isinstance(rows, list):
        check.add("continents", f"continents must be a list of objects, not {_kind(rows)}")
        return names
    if not rows:
        check.add("continents", "a board needs at least one continent")
    if len(rows) > MAX_CONTINENTS:
        check.add("continents", f"{len(rows)} continents: a board has at most {MAX_CONTINENTS}")
        return names
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            check.add(
                f"continents[{i}]", f"a continent must be an object with a name and a bonus, not {_kind(row)}"
            )
            continue
        name = check.name(row.get("name"), f"continents[{i}].name", "the continent's name")
        where = _at("continents", i, name)
        check.fields(row, CONTINENT_FIELDS, where)
        if "bonus" not in row:
            check.add(where, f'the continent has no bonus: add "bonus": N (0 to {MAX_BONUS})')
        else:
            check.whole(row["bonus"], f"{where}.bonus", "the bonus", 0, MAX_BONUS)
        if "colour" in row and not (isinstance(row["colour"], str) and COLOUR.fullmatch(row["colour"])):
            check.add(f"{where}.colour", f'colour must be "#rrggbb", not {_short(row["colour"])}')
        if name is None:
            continue
        key = normalise(name)
        if key in names:
            check.add(
                where,
                f"continent {name!r} has the name of continent {names[key]!r} (case, spaces and "
                "punctuation are ignored in names): rename one",
            )
        else:
            names[key] = name
    return names


def _check_territories(check: _Checker, rows: Any, continents: dict[str, str]) -> _Territories | None:
    """The territories, checked one by one and against each other; None if there is no usable list."""
    if rows is None:
        check.add(
            "territories",
            'the board has no territories: add "territories": [{"name": ..., "continent": ...}]',
        )
        return None
    if not isinstance(rows, list):
        check.add("territories", f"territories must be a list of objects, not {_kind(rows)}")
        return None
    if len(rows) < MIN_TERRITORIES:
        check.add("territories", f"a board needs at least {MIN_TERRITORIES} territories")
    if len(rows) > MAX_TERRITORIES:
        check.add("territories", f"{len(rows)} territories: a board has at most {MAX_TERRITORIES}")
        return None
    found = _Territories([None] * len(rows), [None] * len(rows), {})
    keys: dict[str, int] = {}  # lookup keys (names, then aliases) -> territory
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            check.add(
                f"territories[{i}]",
                f"a territory must be an object with a name and a continent, not {_kind(row)}",
            )
            continue
        name = check.name(row.get("name"), f"territories[{i}].name", "the territory's name")
        where = _at("territories", i, name)
        check.fields(row, TERRITORY_FIELDS, where)
        if _check_territory_fields(check, row, where, continents):
            found.continents[i] = row["continent"]
        if name is None:
            continue
        key = normalise(name)
        if re.fullmatch(r"wild\d*", key):
            check.add(f"{where}.name", f"{name!r} is how wild cards are named (wild1, wild2...): rename it")
        if key in keys:
            check.add(
                f"{where}.name",
                f"territory {name!r} has the name of territory {found.label(keys[key])} "
                "(case, spaces and punctuation are ignored in names): rename one",
            )
            continue
        keys[key] = i
        found.names[i] = name
        found.index[name] = i
    for i, row in enumerate(rows):
        aliases = row.get("aliases") if isinstance(row, dict) else None
        if not isinstance(aliases, list) or len(aliases) > MAX_ALIASES:
            continue
        where = _at("territories", i, found.names[i])
        own = normalise(found.names[i] or "")
        for j, alias in enumerate(aliases):
            text = check.name(alias, f"{where}.aliases[{j}]", "an alias")
            if text is None or normalise(text) == own:
                continue
            other = keys.setdefault(normalise(text), i)
            if other != i:
                check.add(
                    f"{where}.aliases[{j}]",
                    f"alias {text!r} is also the name or an alias of territory "
                    f"{found.label(other)}: remove it",
                )
    return found


def _check_territory_fields(
    check: _Checker, row: dict[str, Any], where: str, continents: dict[str, str]
) -> bool:
    """Checks a territory's fields but its name; whether it names a continent of the board."""
    good = False
    if "continent" not in row:
        check.add(where, 'the territory names no continent: add "continent": NAME')
    elif not isinstance(row["continent"], str):
        check.add(
            f"{where}.continent", f"continent must be a continent's name, not {_kind(row['continent'])}"
        )
    elif row["continent"] not in continents.values():
        known = continents.get(normalise(row["continent"]))
        fix = f"write it as {known!r}" if known else f"continents: {', '.join(continents.values()) or 'none'}"
        check.add(f"{where}.continent", f"no continent called {row['continent']!r}: {fix}")
    else:
        good = True
    if "card" in row and row["card"] not in SYMBOLS:
        check.add(f"{where}.card", f"card symbol {_short(row['card'])} is not one of {', '.join(SYMBOLS)}")
    if "aliases" in row:
        aliases = row["aliases"]
        if not isinstance(aliases, list):
            check.add(f"{where}.aliases", f"aliases must be a list of names, not {_kind(aliases)}")
        elif len(aliases) > MAX_ALIASES:
            check.add(f"{where}.aliases", f"{len(aliases)} aliases: at most {MAX_ALIASES}")
    if "neighbours" in row and not (
        isinstance(row["neighbours"], list) and all(isinstance(n, str) for n in row["neighbours"])
    ):
        check.add(f"{where}.neighbours", "neighbours must be a list of territory names")
    if "label" in row:
        check.point(row["label"], f"{where}.label", "the label point")
    if "outline" in row:
        outline = row["outline"]
        if not isinstance(outline, list) or not 3 <= len(outline) <= MAX_OUTLINE_POINTS:
            check.add(
                f"{where}.outline", f"the outline must be a list of 3 to {MAX_OUTLINE_POINTS} points [x, y]"
            )
        else:
            for k, point in enumerate(outline):
                if not check.point(point, f"{where}.outline[{k}]", "an outline point"):
                    break
    return good


def _check_continent_lists(check: _Checker, rows: Any, territories: _Territories) -> None:
    """Every continent has a territory (the continents partition the territories: each territory
    names one), and a continent's optional ``territories`` list is exactly those that name it."""
    if not isinstance(rows, list) or len(rows) > MAX_CONTINENTS:
        return
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            continue
        where = _at("continents", i, row["name"])
        inside = [i for i, c in enumerate(territories.continents) if c == row["name"]]
        if not inside:
            check.add(where, f"continent {row['name']!r} has no territories: give it one, or remove it")
        listed = row.get("territories")
        if listed is None:
            continue
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            check.add(f"{where}.territories", "the continent's territories must be a list of territory names")
            continue
        names = [territories.names[t] for t in inside]
        for name in listed:
            if name not in names:
                check.add(
                    f"{where}.territories",
                    f"lists {name!r}, which is not a territory of {row['name']!r} "
                    '(the territory\'s "continent" decides): remove it',
                )
        for name in names:
            if name is not None and name not in listed:
                check.add(
                    f"{where}.territories",
                    f"does not list {name!r}, whose continent is {row['name']!r}: add it",
                )


def _check_links(
    check: _Checker, rows: Any, territory_rows: list[Any], territories: _Territories
) -> tuple[list[set[int]], set[int]] | None:
    """The neighbours of each territory (by index), from the links and the territories' neighbour
    lists; and the territories with a border link (the others that have links are islands). None when
    the links are too many to read (so whether the board is connected is not known)."""
    count = len(territory_rows)
    index_by_name = territories.index
    neighbours: list[set[int]] = [set() for _ in range(count)]
    two_way: set[frozenset[int]] = set()
    bordered: set[int] = set()
    if rows is None:
        rows = []
        if not any(isinstance(r, dict) and "neighbours" in r for r in territory_rows):
            check.add(
                "links",
                'the board has no links: add "links": [{"between": [A, B]}, ...] (or each '
                'territory\'s "neighbours")',
            )
    if not isinstance(rows, list):
        check.add("links", f"links must be a list of objects, not {_kind(rows)}")
        rows = []
    if len(rows) > MAX_LINKS:
        check.add("links", f"{len(rows)} links: a board has at most {MAX_LINKS}")
        return None
    for i, link in enumerate(rows):
        where = f"links[{i}]"
        if not isinstance(link, dict):
            check.add(where, f'a link must be an object {{"between": [A, B]}}, not {_kind(link)}')
            continue
        one_way = [key for key in link if key in ONE_WAY_FIELDS]
        if one_way:
            check.add(
                where,
                f'{ONE_WAY_WHY}: write {{"between": [A, B]}} if both sides may attack, or remove the link',
            )
            continue
        check.fields(link, LINK_FIELDS, where)
        if "by" in link and link["by"] not in LINK_KINDS:
            check.add(f"{where}.by", f'by must be "border" or "sea", not {_short(link["by"])}')
        pair = link.get("between")
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(n, str) for n in pair)):
            check.add(f"{where}.between", "between must be a list of two territory names")
            continue
        ends = []
        for name in pair:
            if name in index_by_name:
                ends.append(index_by_name[name])
            else:
                hint = _spelling(check, name, index_by_name)
                check.add(f"{where}.between", f"no territory called {name!r}{hint}")
        if len(ends) != 2:
            continue
        a, b = ends
        if a == b:
            check.add(f"{where}.between", f"{pair[0]!r} is linked to itself: remove the link")
            continue
        if frozenset((a, b)) in two_way:
            check.add(where, f"the link {pair[0]!r} - {pair[1]!r} is listed twice: remove one")
            continue
        two_way.add(frozenset((a, b)))
        neighbours[a].add(b)
        neighbours[b].add(a)
        if link.get("by", "border") != "sea":
            bordered.update((a, b))
    # Neighbour lists: each one a link one way, which the other territory (or a link) must give back.
    listed: list[set[int] | None] = [None] * count
    for i, row in enumerate(territory_rows):
        if isinstance(row, dict) and isinstance(row.get("neighbours"), list):
            found: set[int] = set()
            for name in row["neighbours"]:
                if not isinstance(name, str):
                    continue
                if name not in index_by_name:
                    check.add(
                        f"{_at('territories', i, row.get('name'))}.neighbours",
                        f"no territory called {name!r}{_spelling(check, name, index_by_name)}",
                    )
                elif index_by_name[name] == i:
                    check.add(
                        f"{_at('territories', i, row.get('name'))}.neighbours",
                        f"{name!r} lists itself as a neighbour: remove it",
                    )
                else:
                    found.add(index_by_name[name])
            listed[i] = found
    for i, given in enumerate(listed):
        for j in sorted(given or ()):
            back = listed[j]
            if frozenset((i, j)) in two_way:  # the link says how they are linked
                continue
            if back is not None and i in back:  # a border, listed both ways
                neighbours[i].add(j)
                neighbours[j].add(i)
                bordered.update((i, j))
                continue
            here, there = territories.label(i), territories.label(j)
            check.add(
                f"{_at('territories', i, territories.names[i])}.neighbours",
                f"lists {there}, but {there} does not list {here}: {ONE_WAY_WHY}; add {here} to {there}'s "
                "neighbours, or remove it from these",
            )
    return neighbours, bordered


def _check_derived(
    check: _Checker,
    territory_rows: list[Any],
    territories: _Territories,
    neighbours: list[set[int]],
    bordered: set[int],
) -> None:
    """A territory's ``slug`` and ``island``, when given, agree with its name and its links."""
    for i, row in enumerate(territory_rows):
        if not isinstance(row, dict):
            continue
        where = _at("territories", i, territories.names[i])
        name = territories.names[i]
        if "slug" in row and name is not None and row["slug"] != slug(name):
            check.add(
                f"{where}.slug",
                f"the slug of {name!r} is {slug(name)!r}, not {_short(row['slug'])}: fix it, or remove it "
                "(it is made from the name)",
            )
        if "island" in row:
            island = bool(neighbours[i]) and i not in bordered
            if not isinstance(row["island"], bool):
                check.add(f"{where}.island", f"island must be true or false, not {_kind(row['island'])}")
            elif row["island"] != island:
                links = "has a border link" if not island else "is linked by sea only"
                check.add(
                    f"{where}.island",
                    f"island is {str(row['island']).lower()}, but the territory {links}: "
                    f"write {str(island).lower()}, or remove it (it is made from the links)",
                )


def _spelling(check: _Checker, name: str, known: dict[str, int]) -> str:
    hint = check.suggestions.get(name)
    if hint is None:
        near = []
        if len(check.suggestions) < SUGGESTIONS:
            near = difflib.get_close_matches(name, list(known), n=1)
        hint = check.suggestions[name] = (
            f" (did you mean {near[0]!r}?)" if near else ": add the territory, or fix the name"
        )
    return hint


def _check_connected(check: _Checker, territories: _Territories, neighbours: list[set[int]]) -> None:
    seen = {0}
    frontier = [0]
    while frontier:
        for n in neighbours[frontier.pop()]:
            if n not in seen:
                seen.add(n)
                frontier.append(n)
    if len(seen) != len(neighbours):
        missing = [territories.label(i) for i in range(len(neighbours)) if i not in seen]
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        check.add(
            "links",
            f"the board is not connected: {shown} cannot be reached from "
            f"{territories.label(0)}; link them to the rest",
        )


def _check_deck(check: _Checker, data: dict[str, Any], rows: Any) -> None:
    deck = data.get("deck", {})
    rule = "listed"
    if not isinstance(deck, dict):
        check.add("deck", f'deck must be an object {{"wilds": N, "symbols": "listed"}}, not {_kind(deck)}')
        deck = {}
    check.fields(deck, ("wilds", "symbols"), "deck")
    if "symbols" in deck:
        if deck["symbols"] in DECK_RULES:
            rule = deck["symbols"]
        else:
            check.add(
                "deck.symbols",
                f'the deck rule must be "listed" (every territory names its card) or '
                f'"in-turn" (infantry, cavalry, artillery in file order), not '
                f"{_short(deck['symbols'])}",
            )
    if "wilds" in deck:
        check.whole(deck["wilds"], "deck.wilds", "the number of wild cards", 0, MAX_WILDS)
    if "wild_cards" in data:
        check.whole(data["wild_cards"], "wild_cards", "the number of wild cards", 0, MAX_WILDS)
        if "wilds" in deck and deck["wilds"] != data["wild_cards"]:
            check.add("wild_cards", "wild_cards and deck.wilds disagree: keep deck.wilds only")
    if rule == "listed" and isinstance(rows, list):
        for i, row in enumerate(rows):
            if isinstance(row, dict) and "card" not in row:
                check.add(
                    _at("territories", i, row.get("name") if isinstance(row.get("name"), str) else None),
                    'the territory has no card: add "card": "infantry", "cavalry" or "artillery", '
                    'or state the deck rule "deck": {"symbols": "in-turn"}',
                )


def player_counts(low: int, high: int) -> str:
    """Player counts in words: "3 to 5 players", or "3 players" for a range of one count."""
    return f"{low} players" if low == high else f"{low} to {high} players"


def _check_players(check: _Checker, data: dict[str, Any], territory_count: int | None) -> None:
    players, armies = data.get("players"), data.get("starting_armies")
    if players is None and armies is None:
        return
    if players is None:
        check.add(
            "starting_armies",
            f'starting_armies needs "players": {{"min": {MIN_PLAYERS}, "max": N}} '
            "to say which player counts the board supports",
        )
        return
    if not isinstance(players, dict):
        check.add(
            "players", f'players must be an object {{"min": {MIN_PLAYERS}, "max": N}}, not {_kind(players)}'
        )
        return
    check.fields(players, ("min", "max"), "players")
    low = check.whole(players.get("min"), "players.min", "the fewest players", MIN_PLAYERS, MAX_PLAYERS)
    high = check.whole(players.get("max"), "players.max", "the most players", MIN_PLAYERS, MAX_PLAYERS)
    if low is None or high is None:
        return
    if low > high:
        check.add("players", f"min {low} is more than max {high}: swap them")
        return
    # Two players play the 2-player game, whose rules give the armies (with the neutrals'): a figure
    # for 2 is not needed, and not used.
    two_player = "2 players play the 2-player game, whose rules give its armies"
    armed = f"{player_counts(max(low, 3), high)}; {two_player}" if high >= 3 else f"only {two_player}"
    if armies is None:
        if high >= 3:
            ask = f'give the starting armies for each, "starting_armies": {{"{max(low, 3)}": N, ...}}'
        else:
            ask = f'{two_player}: give "starting_armies": {{}}'
        check.add("starting_armies", f"the board supports {player_counts(low, high)}: {ask}")
        return
    if not isinstance(armies, dict):
        check.add(
            "starting_armies", f'starting_armies must be an object {{"3": 35, ...}}, not {_kind(armies)}'
        )
        return
    needed = [n for n in range(max(low, 3), high + 1)]
    for key, value in armies.items():
        where = f"starting_armies[{key!r}]"
        if not (key.isascii() and key.isdigit() and low <= int(key) <= high and int(key) >= 3):
            check.add(
                where,
                f"{key!r} is not a player count of this board ({armed}): remove it",
            )
            continue
        count = int(key)
        number = check.whole(value, where, f"the starting armies of {count} players", 1, MAX_STARTING_ARMIES)
        if number is not None and territory_count:
            least = -(-territory_count // count)
            if number < least:
                check.add(
                    where,
                    f"{count} players with {number} armies each cannot hold {territory_count} "
                    f"territories (one army each): give at least {least}",
                )
    for count in needed:
        if str(count) not in armies:
            check.add("starting_armies", f'no starting armies for {count} players: add "{count}": N')


def _check_size(check: _Checker, value: Any) -> None:
    """The canvas the labels and outlines are drawn on: a width and a height above 0."""
    if check.point(value, "size", "the drawing's size") and not all(c > 0 for c in value):
        check.add("size", f"the drawing's size [width, height] must be above 0, not {_short(value)}")


def _check_drawing(check: _Checker, value: Any) -> None:
    if not isinstance(value, str) or value not in drawing_names():
        shipped = ", ".join(drawing_names()) or "none"
        check.add(
            "drawing",
            f"no shipped drawing called {_short(value)} (drawings: {shipped}): remove it or name one",
        )


def parse_board_text(text: str) -> tuple[Any, list[Problem]]:
    """The JSON of a board file's text, or a problem: a syntax error (naming its line and column), a
    field twice in one object, NaN or Infinity, or nesting too deep. Each message starts with
    "not valid JSON" or "not a board"."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise ValueError(f"not a board: the field {key!r} appears twice in one object: keep one")
            result[key] = value
        return result

    def no_constant(name: str) -> None:
        raise ValueError(f"not valid JSON: {name} is not a number JSON allows: write a number")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant), []
    except json.JSONDecodeError as error:
        return None, [Problem(f"line {error.lineno} column {error.colno}", f"not valid JSON: {error.msg}")]
    except ValueError as error:  # ours (they say "not ..."), or Python's: a number of too many digits
        text = str(error)
        return None, [Problem("", text if text.startswith("not ") else f"not valid JSON: {text}")]
    except RecursionError:
        return None, [Problem("", "not a board: the JSON is nested too deeply")]


def file_problems(path: str | Path) -> tuple[Any, list[Problem]]:
    """The parsed board and its problems, for a file: read (UTF-8, at most 1 MiB), then as
    :func:`text_problems`."""
    try:
        text = read_text_file(path, "a board file", MAX_BOARD_BYTES)
    except FileInputError as error:
        return None, [Problem("", str(error))]
    return text_problems(text)


def text_problems(text: str) -> tuple[Any, list[Problem]]:
    """The parsed board and its problems, for a board file's text (``risk board validate`` and the web
    app's upload): each with the line where its value starts, the most useful first
    (:func:`useful_order`)."""
    data, problems = parse_board_text(text)
    if problems:
        return None, problems
    problems = board_problems(data)
    if problems:
        lines = value_lines(text)
        problems = useful_order([replace(p, line=_line_of(p.where, lines)) for p in problems])
    return data, problems


def useful_order(problems: list[Problem]) -> list[Problem]:
    """The problems with one of each kind first (a kind: the same field of any territory, continent
    or link), in the validator's order, then the others: a misspelt field on every territory does not
    hide the problem after it."""
    seen: set[str] = set()
    first: list[Problem] = []
    again: list[Problem] = []
    for problem in problems:
        kind = re.sub(r"\[\d+\]", "[]", _NAMED.sub("", problem.where))
        (again if kind in seen else first).append(problem)
        seen.add(kind)
    return first + again


_NAMED = re.compile(r" \((?:'[^']*'|\"[^\"]*\")\)")  # the " ('Alaska')" of "territories[0] ('Alaska')"
_STEP = re.compile(r"\[(\d+)\]|\['([^']*)'\]|\.?([^.\[]+)")


def _line_of(where: str, lines: dict[tuple[str | int, ...], int]) -> int | None:
    """The line of a problem's path: of its value, or of the nearest enclosing value in the file."""
    if not where or where.startswith("line "):
        return None
    path: list[str | int] = []
    for index, key, name in _STEP.findall(_NAMED.sub("", where.removeprefix("$"))):
        path.append(int(index) if index else key or name)
    while path and tuple(path) not in lines:
        path.pop()
    return lines.get(tuple(path))


def value_lines(text: str) -> dict[tuple[str | int, ...], int]:
    """The line where each value of a JSON text starts, by its path (keys and list indices); the
    text is valid JSON (parsed already). Empty if it is nested too deeply to walk."""
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    decoder = json.JSONDecoder()
    lines: dict[tuple[str | int, ...], int] = {}

    def blank(i: int) -> int:
        while text[i] in " \t\r\n":
            i += 1
        return i

    def walk(i: int, path: tuple[str | int, ...]) -> int:
        """Record the value at ``i`` (and those inside it); the index after it."""
        i = blank(i)
        lines[path] = bisect.bisect_left(newlines, i) + 1
        if text[i] not in "{[":
            return decoder.raw_decode(text, i)[1]
        closing, count = ("}" if text[i] == "{" else "]"), 0
        i = blank(i + 1)
        while text[i] != closing:
            if closing == "}":
                key, i = decoder.raw_decode(text, i)  # the key, a string
                i = walk(blank(i) + 1, (*path, key))  # past the colon
            else:
                i = walk(i, (*path, count))
                count += 1
            i = blank(i)
            if text[i] == ",":
                i = blank(i + 1)
        return i + 1

    try:
        walk(0, ())
    except RecursionError:
        return {}
    return lines
