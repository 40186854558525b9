"""The hook interface: what a game variant may change in the shared turn machine.

A variant (one game of the rulebooks, or one family of rule options) is a subclass of
:class:`Variant` that overrides only the hooks it needs. Its state is declared as fields of its own
state class (a subclass of :class:`~risk.rules.state.State` in its module). The registry
(``risk/rules/variants/__init__.py``) chooses a game's variants once from its rules and collects
their hooks in a :class:`~risk.rules.hooks.Hooks` table; the turn machine calls them there. A variant
imports the state, the actions and this interface, never the turn machine: the machine hands it the
game, typed as the variant's own state class, whose public :class:`~risk.rules.state.Steps`
(``begin_play``, ``end_game``, ``pass_turn``, ``settle_roll``, ``roll_die``...) are the steps it may
take.

Two kinds of hooks:

- *event hooks* (``setup``, ``start_turn``, ``after_action``...): every variant that has one is
  called, in the registry's order;
- *rule hooks* (``force``, ``room``, ``fortify_targets``, ``attack_actions``...): they replace one of
  the core's rules, so at most one variant of a game may have each.

A variant's own actions (``actions``) and phases (``phase_actions``, ``place_rules``) are tables.
A variant that sets how the game is won declares its :class:`~risk.rules.goal.Goal` (``goal``): the
front ends ask that, never the game's name.

A variant with a secret keeps it here too: its *secrecy hooks* (``shown_to``, ``view_data``,
``redact``, ``sample_hidden``, the table ``chance_keys``) are what :mod:`risk.view`, the record
written for a player and :mod:`risk.rules.determinise` ask; a variant that hides the board (fog of
war) also has the *hidden-board* rule hooks (``in_sight``, ``memory``, ``witnessed``...).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from risk.rules.goal import Goal
from risk.rules.hooks import ActionRule
from risk.rules.options import Rules
from risk.rules.state import Battle, HistoryEntry, Outcome, Phase, State

if TYPE_CHECKING:
    from risk.rules.actions import Action, Attack, Fortify

S = TypeVar("S", bound=State)

# Rule hooks: each replaces a rule of the core, so a game may have it from one variant only.
RULE_HOOKS = frozenset(
    {
        "seat_names",
        "deal_quotas",
        "next_setup_placer",
        "force",
        "defending_seat",
        "taken",
        "added",
        "lose_defenders",
        "mover",
        "may_reinforce",
        "room",
        "fortify_targets",
        "commands",
        "settle_battle",
        "set_value",
        "source_refusal",
        "target_refusal",
        "attack_armies_refusal",
        "placement_refusal",
        "fortify_refusal",
        "attack_actions",
        "fortify_actions",
        # a hidden board: one variant at most hides territories (fog of war)
        "in_sight",
        "memory",
        "seen_battle",
        "step_hidden",
        "witnessed",
        "sample_board",
        "in_the_open",
    }
)


# A plug-in point: new variants (and tests) subclass it in Python, also in the compiled build.
@mypyc_attr(allow_interpreted_subclasses=True)
class Variant(Generic[S]):
    """A game variant: the hooks it overrides change the game; the others are never called."""

    name: ClassVar[str] = ""
    # Its own actions: how each is refused and applied.
    actions: ClassVar[Mapping[type, ActionRule]] = {}
    # The reason an action of this variant is refused in a game without it.
    absent_refusals: ClassVar[Mapping[type, str]] = {}
    # Its own phases: the legal actions in each, and how a placement is refused and applied there.
    phase_actions: ClassVar[Mapping[Phase, Any]] = {}
    place_rules: ClassVar[Mapping[Phase, ActionRule]] = {}
    # How the game is won, when this variant sets it (one variant of a game at most).
    goal: ClassVar[Goal | None] = None
    # The kinds of chance outcome this variant writes as one text key per seat (``~ missions a,b,c``):
    # a record reads and writes them, ``?`` where ``redact`` hid a key.
    chance_keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    # -- setup ---------------------------------------------------------------------------------------
    def seat_names(self, names: list[str]) -> tuple[list[str], list[str]]:
        """Rule: the players' names and the extra seats' names (2-player RISK's neutral armies)."""
        raise NotImplementedError

    def setup(self, game: S) -> None:
        """Event: the core state is set (the variant's fields hold their ``absent`` values), before
        the first die is rolled: give the fields their starting values, deal the variant's cards."""

    def restore(self, game: S) -> None:
        """Event: a saved game was loaded: rebuild what is not saved (derived fields)."""

    def deal_quotas(self, game: S) -> list[int]:
        """Rule: how many territories are dealt to each seat."""
        raise NotImplementedError

    def after_deal(self, game: S) -> None:
        """Event: the territories have been dealt."""

    def next_setup_placer(self, game: S) -> bool:
        """Rule: pass the setup placement on; False leaves it to the core's turn order."""
        raise NotImplementedError

    def finish_setup(self, game: S) -> bool:
        """Event: every setup army is placed and the deck shuffled; True when the variant takes
        over before the first turn (it then calls ``game.begin_play()``)."""
        return False

    # -- the turn ------------------------------------------------------------------------------------
    def start_turn(self, game: S) -> None:
        """Event: a turn starts (before its reinforcements are counted): reset this turn's state."""

    def reinforcements_changed(self, game: S) -> None:
        """Event: the armies to place changed (a turn started, a set was traded, armies placed)."""

    def attack_declared(self, game: S, action: Attack) -> None:
        """Event: an attack was declared, before its dice are rolled."""

    def rolled(
        self, game: S, source: int, target: int, dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> bool:
        """Event: a battle's dice were rolled; True when the variant holds the roll (it settles it
        later with ``game.settle_roll``)."""
        return False

    def conquered(self, game: S) -> None:
        """Event: the armies have moved into a conquered territory."""

    def after_fortify(self, game: S, action: Fortify) -> bool:
        """Event: armies were moved in the fortify phase; True when the turn goes on."""
        return False

    def end_attack(self, game: S) -> None:
        """Event: the player stops attacking (before the card is drawn)."""

    def end_turn(self, game: S) -> bool:
        """Event: the turn ends (its card drawn); True when the variant holds it open."""
        return False

    def after_action(self, game: S) -> None:
        """Event: an action was applied in a turn of play and the game is not over: check goals."""

    def observe(self, game: S) -> None:
        """Event: an action was applied (any action, in any phase, the game over or not), or the
        game was just set up: what the players see (fog of war)."""

    def resigned(self, game: S, seat: int, was_to_act: bool) -> bool:
        """Event: ``seat`` resigned and other players remain; True when the variant has dealt with it."""
        return False

    def turn_dropped(self, game: S) -> None:
        """Event: the current player resigned: drop whatever of the variant was under way."""

    def outcome(self, game: S, winner: int, last_standing: bool) -> Outcome | None:
        """Event: how the game ended, when the variant says (else the core's: the last player
        standing, or world domination)."""
        return None

    def resignation_outcome(self, game: S, winner: int, gone: str) -> Outcome | None:
        """Event: how the game ended when a resignation ended it, when the variant says."""
        return None

    # -- armies by seat, control and movement (rules) ---------------------------------------------------
    def force(self, game: S, territory: int, seat: int) -> int:
        """Rule: the armies of ``seat`` in ``territory``."""
        raise NotImplementedError

    def defending_seat(self, game: S, territory: int) -> int:
        """Rule: who rolls the defence of ``territory`` and loses armies there."""
        raise NotImplementedError

    def taken(self, game: S, territory: int, seat: int, count: int) -> None:
        """Rule: bookkeeping after ``seat`` took ``territory`` with ``count`` armies."""
        raise NotImplementedError

    def added(self, game: S, territory: int, seat: int, count: int) -> None:
        """Rule: bookkeeping after ``count`` armies of ``seat`` were added to ``territory``."""
        raise NotImplementedError

    def lose_defenders(self, game: S, territory: int, count: int) -> None:
        """Rule: the defenders of ``territory`` lose ``count`` armies."""
        raise NotImplementedError

    def mover(self, game: S, territory: int) -> int:
        """Rule: whose armies move out of ``territory`` (to occupy or fortify)."""
        raise NotImplementedError

    def may_reinforce(self, game: S, territory: int, player: int) -> bool:
        """Rule: whether ``player`` may reinforce ``territory`` that it does not own."""
        raise NotImplementedError

    def room(self, game: S, territory: int) -> int:
        """Rule: how many more armies ``territory`` may hold."""
        raise NotImplementedError

    def fortify_targets(self, game: S, source: int) -> list[int]:
        """Rule: where the armies in ``source`` may move in the fortify phase."""
        raise NotImplementedError

    def commands(self, game: S, seat: int) -> bool:
        """Rule: whether the current player moves the armies of ``seat`` (not its own)."""
        raise NotImplementedError

    def settle_battle(
        self, game: S, source: int, target: int, dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> None:
        """Rule: apply a roll's losses and a conquest."""
        raise NotImplementedError

    # -- cards (rules) ---------------------------------------------------------------------------------
    def set_value(self, game: S, value: int) -> int:
        """Rule: the armies a set gives in this game, when the core's chart says ``value``."""
        raise NotImplementedError

    # -- refusals (rules return the reason, or "" when the action is legal) --------------------------------
    def source_refusal(self, game: S, territory: int, seat: int, name: str) -> str:
        """Rule: may the current player attack or move from ``territory``, held by ``seat``, another seat?"""
        raise NotImplementedError

    def target_refusal(self, game: S, source: int, target: int, name: str) -> str:
        """Rule: may ``target`` be attacked (the core: not one's own)?"""
        raise NotImplementedError

    def attack_refusal(self, game: S, action: Attack, name: str) -> str:
        """Event: a further check of an attack, after its target's."""
        return ""

    def attack_armies_refusal(self, game: S, source: int, seat: int, dice: int, name: str) -> str:
        """Rule: are there armies enough to attack from ``source`` with ``dice`` dice?"""
        raise NotImplementedError

    def placement_refusal(self, game: S, territory: int, player: int, name: str) -> str:
        """Rule: may ``player`` reinforce ``territory``, which it does not own?"""
        raise NotImplementedError

    def capacity_refusal(self, game: S, territory: int, armies: int) -> str:
        """Event: may ``territory`` take ``armies`` more (placed or moved)?"""
        return ""

    def fortify_refusal(self, game: S, action: Fortify, name: str) -> str:
        """Rule: the whole check of a fortification, once its territories are known to exist."""
        raise NotImplementedError

    def move_refusal(self, game: S, action: Fortify, seat: int, name: str) -> str:
        """Event: a further check of a fortification by ``seat``, after its territories' owners."""
        return ""

    # -- legal actions ---------------------------------------------------------------------------------
    def start_actions(self, game: S) -> Iterable[Action]:
        """Event: the variant's actions offered in the reinforcement phases, before the trades."""
        return ()

    def attack_extras(self, game: S) -> Iterable[Action]:
        """Event: the variant's actions offered in the attack phase, after the attacks."""
        return ()

    def closing_actions(self, game: S) -> Iterable[Action]:
        """Event: the variant's actions offered last in the attack phase, before ``endattack``."""
        return ()

    def attack_actions(self, game: S) -> Iterable[Action]:
        """Rule: the attacks the player to act may declare."""
        raise NotImplementedError

    def fortify_actions(self, game: S) -> Iterable[Action]:
        """Rule: the fortifications the player to act may make (``endturn`` follows)."""
        raise NotImplementedError

    # -- secrets (events): what this variant hides from a seat ----------------------------------------
    # risk.view, the record written for a player and risk.rules.determinise ask these, never which
    # variant is in play. A variant without secrets has none of them.
    def shown_to(self, game: S, seat: int) -> Mapping[str, Any]:
        """Event: this variant's secret fields as ``seat`` (-1: a spectator) may see them now, by name,
        each with what is hidden in it replaced (``None``, ``-1``...): ``View.shown``."""
        return {}

    def view_data(self, game: S, seat: int) -> Mapping[str, Any]:
        """Event: what this variant adds to ``seat``'s view as JSON-ready data (``View.to_dict``), its
        secrets as ``shown_to`` shows them."""
        return {}

    def redact(self, game: S, entry: HistoryEntry, seat: int) -> HistoryEntry:
        """Event: a history entry as ``seat`` may see it now: the entry, or one with what this variant
        hides replaced by ``None`` (an action, or a key of a chance outcome in ``chance_keys``)."""
        return entry

    def sample_hidden(self, real: S, sample: S, seat: int, rng: random.Random) -> None:
        """Event: determinisation (after the hands and the board are sampled): overwrite in ``sample``,
        a copy of ``real``, what this variant hides from ``seat``, drawn from ``rng`` among the values
        ``seat`` cannot tell from the real ones."""

    # -- a hidden board (rules: one variant at most; the view shows the board whole without one) ------
    def in_sight(self, game: S, seat: int) -> list[int]:
        """Rule: for each territory, 1 when ``seat`` sees it now, else 0 (while the game runs)."""
        raise NotImplementedError

    def memory(self, game: S, seat: int) -> tuple[list[int], list[int], list[int]]:
        """Rule: for each territory, the owner, armies and turn ``seat`` last saw there (the turn
        :data:`~risk.rules.state.NEVER_SEEN` and owner -1 for one it never saw)."""
        raise NotImplementedError

    def seen_battle(self, game: S, seat: int) -> Battle | None:
        """Rule: the latest battle ``seat`` witnessed."""
        raise NotImplementedError

    def step_hidden(self, game: S, seat: int) -> bool:
        """Rule: whether the step of the turn under way (an attack awaiting its defence, a move-in) is
        hidden from ``seat``: the view then shows only whose turn it is."""
        raise NotImplementedError

    def witnessed(self, game: S, index: int, seat: int) -> bool:
        """Rule: whether ``seat`` witnessed history entry ``index`` (one it did not is left out)."""
        raise NotImplementedError

    def sample_board(self, real: S, sample: S, seat: int, rng: random.Random) -> None:
        """Rule: determinisation: the owners and armies out of ``seat``'s sight in ``sample``, drawn
        from what it remembers; ``sample`` is then played in the open (``in_the_open``)."""
        raise NotImplementedError

    def in_the_open(self, game: S) -> Rules:
        """Rule: clear what ``game`` (a copy) remembers of the hidden board and give the rules it is
        played by from now on, the board in the open (search, or spectators who see everything)."""
        raise NotImplementedError
