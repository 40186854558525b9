"""The player counts and starting armies a board declares when its author gave none: generated and
imported boards (docs/boards.md, "Players and starting armies"). Geometry-free, so that importing a
board does not load the generator's shapely.

>>> default_players(42), starting_armies(42, 2, 6)
((2, 6), {'3': 35, '4': 30, '5': 25, '6': 20})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from risk.maps.validate import MAX_STARTING_ARMIES, MIN_PLAYERS, normalise

if TYPE_CHECKING:
    from risk.maps import Board

# The classic board's starting armies (the rulebooks' table) for its 42 territories, by player count.
CLASSIC_TERRITORIES = 42
CLASSIC_CONTINENTS = ("North America", "South America", "Europe", "Africa", "Asia", "Australia")
CLASSIC_ARMIES = {3: 35, 4: 30, 5: 25, 6: 20}
CLASSIC_TABLE_ARMIES = 120  # the table's total beyond 6 players: 4, 5 and 6 players put down 120 to 125


def is_classic_board(board: Board) -> bool:
    """Whether ``board`` is the rulebooks' board, whose player counts are each edition's own: the
    classic continents (by name) and 42 territories (risk.rules.missions.is_book_board asks this
    and enough islands for Mission RISK)."""
    names = {normalise(continent.name) for continent in board.continents}
    return names == {normalise(name) for name in CLASSIC_CONTINENTS} and len(board) == CLASSIC_TERRITORIES


def default_players(territories: int) -> tuple[int, int]:
    """The player counts a board declares unless asked: 2 up to 6, at least 4 territories each."""
    return MIN_PLAYERS, max(MIN_PLAYERS, min(6, territories // 4))


def starting_armies(territories: int, low: int, high: int) -> dict[str, int]:
    """Each player's starting armies by player count: the classic table scaled by the board's size
    (beyond 6 players the classic total shared out), never fewer than one army a territory needs."""
    table: dict[str, int] = {}
    for players in range(max(low, 3), high + 1):
        total = CLASSIC_ARMIES[players] * players if players in CLASSIC_ARMIES else CLASSIC_TABLE_ARMIES
        scaled = round(total * territories / CLASSIC_TERRITORIES / players)
        table[str(players)] = min(MAX_STARTING_ARMIES, max(scaled, -(-territories // players)))
    return table


__all__ = [
    "CLASSIC_ARMIES",
    "CLASSIC_CONTINENTS",
    "CLASSIC_TERRITORIES",
    "default_players",
    "is_classic_board",
    "starting_armies",
]
