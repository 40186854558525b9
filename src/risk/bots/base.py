"""The bot interface: a bot sees its player's view and returns one legal action."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from risk.rules.actions import Action
from risk.rules.game import Phase
from risk.view import View

# The phases as plain module names, for the bots' per-decision tests: on CPython 3.11 a member looked
# up on its Enum class (``Phase.ATTACK``) goes through EnumType.__getattr__, several times slower.
# Final: the compiled build keeps each in a C variable rather than the module's dict.
CLAIM: Final = Phase.CLAIM
SETUP_PLACE: Final = Phase.SETUP_PLACE
REINFORCE: Final = Phase.REINFORCE
ATTACK: Final = Phase.ATTACK
DEFEND: Final = Phase.DEFEND
OCCUPY: Final = Phase.OCCUPY
ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
FORTIFY: Final = Phase.FORTIFY
GAME_OVER: Final = Phase.GAME_OVER
CHOOSE_CAPITAL: Final = Phase.CHOOSE_CAPITAL
TURN_END: Final = Phase.TURN_END
ADJUST_DICE: Final = Phase.ADJUST_DICE
ALLY_PLACE: Final = Phase.ALLY_PLACE


# Bots written in Python subclass it, also in the compiled build.
@mypyc_attr(allow_interpreted_subclasses=True)
class Bot(ABC):
    """A seeded decision maker. ``choose`` is called whenever the bot's player is to act,
    including to choose its defence dice when attacked."""

    name: ClassVar[str] = "bot"
    description: ClassVar[str] = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: View) -> Action:
        """A legal action for ``view.player``, who is the player to act."""

    def close(self) -> None:
        """Release what the bot holds (an external process, for example); called when its game ends."""
        return None
