"""Secret Mission RISK (1993, 2008) and Mission RISK (2003)."""

from __future__ import annotations

from typing import Annotated, Any

from risk.rules.missions import Mission, effective_mission, mission_by_key
from risk.rules.state import LISTS, VALUE, Kept, State, copy_list


def _save_missions(missions: list[Mission | None], state: Any) -> Any:
    return [None if m is None else m.key for m in missions]


def _load_missions(keys: Any, state: Any) -> list[Mission | None]:
    return [
        None if key is None else effective_mission(mission_by_key(key, state.humans), seat)
        for seat, key in enumerate(keys)
    ]


class SecretMissionState(State):
    __slots__ = ()
    missions: Annotated[
        list[Mission | None],
        Kept(copy_list, _save_missions, _load_missions, absent=lambda seats: [None] * seats),
    ]


class MissionRiskState(State):
    """Each player's unclaimed and claimed mission cards (keys), and whether one was claimed this turn."""

    __slots__ = ()
    mission_cards: Annotated[list[list[str]], LISTS.when_absent(lambda seats: [[] for _ in range(seats)])]
    missions_claimed: Annotated[list[list[str]], LISTS.when_absent(lambda seats: [[] for _ in range(seats)])]
    claimed_mission_this_turn: Annotated[bool, VALUE.when_absent(lambda seats: False)]
