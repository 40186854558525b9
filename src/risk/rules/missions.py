"""Secret Mission RISK: the mission deck and when a mission is complete.

SPEC.md ("Mission cards") gives the widely published deck; the rulebooks decide the rest:
a destroy-a-colour card is removed when that colour is not in play (2008: "removes the Secret
Mission cards that refer to army colors that were not chosen"), a player who draws their own
colour plays "occupy 24 territories" instead (SPEC), and a colour wiped out by another player still
completes the mission (2008: "that player has helped you complete your Secret Mission").

Both rulebooks say "12 Secret Mission cards" and print no texts; this deck is 8 + one per colour
(14 with six colours, 13 with five). The two books' 12 cannot be the same cards (2008 has five colours,
1993 six), so we keep the published deck rather than invent which missions to drop: see "The Secret
Mission deck" in docs/rules.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from risk.rules.state import State as Game

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
            # Out of the game and off the board: a player who resigned leaves armies to destroy.
            return not game.alive[self.destroy] and game.territory_count[self.destroy] == 0
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


def continents_named(game: str) -> tuple[str, ...]:
    """The continents the missions of a game name (Secret Mission or Mission RISK), which a board
    must have for that game: the texts are the classic board's (docs/boards.md)."""
    if game == "secret-mission":
        named = [name for mission in BASE_MISSIONS for name in mission.continents]
    elif game == "mission":
        named = [name for mission in RANKED_MISSIONS for name in mission.continents]
    else:
        named = []
    return tuple(dict.fromkeys(named))


def mission_by_key(key: str, player_count: int) -> Mission:
    for mission in mission_deck(player_count):
        if mission.key == key:
            return mission
    raise ValueError(f"no mission called {key!r} in a {player_count}-player deck")


def effective_mission(mission: Mission, player: int) -> Mission:
    """A destroy card naming the holder's own colour becomes "occupy 24 territories" (SPEC)."""
    return OCCUPY_24 if mission.destroy == player else mission


# -- Mission RISK (2003): four missions each, one of each rank -------------------------------------
#
# The rulebook prints the rules but not the cards: these texts are ours, designed within what the
# rules say: four ranks (General, Major, Colonel, Captain), each card claimed at the time it names
# ("Play at the start of your turn", "Play after you gain reinforcements", "Play at the end of your
# turn"), and islands ("a territory completely surrounded by water and only connected to other
# territories by sea-lines, for example Indonesia").

RANKS = ("general", "major", "colonel", "captain")
TIMINGS = ("start", "reinforced", "end")
TIMING_TEXT = {
    "start": "Play at the start of your turn.",
    "reinforced": "Play after you gain reinforcements.",
    "end": "Play at the end of your turn.",
}


@dataclass(frozen=True, slots=True)
class RankedMission:
    key: str
    rank: str
    timing: str
    text: str
    continents: tuple[str, ...] = ()
    continent_count: int = 0  # any this many whole continents
    territories: int = 0
    armies_each: int = 1
    islands: int = 0
    stack: int = 0  # armies in one territory
    conquests: int = 0  # territories conquered this turn

    @property
    def card_text(self) -> str:
        return f"{self.rank.title()}: {self.text} {TIMING_TEXT[self.timing]}"

    def is_complete(self, game: Game, player: int) -> bool:
        owner, armies = game.owner, game.armies
        held = [t for t in range(len(owner)) if owner[t] == player]
        if self.continents or self.continent_count:
            mine = set(game.continents_of(player))
            if not {game.board.continent(c) for c in self.continents} <= mine:
                return False
            if len(mine) < self.continent_count:
                return False
        if self.territories and sum(1 for t in held if armies[t] >= self.armies_each) < self.territories:
            return False
        if self.islands and sum(1 for t in held if t in game.board.islands) < self.islands:
            return False
        if self.stack and max((armies[t] for t in held), default=0) < self.stack:
            return False
        return not (self.conquests and game.conquests_this_turn < self.conquests)


def _m(key: str, rank: str, timing: str, text: str, **condition: object) -> RankedMission:
    return RankedMission(key, rank, timing, text, **condition)  # type: ignore[arg-type]  # typed per field


RANKED_MISSIONS: tuple[RankedMission, ...] = (
    _m("general-asia", "general", "start", "Control Asia.", continents=("Asia",)),
    _m(
        "general-north-america-australia",
        "general",
        "reinforced",
        "Control North America and Australia.",
        continents=("North America", "Australia"),
    ),
    _m("general-five-islands", "general", "end", "Control 5 islands.", islands=5),
    _m("general-24-territories", "general", "end", "Control 24 territories.", territories=24),
    _m("general-three-continents", "general", "start", "Control three whole continents.", continent_count=3),
    _m(
        "general-europe-africa",
        "general",
        "reinforced",
        "Control Europe and Africa.",
        continents=("Europe", "Africa"),
    ),
    _m(
        "general-18-strongholds",
        "general",
        "end",
        "Control 18 territories with at least 2 armies in each.",
        territories=18,
        armies_each=2,
    ),
    _m("major-north-america", "major", "start", "Control North America.", continents=("North America",)),
    _m("major-europe", "major", "reinforced", "Control Europe.", continents=("Europe",)),
    _m("major-four-islands", "major", "end", "Control 4 islands.", islands=4),
    _m("major-20-territories", "major", "start", "Control 20 territories.", territories=20),
    _m(
        "major-africa-south-america",
        "major",
        "reinforced",
        "Control Africa and South America.",
        continents=("Africa", "South America"),
    ),
    _m("major-five-conquests", "major", "end", "Conquer 5 territories this turn.", conquests=5),
    _m("colonel-africa", "colonel", "start", "Control Africa.", continents=("Africa",)),
    _m("colonel-three-islands", "colonel", "reinforced", "Control 3 islands.", islands=3),
    _m("colonel-17-territories", "colonel", "end", "Control 17 territories.", territories=17),
    _m("colonel-two-continents", "colonel", "start", "Control two whole continents.", continent_count=2),
    _m("colonel-stack-15", "colonel", "end", "Have 15 or more armies in one territory.", stack=15),
    _m("colonel-four-conquests", "colonel", "end", "Conquer 4 territories this turn.", conquests=4),
    _m(
        "colonel-12-strongholds",
        "colonel",
        "reinforced",
        "Control 12 territories with at least 2 armies in each.",
        territories=12,
        armies_each=2,
    ),
    _m("captain-australia", "captain", "start", "Control Australia.", continents=("Australia",)),
    _m(
        "captain-south-america",
        "captain",
        "reinforced",
        "Control South America.",
        continents=("South America",),
    ),
    _m("captain-two-islands", "captain", "end", "Control 2 islands.", islands=2),
    _m("captain-14-territories", "captain", "start", "Control 14 territories.", territories=14),
    _m("captain-stack-10", "captain", "reinforced", "Have 10 or more armies in one territory.", stack=10),
    _m("captain-two-conquests", "captain", "end", "Conquer 2 territories this turn.", conquests=2),
    _m(
        "captain-8-strongholds",
        "captain",
        "end",
        "Control 8 territories with at least 2 armies in each.",
        territories=8,
        armies_each=2,
    ),
)
RANKED_BY_KEY: dict[str, RankedMission] = {m.key: m for m in RANKED_MISSIONS}


def ranked_mission(key: str) -> RankedMission:
    try:
        return RANKED_BY_KEY[key]
    except KeyError:
        raise ValueError(f"no Mission RISK card called {key!r}") from None
