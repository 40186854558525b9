"""The beginner bot: plays like a person in their first games (the ``easy`` level).

It attacks what is in front of it when it outnumbers the defender, and on some turns it gets
carried away and takes a bad risk (an invasion it will probably lose); more often than not it keeps
its cards until it must trade; it spreads its new armies over two or three fronts chosen more by hope
than by plan, mostly moves only the least it may into a conquered territory (its winning stack stays
behind), and on some turns forgets to fortify. It never throws the game away absurdly: it never
starts an invasion whose chance of success (exact, from :mod:`risk.odds`) is below ``WORST_ODDS``
(so never 2 against 10, over and over), always places all its armies and always defends with the
most dice.

Phases and games it has no beginner's habit for (claiming, setup placement, headquarters, active
neutrals, Mission RISK claims, the expert dice) are played as the quick bot plays them; in Team RISK
it plays the quick bot's teamwork with the beginner's lapses (it stops after a conquest, moves in
little and forgets to fortify).
Seeded and deterministic: its traits for a turn come from its seed and the turn number, its other
choices from its own generator.
"""

from __future__ import annotations

import random

from risk.bots.base import ATTACK, ELIMINATION_TRADE, FORTIFY, OCCUPY, REINFORCE, TURN_END, Bot
from risk.bots.battle_odds import win_probability
from risk.bots.quick import QuickBot
from risk.rules.actions import END_ATTACK, END_TURN, Action, Attack, Occupy, Place
from risk.rules.goal import GoalKind
from risk.view import View

# Least exact win probability of an invasion the beginner starts (or presses on with) on a normal
# turn, on a reckless turn, and ever.
USUAL_ODDS = 0.5
RECKLESS_ODDS = 0.3
WORST_ODDS = RECKLESS_ODDS
# Shares of turns: reckless (bad risks taken), forgetful (no fortification), card hoarding.
RECKLESS_TURNS = 0.5
FORGETFUL_TURNS = 0.5
HOARDING = 0.6
# Chance, after each conquest, that it calls the turn's attacks off while it could go on, unless an
# invasion at least this likely to succeed is in front of it (no one stops at a sure thing; games
# of huge stacks would never end).
LOSES_INTEREST = 0.3
SURE_THING = 0.9
# Chance that it moves only the least it may into a conquered territory (else a random number),
# unless the game is long and it may move at least ROLLS_ON armies: then half or more go on.
MOVES_THE_LEAST = 0.75
ROLLS_ON = 12
LONG_GAME = 120  # turns (all players'): in a game this long, its large stacks roll on


# Bound once: looking an enum member up on its class costs a call, and this is asked every decision.
_MISSION_CARDS = GoalKind.MISSION_CARDS


class BeginnerBot(Bot):
    name = "beginner"
    description = (
        "a beginner: attacks when it outnumbers you, sometimes takes a bad risk or forgets to "
        "fortify, never throws the game away"
    )

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._quick = QuickBot(seed)

    def turn_traits(self, view: View, me: int) -> random.Random:
        """A generator for this turn's habits: the same within a turn, whoever asks."""
        return random.Random((self.seed * 1_000_003 + view.turn) * 7 + me)

    def reckless(self, view: View, me: int) -> bool:
        return self.turn_traits(view, me).random() < RECKLESS_TURNS

    def forgetful(self, view: View, me: int) -> bool:
        traits = self.turn_traits(view, me)
        traits.random()  # the first draw decides recklessness
        return traits.random() < FORGETFUL_TURNS

    def choose(self, view: View) -> Action:
        me = view.player
        phase = view.phase
        habit: Action | None = None
        claiming = view.goal.kind is _MISSION_CARDS and me == view.current
        if claiming and (phase == TURN_END or view.claimable_missions()):
            habit = None  # Mission RISK: a completed mission is shown at once, as the quick bot does
        elif view.team is not None:
            # Team RISK: the quick bot's teamwork (where armies may go is subtle), with a beginner's lapses.
            if phase == ATTACK and isinstance(view.last_action(me), Occupy):
                habit = END_ATTACK if self.rng.random() < LOSES_INTEREST else None
            elif phase == OCCUPY:
                habit = self.occupy(view)
            elif phase == FORTIFY and self.forgetful(view, me):
                habit = END_TURN
        elif phase == ATTACK and not view.active_neutrals:
            habit = self.attack(view, me)
        elif phase == REINFORCE and not view.must_trade(me):
            habit = self.reinforce(view, me)
        elif phase == OCCUPY:
            habit = self.occupy(view)
        elif phase == FORTIFY and self.forgetful(view, me):
            habit = END_TURN
        elif phase == ELIMINATION_TRADE and not view.must_trade(me):
            habit = self.reinforce(view, me)
        if habit is not None and view.is_legal(habit):
            return habit
        return self._quick.choose(view)

    def attack(self, view: View, me: int) -> Action:
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        least = RECKLESS_ODDS if self.reckless(view, me) else USUAL_ODDS
        options: list[tuple[float, int, int]] = []
        for s in view.territories_of(me):
            if armies[s] < 2:
                continue
            for t in neighbours[s]:
                if owner[t] != me:
                    odds = win_probability(armies[s] - 1, armies[t])
                    if odds >= least:
                        options.append((odds, s, t))
        if not options:
            return END_ATTACK
        last = view.last_action(me)
        if isinstance(last, Attack):  # in a battle: press on while the odds hold
            if any((s, t) == (last.source, last.target) for _, s, t in options):
                return Attack(last.source, last.target, min(3, armies[last.source] - 1))
        elif isinstance(last, Occupy) and max(options)[0] < SURE_THING and self.rng.random() < LOSES_INTEREST:
            return END_ATTACK  # pleased with a conquest, it stops while it could go on (not at sure things)
        # Not the best attack: one of the good-looking ones, as a person eyeing the board picks.
        options.sort(reverse=True)
        _, s, t = options[min(len(options) - 1, int(self.rng.random() * 3))]
        return Attack(s, t, min(3, armies[s] - 1))

    def reinforce(self, view: View, me: int) -> Action:
        trades = view.trade_options()
        if trades and view.phase == REINFORCE and not view.placed_this_turn and self.rng.random() > HOARDING:
            return trades[0]
        owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
        fronts = [
            t
            for t in view.territories_of(me)
            if view.room(t) > 0 and any(owner[n] != me for n in neighbours[t])
        ]
        if not fronts:
            return self._quick.choose(view)

        def hope(t: int) -> float:
            """How inviting the weakest enemy next door looks from here, with a beginner's noise."""
            weakest = min(armies[n] for n in neighbours[t] if owner[n] != me)
            return armies[t] - weakest + self.rng.random() * 4

        target = max(fronts, key=hope)
        # It spreads its hopes: about half of what is left here, the rest on the next front it likes.
        share = view.pending if view.pending <= 3 else (view.pending + 1) // 2
        return Place(target, min(share, view.room(target)))

    def occupy(self, view: View) -> Occupy:
        low, high = view.occupy_range()
        if high >= ROLLS_ON and view.turn >= LONG_GAME:  # or long games of huge stacks never end
            return Occupy((low + high + 1) // 2 + int(self.rng.random() * (high - (low + high + 1) // 2 + 1)))
        if self.rng.random() < MOVES_THE_LEAST:
            return Occupy(low)  # the stack that won stays behind, out of the fight
        return Occupy(low + int(self.rng.random() * (high - low + 1)))
