"""Secret Mission RISK: the mission deck and when a mission is complete.

SPEC.md ("Mission cards") gives the widely published deck; the rulebooks decide the rest:
a destroy-a-colour card is removed when that colour is not in play (2008: "removes the Secret
Mission cards that refer to army colors that were not chosen"), a player who draws their own
colour plays "occupy 24 territories" instead (SPEC), and a colour wiped out by another player still
completes the mission (2008: "that player has helped you complete your Secret Mission").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from risk.rules.game import Game

# Seat colours, in seat order: seat 0 plays red, seat 1 blue, and so on.
COLOURS = ("red", "blue", "green", "yellow", "black", "gray")


@dataclass(frozen=True, slots=True)
class Mission:
    key: str  # the mission's name in records: "north-america-africa", "destroy-blue"
    text: str
    continents: tuple[str, ...] = ()
    any_other_continent: bool = False  # "... and one more continent of your choice"
    territories: int = 0
    armies_each: int = 1
    destroy: int | None = None  # a seat

    def is_complete(self, game: Game, player: int) -> bool:
        if self.destroy is not None:
            return not game.alive[self.destroy]
        if self.territories:
            owner, armies = game.owner, game.armies
            held = sum(1 for t in range(len(owner)) if owner[t] == player and armies[t] >= self.armies_each)
            return held >= self.territories
        held_continents = set(game.continents_of(player))
        wanted = {game.board.continent(name) for name in self.continents}
        if not wanted <= held_continents:
            return False
        return not self.any_other_continent or len(held_continents - wanted) >= 1


OCCUPY_24 = Mission("occupy-24", "Occupy 24 territories.", territories=24)

BASE_MISSIONS: tuple[Mission, ...] = (
    Mission("north-america-africa", "Conquer North America and Africa.", ("North America", "Africa")),
    Mission("asia-south-america", "Conquer Asia and South America.", ("Asia", "South America")),
    Mission(
        "north-america-australia", "Conquer North America and Australia.", ("North America", "Australia")
    ),
    Mission("asia-africa", "Conquer Asia and Africa.", ("Asia", "Africa")),
    Mission(
        "europe-south-america-plus-one",
        "Conquer Europe, South America and one more continent.",
        ("Europe", "South America"),
        any_other_continent=True,
    ),
    Mission(
        "europe-australia-plus-one",
        "Conquer Europe, Australia and one more continent.",
        ("Europe", "Australia"),
        any_other_continent=True,
    ),
    OCCUPY_24,
    Mission(
        "occupy-18-with-2",
        "Occupy 18 territories with at least 2 armies in each.",
        territories=18,
        armies_each=2,
    ),
)


def destroy_mission(seat: int) -> Mission:
    colour = COLOURS[seat]
    return Mission(
        f"destroy-{colour}",
        f"Destroy all {colour} armies. If they are your own, occupy 24 territories instead.",
        destroy=seat,
    )


def mission_deck(player_count: int) -> list[Mission]:
    """The deck for a game: the base missions and one destroy card per colour in play."""
    return [*BASE_MISSIONS, *(destroy_mission(seat) for seat in range(player_count))]


def mission_by_key(key: str, player_count: int) -> Mission:
    for mission in mission_deck(player_count):
        if mission.key == key:
            return mission
    raise ValueError(f"no mission called {key!r} in a {player_count}-player deck")


def effective_mission(mission: Mission, player: int) -> Mission:
    """A destroy card naming the holder's own colour becomes "occupy 24 territories" (SPEC)."""
    return OCCUPY_24 if mission.destroy == player else mission
