"""The goal of a game for one seat, beyond world domination: what the heuristic bots aim at.

:func:`aim_for` reads a player's :class:`~risk.view.View` (public facts and the player's own secrets
only) and says what matters in Secret Mission RISK, Capital RISK and Mission RISK:

* which territories are worth more to take (a mission's continents, a colour to destroy, an
  opposing headquarters, islands, or any territory when a mission counts them), and which opponents'
  territories to take to stop someone visibly close to a goal;
* which continents to aim at first (:attr:`Aim.continent_weight`);
* which territories to guard and how many armies to keep there (a headquarters, held headquarters);
* when the goal is within reach this turn, so that attacks may be pressed at lower odds;
* the decisions that only these games have (:func:`special_action`): choosing a headquarters,
  claiming a Mission RISK card at the right moment, the last armies for "18 territories with 2".

:func:`goal_progress` scores a position for a seat between 0 and 1 (how far its goal is done), for
a search bot's evaluation. World domination, 2-player and Team RISK have no aim here (``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from risk.rules.actions import END_TURN, Action, Capital, ClaimMission, Place
from risk.rules.game import Phase
from risk.rules.goal import GoalKind
from risk.rules.missions import Mission, RankedMission, mission_deck, ranked_mission
from risk.view import View

if TYPE_CHECKING:
    from risk.maps import Board

# The goals with an aim here, bound once: looking an enum member up on its class costs a call, and
# these are asked every decision.
SECRET_MISSION, HEADQUARTERS = GoalKind.SECRET_MISSION, GoalKind.HEADQUARTERS
MISSION_CARDS = GoalKind.MISSION_CARDS
AIMED = frozenset({SECRET_MISSION, HEADQUARTERS, MISSION_CARDS})

# Extra conquest values (in the heuristic's units: a plain territory is worth 1, the turn's card 3).
GOAL_CONTINENT_VALUE = 2.5  # a territory of a continent the goal needs
TERRITORY_COUNT_VALUE = 1.0  # any territory, when the goal counts territories
DESTROY_VALUE = 4.0  # a territory of the colour to destroy
ENEMY_CAPITAL_VALUE = 9.0  # an opposing headquarters (more for the weakest)
NEAR_CAPITAL_VALUE = 1.5  # a territory next to an opposing headquarters: the way in
HOME_GUARD = 1.0  # armies kept on one's headquarters per enemy army that could strike it
BLOCK_VALUE = 2.0  # per step an opponent is from its goal, fewer steps more
# Secret Mission: wiping out a colour completes anyone's "destroy" card for it, so the last
# territory of a player is worth less to take, unless it is our own mission.
RISKY_ELIMINATION = -6.0
# Odds at which to press on when the goal is within reach this turn.
FINISHING_ODDS = 0.35


@dataclass(slots=True)
class Aim:
    """What one seat's goal asks for in the present position (see the module docstring)."""

    goal: GoalKind
    value: list[float]  # extra value of conquering each territory
    continent_weight: list[float]  # how much more each continent is worth aiming at (1: as usual)
    keep: dict[int, int] = field(default_factory=dict)  # territory: armies to keep there
    guard_weight: dict[int, float] = field(default_factory=dict)  # territory: weight of its defence
    finishing: bool = False  # the goal can be reached this turn: press on at lower odds
    elimination_value: float | None = None  # replaces the usual value of wiping out a player
    destroy: int | None = None  # the seat whose elimination is the goal
    strongholds: int = 0  # territories needed with at least 2 armies ("18 with 2")
    stack: int = 0  # armies wanted in one territory (Mission RISK)
    conquests: int = 0  # conquests wanted this turn (Mission RISK)
    capitals_to_take: set[int] = field(default_factory=set)  # opposing headquarters (Capital RISK)

    def extra(self, territory: int) -> float:
        return self.value[territory]


def aim_for(view: View) -> Aim | None:
    """The aim of ``view.player`` in this game, or ``None`` when the game is world domination."""
    goal = view.goal.kind
    if goal not in AIMED or view.player < 0 or view.is_over:
        return None
    board = view.board
    aim = Aim(goal, [0.0] * len(board), [1.0] * len(board.continents))
    owner, armies = view.owner, view.armies
    if goal is SECRET_MISSION:
        _secret_mission(view, aim, owner, armies)
    elif goal is HEADQUARTERS:
        _capital(view, aim, owner, armies)
    else:
        _mission_risk(view, aim, owner, armies)
    return aim


