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

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from risk.maps import Board, load_map, normalise, slug

if TYPE_CHECKING:
    from risk.rules.state import State as Game

# Seat colours, in seat order: seat 0 plays red, seat 1 blue, and so on. The first six are the
# box's; a board for more players (up to 10) adds four, so that every colour in play has its destroy
# card (2008: the deck keeps the cards of the "army colors" chosen). The web app's palette names the
# same (web/js/palette.js, "named"; tests/test_palette.py checks).
COLOURS = ("red", "blue", "green", "yellow", "black", "gray", "purple", "orange", "brown", "sky")


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


def destroy_mission(seat: int, occupy: Mission = OCCUPY_24) -> Mission:
    colour = COLOURS[seat]
    instead = occupy.text[0].lower() + occupy.text[1:].removesuffix(".")  # "occupy 24 territories"
    text = f"Destroy all {colour} armies. If they are your own, {instead} instead."
    return Mission(f"destroy-{colour}", text, destroy=seat)


def mission_deck(player_count: int, board: Board | None = None) -> list[Mission]:
    """The deck for a game on ``board`` (the classic board when ``None``): the base missions and one
    destroy card per colour in play."""
    base = base_missions(board)
    occupy = occupy_mission(base)
    return [*base, *(destroy_mission(seat, occupy) for seat in range(player_count))]


def mission_by_key(key: str, player_count: int, board: Board | None = None) -> Mission:
    for mission in mission_deck(player_count, board):
        if mission.key == key:
            return mission
    raise ValueError(f"no mission called {key!r} in a {player_count}-player deck")


def effective_mission(mission: Mission, player: int, board: Board | None = None) -> Mission:
    """A destroy card naming the holder's own colour becomes "occupy 24 territories" (SPEC), or the
    board's own occupy mission on another board."""
    if mission.destroy != player:
        return mission
    return occupy_mission(base_missions(board))


def occupy_mission(base: Sequence[Mission]) -> Mission:
    """The "occupy N territories" mission of a deck (the first mission of territories, one army each)."""
    return next(m for m in base if m.territories and m.armies_each == 1)


# -- the missions of another board ---------------------------------------------------------------
#
# The books' missions name the classic board's continents and sizes. Another board gets missions
# built by the same pattern, each asking for about the share of the board the book's ask for
# (docs/rules.md, "Missions on other boards").

BOOK_CONTINENTS = ("North America", "South America", "Europe", "Africa", "Asia", "Australia")
BOOK_TERRITORIES = 42
BOOK_ISLANDS = 7  # the classic board's islands (Mission RISK asks for 2 to 5 of them)
BOOK_BONUSES = 24
# The book's Secret Missions on the classic board: the four "Conquer A and B" ask on average for
# 15.5 of the 42 territories and 8.5 of the 24 bonus armies; the two "A, B and one more" name 11 and 7.
PAIR_SHARE = (15.5 / BOOK_TERRITORIES, 8.5 / BOOK_BONUSES)
PLUS_ONE_SHARE = (11 / BOOK_TERRITORIES, 7 / BOOK_BONUSES)
PAIR_MISSIONS, PLUS_ONE_MISSIONS = 4, 2
# A continent mission's share of the territories stays in this range (the book's: 31% to 43%).
MIN_SHARE, MAX_SHARE = 0.2, 0.6
OCCUPY_SHARE, STRONGHOLD_SHARE = 24 / BOOK_TERRITORIES, 18 / BOOK_TERRITORIES
MAX_GROUPS = 2000  # the groups of continents weighed for a mission, at most (a board of 24 has millions)


def is_book_board(board: Board) -> bool:
    """Whether the books' missions fit ``board``: the classic board's continents (by name), its 42
    territories and enough islands for Mission RISK's island cards."""
    names = {normalise(c.name) for c in board.continents}
    return (
        names == {normalise(name) for name in BOOK_CONTINENTS}
        and len(board) == BOOK_TERRITORIES
        and len(board.islands) >= 5
    )


def continent_share(board: Board, continents: Sequence[int]) -> tuple[float, float]:
    """The share of the board's territories and of its bonus armies that ``continents`` hold."""
    territories = sum(len(board.continents[c].territories) for c in continents) / len(board)
    total = sum(c.bonus for c in board.continents)
    bonus = sum(board.continents[c].bonus for c in continents) / total if total > 0 else territories
    return territories, bonus


