"""The 1993 expert options: the army cap, and changing the dice (attack advantage, commanders)."""

from __future__ import annotations

from typing import Annotated, Any

from risk.rules.state import VALUE, Kept, State

Rolled = tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool]


def _load_rolled(value: Any, state: Any) -> Rolled | None:
    if value is None:
        return None
    source, target, dice, attack, defence, rerolled = value
    return source, target, dice, tuple(attack), tuple(defence), rerolled


class ExpertState(State):
    __slots__ = ()
    # A roll that the attacker may still change: source, target, attacker dice, the attacker's and
    # the defender's dice, whether a die was re-rolled.
    _rolled: Annotated[
        Rolled | None,
        Kept(
            save=lambda value, state: None if value is None else list(value),
            load=_load_rolled,
            absent=lambda seats: None,
        ),
    ]
    commander_used: Annotated[bool, VALUE.when_absent(lambda seats: False)]  # once a turn
