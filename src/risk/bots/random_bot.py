"""The random bot: any legal action, with a bias to end phases so that its games finish."""

from __future__ import annotations

from risk.bots.base import Bot
from risk.rules.actions import END_ATTACK, END_TURN, Action, Place
from risk.rules.game import Phase
from risk.view import View


class RandomBot(Bot):
    name = "random"
    description = "plays a uniformly random legal action (ends its attacks and turns often, so games end)"

    def choose(self, view: View) -> Action:
        phase = view.phase
        # Bounded: a random walk over every attack and fortification would rarely end a turn.
        if phase == Phase.ATTACK and self.rng.random() < 0.2:
            return END_ATTACK
        if phase == Phase.FORTIFY and self.rng.random() < 0.5:
            return END_TURN
        actions = view.legal_actions()
        if phase == Phase.REINFORCE or phase == Phase.ELIMINATION_TRADE:
            # Uniform over (territory, count) would place armies one at a time for ever: place all.
            whole = [a for a in actions if not isinstance(a, Place) or a.armies == view.pending]
            actions = whole or actions
        return self.rng.choice(actions)
