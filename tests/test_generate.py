"""Generated boards (risk.maps.generate, issue 26 item 3): valid, drawable and deterministic,
degenerate shapes included. Bots playing every game on them: tests/test_any_board.py."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from risk.maps import Board, load_map, normalise
from risk.maps.generate import (
    MAX_CONTINENTS,
    MAX_TERRITORIES,
    MIN_TERRITORIES,
    continent_bonus,
    generate_board,
)

# (shape, territories, continents, seed): sizes across the range, and the degenerate boards.
ASSORTED = [
    ("world", 6, 1, 0),
    ("world", 6, 6, 1),  # every continent one territory
    ("world", 12, 3, 2),
    ("world", 20, 20, 3),
    ("world", 42, 6, 4),
    ("world", 60, 7, 5),
    ("world", 100, 10, 6),
    ("world", 150, 12, 7),
    ("chain", 6, 2, 8),
    ("chain", 40, 5, 9),
    ("star", 6, 3, 10),
    ("star", 25, 4, 11),
]


def steps_reached(start: int, allowed: set[int], neighbours: Sequence[Iterable[int]]) -> set[int]:
    """The territories of ``allowed`` reached from ``start`` over links inside ``allowed``."""
    seen, queue = {start}, deque([start])
    while queue:
        for n in neighbours[queue.popleft()]:
            if n in allowed and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def check_board(data: dict[str, Any], territories: int, continents: int) -> Board:
    """Everything a generated board promises, checked on its JSON and on the loaded Board."""
    board = Board(json.loads(json.dumps(data)))  # through JSON, as a file would be read
    assert len(board) == territories and len(board.continents) == continents
    everything = set(range(territories))
    assert steps_reached(0, everything, board.neighbours) == everything, "connected"
    # Continents partition the territories, each one connected on its own.
    listed = [board.territory(name) for row in data["continents"] for name in row["territories"]]
    assert sorted(listed) == sorted(everything)
    for continent in board.continents:
        members = set(continent.territories)
        assert members and steps_reached(min(members), members, board.neighbours) == members, continent.name
        assert continent.bonus >= 1
    # Links: each pair once, never a territory to itself, the same both ways.
    pairs = [tuple(sorted(link["between"])) for link in data["links"]]
    assert len(pairs) == len(set(pairs)) and all(a != b for a, b in pairs)
    for t in everything:
        assert all(t in board.adjacent[n] for n in board.neighbours[t])
    # Names unique as look-ups see them; the cards balanced over the symbols; two wild cards.
    names = [normalise(row["name"]) for row in data["territories"]]
    names += [normalise(row["name"]) for row in data["continents"]]
    assert len(set(names)) == len(names)
    symbols = Counter(row["card"] for row in data["territories"])
    assert max(symbols.values()) - min(symbols.values()) <= 1 and len(symbols) == min(3, territories)
    assert len(board.wild_cards) == 2
    # The drawing: each outline a valid polygon inside the drawing, its label inside it.
    width, height = data["size"]
    for row in data["territories"]:
        outline = Polygon(row["outline"])
        assert outline.is_valid and outline.area > 0, row["name"]
        assert outline.contains(Point(row["label"])), row["name"]
        assert all(0 <= x <= width and 0 <= y <= height for x, y in row["outline"])
    return board


@pytest.mark.parametrize(("shape", "territories", "continents", "seed"), ASSORTED)
def test_generated_board_is_valid_and_drawable(
    shape: str, territories: int, continents: int, seed: int
) -> None:
    check_board(generate_board(territories, continents, seed, shape=shape), territories, continents)


def test_every_size_and_continent_count_in_range_makes_a_board() -> None:
    rng = random.Random(26)
    for territories in (MIN_TERRITORIES, 7, 9, 15, 33, 77, 120):
        counts = {1, 2, min(territories, rng.randint(3, MAX_CONTINENTS)), min(territories, 12)}
        for continents in sorted(counts):
            data = generate_board(territories, continents, rng.randrange(1000))
            check_board(data, territories, continents)


def test_same_seed_same_board_byte_for_byte_and_other_seeds_differ() -> None:
    first = json.dumps(generate_board(40, 5, 123, players=(3, 6)))
    assert json.dumps(generate_board(40, 5, 123, players=(3, 6))) == first
    others = {json.dumps(generate_board(40, 5, seed)) for seed in (124, 125, 126)}
    assert len(others) == 3 and first not in others
    # A subprocess: no state of this process (caches, hash seeds) makes the board.
    code = (
        "import json; from risk.maps.generate import generate_board; "
        "print(json.dumps(generate_board(40, 5, 123, players=(3, 6))))"
    )
    assert (
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout.strip()
        == first
    )


def test_a_board_file_loads_and_keeps_the_drawing_fields(tmp_path: Path) -> None:
    data = generate_board(30, 4, 5, players=(2, 8))
    path = tmp_path / "generated.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    board = load_map(str(path))
    assert len(board) == 30 and board.name == data["name"]
    assert data["players"] == {"min": 2, "max": 8} and len(data["size"]) == 2
    assert board.players == (2, 8) and dict(board.starting_armies)[8] >= -(-30 // 8)
    assert all(len(row["label"]) == 2 and len(row["outline"]) >= 3 for row in data["territories"])
    assert {link["by"] for link in data["links"]} <= {"border", "sea"}


def test_degenerate_shapes() -> None:
    chain = check_board(generate_board(12, 12, 3, shape="chain"), 12, 12)
    degrees = sorted(len(n) for n in chain.neighbours)
    assert degrees == [1, 1] + [2] * 10, "a chain: two ends of one link, the rest two"
    assert all(len(c.territories) == 1 for c in chain.continents)
    star = check_board(generate_board(9, 3, 4, shape="star"), 9, 3)
    hub = max(range(9), key=lambda t: len(star.neighbours[t]))
    assert len(star.neighbours[hub]) == 8 and all(star.neighbours[t] == (hub,) for t in range(9) if t != hub)
    assert star.islands == frozenset(range(9)), "sea links only"


def test_continents_are_balanced_on_a_world_board() -> None:
    for seed in range(5):
        board = Board(generate_board(84, 7, seed))
        sizes = sorted(len(c.territories) for c in board.continents)
        assert sizes[-1] <= 2 * sizes[0] + 2, sizes


def test_bonuses_follow_the_classic_boards_rule() -> None:
    classic = load_map("classic")
    for continent in classic.continents:
        members = set(continent.territories)
        borders = sum(1 for t in members if any(n not in members for n in classic.neighbours[t]))
        assert abs(continent_bonus(len(members), borders) - continent.bonus) <= 1, continent.name
    # More territories or more borders to guard, never a smaller bonus.
    assert all(continent_bonus(s + 1, b) >= continent_bonus(s, b) for s in range(1, 40) for b in range(s))
    assert all(continent_bonus(s, b + 1) >= continent_bonus(s, b) for s in range(1, 40) for b in range(s))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((6, 7, 1), "cannot split 6 territories into 7 continents"),
        ((MIN_TERRITORIES - 1, 1, 1), f"ask for {MIN_TERRITORIES} to {MAX_TERRITORIES}"),
        ((MAX_TERRITORIES + 1, 1, 1), f"ask for {MIN_TERRITORIES} to {MAX_TERRITORIES}"),
        ((20, 0, 1), f"cannot generate a board of 0 continents: ask for 1 to {MAX_CONTINENTS}"),
        ((40, MAX_CONTINENTS + 1, 1), "continents: ask for 1 to"),
        ((True, 1, 1), "cannot generate a board of True territories"),
        ((20, 2, 1.5), "the seed must be a whole number"),
        ((20, 2, 1, (1, 4)), "cannot make a board for 1 to 4 players"),
        ((20, 2, 1, (5, 3)), "the fewest first"),
        ((20, 2, 1, (3, 11)), "ask for 2 to 10"),
        ((8, 2, 1, (3, 9)), "8 territories cannot hold 9 players"),
        ((20, 2, 1, (3,)), "players must be a pair"),
    ],
)
def test_impossible_requests_are_refused_with_what_to_change(
    arguments: tuple[Any, ...], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        generate_board(*arguments)


def test_an_unknown_shape_is_refused_with_the_shapes() -> None:
    with pytest.raises(ValueError, match="no board shape called 'ring'; shapes: world, chain, star"):
        generate_board(20, 2, 1, shape="ring")


def test_without_shapely_the_generator_says_what_to_install() -> None:
    code = (
        "import sys; sys.modules['shapely'] = None\n"  # as if not installed: importing it fails
        "from risk.maps.generate import generate_board\n"
        "try:\n    generate_board(20, 3, 1)\n"
        "except ValueError as error:\n    print(type(error).__name__, error)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.startswith("GeneratorUnavailableError generating a board needs shapely 2, which is not")
    assert "pip install 'risk[boards]'" in out
