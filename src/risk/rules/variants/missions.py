"""Secret Mission RISK (1993, 2008) and Mission RISK (2003): the mission deals and how they are won.

The cards and when each is complete are data (``risk/rules/missions.py``). Secret Mission RISK:
one secret mission each; the first player whose mission is complete wins, checked after every
action. Mission RISK: four mission cards each, one of each rank, each claimed at the time it names
("you cannot claim more than one mission on a turn"); "The first player to complete all 4
missions, wins."
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar

from mypy_extensions import trait

from risk.errors import IllegalActionError, RulesError
from risk.rules.actions import END_TURN, Action, ClaimMission
from risk.rules.goal import Goal, GoalKind
from risk.rules.hooks import ActionRule
from risk.rules.missions import (
    RANKS,
    Mission,
    effective_mission,
    mission_by_key,
    mission_deck,
    ranked_mission,
    ranked_missions,
)
from risk.rules.state import LISTS, VALUE, Kept, Outcome, Phase, State, copy_list
from risk.rules.variants.base import Variant


def _save_missions(missions: list[Mission | None], state: Any) -> Any:
    return [None if m is None else m.key for m in missions]


def _load_missions(keys: Any, state: Any) -> list[Mission | None]:
    return [
        None
        if key is None
        else effective_mission(mission_by_key(key, state.humans, state.board), seat, state.board)
        for seat, key in enumerate(keys)
    ]


@trait
class SecretMissionState(State):
    __slots__ = ()
    missions: Annotated[
        list[Mission | None],
        Kept(copy_list, _save_missions, _load_missions, absent=lambda seats: [None] * seats),
    ]


@trait
class MissionRiskState(State):
    """Each player's unclaimed and claimed mission cards (keys), and whether one was claimed this turn."""

    __slots__ = ()
    mission_cards: Annotated[list[list[str]], LISTS.when_absent(lambda seats: [[] for _ in range(seats)])]
    missions_claimed: Annotated[list[list[str]], LISTS.when_absent(lambda seats: [[] for _ in range(seats)])]
    claimed_mission_this_turn: Annotated[bool, VALUE.when_absent(lambda seats: False)]


# -- Secret Mission RISK ------------------------------------------------------------------------------
def mission_complete(game: SecretMissionState, player: int) -> bool:
    mission = game.missions[player]
    return mission is not None and mission.is_complete(game, player)


class SecretMission(Variant[SecretMissionState]):
    name = "secret-mission"
    goal = Goal(GoalKind.SECRET_MISSION, secret=True, names_colours=True)

    def setup(self, game: SecretMissionState) -> None:
        """One mission card each from the deck for the colours in play."""
        deck = mission_deck(game.humans, game.board)
        order = list(range(len(deck)))
        game._rng.shuffle(order)
        keys = generated = tuple(deck[i].key for i in order[: game.humans])
        if game._script is not None:
            keys = tuple(game._scripted("missions"))
            if len(keys) != game.humans or len(set(keys)) != len(keys):
                raise IllegalActionError("the record's missions are not one different mission per player")
        game.history.append(("chance", "missions", keys))
        for seat, key in enumerate(keys):
            try:
                mission = mission_by_key(key, game.humans, game.board)
                game.missions[seat] = effective_mission(mission, seat, game.board)
            except ValueError as error:
                raise IllegalActionError(str(error)) from None
        if game._script is not None:
            game._check_chance("missions", keys, generated)

    def after_action(self, game: SecretMissionState) -> None:
        for i in range(game.humans):
            p = (game.current + i) % game.humans
            if game.alive[p] and mission_complete(game, p):
                game._end_game(p)
                return

    def outcome(self, game: SecretMissionState, winner: int, last_standing: bool) -> Outcome | None:
        mission = game.missions[winner]
        if last_standing or mission is None:
            return None
        return Outcome(winner, f"completed the secret mission: {mission.text}", (winner,))


# -- Mission RISK ---------------------------------------------------------------------------------------
TIMING_NAMES = {
    "start": "at the start of the turn",
    "reinforced": "after the reinforcements are placed, before attacking",
    "end": "at the end of the turn",
}


def mission_window(game: MissionRiskState) -> str | None:
    """Which claim time it is now for the current player, if any."""
    if game.claimed_mission_this_turn:
        return None
    phase = game.phase
    if phase == Phase.REINFORCE and not game.placed_this_turn and not game.traded_this_turn:
        return "start"  # "at the very start of your turn, before you receive reinforcements"
    if phase == Phase.ATTACK and not game.attacked_this_turn and game.pending == 0:
        return "reinforced"  # "after you have received your reinforcements"
    if phase == Phase.TURN_END:
        return "end"  # "as the last thing you do on your turn, after drawing a Territory card"
    return None


