"""Bots, by name or level. ``make_bot("quick", seed=1)`` or ``make_bot("hard", seed=1)`` makes one."""

from __future__ import annotations

from risk.bots.base import Bot
from risk.bots.beginner import BeginnerBot
from risk.bots.expert import ExpertBot, ExpertV1
from risk.bots.heuristic import ContinentalBot, FortressBot
from risk.bots.levels import DEFAULT_LEVEL, LEVELS, Level, level_of
from risk.bots.quick import QuickBot
from risk.bots.random_bot import RandomBot
from risk.bots.search import SearchBot
from risk.bots.warlord import WarlordBot, WarlordV1

# Weakest first (the order measured by benchmarks/bench_strength.py).
LADDER: tuple[type[Bot], ...] = (
    RandomBot,
    QuickBot,
    FortressBot,
    ContinentalBot,
    WarlordBot,
    SearchBot,
    ExpertBot,
)
# Every bot by name: the ladder, and the beginner behind the easy level.
_NAMED: tuple[type[Bot], ...] = (RandomBot, BeginnerBot, *LADDER[1:])
BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in _NAMED}
# Bots kept to measure against, made by name (tournaments, benchmarks) but offered to no one: the
# hard level's bot as it was before issue 42, and the expert before its full-table recipe.
BASELINES: dict[str, type[Bot]] = {WarlordV1.name: WarlordV1, ExpertV1.name: ExpertV1}
DEFAULT_BOT = "quick"


def is_bot_name(name: str) -> bool:
    """Whether ``name`` is a built-in bot or a level (any case)."""
    key = name.strip().lower()
    return key in BOTS or key in BASELINES or key in LEVELS


def bot_choices() -> str:
    """The accepted names, for error messages: the levels, then the bots."""
    return f"levels: {', '.join(LEVELS)}; bots: {', '.join(BOTS)}"


def bot_label(name: str) -> str:
    """How a seat's bot shows to people: a level with its bot ("hard · warlord"), or the bot's name."""
    level = level_of(name)
    if level is None or level.bot_name == level.name:
        return name.strip().lower()
    return f"{level.name} · {level.bot_name}"


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot called ``name``, or the bot of the level called ``name``, seeded."""
    key = name.strip().lower()
    if key in BOTS:
        return BOTS[key](seed)
    if key in BASELINES:
        return BASELINES[key](seed)
    level = level_of(key)
    if level is None:
        raise ValueError(f"no bot or level called {name!r}; {bot_choices()}")
    if level.iterations is not None:
        return BOTS[level.bot_name](seed, iterations=level.iterations)  # type: ignore[call-arg]
    return BOTS[level.bot_name](seed)


__all__ = [
    "BASELINES",
    "BOTS",
    "DEFAULT_BOT",
    "DEFAULT_LEVEL",
    "LEVELS",
    "Bot",
    "Level",
    "bot_choices",
    "bot_label",
    "is_bot_name",
    "make_bot",
]
