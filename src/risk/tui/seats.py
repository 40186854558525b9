"""Who plays each seat of a game at the terminal: a human at the keyboard or a bot."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from risk.bots import Bot, make_bot
from risk.bots.levels import level_of
from risk.play.simulate import bot_seed

DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")  # up to 10 players
HUMAN = "human"


@dataclass
class Seat:
    """Who plays a seat: a human at the keyboard (``bot is None``) or a bot."""

    kind: str  # "human", a level's name or a bot's name
    bot: Bot | None = None

    @classmethod
    def human(cls) -> Seat:
        return cls(HUMAN)

    @classmethod
    def computer(cls, bot_name: str, seed: int) -> Seat:
        bot = make_bot(bot_name, seed)
        level = level_of(bot_name)
        return cls(level.name if level is not None else bot.name, bot)  # a level keeps its name

    @property
    def is_human(self) -> bool:
        return self.bot is None


def make_seats(kinds: Sequence[str], game_seed: int) -> list[Seat]:
    """Seats from their kinds ("human" or a bot name); bots get the seeds bot-only games use.
    Only players have seats: the neutral armies of 2-player RISK never act."""
    return [
        Seat.human() if kind == HUMAN else Seat.computer(kind, bot_seed(game_seed, i))
        for i, kind in enumerate(kinds)
    ]
