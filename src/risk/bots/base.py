"""The bot interface: a bot sees its player's view and returns one legal action."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from risk.rules.actions import Action
from risk.view import View


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
