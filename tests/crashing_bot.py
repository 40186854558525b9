"""A bot that crashes in one game only: a failed game must be reported, never the end of the run.

It plays like the quick bot, except in the game with seed :data:`CRASH_SEED` when it sits in seat 0:
there it raises a RuntimeError (not a ValueError, which a tournament answers by seating the random bot)
once the game reaches turn 2. A tournament's seats rotate, so the crasher is in seat 0 of exactly one
game of that seed. Worker processes learn its name through :func:`register` (a Ray worker's setup hook;
a forked local worker inherits the test's registry).
"""

from __future__ import annotations

from risk.bots import BOTS
from risk.bots.quick import QuickBot
from risk.play.simulate import bot_seed
from risk.rules.actions import Action
from risk.view import View

NAME = "crasher"
CRASH_SEED = 2


class CrashingBot(QuickBot):
    name = NAME
    description = "crashes in one game (tests)"

    def choose(self, view: View) -> Action:
        if self.seed == bot_seed(CRASH_SEED, 0) and view.turn >= 2:
            raise RuntimeError("crashed on purpose")
        return super().choose(view)


def register() -> None:
    """Make the crasher a bot name in this process."""
    BOTS[NAME] = CrashingBot
