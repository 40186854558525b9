"""Bots, by name. ``make_bot("quick", seed=1)`` makes one."""

from __future__ import annotations

from risk.bots.base import Bot
from risk.bots.expert import ExpertBot
from risk.bots.heuristic import ContinentalBot, FortressBot
from risk.bots.quick import QuickBot
from risk.bots.random_bot import RandomBot
from risk.bots.search import SearchBot

# Weakest first (the order measured by benchmarks/bench_strength.py).
LADDER: tuple[type[Bot], ...] = (RandomBot, QuickBot, FortressBot, ContinentalBot, SearchBot, ExpertBot)
BOTS: dict[str, type[Bot]] = {cls.name: cls for cls in LADDER}
DEFAULT_BOT = "quick"


def make_bot(name: str, seed: int = 0) -> Bot:
    key = name.strip().lower()
    if key not in BOTS:
        raise ValueError(f"no bot called {name!r}; bots: {', '.join(BOTS)}")
    return BOTS[key](seed)


__all__ = ["BOTS", "DEFAULT_BOT", "Bot", "make_bot"]