def group_size(board: Board, book_size: int) -> int:
    """How many of the board's continents a generated mission names where the book's names
    ``book_size`` of the classic board's six: as many as make the same share of the continents."""
    return max(1, round(book_size * len(board.continents) / len(BOOK_CONTINENTS)))


def continent_groups(board: Board, size: int) -> list[tuple[int, ...]]:
    """The groups of ``size`` continents a generated mission may name, never the whole board: every
    combination (any two continents on a board like the classic one), or where there would be more
    than :data:`MAX_GROUPS`, the runs of continents in the board's order (wrapping around)."""
    count = len(board.continents)
    if size >= count:
        return []
    if math.comb(count, size) <= MAX_GROUPS:
        return list(itertools.combinations(range(count), size))
    return sorted({tuple(sorted((start + k) % count for k in range(size))) for start in range(count)})


def _distance(board: Board, group: Sequence[int], target: tuple[float, float]) -> float:
    territories, bonus = continent_share(board, group)
    return abs(territories - target[0]) + abs(bonus - target[1])


def _nearest(
    board: Board, groups: list[tuple[int, ...]], target: tuple[float, float]
) -> list[tuple[int, ...]]:
    return sorted(groups, key=lambda group: (_distance(board, group, target), group))


def _names(board: Board, group: Sequence[int]) -> list[str]:
    return [board.continents[c].name for c in group]


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _smallest_other(board: Board, group: Sequence[int]) -> list[int]:
    others = [c for c in range(len(board.continents)) if c not in group]
    return [min(others, key=lambda c: (len(board.continents[c].territories), c))] if others else []


