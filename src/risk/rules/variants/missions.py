"""Secret Mission RISK (1993, 2008) and Mission RISK (2003): the mission deals and how they are won.

The cards and when each is complete are data (``risk/rules/missions.py``). Secret Mission RISK:
one secret mission each; the first player whose mission is complete wins, checked after every
action. Mission RISK: four mission cards each, one of each rank, each claimed at the time it names
("you cannot claim more than one mission on a turn"); "The first player to complete all 4
missions, wins."
"""

from __future__ import annotations

import random
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
from risk.rules.state import LISTS, VALUE, HistoryEntry, Kept, Outcome, Phase, State, copy_list
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


# Draws of the other players' secret missions before the incomplete ones are picked by hand.
MISSION_DRAWS = 8


def _own_key(game: State, entry: HistoryEntry, seat: int, deal: str) -> HistoryEntry:
    """A history entry as ``seat`` sees it: the deal ``deal`` (a chance outcome of one key per seat)
    shows it its own key alone, ``None`` for the others, until the game is over."""
    kind, who, keys = entry
    if kind != "chance" or who != deal or game.is_over:
        return entry
    return kind, who, tuple(key if p == seat else None for p, key in enumerate(keys))


def _replace_complete_missions(game: SecretMissionState, seats: list[int], pool: list[str]) -> None:
    """Give each of ``seats`` a card from ``pool`` that is not complete for it, where there is one."""
    for seat in seats:
        for index, key in enumerate(pool):
            mission = effective_mission(mission_by_key(key, game.humans, game.board), seat, game.board)
            if not mission.is_complete(game, seat):
                game.missions[seat] = mission
                pool.pop(index)
                break


class SecretMission(Variant[SecretMissionState]):
    name = "secret-mission"
    goal = Goal(GoalKind.SECRET_MISSION, secret=True, names_colours=True)
    chance_keys = frozenset(("missions",))

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
                game.end_game(p)
                return

    def outcome(self, game: SecretMissionState, winner: int, last_standing: bool) -> Outcome | None:
        mission = game.missions[winner]
        if last_standing or mission is None:
            return None
        return Outcome(winner, f"completed the secret mission: {mission.text}", (winner,))

    # -- the secret: each player's mission, its own until the game is over ------------------------------
    def shown_to(self, game: SecretMissionState, seat: int) -> Mapping[str, Any]:
        if game.is_over:
            return {"missions": list(game.missions)}
        return {"missions": [m if p == seat else None for p, m in enumerate(game.missions)]}

    def view_data(self, game: SecretMissionState, seat: int) -> Mapping[str, Any]:
        shown: list[Mission | None] = self.shown_to(game, seat)["missions"]
        return {"missions": [None if m is None else {"key": m.key, "text": m.text} for m in shown]}

    def redact(self, game: SecretMissionState, entry: HistoryEntry, seat: int) -> HistoryEntry:
        return _own_key(game, entry, seat, "missions")

    def sample_hidden(
        self, real: SecretMissionState, sample: SecretMissionState, seat: int, rng: random.Random
    ) -> None:
        """The other players' missions, none of them complete for a player still in the game."""
        if real.is_over:
            return
        humans, board = real.humans, real.board
        mine = real.missions[seat] if 0 <= seat < humans else None
        # A destroy card naming its holder reads "occupy 24": then the real occupy-24 card may be
        # in another hand; leaving out the card we show is the close, simple approximation.
        deck = [m.key for m in mission_deck(humans, board) if mine is None or m.key != mine.key]
        others = [p for p in range(humans) if p != seat]
        # The engine ends the game as soon as a player in it has a complete mission, so no player
        # still in the game holds one that is complete now: draw again until none does (a few
        # tries; the last draw gives each such player a card that is not complete, if one is left).
        for attempt in range(MISSION_DRAWS):
            pool = deck[:]
            rng.shuffle(pool)
            for p in others:
                sample.missions[p] = effective_mission(mission_by_key(pool.pop(), humans, board), p, board)
            complete = [p for p in others if real.alive[p] and mission_complete(sample, p)]
            if not complete or real.turn == 0:
                break
            if attempt == MISSION_DRAWS - 1:
                _replace_complete_missions(sample, complete, pool)


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


def ready_missions(game: MissionRiskState, seat: int) -> list[str]:
    """``seat``'s unclaimed cards that are complete now, whenever they may be shown (none for a
    spectator, -1)."""
    if seat < 0:
        return []
    return [
        key for key in game.mission_cards[seat] if ranked_mission(key, game.board).is_complete(game, seat)
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
        game.end_game(p)  # "The first player to complete all 4 missions, wins."
    elif game.phase == Phase.TURN_END:
        game.pass_turn()


def claims(game: MissionRiskState) -> Iterator[Action]:
    return (ClaimMission(k) for k in claimable_missions(game))


def turn_end_actions(game: MissionRiskState) -> Iterator[Action]:
    yield from claims(game)
    yield END_TURN


def shown_mission_cards(game: MissionRiskState, seat: int) -> list[list[str] | None]:
    """Each player's unclaimed cards as ``seat`` may see them: its own, another's once three are
    claimed (the fourth is revealed), everyone's after the game; ``None`` where hidden."""
    return [
        cards if p == seat or len(game.missions_claimed[p]) >= 3 or game.is_over else None
        for p, cards in enumerate(game.mission_cards)
    ]


class MissionRisk(Variant[MissionRiskState]):
    name = "mission"
    goal = Goal(GoalKind.MISSION_CARDS, secret=True)
    chance_keys = frozenset(("mission-cards",))
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

    # -- the secret: the unclaimed cards, each player's own until its fourth is revealed ---------------
    def shown_to(self, game: MissionRiskState, seat: int) -> Mapping[str, Any]:
        return {"mission_cards": shown_mission_cards(game, seat)}

    def view_data(self, game: MissionRiskState, seat: int) -> Mapping[str, Any]:
        shown = shown_mission_cards(game, seat)
        return {
            "mission_cards": [
                {
                    "claimed": list(game.missions_claimed[p]),
                    "unclaimed": None if shown[p] is None else list(game.mission_cards[p]),
                    "unclaimed_count": len(game.mission_cards[p]),
                }
                for p in range(game.humans)
            ]
        }

    def redact(self, game: MissionRiskState, entry: HistoryEntry, seat: int) -> HistoryEntry:
        return _own_key(game, entry, seat, "mission-cards")

    def sample_hidden(
        self, real: MissionRiskState, sample: MissionRiskState, seat: int, rng: random.Random
    ) -> None:
        """The other players' unrevealed cards, each drawn from the unseen cards of its rank."""
        humans, board = real.humans, real.board
        hidden = [p for p in range(humans) if p != seat and len(real.missions_claimed[p]) < 3]
        if real.is_over or not hidden:
            return
        seen = {key for p in range(humans) if p not in hidden for key in real.mission_cards[p]}
        seen.update(key for claimed in real.missions_claimed for key in claimed)
        for rank in RANKS:
            pool = [m.key for m in ranked_missions(board) if m.rank == rank and m.key not in seen]
            rng.shuffle(pool)
            for p in hidden:
                cards = sample.mission_cards[p]
                for index, key in enumerate(cards):
                    if ranked_mission(key, board).rank == rank and pool:
                        cards[index] = pool.pop()
