"""The game variants and the registry that chooses them.

Each game of the rulebooks and each family of rule options lives in its own module here; the
core (``risk/rules/state.py``, the phases and ``game.py``) holds what every game has. This module
is the one place that reads which game the rules name: :func:`variants_for` picks a game's variants,
:func:`hooks_for` collects their hooks once per ruleset. Front ends ask it how a game is won
(:func:`goal_of`) and what the game is called (:func:`game_title`), never the game's name.
"""

from __future__ import annotations

import functools
from typing import Any

from mypy_extensions import trait

from risk.errors import IllegalActionError, RulesError
from risk.rules import battle, fortify, reinforce, resign, setup
from risk.rules.goal import WORLD_DOMINATION, Goal
from risk.rules.hooks import ActionRule, Hooks
from risk.rules.options import Rules
from risk.rules.variants.active import ActiveNeutrals, ActiveNeutralState
from risk.rules.variants.base import RULE_HOOKS, Variant
from risk.rules.variants.capital import Capital, CapitalState
from risk.rules.variants.card_cap import CardValueCap
from risk.rules.variants.experts import ArmyCap, DiceOptions, ExpertState
from risk.rules.variants.fog import Fog, FogState
from risk.rules.variants.missions import MissionRisk, MissionRiskState, SecretMission, SecretMissionState
from risk.rules.variants.neutrals import NeutralArmies, NeutralState, TwoPlayer
from risk.rules.variants.team import Team, TeamState

# The registry: each variant and when a game has it, in the order their event hooks are called.
REGISTRY: tuple[tuple[type[Variant[Any]], Any], ...] = (
    (Team, lambda rules: rules.game == "team"),
    (NeutralArmies, lambda rules: rules.neutrals > 0),
    (TwoPlayer, lambda rules: rules.game == "two-player"),
    (MissionRisk, lambda rules: rules.game == "mission"),
    (ActiveNeutrals, lambda rules: rules.neutral_mode == "active" and rules.neutrals > 0),
    (ArmyCap, lambda rules: rules.army_cap > 0),
    (DiceOptions, lambda rules: rules.attack_advantage == "on" or rules.commanders == "on"),
    (Capital, lambda rules: rules.game == "capital"),
    (SecretMission, lambda rules: rules.game == "secret-mission"),
    (CardValueCap, lambda rules: rules.card_value_cap > 0),
    (Fog, lambda rules: rules.fog == "on"),  # last: it observes what the others' hooks have done
)


@trait
class VariantStates(
    TeamState,
    NeutralState,
    ActiveNeutralState,
    ExpertState,
    CapitalState,
    SecretMissionState,
    MissionRiskState,
    FogState,
):
    """Every variant's fields: a game carries them all (a variant not in play keeps its ``absent``
    values), so a save has one format whatever the game."""

    __slots__ = ()


VARIANT_STATES: tuple[type, ...] = VariantStates.__bases__  # each variant's own state class


def variants_for(rules: Rules) -> tuple[Variant[Any], ...]:
    """The variants of a game under ``rules``, in the registry's order."""
    return tuple(variant(rules) for variant, plays in REGISTRY if plays(rules))


# The fields of the hook table that are not hooks: built from the variants' tables below.
_TABLES = frozenset(("actions", "refusals", "effects", "phase_actions", "place_rules", "names", "goal"))


def _overrides(variant: Variant[Any], hook: str) -> bool:
    return getattr(type(variant), hook) is not getattr(Variant, hook)


@functools.lru_cache(maxsize=64)
def hooks_for(rules: Rules) -> Hooks:
    """The hook table of a game under ``rules`` (see :mod:`risk.rules.hooks`)."""
    variants = variants_for(rules)
    table: dict[str, Any] = {}
    for hook in Hooks.__dataclass_fields__:
        if hook in _TABLES:
            continue
        having = [getattr(v, hook) for v in variants if hasattr(Variant, hook) and _overrides(v, hook)]
        if hook in RULE_HOOKS:
            if len(having) > 1:
                names = " and ".join(type(v).__name__ for v in variants if _overrides(v, hook))
                raise RulesError(f"these rules cannot be played together: {names} ({hook})")
            table[hook] = having[0] if having else None
        else:
            table[hook] = tuple(having)
    actions: dict[type, ActionRule] = {**battle.RULES, **fortify.RULES, **reinforce.RULES, **setup.RULES}
    actions.update(resign.RULES)
    for variant, _ in REGISTRY:
        for kind, reason in variant.absent_refusals.items():
            actions.setdefault(kind, _refused(reason))
    for v in variants:
        actions.update(v.actions)
    table["actions"] = actions
    table["refusals"] = {kind: rule.refuse for kind, rule in actions.items()}
    table["effects"] = {kind: rule.apply for kind, rule in actions.items()}
    table["names"] = frozenset(v.name for v in variants)
    table["phase_actions"] = {phase: rule for v in variants for phase, rule in v.phase_actions.items()}
    table["place_rules"] = {phase: rule for v in variants for phase, rule in v.place_rules.items()}
    setting = [v for v in variants if v.goal is not None]
    if len(setting) > 1:
        names = " and ".join(type(v).__name__ for v in setting)
        raise RulesError(f"these rules cannot be played together: {names} (how the game is won)")
    table["goal"] = setting[0].goal if setting else None
    return Hooks(**table)


def chance_keys() -> frozenset[str]:
    """The kinds of chance outcome, of every variant, that hold one text key per seat (records write
    them ``~ KIND KEY,...``)."""
    return frozenset(kind for variant, _ in REGISTRY for kind in variant.chance_keys)


def goal_of(rules: Rules) -> Goal:
    """How a game under ``rules`` is won (see :mod:`risk.rules.goal`)."""
    return hooks_for(rules).goal or WORLD_DOMINATION


def game_goal(game: str) -> Goal:
    """How a game of the rulebooks (by name, as ``--game`` takes it) is won: for a lobby's list."""
    return goal_of(Rules().for_game(game))


# The games' names for display: showing which game is played, never deciding anything.
GAME_TITLES = {
    "world": "world domination",
    "secret-mission": "Secret Mission RISK",
    "capital": "Capital RISK",
    "two-player": "2-player RISK",
    "mission": "Mission RISK",
    "team": "Team RISK",
}


def game_title(game: str) -> str:
    """The name of a game of the rulebooks (``rules.game``) for display: "Capital RISK"."""
    return GAME_TITLES.get(game, game)


def _refused(reason: str) -> ActionRule:
    """The rule of a variant's action in a game without that variant: always refused."""

    def refuse(game: Any, action: Any, name: str) -> str:
        return reason

    def apply(game: Any, action: Any) -> None:
        raise IllegalActionError(reason)

    return ActionRule(refuse, apply)


__all__ = [
    "GAME_TITLES",
    "REGISTRY",
    "VARIANT_STATES",
    "VariantStates",
    "chance_keys",
    "game_goal",
    "game_title",
    "goal_of",
    "hooks_for",
    "variants_for",
]
