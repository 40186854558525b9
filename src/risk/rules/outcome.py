"""How a game ended (its own module so that the hook table can name it without importing the state)."""

from __future__ import annotations

from dataclasses import dataclass

from risk.rules.pickling import picklable


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (a player index), the reason in words, and every winning seat
    (the winner alone, or its whole team in Team RISK)."""

    winner: int | None
    reason: str
    winners: tuple[int, ...] = ()


picklable(Outcome)
