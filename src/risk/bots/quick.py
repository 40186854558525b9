"""The quick bot: a simple, fast, aggressive player that finishes games (the default bot).

It concentrates its armies on its strongest border territory, attacks whenever its stack
outnumbers the defender, trades sets as soon as it may, always defends with the most dice and
moves idle armies from the interior to the front.
"""

from __future__ import annotations

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
from risk.rules.game import Game, trade_options
from risk.view import View


class QuickBot(Bot):
    name = "quick"
    description = "aggressive and fast: attacks whenever it outnumbers the defender; finishes games quickly"

    def choose(self, view: View) -> Action:
        # The view wraps the live game; reading through it costs nothing on the hot path.
        game: Game = view._game
        me = view.player
        phase = game.phase
        if game.rules.game == "mission" and me == game.current:
            claims = game.claimable_missions()  # Mission RISK: show a completed mission at once
            if claims:
                return ClaimMission(claims[0])
            if phase == TURN_END:
                return END_TURN
        if phase == ATTACK:
            if game._active and not game.attacked_this_turn:
                for seat in range(game.humans, len(game.players)):
                    help_ally = ReinforceAlly(seat - game.humans + 1)  # free armies for an ally
                    if game.ally[seat] == me and game.is_legal(help_ally):
                        return help_ally
            return self._attack(game, me)
        if phase == ALLY_PLACE:
            return Place(self._front(game, game.placing_for), game.pending)
        if phase == DEFEND:
            assert game.pending_attack is not None
            return Defend(min(2, game.armies[game.pending_attack[1]]))
        if phase == OCCUPY:
            return self._occupy(game, me)
        if phase == ADJUST_DICE:
            return self._adjust(game)
        if phase in (REINFORCE, ELIMINATION_TRADE):
            if game.must_trade(me) or (phase == REINFORCE and not game.placed_this_turn):
                trades = trade_options(game, me)
                if trades:
                    return trades[0]
            target = self._front(game, me)
            if game.room(target) < 1:  # the expert army cap: the front is full
                target = max((t for t in game.territories_of(me)), key=game.room)
            return Place(target, min(game.pending, game.room(target)))
        if phase == FORTIFY:
            return self._fortify(game, me)
        if phase == SETUP_PLACE:
            # In 2-player RISK the army being placed may be a neutral's: it goes on the neutral's front.
            return Place(self._front(game, game.placing_for), 1)
        if phase == CHOOSE_CAPITAL:
            return Capital(self._safest(game, me))
        if phase == CLAIM:
            return self._claim(game, me)
        raise ValueError(f"the quick bot cannot act in phase {phase.name}")

    def _claim(self, game: Game, me: int) -> Claim:
        owner = game.owner
        board = game.board
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

    def _safest(self, game: Game, me: int) -> int:
        """The own territory with the most armies and the fewest enemy neighbours."""
        owner, armies, neighbours = game.owner, game.armies, game.board.neighbours
        return max(
            (t for t in range(len(owner)) if owner[t] == me),
            key=lambda t: (-sum(owner[n] != me for n in neighbours[t]), armies[t], -t),
        )

    def _front(self, game: Game, me: int) -> int:
        """The own territory with an enemy neighbour and the most armies: where armies go."""
        if game.team is not None and game.phase != SETUP_PLACE:
            return self._team_front(game, me)
        owner, armies, neighbours = game.owner, game.armies, game.board.neighbours
        best, best_armies = -1, -1
        fallback = -1
        units = game.units
        for t in range(len(owner)):
            if owner[t] != me and (units is None or not units[t][me]):
                continue
            fallback = t
            if armies[t] > best_armies and game.room(t) > 0:
                for n in neighbours[t]:
                    if owner[n] != me:
                        best, best_armies = t, armies[t]
                        break
        return best if best >= 0 else fallback

    def _team_front(self, game: Game, me: int) -> int:
        """Team RISK: the territory with this player's armies, facing the other team, most armies."""
        assert game.team is not None and game.units is not None
        my_team, armies, neighbours = game.team[me], game.armies, game.board.neighbours
        # Reinforcements go only where this player may place them (where it controls: 2003).
        mine = [t for t in range(len(game.units)) if game.may_reinforce(t, me) and game.room(t) > 0]
        front = [t for t in mine if any(game.team_at(n) != my_team for n in neighbours[t])]
        # Attacks go only from territories this player controls: build there, not on a teammate's pile.
        owner = game.owner
        return max(front or mine, key=lambda t: (owner[t] == me, game.force(t, me), armies[t], -t))

    def _team_fortify(self, game: Game, me: int) -> Action:
        """Team RISK: bring this player's largest interior stack to the front."""
        assert game.team is not None and game.units is not None
        my_team, neighbours = game.team[me], game.board.neighbours
        interior = [
            t
            for t, stack in enumerate(game.units)
            if stack[me]
            and min(stack[me], game.armies[t] - 1) >= 1
            and all(game.team_at(n) == my_team for n in neighbours[t])
        ]
        if not interior:
            return END_TURN
        source = max(interior, key=lambda t: (game.force(t, me), -t))
        targets = [
            t
            for t in game.fortify_targets(source)
            if any(game.team_at(n) != my_team for n in neighbours[t]) and game.room(t) > 0
        ]
        targets.sort(key=lambda t: game.owner[t] != me)  # into a front this player controls first
        if not targets:
            return END_TURN
        return Fortify(source, targets[0], min(game.force(source, me), game.armies[source] - 1))

    def _attack(self, game: Game, me: int) -> Action:
        if game.team is not None:
            return self._team_attack(game, me)
        owner, armies, neighbours = game.owner, game.armies, game.board.neighbours
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
            game.open_invasion is not None
            and game.invasion_needs_call_off()
            and (best is None or best_margin < 2 or best[1] != game.open_invasion)
        ):
            return CALL_OFF  # active neutrals: end this invasion before the next (or before stopping)
        if best is None or best_margin < 2:
            return END_ATTACK
        s, t = best
        return Attack(s, t, min(3, armies[s] - 1))

    def _team_attack(self, game: Game, me: int) -> Action:
        """Team RISK: the same plan with this player's own armies, never into a teammate."""
        assert game.team is not None
        owner, armies, neighbours = game.owner, game.armies, game.board.neighbours
        my_team = game.team[me]
        best: tuple[int, int] | None = None
        # Two teams can pile armies onto one border for ever; after a while, press on at near-even odds.
        best_margin = 1 if game.turn < 60 else -max(2, game.turn // 20)
        for s in range(len(owner)):
            force = game.force(s, me)
            if owner[s] != me or force < 3:
                continue
            for t in neighbours[s]:
                if game.team_at(t) != my_team and force - armies[t] > best_margin:
                    best, best_margin = (s, t), force - armies[t]
        if best is None:
            return END_ATTACK
        s, t = best
        return Attack(s, t, min(3, game.force(s, me) - 1))

    def _adjust(self, game: Game) -> Action:
        """1993 experts: help the first comparison the attacker loses; otherwise let the dice stand."""
        rolled = game.pending_roll
        assert rolled is not None
        _, _, attack, defence, _ = rolled
        losing = [i for i, (a, d) in enumerate(zip(attack, defence, strict=False)) if a <= d]
        if losing:
            die = losing[0] + 1
            for action in (Commander(die), Reroll("attacker", die)):
                if game.is_legal(action):
                    return action
        return ACCEPT_DICE

    def _occupy(self, game: Game, me: int) -> Occupy:
        low, high = game.occupy_range()
        assert game.pending_occupation is not None
        source = game.pending_occupation[0]
        owner = game.owner
        if any(owner[n] != me for n in game.board.neighbours[source]):
            return Occupy(max(low, (low + high) // 2))
        return Occupy(high)

    def _fortify(self, game: Game, me: int) -> Action:
        owner, armies, neighbours = game.owner, game.armies, game.board.neighbours
        last = game.history[-1]
        if last[0] == "action" and isinstance(last[2], Fortify):
            return END_TURN  # extended fortification: one move a turn is this bot's whole plan
        if game.team is not None:
            return self._team_fortify(game, me)
        best_source, best_armies = -1, 1
        for t in range(len(owner)):
            if owner[t] == me and armies[t] > best_armies and all(owner[n] == me for n in neighbours[t]):
                best_source, best_armies = t, armies[t]
        if best_source < 0:
            return END_TURN
        targets = [t for t in game.fortify_targets(best_source) if game.room(t) > 0]
        front = [t for t in targets if any(owner[n] != me for n in neighbours[t])]
        target = front[0] if front else (targets[0] if targets else -1)
        if target < 0:
            return END_TURN
        return Fortify(best_source, target, min(armies[best_source] - 1, game.room(target)))
