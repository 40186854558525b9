"""Capital RISK (1993, 2008): a secret headquarters each; hold yours and take the others to win."""

from __future__ import annotations

from typing import Annotated

from risk.rules.state import LIST, State


class CapitalState(State):
    __slots__ = ()
    capitals: Annotated[list[int], LIST.when_absent(lambda seats: [-1] * seats)]  # headquarters by seat