# -- Secret Mission RISK -------------------------------------------------------------------------
def _secret_mission(view: View, aim: Aim, owner: Sequence[int], armies: Sequence[int]) -> None:
    me, board = view.player, view.board
    mission = view.mission
    if mission is None:
        return
    if mission.destroy is not None:
        target = mission.destroy
        aim.destroy = target
        for t, seat in enumerate(owner):
            if seat == target:
                aim.value[t] += DESTROY_VALUE
        # Aim at the continents where the colour stands.
        for continent in board.continents:
            theirs = sum(1 for t in continent.territories if owner[t] == target)
            aim.continent_weight[continent.index] += 2.0 * theirs / len(continent.territories)
        left = view.territory_count[target]
        aim.finishing = 0 < left <= 2 and any(
            owner[n] == me and armies[n] > armies[t] + 1
            for t in range(len(owner))
            if owner[t] == target
            for n in board.neighbours[t]
        )
    elif mission.territories:
        _count_territories(view, aim, owner, armies, mission.territories, mission.armies_each)
    else:
        wanted = [board.continent(name) for name in mission.continents]
        if mission.any_other_continent:
            wanted.append(_best_other_continent(board, owner, me, wanted))
        _want_continents(view, aim, owner, armies, wanted)
    if aim.destroy is None:
        aim.elimination_value = RISKY_ELIMINATION
    _block_secret_missions(view, aim, owner, armies, mission.key)


def _best_other_continent(board: Board, owner: Sequence[int], me: int, taken: list[int]) -> int:
    """The continent, other than ``taken``, of which ``me`` holds the largest share."""
    return max(
        (c for c in board.continents if c.index not in taken),
        key=lambda c: (sum(owner[t] == me for t in c.territories) / len(c.territories), -c.bonus),
    ).index


def _want_continents(
    view: View,
    aim: Aim,
    owner: Sequence[int],
    armies: Sequence[int],
    wanted: list[int],
    weight: float = 4.0,
    value: float = GOAL_CONTINENT_VALUE,
) -> None:
    """A goal of whole continents: their territories are worth more (``value`` each, the continent
    ``weight`` more as a target), their borders guarded more."""
    me, board = view.player, view.board
    missing_total = 0
    for c in wanted:
        members = board.continents[c].territories
        missing = [t for t in members if owner[t] != me]
        missing_total += len(missing)
        aim.continent_weight[c] += weight
        for t in missing:
            aim.value[t] += value
        if not missing:  # held: guard its borders more than other held continents
            for t in members:
                aim.guard_weight[t] = 1.5
    aim.finishing = 0 < missing_total <= 2 and _reachable(view, owner, armies, wanted)


def _reachable(view: View, owner: Sequence[int], armies: Sequence[int], wanted: list[int]) -> bool:
    """Every territory the goal still lacks borders one of ours with more armies than it has."""
    me, board = view.player, view.board
    for c in wanted:
        for t in board.continents[c].territories:
            if owner[t] != me and not any(
                owner[n] == me and armies[n] > armies[t] + 1 for n in board.neighbours[t]
            ):
                return False
    return True


def _count_territories(
    view: View, aim: Aim, owner: Sequence[int], armies: Sequence[int], needed: int, each: int
) -> None:
    """A goal of a number of territories (with ``each`` armies in each)."""
    me = view.player
    for t, seat in enumerate(owner):
        if seat != me:
            aim.value[t] += TERRITORY_COUNT_VALUE
    held = sum(1 for t, seat in enumerate(owner) if seat == me and armies[t] >= each)
    if each > 1:
        aim.strongholds = needed
        # Armies placed on single-army territories count at once: the placement finishes the goal.
        aim.finishing = needed - held <= 2
    else:
        aim.finishing = needed - held <= 3