def generated_missions(board: Board) -> tuple[Mission, ...]:
    """Secret Missions for ``board`` by the book's pattern: four "Conquer A and B", two "Conquer A, B
    and one more continent", "occupy N" and "N with 2 armies each", each about the book's share."""
    groups = continent_groups(board, group_size(board, 2))  # the book's missions name pairs
    missions: list[Mission] = []
    used: set[tuple[int, ...]] = set()
    keys: set[str] = set()

    def add(mission: Mission, group: tuple[int, ...]) -> None:
        used.add(group)
        keys.add(mission.key)
        missions.append(mission)

    plain = [g for g in groups if MIN_SHARE <= continent_share(board, g)[0] <= MAX_SHARE]
    for group in _nearest(board, plain, PAIR_SHARE):
        names = _names(board, group)
        key = "-".join(slug(name) for name in names)
        if len(missions) < PAIR_MISSIONS and key not in keys:
            add(Mission(key, f"Conquer {_listed(names)}.", tuple(names)), group)
    # "... and one more": the least it asks (the smallest other continent) in the range, and a
    # continent left over so that it is not the whole board.
    plus_one = [
        g
        for g in groups
        if g not in used
        and len(g) < len(board.continents) - 1
        and MIN_SHARE <= continent_share(board, [*g, *_smallest_other(board, g)])[0] <= MAX_SHARE
    ]
    added = 0
    for group in _nearest(board, plus_one, PLUS_ONE_SHARE):
        names = _names(board, group)
        key = "-".join(slug(name) for name in names) + "-plus-one"
        if added < PLUS_ONE_MISSIONS and key not in keys:
            text = f"Conquer {', '.join(names)} and one more continent."
            add(Mission(key, text, tuple(names), any_other_continent=True), group)
            added += 1
    # More than a player's share of a 3-player deal, so that no mission is complete at the start.
    floor = min(len(board), -(-len(board) // 3) + 1)
    occupy = max(floor, round(len(board) * OCCUPY_SHARE))
    strongholds = max(floor, round(len(board) * STRONGHOLD_SHARE))
    missions.append(Mission(f"occupy-{occupy}", f"Occupy {occupy} territories.", territories=occupy))
    missions.append(
        Mission(
            f"occupy-{strongholds}-with-2",
            f"Occupy {strongholds} territories with at least 2 armies in each.",
            territories=strongholds,
            armies_each=2,
        )
    )
    return tuple(missions)


@functools.lru_cache(maxsize=32)
def _board_missions(board: Board) -> tuple[Mission, ...]:
    return BASE_MISSIONS if is_book_board(board) else generated_missions(board)


def base_missions(board: Board | None = None) -> tuple[Mission, ...]:
    """The missions of a deck that name no colour: the book's on the classic board, generated by
    the book's pattern on another (:func:`generated_missions`)."""
    return BASE_MISSIONS if board is None else _board_missions(board)


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


def ranked_missions(board: Board | None = None) -> tuple[RankedMission, ...]:
    """The Mission RISK cards for ``board``: ours on the classic board (``None``), and on another
    board the same cards with their continents, islands and counts scaled to it
    (:func:`generated_ranked_missions`)."""
    if board is None:
        return RANKED_MISSIONS
    return _board_ranked(board)


def ranked_mission(key: str, board: Board | None = None) -> RankedMission:
    """A Mission RISK card by key, among the cards of ``board`` (the classic board when ``None``)."""
    try:
        return (RANKED_BY_KEY if board is None else _ranked_by_key(board))[key]
    except KeyError:
        raise ValueError(f"no Mission RISK card called {key!r}") from None


@functools.lru_cache(maxsize=32)
def _board_ranked(board: Board) -> tuple[RankedMission, ...]:
    return RANKED_MISSIONS if is_book_board(board) else generated_ranked_missions(board)


@functools.lru_cache(maxsize=32)
def _ranked_by_key(board: Board) -> dict[str, RankedMission]:
    return {m.key: m for m in _board_ranked(board)}


def _plural(count: int, word: str, words: str) -> str:
    return f"{count} {word if count == 1 else words}"


def _scaled(count: int, actual: int, book: int) -> int:
    return round(count * actual / book)


def generated_ranked_missions(board: Board) -> tuple[RankedMission, ...]:
    """Our Mission RISK cards made for ``board``, card for card (same ranks and timings): a card
    naming continents names the run of the board's continents nearest its share of the classic
    board; counts of territories, islands and continents are scaled by the board's size; a turn's
    conquests are the book's, fewer on a board smaller than the classic one; a stack is the book's.
    A card that cannot be made (no islands, too few continents) is left out of its pile."""
    classic = load_map("classic")
    territories, continents, islands = len(board), len(board.continents), len(board.islands)
    cards: list[RankedMission] = []
    named: dict[str, set[tuple[int, ...]]] = {rank: set() for rank in RANKS}
    for book in RANKED_MISSIONS:
        rank, timing = book.rank, book.timing
        if book.continents:
            target = continent_share(classic, [classic.continent(name) for name in book.continents])
            groups = continent_groups(board, group_size(board, len(book.continents)))
            free = [g for g in groups if g not in named[rank]]
            if not free:
                continue
            group = _nearest(board, free, target)[0]
            named[rank].add(group)
            names = _names(board, group)
            key = f"{rank}-" + "-".join(slug(name) for name in names)
            text = f"Control {_listed(names)}."
            cards.append(RankedMission(key, rank, timing, text, continents=tuple(names)))
        elif book.continent_count:
            count = _scaled(book.continent_count, continents, len(BOOK_CONTINENTS))
            if 1 <= count < continents:
                text = f"Control {_plural(count, 'whole continent', 'whole continents')}."
                cards.append(
                    RankedMission(f"{rank}-{count}-continents", rank, timing, text, continent_count=count)
                )
        elif book.islands:
            count = min(islands, _scaled(book.islands, islands, BOOK_ISLANDS))
            if count >= 1:
                text = f"Control {_plural(count, 'island', 'islands')}."
                cards.append(RankedMission(f"{rank}-{count}-islands", rank, timing, text, islands=count))
        elif book.territories:
            count = max(1, min(territories, _scaled(book.territories, territories, BOOK_TERRITORIES)))
            if book.armies_each > 1:
                each = f" with at least {book.armies_each} armies in each"
                key = f"{rank}-{count}-strongholds"
            else:
                each, key = "", f"{rank}-{count}-territories"
            text = f"Control {_plural(count, 'territory', 'territories')}{each}."
            cards.append(
                RankedMission(key, rank, timing, text, territories=count, armies_each=book.armies_each)
            )
        elif book.conquests:
            count = max(1, min(book.conquests, _scaled(book.conquests, territories, BOOK_TERRITORIES)))
            text = f"Conquer {_plural(count, 'territory', 'territories')} this turn."
            cards.append(RankedMission(f"{rank}-{count}-conquests", rank, timing, text, conquests=count))
        else:
            cards.append(book)  # a stack: the same on any board
    unique = {card.key: card for card in reversed(cards)}  # a repeated card: the first kept
    return tuple(card for card in cards if unique[card.key] is card)