def claimable_missions(game: MissionRiskState) -> list[str]:
    """The mission cards the current player may claim now."""
    window = mission_window(game)
    if window is None:
        return []
    p = game.current
    return [
        key
        for key in game.mission_cards[p]
        if ranked_mission(key, game.board).timing == window
        and ranked_mission(key, game.board).is_complete(game, p)
    ]


def refuse_claim_mission(game: MissionRiskState, action: ClaimMission, name: str) -> str:
    player = game.to_act
    if action.key not in game.mission_cards[player]:
        return f"{name} holds no unclaimed mission card {action.key!r}"
    if game.claimed_mission_this_turn:
        return "one mission a turn: 'you cannot claim more than one mission on a turn'"
    mission = ranked_mission(action.key, game.board)
    if mission_window(game) != mission.timing:
        return f"{action.key!r} is claimed {TIMING_NAMES[mission.timing]}, not now"
    if not mission.is_complete(game, player):
        return f"{action.key!r} is not complete: {mission.text}"
    return ""


def apply_claim_mission(game: MissionRiskState, action: ClaimMission) -> None:
    p = game.current
    game.mission_cards[p].remove(action.key)
    game.missions_claimed[p].append(action.key)
    game.claimed_mission_this_turn = True
    if not game.mission_cards[p]:
        game._end_game(p)  # "The first player to complete all 4 missions, wins."
    elif game.phase == Phase.TURN_END:
        game._next_turn()


def claims(game: MissionRiskState) -> Iterator[Action]:
    return (ClaimMission(k) for k in claimable_missions(game))


def turn_end_actions(game: MissionRiskState) -> Iterator[Action]:
    yield from claims(game)
    yield END_TURN


class MissionRisk(Variant[MissionRiskState]):
    name = "mission"
    goal = Goal(GoalKind.MISSION_CARDS, secret=True)
    actions: ClassVar[Mapping[type, ActionRule]] = {
        ClaimMission: ActionRule(refuse_claim_mission, apply_claim_mission)
    }
    absent_refusals: ClassVar[Mapping[type, str]] = {
        ClaimMission: "mission cards are claimed in Mission RISK"
    }
    phase_actions: ClassVar[Mapping[Phase, Any]] = {Phase.TURN_END: turn_end_actions}

    def setup(self, game: MissionRiskState) -> None:
        """ "Each player draws one Mission card from each pile" (General ... Captain)."""
        piles = [[m.key for m in ranked_missions(game.board) if m.rank == rank] for rank in RANKS]
        smallest = min(range(len(RANKS)), key=lambda r: len(piles[r]))
        if len(piles[smallest]) < game.humans:
            # Cards a board cannot have (islands, continents it lacks) are left out of its piles.
            raise RulesError(
                f"Mission RISK on the {game.board.name} board is for at most {len(piles[smallest])} "
                f"players, not {game.humans}: each player draws a card from each pile, and the "
                f"{RANKS[smallest]} pile has {len(piles[smallest])} cards"
            )
        hands: list[list[str]] = [[] for _ in range(game.humans)]
        for pile in piles:
            game._rng.shuffle(pile)
            for seat in range(game.humans):
                hands[seat].append(pile[seat])
        dealt = generated = tuple("+".join(h) for h in hands)
        if game._script is not None:
            dealt = tuple(game._scripted("mission-cards"))
            if len(dealt) != game.humans:
                raise IllegalActionError("the record's mission cards are not four for each player")
        for seat, cards in enumerate(dealt):
            keys = cards.split("+")
            try:
                ranks = [ranked_mission(k, game.board).rank for k in keys]
            except ValueError as error:
                raise IllegalActionError(str(error)) from None
            if sorted(ranks) != sorted(RANKS):
                raise IllegalActionError(f"mission cards {cards!r} are not one of each rank")
            game.mission_cards[seat] = keys
        if game._script is not None:
            game._check_chance("mission-cards", dealt, generated)
        game.history.append(("chance", "mission-cards", dealt))

    def start_turn(self, game: MissionRiskState) -> None:
        game.claimed_mission_this_turn = False

    def start_actions(self, game: MissionRiskState) -> Iterator[Action]:
        return claims(game)

    def closing_actions(self, game: MissionRiskState) -> Iterator[Action]:
        return claims(game)

    def end_turn(self, game: MissionRiskState) -> bool:
        if game.claimed_mission_this_turn:
            return False
        # The player may show an end-of-turn mission card. Always asked, so that the question itself
        # tells no one whether the player holds such a card.
        game.phase = Phase.TURN_END
        return True

    def outcome(self, game: MissionRiskState, winner: int, last_standing: bool) -> Outcome | None:
        return None if last_standing else Outcome(winner, "completed all four missions", (winner,))