def _block_secret_missions(
    view: View, aim: Aim, owner: Sequence[int], armies: Sequence[int], mine: str
) -> None:
    """Opponents visibly close to a mission someone may hold: their territories there are worth more.
    Close means a pair of continents nearly held, or nearly 24 territories (18 with 2 armies)."""
    me, board = view.player, view.board
    humans = sum(1 for n in view.neutral if not n)
    possible = _deck_without(board, humans, mine)
    continents = board.continents
    continent_of = board.continent_of
    # Per seat: territories held in each continent, all territories, those with 2 armies or more.
    held = [[0] * len(continents) for _ in range(humans)]
    count, strong = [0] * humans, [0] * humans
    for t, seat in enumerate(owner):
        if 0 <= seat < humans:
            held[seat][continent_of[t]] += 1
            count[seat] += 1
            strong[seat] += armies[t] >= 2
    for p in range(humans):
        if p == me or not view.alive[p]:
            continue
        block: dict[int, float] = {}  # the most each territory of theirs is worth to take, to block
        for mission, wanted in possible:
            # A mission already complete is not theirs: the game would be over.
            if mission.territories:
                short = mission.territories - (strong[p] if mission.armies_each > 1 else count[p])
                if 0 < short <= 6:
                    value = 0.5 * BLOCK_VALUE * (7 - short)
                    for t, seat in enumerate(owner):
                        if seat == p and (mission.armies_each == 1 or armies[t] >= 2):
                            block[t] = max(block.get(t, 0.0), value)
                continue
            if mission.any_other_continent:
                other = max(
                    (c.index for c in continents if c.index not in wanted),
                    key=lambda c: (held[p][c] / len(continents[c].territories), -continents[c].bonus),
                )
                wanted = (*wanted, other)
            short = sum(len(continents[c].territories) - held[p][c] for c in wanted)
            if 0 < short <= 3:
                value = BLOCK_VALUE * (4 - short)
                for c in wanted:
                    for t in continents[c].territories:
                        if owner[t] == p:
                            block[t] = max(block.get(t, 0.0), value)
        for t, value in block.items():
            aim.value[t] += value


@cache
def _deck_without(board: Board, humans: int, mine: str) -> tuple[tuple[Mission, tuple[int, ...]], ...]:
    """The missions other players may hold (destroy cards aside), with their continents' indices
    (looked up once per board)."""
    return tuple(
        (m, tuple(board.continent(name) for name in m.continents))
        for m in mission_deck(humans, board)
        if m.key != mine and m.destroy is None
    )


# -- Capital RISK --------------------------------------------------------------------------------
def capitals_needed(view: View) -> int:
    """How many opposing headquarters win the game (with one's own), as the engine counts them."""
    humans = sum(1 for n in view.neutral if not n)
    capitals = view.capitals
    gone = sum(1 for p in range(humans) if capitals[p] < 0 and not view.alive[p])
    others = humans - 1 - gone
    if view.rules.capitals_to_win == "short" and humans >= 4:
        return min(2 if humans == 4 else 3, others)
    return others


