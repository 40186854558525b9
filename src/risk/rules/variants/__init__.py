"""The game variants: each game of the rulebooks and each rule option family in its own module."""

from __future__ import annotations

from risk.rules.variants.active import ActiveNeutralState
from risk.rules.variants.capital import CapitalState
from risk.rules.variants.experts import ExpertState
from risk.rules.variants.missions import MissionRiskState, SecretMissionState
from risk.rules.variants.neutrals import NeutralState
from risk.rules.variants.team import TeamState


class VariantStates(
    TeamState,
    NeutralState,
    ActiveNeutralState,
    ExpertState,
    CapitalState,
    SecretMissionState,
    MissionRiskState,
):
    """Every variant's fields: a game carries them all (a variant not in play keeps its ``absent``
    values), so a save has one format whatever the game."""

    __slots__ = ()


VARIANT_STATES = (
    TeamState,
    NeutralState,
    ActiveNeutralState,
    ExpertState,
    CapitalState,
    SecretMissionState,
    MissionRiskState,
)
