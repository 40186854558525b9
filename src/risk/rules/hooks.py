"""The table of one game's variant hooks, as the turn machine calls them.

Each hook is documented where a variant writes it: :class:`risk.rules.variants.base.Variant`. The
registry (``risk.rules.variants.hooks_for``) fills this table once per ruleset: for a hook that
several variants may have, the variants that have it, in the registry's order; for a hook that
replaces one of the core's rules, the one variant that has it, or ``None`` for the core's rule. A
world-domination game has no variant: every list is empty and every replacement is ``None``, so it
runs through no hook at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from risk.rules.goal import Goal
from risk.rules.outcome import Outcome

Hook = Callable[..., Any]


class ActionRule(NamedTuple):
    """How one kind of action is refused (the reason, or ``""`` when it is legal) and applied."""

    refuse: Callable[[Any, Any, str], str]
    apply: Callable[[Any, Any], None]


@dataclass(frozen=True, slots=True)
class Hooks:
    # -- setup -------------------------------------------------------------------------------------
    seat_names: Callable[[list[str]], tuple[list[str], list[str]]] | None = None
    setup: tuple[Callable[[Any], None], ...] = ()
    restore: tuple[Callable[[Any], None], ...] = ()
    deal_quotas: Callable[[Any], list[int]] | None = None
    after_deal: tuple[Callable[[Any], None], ...] = ()
    next_setup_placer: Callable[[Any], bool] | None = None
    finish_setup: tuple[Callable[[Any], bool], ...] = ()
    # -- the turn ------------------------------------------------------------------------------------
    start_turn: tuple[Callable[[Any], None], ...] = ()
    reinforcements_changed: tuple[Callable[[Any], None], ...] = ()
    attack_declared: tuple[Callable[[Any, Any], None], ...] = ()
    rolled: tuple[Hook, ...] = ()
    conquered: tuple[Callable[[Any], None], ...] = ()
    after_fortify: tuple[Callable[[Any, Any], bool], ...] = ()
    end_attack: tuple[Callable[[Any], None], ...] = ()
    end_turn: tuple[Callable[[Any], bool], ...] = ()
    after_action: tuple[Callable[[Any], None], ...] = ()
    observe: tuple[Callable[[Any], None], ...] = ()
    resigned: tuple[Callable[[Any, int, bool], bool], ...] = ()
    turn_dropped: tuple[Callable[[Any], None], ...] = ()
    outcome: tuple[Callable[[Any, int, bool], Outcome | None], ...] = ()
    resignation_outcome: tuple[Callable[[Any, int, str], Outcome | None], ...] = ()
    # -- armies by seat, control, movement -------------------------------------------------------------
    force: Callable[[Any, int, int], int] | None = None
    defending_seat: Callable[[Any, int], int] | None = None
    taken: Callable[[Any, int, int, int], None] | None = None
    added: Callable[[Any, int, int, int], None] | None = None
    lose_defenders: Callable[[Any, int, int], None] | None = None
    mover: Callable[[Any, int], int] | None = None
    may_reinforce: Callable[[Any, int, int], bool] | None = None
    room: Callable[[Any, int], int] | None = None
    fortify_targets: Callable[[Any, int], list[int]] | None = None
    commands: Callable[[Any, int], bool] | None = None
    settle_battle: Hook | None = None
    set_value: Callable[[Any, int], int] | None = None
    # -- refusals ------------------------------------------------------------------------------------
    source_refusal: Callable[[Any, int, int, str], str] | None = None
    target_refusal: Callable[[Any, int, int, str], str] | None = None
    attack_refusal: tuple[Callable[[Any, Any, str], str], ...] = ()
    attack_armies_refusal: Callable[[Any, int, int, int, str], str] | None = None
    placement_refusal: Callable[[Any, int, int, str], str] | None = None
    capacity_refusal: tuple[Callable[[Any, int, int], str], ...] = ()
    fortify_refusal: Callable[[Any, Any, str], str] | None = None
    move_refusal: tuple[Callable[[Any, Any, int, str], str], ...] = ()
    # -- legal actions -------------------------------------------------------------------------------
    start_actions: tuple[Callable[[Any], Iterable[Any]], ...] = ()
    attack_extras: tuple[Callable[[Any], Iterable[Any]], ...] = ()
    closing_actions: tuple[Callable[[Any], Iterable[Any]], ...] = ()
    attack_actions: Callable[[Any], Iterable[Any]] | None = None
    fortify_actions: Callable[[Any], Iterable[Any]] | None = None
    # -- the variants' own actions and phases ------------------------------------------------------------
    actions: Mapping[type, ActionRule] = field(default_factory=dict)
    # The same rules by kind of action, as the machine calls them (the core's and the variants').
    refusals: Mapping[type, Callable[[Any, Any, str], str]] = field(default_factory=dict)
    effects: Mapping[type, Callable[[Any, Any], None]] = field(default_factory=dict)
    phase_actions: Mapping[int, Callable[[Any], Iterable[Any]]] = field(default_factory=dict)
    place_rules: Mapping[int, ActionRule] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # the variants in play
    # -- what the front ends ask -----------------------------------------------------------------------
    goal: Goal | None = None  # the goal one of the variants sets (None: world domination)


NO_HOOKS = Hooks()