def capital_threat(view: View, owner: Sequence[int], armies: Sequence[int], territory: int) -> int:
    """Enemy armies that could strike ``territory`` next turn: the largest stack next to it, and
    half of the largest two steps away (it must fight its way in)."""
    me, neighbours = view.player, view.board.neighbours
    near = far = 0
    for n in neighbours[territory]:
        if owner[n] != me:
            near = max(near, armies[n] - 1)
        for m in neighbours[n]:
            if owner[m] != me and m != territory:
                far = max(far, armies[m] - 1)
    return max(near, far // 2)


def _capital(view: View, aim: Aim, owner: Sequence[int], armies: Sequence[int]) -> None:
    me, board = view.player, view.board
    capitals = view.capitals
    if view.phase == Phase.CHOOSE_CAPITAL or me >= len(capitals):
        return
    home = capitals[me]
    held_capitals = [c for p, c in enumerate(capitals) if p != me and c >= 0 and owner[c] == me]
    for c in ([home] if home >= 0 and owner[home] == me else []) + held_capitals:
        threat = capital_threat(view, owner, armies, c)
        if c != home:
            aim.keep[c] = max(1, threat // 2 + 1)
        elif HOME_GUARD > 0:
            aim.keep[c] = max(2, round(HOME_GUARD * threat) + 1)
        aim.guard_weight[c] = 2.0 if c == home else 1.5
    if home >= 0 and owner[home] != me:
        # Our own headquarters lost: no win without it, so taking it back comes before all else.
        aim.value[home] += 2 * ENEMY_CAPITAL_VALUE
        aim.capitals_to_take.add(home)
        aim.continent_weight[board.continent_of[home]] += 2.0
    targets = [c for p, c in enumerate(capitals) if p != me and c >= 0 and owner[c] != me]
    if not targets:
        return
    # The weakest opposing headquarters first: fewest armies around it.
    weakness = {
        c: armies[c] + sum(armies[n] for n in board.neighbours[c] if owner[n] == owner[c]) for c in targets
    }
    weakest = min(targets, key=lambda c: (weakness[c], c))
    aim.capitals_to_take.update(targets)
    for c in targets:
        aim.value[c] += ENEMY_CAPITAL_VALUE * (1.0 if c == weakest else 0.6)
        for n in board.neighbours[c]:
            if owner[n] != me:
                aim.value[n] += NEAR_CAPITAL_VALUE
        aim.continent_weight[board.continent_of[c]] += 1.0 if c == weakest else 0.5
    # One headquarters short of the win, next to a strong stack of ours: go for it now.
    short = capitals_needed(view) - len(held_capitals)
    home_held = home < 0 or owner[home] == me
    aim.finishing = (
        home_held
        and short <= 1
        and any(owner[n] == me and armies[n] > armies[c] + 1 for c in targets for n in board.neighbours[c])
    )


def choose_capital(view: View) -> Capital:
    """A defensible headquarters: among our territories, armies there and around it against the
    enemy armies that could reach it, deep inside our ground rather than on a front."""
    me, board = view.player, view.board
    owner, armies = view.owner, view.armies

    def defensibility(t: int) -> tuple[float, int]:
        ours = sum(armies[n] for n in board.neighbours[t] if owner[n] == me)
        enemies = sum(1 for n in board.neighbours[t] if owner[n] != me)
        threat = capital_threat(view, owner, armies, t)
        return armies[t] + 0.5 * ours - threat - 2.0 * enemies, -t

    return Capital(max((t for t, seat in enumerate(owner) if seat == me), key=defensibility))


# -- Mission RISK --------------------------------------------------------------------------------
def _mission_risk(view: View, aim: Aim, owner: Sequence[int], armies: Sequence[int]) -> None:
    """The cards held, pursued only where it costs no strength: shown at once when complete (see
    :func:`special_action`), a stack built with the turn's reinforcements and kept until shown, a
    run of conquests pressed for its last one. Chasing the cards' continents, islands and counts
    was measured weaker: against players who conquer the world, a player spread thin is eliminated
    before its fourth card (docs/bots.md)."""
    me = view.player
    cards = [ranked_mission(key, view.board) for key in view.mission_cards[me] or ()]
    for mission in cards:
        aim.stack = max(aim.stack, mission.stack)
        aim.conquests = max(aim.conquests, mission.conquests)
    # A turn's conquests: the last one of the run is worth lower odds.
    conquered = view.conquests_this_turn if view.current == me else 0
    aim.finishing = conquered > 0 and aim.conquests - conquered == 1
    if any(mission.stack and mission.timing == "end" for mission in cards):
        mine = [t for t, seat in enumerate(owner) if seat == me]
        biggest = max(mine, key=lambda t: (armies[t], -t), default=-1)
        if biggest >= 0 and armies[biggest] >= aim.stack:
            aim.keep[biggest] = aim.stack  # keep the stack until the card is shown, at the turn's end
    _block_last_missions(view, aim, owner)


def _block_last_missions(view: View, aim: Aim, owner: Sequence[int]) -> None:
    """An opponent with three missions claimed shows its last: take what it needs from it."""
    me, board = view.player, view.board
    for p, shown in enumerate(view.mission_cards):
        if p == me or shown is None or not view.alive[p] or len(view.missions_claimed[p]) < 3:
            continue
        for key in shown:
            mission = ranked_mission(key, board)
            wanted = [board.continent(name) for name in mission.continents]
            for t, seat in enumerate(owner):
                if seat != p:
                    continue
                needed = board.continent_of[t] in wanted or (mission.islands and t in board.islands)
                if needed or mission.continent_count or mission.territories:
                    aim.value[t] += 2 * BLOCK_VALUE


# Claim the card least likely to stay complete first: a turn's conquests, a stack, continents.
def _claim_order(mission: RankedMission) -> int:
    if mission.conquests:
        return 0
    if mission.stack:
        return 1
    if mission.continents or mission.continent_count or mission.islands:
        return 2
    return 3


# -- decisions only these games have ------------------------------------------------------------
def special_action(view: View, aim: Aim | None) -> Action | None:
    """A decision of the game's own (or ``None`` to play on as usual): a headquarters to choose, a
    Mission RISK card to claim now (or the end of the turn when there is none)."""
    phase = view.phase
    if phase == Phase.CHOOSE_CAPITAL:
        return choose_capital(view)
    if view.goal.kind is MISSION_CARDS and view.current == view.player:
        claims = view.claimable_missions()
        if claims:
            return ClaimMission(min(claims, key=lambda k: (_claim_order(ranked_mission(k, view.board)), k)))
        if phase == Phase.TURN_END:
            return END_TURN
    return None


def aim_placement(view: View, aim: Aim) -> Place | None:
    """Reinforcements that reach the goal at once ("18 territories with 2 armies", a stack of armies
    a mission card asks for), after any card trade; ``None`` to place as usual."""
    if view.phase != Phase.REINFORCE or view.pending < 1:
        return None
    if aim.strongholds:
        return _stronghold_placement(view, aim)
    if aim.stack:
        return _stack_placement(view, aim)
    return None


def _stronghold_placement(view: View, aim: Aim) -> Place | None:
    """One army on a single-army territory when that many placements reach the goal this turn."""
    me, owner, armies = view.player, view.owner, view.armies
    singles = [t for t, seat in enumerate(owner) if seat == me and armies[t] == 1]
    held = sum(1 for t, seat in enumerate(owner) if seat == me and armies[t] >= 2)
    if singles and held + min(len(singles), view.pending) >= aim.strongholds:
        return Place(singles[0], 1)
    return None


def _stack_placement(view: View, aim: Aim) -> Place | None:
    """Everything on our largest stack when that reaches the stack a mission card asks for."""
    me, owner, armies = view.player, view.owner, view.armies
    mine = [t for t, seat in enumerate(owner) if seat == me]
    biggest = max(mine, key=lambda t: (armies[t], -t))
    if armies[biggest] < aim.stack <= armies[biggest] + view.pending:
        return Place(biggest, view.pending)
    return None


# -- progress, for a search bot's evaluation ---------------------------------------------------
def goal_progress(view: View) -> float | None:
    """How far ``view.player``'s goal is done, in [0, 1] (1: reached); ``None`` in world
    domination and the games without an aim here. Reads only what the view shows."""
    me = view.player
    kind = view.goal.kind
    if kind not in AIMED:
        return None
    if view.winner is not None:
        return 1.0 if view.winner == me else 0.0
    owner, armies, board = view.owner, view.armies, view.board
    if kind is HEADQUARTERS:
        capitals = view.capitals
        home = capitals[me] if me < len(capitals) else -1
        if home < 0:
            return 0.0
        held = sum(1 for p, c in enumerate(capitals) if p != me and c >= 0 and owner[c] == me)
        return (0.5 if owner[home] == me else 0.0) + 0.5 * held / max(1, capitals_needed(view))
    if kind is MISSION_CARDS:
        claimed = len(view.missions_claimed[me])
        ready = len(view.ready_missions())
        return min(1.0, (claimed + 0.5 * ready) / 4)
    mission = view.mission
    if mission is None:
        return None
    if mission.destroy is not None:
        return 1.0 - view.territory_count[mission.destroy] / len(board)
    if mission.territories:
        held = sum(1 for t, seat in enumerate(owner) if seat == me and armies[t] >= mission.armies_each)
        return min(1.0, held / mission.territories)
    wanted = [board.continent(name) for name in mission.continents]
    if mission.any_other_continent:
        wanted.append(_best_other_continent(board, owner, me, wanted))
    members = [t for c in wanted for t in board.continents[c].territories]
    return sum(1 for t in members if owner[t] == me) / len(members)


__all__ = [
    "Aim",
    "aim_for",
    "aim_placement",
    "capital_threat",
    "choose_capital",
    "goal_progress",
    "special_action",
]
