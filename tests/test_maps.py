"""The classic board as data (SPEC: 'What every edition shares', and the rulebooks' board text)."""

from __future__ import annotations

import json

import pytest

from risk.errors import RiskError
from risk.maps import ARTILLERY, CAVALRY, INFANTRY, WILD, Board, MapError, load_map


@pytest.fixture(scope="module")
def board() -> Board:
    return load_map("classic")


def test_size_and_continent_bonuses(board: Board) -> None:
    assert len(board) == 42
    bonuses = {c.name: (c.bonus, len(c.territories)) for c in board.continents}
    assert bonuses == {
        "North America": (5, 9),
        "South America": (2, 4),
        "Europe": (5, 7),
        "Africa": (3, 6),
        "Asia": (7, 12),
        "Australia": (2, 4),
    }


def test_links_are_symmetric_and_standard(board: Board) -> None:
    edges = {frozenset((a, b)) for a in range(42) for b in board.neighbours[a]}
    assert len(edges) == 83  # the standard board's 83 borders and sea-lines
    for a in range(42):
        for b in board.neighbours[a]:
            assert a in board.neighbours[b]


def test_rulebook_adjacencies(board: Board) -> None:
    t = board.territory
    # 2003: "There is a sea-line ... This makes the territories of Kamchatka and Alaska adjacent."
    assert t("Alaska") in board.adjacent[t("Kamchatka")]
    # 2003: "Brazil is adjacent to Venezuela, Peru and Argentina ... also adjacent to North Africa"
    assert set(board.neighbours[t("Brazil")]) == {
        t(n) for n in ("Venezuela", "Peru", "Argentina", "North Africa")
    }
    # 2003 combat examples: North Africa and East Africa both border Egypt.
    assert t("Egypt") in board.adjacent[t("North Africa")] and t("Egypt") in board.adjacent[t("East Africa")]
    # 2003: Australia is New Guinea, Indonesia, Eastern Australia and Western Australia.
    australia = board.continents[board.continent("Australia")]
    assert {board.name_of(i) for i in australia.territories} == {
        "New Guinea",
        "Indonesia",
        "Eastern Australia",
        "Western Australia",
    }


def test_cards(board: Board) -> None:
    symbols = board.card_symbols
    assert board.card_count == 44
    assert [symbols.count(s) for s in (INFANTRY, CAVALRY, ARTILLERY, WILD)] == [14, 14, 14, 2]
    # 2003: "This Territory card is for Ontario. It has ... a cavalry."
    assert symbols[board.territory("Ontario")] == CAVALRY
    assert board.card("wild1") == 42 and board.card("Wild 2") == 43
    assert board.card_name(43) == "wild2"


def test_lookups_ignore_case_spaces_punctuation_and_accept_aliases(board: Board) -> None:
    t = board.territory
    assert (
        t("western united states")
        == t("Western-United-States")
        == t("WESTERN UNITED STATES")
        == t("Western US")
    )
    assert t("Quebec") == t("Eastern Canada")
    assert t("Ukraine") == t("Russia")
    assert t("Congo") == t("Central Africa")
    assert t("north west territory") == t("Northwest Territory")
    with pytest.raises(MapError, match="no territory called 'Atlantis'"):
        t("Atlantis")
    assert isinstance(MapError("x"), RiskError)


def test_islands(board: Board) -> None:
    # 2003 Mission RISK: "An island is a territory ... only connected to other territories by
    # sea-lines, for example Indonesia."
    names = {board.name_of(i) for i in board.islands}
    assert "Indonesia" in names
    assert names == {
        "Greenland",
        "Iceland",
        "Great Britain",
        "Madagascar",
        "Japan",
        "Indonesia",
        "New Guinea",
    }


def test_json_shape(board: Board) -> None:
    data = json.loads(json.dumps(board.to_json()))
    assert len(data["territories"]) == 42 and len(data["continents"]) == 6
    first = data["territories"][0]
    assert {"name", "continent", "neighbours", "slug", "card", "island"} <= set(first)
    assert {"name", "bonus", "territories"} <= set(data["continents"][0])


def test_other_boards_load_from_files(tmp_path) -> None:
    small = {
        "name": "tiny",
        "continents": [{"name": "Left", "bonus": 1}, {"name": "Right", "bonus": 2}],
        "territories": [
            {"name": "A", "continent": "Left"},
            {"name": "B", "continent": "Left"},
            {"name": "C", "continent": "Right"},
        ],
        "links": [{"between": ["A", "B"]}, {"between": ["B", "C"], "by": "sea"}],
        "deck": {"symbols": "in-turn"},  # no card listed: the stated rule deals them in turn
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(small))
    tiny = load_map(str(path))
    assert len(tiny) == 3 and tiny.islands == frozenset({2})
    small["links"] = [{"between": ["A", "B"]}]
    with pytest.raises(MapError, match="not connected"):
        Board(small)
    with pytest.raises(MapError, match="no map called"):
        load_map("mars")
