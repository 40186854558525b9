"""Levels for people: ``easy``, ``normal``, ``hard`` and ``expert``, each a bot with its settings.

A level is accepted wherever a bot's name is (``risk play --bots hard``, ``risk tournament``, the web
app's seats). Each maps to a bot specification as ``risk tournament`` reads it: a bot's name,
optionally with ``:N`` search iterations. The descriptions say honestly what a person will meet;
docs/bots.md ("Levels") has the measurements behind the order.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    bot: str  # a bot specification: a built-in name, or "name:N" for a search budget
    description: str

    @property
    def bot_name(self) -> str:
        return self.bot.partition(":")[0]

    @property
    def iterations(self) -> int | None:
        budget = self.bot.partition(":")[2]
        return int(budget) if budget else None


# Easiest first.
LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            "beginner",
            "plays like a beginner: attacks when it outnumbers you, sometimes takes a bad risk or "
            "forgets to fortify",
        ),
        Level(
            "normal",
            "quick",
            "aggressive and quick: attacks whenever it outnumbers you, but plans nothing and leaves "
            "its borders thin",
        ),
        Level(
            "hard",
            "warlord",
            "plays like a strong player without searching: claims small continents, takes a card every "
            "turn, wipes out weak players for their cards, breaks your continents",
        ),
        Level(
            "expert",
            "expert",
            "our strongest: tries its options in simulated games before each move, and plays like a "
            "strong player (preys on the weakest, times its cards); well under a second a decision",
        ),
    )
}
DEFAULT_LEVEL = "normal"


def level_of(name: str) -> Level | None:
    """The level called ``name`` (any case, spaces around ignored), or None."""
    return LEVELS.get(name.strip().lower())


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level_of"]
