"""Team RISK (2003): two teams of alternating seats, armies of teammates sharing territories."""

from __future__ import annotations

from typing import Annotated

from risk.rules.state import DERIVED, LISTS, State


class TeamState(State):
    """Team RISK: "two alternating teams", so seat % 2; each territory's units by seat (a teammate
    may move in); the controller is whoever has the most there, nobody on a tie."""

    __slots__ = ()
    team: Annotated[list[int] | None, DERIVED.when_absent(lambda seats: None)]
    units: Annotated[list[list[int]] | None, LISTS.when_absent(lambda seats: None)]
