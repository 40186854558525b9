"""The quick bot: a simple, fast, aggressive player that finishes games (the default bot).

It concentrates its armies on its strongest border territory, attacks whenever its stack
outnumbers the defender, trades sets as soon as it may, always defends with the most dice and
moves idle armies from the interior to the front.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from risk.bots.base import (
    ADJUST_DICE,
    ALLY_PLACE,
    ATTACK,
    CHOOSE_CAPITAL,
    CLAIM,
    DEFEND,
    ELIMINATION_TRADE,
    FORTIFY,
    OCCUPY,
    REINFORCE,
    SETUP_PLACE,
    TURN_END,
    Bot,
)
from risk.rules.actions import (
    ACCEPT_DICE,
    CALL_OFF,
    END_ATTACK,
    END_TURN,
    Action,
    Attack,
    Capital,
    Claim,
    ClaimMission,
    Commander,
    Defend,
    Fortify,
    Occupy,
    Place,
    ReinforceAlly,
    Reroll,
)
from risk.rules.goal import GoalKind
from risk.view import View

# Bound once: looking an enum member up on its class costs a call, and this is asked every decision.
_MISSION_CARDS: Final = GoalKind.MISSION_CARDS


# Bot writers build on it (a quick bot with one change), also in the compiled build.
@mypyc_attr(allow_interpreted_subclasses=True)
class QuickBot(Bot):
    name = "quick"
    description = "aggressive and fast: attacks whenever it outnumbers the defender; finishes games quickly"

    def choose(self, view: View) -> Action:
        me = view.player
        phase = view.phase
        if view.goal.kind is _MISSION_CARDS and me == view.current:
            claims = view.claimable_missions()  # Mission RISK: show a completed mission at once
            if claims:
                return ClaimMission(claims[0])
            if phase == TURN_END:
                return END_TURN
        if phase == ATTACK:
            if view.active_neutrals and not view.attacked_this_turn:
                for seat in range(view.humans, len(view.players)):
                    help_ally = ReinforceAlly(seat - view.humans + 1)  # free armies for an ally
                    if view.ally[seat] == me and view.is_legal(help_ally):
                        return help_ally
            return self._attack(view, me)
        if phase == ALLY_PLACE:
            return Place(self._front(view, view.placing_for), view.pending)
        if phase == DEFEND:
            attack = view.pending_attack
            assert attack is not None
            return Defend(min(2, view.armies[attack[1]]))
        if phase == OCCUPY:
            return self._occupy(view, me)
        if phase == ADJUST_DICE:
            return self._adjust(view)
        if phase in (REINFORCE, ELIMINATION_TRADE):
            if view.must_trade(me) or (phase == REINFORCE and not view.placed_this_turn):
                trades = view.trade_options()
                if trades:
                    return trades[0]
            target = self._front(view, me)
            if view.room(target) < 1:  # the expert army cap: the front is full
                target = max((t for t in view.territories_of(me)), key=view.room)
            return Place(target, min(view.pending, view.room(target)))
        if phase == FORTIFY:
            return self._fortify(view, me)
        if phase == SETUP_PLACE:
            # In 2-player RISK the army being placed may be a neutral's: it goes on the neutral's front.
            return Place(self._front(view, view.placing_for), 1)
        if phase == CHOOSE_CAPITAL:
            return Capital(self._safest(view, me))
        if phase == CLAIM:
            return self._claim(view, me)
        raise ValueError(f"the quick bot cannot act in phase {phase.name}")

    def _claim(self, view: View, me: int) -> Claim:
        owner = view.owner
        board = view.board
        best, best_score = -1, -1.0
        for continent in board.continents:
            size = len(continent.territories)
            mine = sum(1 for t in continent.territories if owner[t] == me)
            theirs = sum(1 for t in continent.territories if owner[t] not in (me, -1))
            score = (mine + 1) / size - theirs / size + self.rng.random() * 0.05
            if score > best_score:
                free = [t for t in continent.territories if owner[t] == -1]
                if free:
                    best, best_score = self.rng.choice(free), score
        return Claim(best)

    def _safest(self, view: View, me: int) -> int:
        """The own territory with the most armies and the fewest enemy neighbours."""
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        return max(
            (t for t in range(len(owner)) if owner[t] == me),
            key=lambda t: (-sum(owner[n] != me for n in neighbours[t]), armies[t], -t),
        )

    def _front(self, view: View, me: int) -> int:
        """The own territory with an enemy neighbour and the most armies: where armies go."""
        if view.team is not None and view.phase != SETUP_PLACE:
            return self._team_front(view, me)
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        best, best_armies = -1, -1
        fallback = -1
        units = view.units
        for t in range(len(owner)):
            if owner[t] != me and (units is None or not units[t][me]):
                continue
            if not view.visible(t):  # fog of war: a neutral's (or ally's) territory out of sight
                continue
            fallback = t
            if armies[t] > best_armies and view.room(t) > 0:
                for n in neighbours[t]:
                    if owner[n] != me:
                        best, best_armies = t, armies[t]
                        break
        return best if best >= 0 else fallback

    def _team_front(self, view: View, me: int) -> int:
        """Team RISK: the territory with this player's armies, facing the other team, most armies."""
        assert view.team is not None and view.units is not None
        my_team, armies, neighbours = view.team[me], view.armies, view.board.neighbours
        # Reinforcements go only where this player may place them (where it controls: 2003).
        mine = [t for t in range(len(view.units)) if view.may_reinforce(t, me) and view.room(t) > 0]
        front = [t for t in mine if any(view.team_at(n) != my_team for n in neighbours[t])]
        # Attacks go only from territories this player controls: build there, not on a teammate's pile.
        owner = view.owner
        return max(front or mine, key=lambda t: (owner[t] == me, view.force(t, me), armies[t], -t))

    def _team_fortify(self, view: View, me: int) -> Action:
        """Team RISK: bring this player's largest interior stack to the front."""
        assert view.team is not None and view.units is not None
        my_team, neighbours = view.team[me], view.board.neighbours
        interior = [
            t
            for t, stack in enumerate(view.units)
            if stack[me]
            and min(stack[me], view.armies[t] - 1) >= 1
            and all(view.team_at(n) == my_team for n in neighbours[t])
        ]
        if not interior:
            return END_TURN
        source = max(interior, key=lambda t: (view.force(t, me), -t))
        targets = [
            t
            for t in view.fortify_targets(source)
            if any(view.team_at(n) != my_team for n in neighbours[t]) and view.room(t) > 0
        ]
        targets.sort(key=lambda t: view.owner[t] != me)  # into a front this player controls first
        if not targets:
            return END_TURN
        return Fortify(source, targets[0], min(view.force(source, me), view.armies[source] - 1))

    def _attack(self, view: View, me: int) -> Action:
        if view.team is not None:
            return self._team_attack(view, me)
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        best: tuple[int, int] | None = None
        # The first attack found with the largest margin of armies, if that margin is at least 2.
        best_margin = 1
        for s in range(len(owner)):
            a = armies[s]
            if a - 1 <= best_margin or owner[s] != me:
                continue  # a defender has at least one army: no larger margin from here
            for t in neighbours[s]:
                if owner[t] != me and a - armies[t] > best_margin:
                    best, best_margin = (s, t), a - armies[t]
        if (
            view.active_neutrals
            and view.open_invasion is not None
            and view.invasion_needs_call_off()
            and (best is None or best_margin < 2 or best[1] != view.open_invasion)
        ):
            return CALL_OFF  # active neutrals: end this invasion before the next (or before stopping)
        if best is None or best_margin < 2:
            return END_ATTACK
        s, t = best
        return Attack(s, t, min(3, armies[s] - 1))

    def _team_attack(self, view: View, me: int) -> Action:
        """Team RISK: the same plan with this player's own armies, never into a teammate."""
        assert view.team is not None
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        my_team = view.team[me]
        best: tuple[int, int] | None = None
        # Two teams can pile armies onto one border for ever; after a while, press on at near-even odds.
        best_margin = 1 if view.turn < 60 else -max(2, view.turn // 20)
        for s in range(len(owner)):
            force = view.force(s, me)
            if owner[s] != me or force < 3:
                continue
            for t in neighbours[s]:
                if view.team_at(t) != my_team and force - armies[t] > best_margin:
                    best, best_margin = (s, t), force - armies[t]
        if best is None:
            return END_ATTACK
        s, t = best
        return Attack(s, t, min(3, view.force(s, me) - 1))

    def _adjust(self, view: View) -> Action:
        """1993 experts: help the first comparison the attacker loses; otherwise let the dice stand."""
        rolled = view.pending_roll
        assert rolled is not None
        _, _, attack, defence, _ = rolled
        losing = [i for i, (a, d) in enumerate(zip(attack, defence, strict=False)) if a <= d]
        if losing:
            die = losing[0] + 1
            for action in (Commander(die), Reroll("attacker", die)):
                if view.is_legal(action):
                    return action
        return ACCEPT_DICE

    def _occupy(self, view: View, me: int) -> Occupy:
        low, high = view.occupy_range()
        occupation = view.pending_occupation
        assert occupation is not None
        source = occupation[0]
        owner = view.owner
        if any(owner[n] != me for n in view.board.neighbours[source]):
            return Occupy(max(low, (low + high) // 2))
        return Occupy(high)

    def _fortify(self, view: View, me: int) -> Action:
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        if isinstance(view.last_action(me), Fortify):
            return END_TURN  # extended fortification: one move a turn is this bot's whole plan
        if view.team is not None:
            return self._team_fortify(view, me)
        best_source, best_armies = -1, 1
        for t in range(len(owner)):
            if owner[t] == me and armies[t] > best_armies and all(owner[n] == me for n in neighbours[t]):
                best_source, best_armies = t, armies[t]
        if best_source < 0:
            return END_TURN
        targets = [t for t in view.fortify_targets(best_source) if view.room(t) > 0]
        front = [t for t in targets if any(owner[n] != me for n in neighbours[t])]
        target = front[0] if front else (targets[0] if targets else -1)
        if target < 0:
            return END_TURN
        return Fortify(best_source, target, min(armies[best_source] - 1, view.room(target)))
