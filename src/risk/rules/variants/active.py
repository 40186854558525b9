"""2-player RISK with active neutrals (2003): bribes, allies, and the status dice after an invasion."""

from __future__ import annotations

from typing import Annotated, Any

from risk.rules.state import DERIVED, LIST, Kept, State


def _save_invasion(invasion: tuple[int, int, tuple[int, ...]] | None, state: Any) -> Any:
    return None if invasion is None else [invasion[0], invasion[1], list(invasion[2])]


def _load_invasion(value: Any, state: Any) -> tuple[int, int, tuple[int, ...]] | None:
    return None if value is None else (value[0], value[1], tuple(value[2]))


class ActiveNeutralState(State):
    """Each neutral's ally (-1: uninvolved), and this turn's bribes, ally reinforcements and
    fortifications; the invasion under way (target, the neutral seat invaded or -1, the allied
    seats that attacked) whose end rolls the status dice."""

    __slots__ = ()
    _active: Annotated[bool, DERIVED.when_absent(lambda seats: False)]
    ally: Annotated[list[int], LIST.when_absent(lambda seats: [-1] * seats)]
    bribed: Annotated[list[int], LIST.when_absent(lambda seats: [0] * seats)]
    ally_reinforced: Annotated[list[bool], LIST.when_absent(lambda seats: [False] * seats)]
    fortified: Annotated[list[bool], LIST.when_absent(lambda seats: [False] * seats)]
    _invasion: Annotated[
        tuple[int, int, tuple[int, ...]] | None,
        Kept(save=_save_invasion, load=_load_invasion, absent=lambda seats: None),
    ]
