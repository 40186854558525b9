"""The state every game has, each field declared once.

A field is declared by its annotation alone: ``owner: Annotated[list[int], LIST]`` says what it holds
and, through its :class:`Kept`, how a copy duplicates it and how a save writes and reads it. Copying,
saving and restoring go through the declarations (:func:`declared_fields`), so a new field is one
line in the class of the rule it belongs to: the core's here, a game variant's in its module
(``risk/rules/variants/``). Nothing else lists the fields.
"""

from __future__ import annotations

import ast
import inspect
import json
import random
import sys
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, NamedTuple, Protocol

from mypy_extensions import trait

from risk.errors import IllegalActionError
from risk.maps import WILD, Board, board_from_json, canonical_json, load_map, shipped_board
from risk.rules.goal import Goal
from risk.rules.options import Rules
from risk.rules.outcome import Outcome as Outcome  # its home before the hooks named it

if TYPE_CHECKING:
    from risk.rules.actions import Action, Attack, Fortify


class Phase(IntEnum):
    CLAIM = 0  # setup: claim an empty territory
    SETUP_PLACE = 1  # setup: place one of the starting armies
    REINFORCE = 2  # trade sets (before the first placement) and place the new armies
    ATTACK = 3
    DEFEND = 4  # the defender chooses 1 or 2 dice
    OCCUPY = 5  # move armies into the conquered territory
    ELIMINATION_TRADE = 6  # after taking a player's cards: trade down to 4, then place the armies
    FORTIFY = 7
    GAME_OVER = 8
    CHOOSE_CAPITAL = 9  # Capital RISK: each player secretly chooses a headquarters after deployment
    TURN_END = 10  # Mission RISK: after the card draw, a mission that says "at the end of your turn"
    ADJUST_DICE = 11  # 1993 experts: the attacker may re-roll a die or call on its commander
    ALLY_PLACE = 12  # 2-player RISK, active neutrals: place the armies rolled for an ally
    # Never a game's own phase: what a View shows under fog of war during another player's turn,
    # whose steps (attacking, a defence, a move-in, ...) happen out of this player's sight.
    OTHER_TURN = 13


# Final: a C variable in the compiled build, not a look-up on the Enum class (docs/compiled.md).
_GAME_OVER: Final = Phase.GAME_OVER
_REINFORCE: Final = Phase.REINFORCE
_ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
PHASE_NAMES = {p: p.name.lower().replace("_", "-") for p in Phase}
PHASE_BY_NAME = {name: p for p, name in PHASE_NAMES.items()}

TIED = -2  # Team RISK: a territory whose top stacks tie is controlled by no one
NEVER_SEEN: Final = -1  # the turn a territory was last seen, when it never was (a hidden board)

# One entry of a game's history: ("action", seat, Action) or ("chance", kind, outcome).
HistoryEntry = tuple[str, Any, Any]


class Battle(NamedTuple):
    """One roll of the dice: what was rolled and what it cost each side."""

    source: int
    target: int
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    conquered: bool


# -- how a field is copied and saved ---------------------------------------------------------------


def same(value: Any) -> Any:
    """Shared by a copy: an immutable value (a number, a tuple) or one that is replaced, never changed."""
    return value


def copy_list(value: Any) -> Any:
    return value[:]


def copy_lists(value: Any) -> Any:
    """A list of lists (or ``None``), each inner list copied; lists shared in the original (Team
    RISK's team hands) stay shared in the copy."""
    if value is None:
        return None
    copies: dict[int, list[Any]] = {}
    return [
        copies[id(inner)] if id(inner) in copies else copies.setdefault(id(inner), inner[:])
        for inner in value
    ]


def _save_same(value: Any, state: Any) -> Any:
    return value


def _load_same(value: Any, state: Any) -> Any:
    return value


def _save_list(value: Any, state: Any) -> Any:
    return list(value)


def _save_lists(value: Any, state: Any) -> Any:
    return None if value is None else [list(inner) for inner in value]


def _save_tuple(value: Any, state: Any) -> Any:
    return None if value is None else list(value)


def _load_tuple(value: Any, state: Any) -> Any:
    return None if value is None else tuple(value)


class Kept(NamedTuple):
    """How one field is kept: copied (``copy``), saved (``save``: to JSON-ready data; ``None``: not
    saved, the rules rebuild it) and restored (``load``, given the state restored so far). ``key``
    names it in a save (default: the field name without a leading ``_``). ``absent`` gives a game
    variant's field its value in a game without that variant, from the number of seats."""

    copy: Callable[[Any], Any] = same
    save: Callable[[Any, Any], Any] | None = _save_same
    load: Callable[[Any, Any], Any] = _load_same
    key: str | None = None
    absent: Callable[[int], Any] | None = None
    optional: bool = False  # older saves may lack it: restored as ``absent``
    # Not written while it holds its ``absent`` value: a variant added after saves existed (fog of
    # war) leaves the saves of games without it as they were.
    omit_absent: bool = False

    def saved_as(self, key: str) -> Kept:
        return self._replace(key=key)

    def when_absent(self, absent: Callable[[int], Any]) -> Kept:
        return self._replace(absent=absent)

    def added_later(self) -> Kept:
        """A field newer than the save format: optional, and omitted while absent."""
        return self._replace(optional=True, omit_absent=True)


VALUE = Kept()
LIST = Kept(copy_list, _save_list, lambda value, state: list(value))
LISTS = Kept(
    copy_lists, _save_lists, lambda value, state: None if value is None else [list(v) for v in value]
)
TUPLE = Kept(same, _save_tuple, _load_tuple)  # a tuple or None, saved as a list
DERIVED = Kept(same, None)  # rebuilt from the rules, not saved


def _own_annotations(cls: type) -> dict[str, Any]:
    """The annotations a class declares itself, in order. A class compiled by mypyc keeps none at run
    time, so for one (its module an extension, its ``.py`` beside it) they are read from the source."""
    module = sys.modules[cls.__module__]
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return inspect.get_annotations(cls)
    declared = _source_annotations(path.with_name(path.name.split(".")[0] + ".py"))
    if cls.__name__ not in declared:
        raise TypeError(f"no class {cls.__name__} in the source of {cls.__module__}")
    return declared[cls.__name__]


@cache
def _source_annotations(path: Path) -> dict[str, dict[str, Any]]:
    """Each top-level class of a source file with the annotations it declares: parsed once per file
    (the compiled build's import asks for a dozen classes, several times each)."""
    return {
        node.name: {
            item.target.id: ast.unparse(item.annotation)
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.ClassDef)
    }


def declared_fields(cls: type) -> list[tuple[str, Kept]]:
    """The fields a class declares itself (not its bases'), in order, with how each is kept."""
    namespace = vars(sys.modules[cls.__module__])
    fields = []
    for name, annotation in _own_annotations(cls).items():
        hint = eval(annotation, namespace) if isinstance(annotation, str) else annotation
        kept = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Kept)]
        if not kept:
            raise TypeError(f"{cls.__name__}.{name} does not say how it is kept (Annotated[..., Kept])")
        fields.append((name, kept[0]))
    return fields


def state_fields(cls: type) -> list[tuple[str, Kept]]:
    """Every field of a state class and its bases, bases first."""
    seen: dict[str, Kept] = {}
    for klass in cls.__mro__[::-1]:
        if klass is not object and _own_annotations(klass):
            seen.update(declared_fields(klass))
    return list(seen.items())


def saved_key(name: str, kept: Kept) -> str:
    return kept.key if kept.key is not None else name.lstrip("_")


# -- chance -----------------------------------------------------------------------------------------


def _copy_rng(rng: random.Random) -> random.Random:
    other = random.Random.__new__(random.Random)  # no seeding from the system: setstate replaces it
    other.setstate(rng.getstate())
    return other


def _save_rng(rng: random.Random, state: Any) -> Any:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _load_rng(value: Any, state: Any) -> random.Random:
    version, internal, gauss = value
    rng = random.Random.__new__(random.Random)
    rng.setstate((version, tuple(internal), gauss))
    return rng


def _save_history(history: list[tuple[str, Any, Any]], state: Any) -> Any:
    board = state.board
    return [
        ["action", who, value.text(board)] if kind == "action" else ["chance", who, value]
        for kind, who, value in history
    ]


def _load_history(value: Any, state: Any) -> list[tuple[str, Any, Any]]:
    from risk.rules.actions import parse_action

    return [
        ("action", who, parse_action(text, state.board))
        if kind == "action"
        else ("chance", who, chance_from_json(who, text))
        for kind, who, text in value
    ]


def chance_from_json(kind: str, value: Any) -> Any:
    if kind == "dice":
        return tuple(value[0]), tuple(value[1])
    if kind in ("deal", "missions", "mission-cards"):
        return tuple(value)
    return value


def _nothing(value: Any) -> None:
    return None


def _false(value: Any) -> bool:
    return False


def _true(value: Any) -> bool:
    return True


@trait
class Chance:
    """The game's generator and the history it writes: every die and shuffle comes from here.

    Every chance outcome is written to the history next to the actions, so a record replays without
    a generator; the generator runs all the same, so a replay checks that each outcome is the one
    the seed gives (``_script`` holds a record's outcomes while it replays; ``_verify`` refuses one
    that differs).
    """

    seed: Annotated[int, VALUE]
    _rng: Annotated[random.Random, Kept(_copy_rng, _save_rng, _load_rng)]
    _script: Annotated[deque[tuple[str, Any]] | None, Kept(_nothing, None)]
    _verify: Annotated[bool, Kept(_false, None)]
    # Whether every chance outcome so far is the one the generator gave (False once an outcome is
    # given instead: dice passed to apply_with_dice, or a replayed record that differs from its seed).
    chance_from_seed: Annotated[bool, Kept(optional=True, absent=_true)]
    # ("action", player, Action) and ("chance", kind, value) entries, in order.
    history: Annotated[list[HistoryEntry], Kept(copy_list, _save_history, _load_history)]
    __slots__ = tuple(__annotations__)

    def _scripted(self, kind: str) -> Any:
        if not self._script:
            raise IllegalActionError(f"the record has no {kind!r} outcome where the game needs one")
        got_kind, value = self._script.popleft()
        if got_kind != kind:
            raise IllegalActionError(f"the record gives a {got_kind!r} outcome where the game needs {kind!r}")
        return value

    def _check_chance(self, kind: str, recorded: Any, generated: Any) -> None:
        """A scripted outcome (already checked against the rules) against the generator's."""
        if recorded != generated:
            self.chance_from_seed = False
            if self._verify:
                raise ChanceMismatch(kind, recorded, generated, self.seed)

    def _chance_player(self, kind: str, candidates: list[int]) -> int:
        """A die roll-off among ``candidates``: the winner is uniformly any of them."""
        chosen = candidates[int(self._rng.random() * len(candidates))]
        if self._script is not None:
            generated, chosen = chosen, self._scripted(kind)
            if chosen not in candidates:
                raise IllegalActionError(
                    f"the record names player {chosen} for {kind!r}, who cannot be chosen"
                )
            self._check_chance(kind, chosen, generated)
        self.history.append(("chance", kind, chosen))
        return chosen

    def _roll(self, attacker_dice: int, defender_dice: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        r = self._rng.random
        attack_rolls, defence_rolls = ROLLS[attacker_dice], ROLLS[defender_dice]
        attack = attack_rolls[int(r() * len(attack_rolls))]
        defence = defence_rolls[int(r() * len(defence_rolls))]
        if self._script is not None:
            generated = attack, defence
            attack, defence = self._scripted("dice")
            if len(attack) != attacker_dice or len(defence) != defender_dice:
                raise IllegalActionError(
                    f"the record rolls {len(attack)} and {len(defence)} dice where the battle has "
                    f"{attacker_dice} and {defender_dice}"
                )
            self._check_chance("dice", (attack, defence), generated)
        self.history.append(("chance", "dice", (attack, defence)))
        return attack, defence

    def roll_die(self) -> int:
        value = int(self._rng.random() * 6) + 1
        if self._script is not None:
            generated, value = value, self._scripted("die")
            if not (isinstance(value, int) and 1 <= value <= 6):
                raise IllegalActionError(f"the record's die shows {value!r}, not 1 to 6")
            self._check_chance("die", value, generated)
        self.history.append(("chance", "die", value))
        return value


class ChanceMismatch(IllegalActionError):
    """A replayed chance outcome that is not the one the game's seed gives (a record checked
    against its seed): the record's outcome, and the generator's."""

    def __init__(self, kind: str, recorded: Any, generated: Any, seed: int) -> None:
        self.kind, self.recorded, self.generated, self.seed = kind, recorded, generated, seed
        super().__init__(f"the {kind!r} outcome {recorded!r} is not what seed {seed} gives ({generated!r})")


def _sorted_rolls(dice: int) -> tuple[tuple[int, ...], ...]:
    """Every ordered outcome of ``dice`` dice (6**dice of them, equally likely), each sorted high to low."""
    from itertools import product

    return tuple(tuple(sorted(faces, reverse=True)) for faces in product(range(1, 7), repeat=dice))


# ROLLS[n][i]: the i-th of the 6**n equally likely rolls of n dice: one random number picks a roll.
ROLLS: tuple[tuple[tuple[int, ...], ...], ...] = ((), _sorted_rolls(1), _sorted_rolls(2), _sorted_rolls(3))


def battle_losses(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """Losses (attacker, defender) of one roll; both tuples sorted high to low. Ties go to the defender."""
    attacker_losses = defender_losses = 0
    for a, d in zip(attack, defence, strict=False):
        if a > d:
            defender_losses += 1
        else:
            attacker_losses += 1
    return attacker_losses, defender_losses


# Losses (attacker, defender) of every roll of 1-3 attacking and 1-2 defending dice, sorted high to
# low: a lookup instead of comparing the dice of each battle.
LOSSES: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = {
    (attack, defence): battle_losses(attack, defence)
    for attack in {roll for rolls in ROLLS[1:] for roll in rolls}
    for defence in {roll for rolls in ROLLS[1:3] for roll in rolls}
}


# -- the state every game has ------------------------------------------------------------------------


def _save_rules(rules: Rules, state: Any) -> str:
    return rules.describe()


def _save_board(board: Board, state: Any) -> str | dict[str, Any]:
    """A shipped board by its name (snapshots of classic games as before); any other board whole, as
    its JSON data, so that the snapshot restores wherever the board's file is not."""
    if shipped_board(board):
        return board.name
    data: dict[str, Any] = json.loads(board.canonical_json)
    return data


def _save_battle(battle: Battle | None, state: Any) -> Any:
    return None if battle is None else list(battle)


def _load_battle(value: Any, state: Any) -> Battle | None:
    if value is None:
        return None
    return Battle(value[0], value[1], tuple(value[2]), tuple(value[3]), *value[4:])


def _load_rules(value: str, state: Any) -> Rules:
    return Rules.from_description(value)


def _load_board(value: str | dict[str, Any], state: Any) -> Board:
    if isinstance(value, dict):
        return board_from_json(canonical_json(value), "the snapshot's board")
    return load_map(value)


def _load_players(value: list[str], state: Any) -> tuple[str, ...]:
    return tuple(value)


def _save_phase(phase: Phase, state: Any) -> str:
    return PHASE_NAMES[phase]


def _load_phase(name: str, state: Any) -> Phase:
    return PHASE_BY_NAME[name]


# Functions named in annotations are module-level: a lambda there would see the class, not the module.


# -- the hooks of a game's variants --------------------------------------------------------------------
Roll = tuple[int, ...]


class ActionRule(NamedTuple):
    """How one kind of action is refused (the reason, or ``""`` when it is legal) and applied.

    ``Any``: each rule takes the action of its own kind and the state of its own variant (a
    ``Callable`` of the widest types would refuse both)."""

    refuse: Callable[[Any, Any, str], str]
    apply: Callable[[Any, Any], None]


@dataclass(frozen=True, slots=True)
class Hooks:
    """The table of one game's variant hooks, as the turn machine calls them.

    Each hook is documented where a variant writes it: :class:`risk.rules.variants.base.Variant`. The
    registry (``risk.rules.variants.hooks_for``) fills this table once per ruleset: for a hook that
    several variants may have, the variants that have it, in the registry's order; for a hook that
    replaces one of the core's rules, the one variant that has it, or ``None`` for the core's rule. A
    world-domination game has no variant: every list is empty and every replacement is ``None``, so it
    runs through no hook at all. Each hook receives the game as a ``State``; a variant's own hook is
    typed with its own state class (``Variant[S]``): the game handed to it is a ``Game``, which has
    every variant's state. (``Any``: the tables of action rules, as ``hooks.ActionRule`` says.)"""

    # -- setup -------------------------------------------------------------------------------------
    seat_names: Callable[[list[str]], tuple[list[str], list[str]]] | None = None
    setup: tuple[Callable[[State], None], ...] = ()
    restore: tuple[Callable[[State], None], ...] = ()
    deal_quotas: Callable[[State], list[int]] | None = None
    after_deal: tuple[Callable[[State], None], ...] = ()
    next_setup_placer: Callable[[State], bool] | None = None
    finish_setup: tuple[Callable[[State], bool], ...] = ()
    # -- the turn ------------------------------------------------------------------------------------
    start_turn: tuple[Callable[[State], None], ...] = ()
    reinforcements_changed: tuple[Callable[[State], None], ...] = ()
    attack_declared: tuple[Callable[[State, Attack], None], ...] = ()
    rolled: tuple[Callable[[State, int, int, int, Roll, Roll], bool], ...] = ()
    conquered: tuple[Callable[[State], None], ...] = ()
    after_fortify: tuple[Callable[[State, Fortify], bool], ...] = ()
    end_attack: tuple[Callable[[State], None], ...] = ()
    end_turn: tuple[Callable[[State], bool], ...] = ()
    after_action: tuple[Callable[[State], None], ...] = ()
    observe: tuple[Callable[[State], None], ...] = ()
    resigned: tuple[Callable[[State, int, bool], bool], ...] = ()
    turn_dropped: tuple[Callable[[State], None], ...] = ()
    outcome: tuple[Callable[[State, int, bool], Outcome | None], ...] = ()
    resignation_outcome: tuple[Callable[[State, int, str], Outcome | None], ...] = ()
    # -- armies by seat, control, movement -------------------------------------------------------------
    force: Callable[[State, int, int], int] | None = None
    defending_seat: Callable[[State, int], int] | None = None
    taken: Callable[[State, int, int, int], None] | None = None
    added: Callable[[State, int, int, int], None] | None = None
    lose_defenders: Callable[[State, int, int], None] | None = None
    mover: Callable[[State, int], int] | None = None
    may_reinforce: Callable[[State, int, int], bool] | None = None
    room: Callable[[State, int], int] | None = None
    fortify_targets: Callable[[State, int], list[int]] | None = None
    commands: Callable[[State, int], bool] | None = None
    settle_battle: Callable[[State, int, int, int, Roll, Roll], None] | None = None
    set_value: Callable[[State, int], int] | None = None
    # -- refusals ------------------------------------------------------------------------------------
    source_refusal: Callable[[State, int, int, str], str] | None = None
    target_refusal: Callable[[State, int, int, str], str] | None = None
    attack_refusal: tuple[Callable[[State, Attack, str], str], ...] = ()
    attack_armies_refusal: Callable[[State, int, int, int, str], str] | None = None
    placement_refusal: Callable[[State, int, int, str], str] | None = None
    capacity_refusal: tuple[Callable[[State, int, int], str], ...] = ()
    fortify_refusal: Callable[[State, Fortify, str], str] | None = None
    move_refusal: tuple[Callable[[State, Fortify, int, str], str], ...] = ()
    # -- legal actions -------------------------------------------------------------------------------
    start_actions: tuple[Callable[[State], Iterable[Action]], ...] = ()
    attack_extras: tuple[Callable[[State], Iterable[Action]], ...] = ()
    closing_actions: tuple[Callable[[State], Iterable[Action]], ...] = ()
    attack_actions: Callable[[State], Iterable[Action]] | None = None
    fortify_actions: Callable[[State], Iterable[Action]] | None = None
    # -- secrets: what each variant hides from a seat (risk.view, records, determinisation) -------------
    shown_to: tuple[Callable[[State, int], Mapping[str, Any]], ...] = ()
    view_data: tuple[Callable[[State, int], Mapping[str, Any]], ...] = ()
    redact: tuple[Callable[[State, HistoryEntry, int], HistoryEntry], ...] = ()
    sample_hidden: tuple[Callable[[State, State, int, random.Random], None], ...] = ()
    # -- a hidden board (fog of war): all from one variant, or all None -----------------------------------
    in_sight: Callable[[State, int], list[int]] | None = None
    memory: Callable[[State, int], tuple[list[int], list[int], list[int]]] | None = None
    seen_battle: Callable[[State, int], Battle | None] | None = None
    step_hidden: Callable[[State, int], bool] | None = None
    witnessed: Callable[[State, int, int], bool] | None = None
    sample_board: Callable[[State, State, int, random.Random], None] | None = None
    in_the_open: Callable[[State], Rules] | None = None
    # -- the variants' own actions and phases ------------------------------------------------------------
    actions: Mapping[type, ActionRule] = field(default_factory=dict)
    # The same rules by kind of action, as the machine calls them (the core's and the variants').
    refusals: Mapping[type, Callable[[Any, Any, str], str]] = field(default_factory=dict)
    effects: Mapping[type, Callable[[Any, Any], None]] = field(default_factory=dict)
    phase_actions: Mapping[int, Callable[[State], Iterable[Action]]] = field(default_factory=dict)
    place_rules: Mapping[int, ActionRule] = field(default_factory=dict)
    names: frozenset[str] = frozenset()  # the variants in play
    # -- what the front ends ask -----------------------------------------------------------------------
    goal: Goal | None = None  # the goal one of the variants sets (None: world domination)


NO_HOOKS = Hooks()


class Steps(Protocol):
    """The steps of the turn machine a game variant may take (python-chess's variants override named,
    typed methods of the board; ours call these). Every state (:class:`State`, hence ``Game``) has
    them; a variant's hooks receive the game typed as its own state class, a ``State``. Front ends
    never take them: they apply actions (tests/test_rules_interface.py checks both)."""

    def end_setup(self) -> None: ...
    def begin_play(self) -> None: ...
    def pass_turn(self) -> None: ...
    def end_game(self, winner: int) -> None: ...
    def settle_roll(
        self, source: int, target: int, attacker_dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> None: ...
    def move_in(self, count: int) -> None: ...
    def roll_die(self) -> int: ...
    def draw_card(self, player: int) -> None: ...
    def take_territory(self, territory: int, player: int, count: int) -> None: ...
    def add_armies(self, territory: int, seat: int, count: int) -> None: ...
    def lose_defenders(self, territory: int, count: int) -> None: ...


@trait
class State(Chance):
    """What every game has: the board and the seats, owners and armies, hands and deck, the phase
    and the turn. Rules and game variants read and change it; the turn machine (``Game``) drives it."""

    rules: Annotated[Rules, Kept(same, _save_rules, _load_rules)]
    board: Annotated[Board, Kept(same, _save_board, _load_board)]
    players: Annotated[tuple[str, ...], Kept(same, _save_list, _load_players)]
    # Neutral armies (2-player RISK) sit in the seats after the players and never take a turn.
    humans: Annotated[int, DERIVED]
    neutral: Annotated[list[bool], DERIVED]
    # The hooks of this game's variants (risk/rules/variants/), chosen once from the rules.
    hooks: Annotated[Hooks, DERIVED]
    # How the game is won (risk.rules.goal): what front ends ask instead of the game's name.
    goal: Annotated[Goal, DERIVED]
    phase: Annotated[Phase, Kept(same, _save_phase, _load_phase)]
    owner: Annotated[list[int], LIST]
    armies: Annotated[list[int], LIST]
    territory_count: Annotated[list[int], LIST]
    alive: Annotated[list[bool], LIST]
    hands: Annotated[list[list[int]], LISTS]
    deck: Annotated[list[int], LIST]
    discard: Annotated[list[int], LIST]
    setup_armies: Annotated[list[int], LIST]
    sets_traded: Annotated[int, VALUE]
    pending: Annotated[int, VALUE]  # armies still to place
    turn: Annotated[int, VALUE]  # 0 during the setup
    winner: Annotated[int | None, VALUE]
    first_player: Annotated[int, VALUE]
    current: Annotated[int, VALUE]  # whose turn it is
    # The player who must act now: the current player, or the defender choosing its dice (-1 once
    # the game is over). Kept as a field because every action reads it.
    to_act: Annotated[int, VALUE]
    placing_for: Annotated[int, VALUE]  # the seat whose armies are being placed (setup, allies)
    # The turn's steps so far, which some rules read (cards, missions, bribes).
    conquered_this_turn: Annotated[bool, VALUE]
    placed_this_turn: Annotated[bool, VALUE]
    territory_bonus_used: Annotated[bool, VALUE]
    conquests_this_turn: Annotated[int, VALUE]
    attacked_this_turn: Annotated[bool, VALUE]
    traded_this_turn: Annotated[bool, VALUE]
    last_battle: Annotated[Battle | None, Kept(same, _save_battle, _load_battle)]
    _attack: Annotated[tuple[int, int, int] | None, TUPLE]  # source, target, dice awaiting the defence
    # source, target, minimum to move in, whether the conquest eliminated the defender
    _occupy: Annotated[tuple[int, int, int, bool] | None, TUPLE]
    __slots__ = tuple(__annotations__)

    # -- armies: one stack per territory, or (Team RISK) per seat and territory ----------------------
    def take_territory(self, territory: int, player: int, count: int) -> None:
        """``player`` takes ``territory`` with ``count`` armies (the last armies there are gone)."""
        previous = self.owner[territory]
        if previous >= 0:
            self.territory_count[previous] -= 1
        self.owner[territory] = player
        self.territory_count[player] += 1
        self.armies[territory] = count
        if self.hooks.taken is not None:
            self.hooks.taken(self, territory, player, count)

    def add_armies(self, territory: int, seat: int, count: int) -> None:
        """Add (or, negative, remove) armies of ``seat``; in Team RISK control may change hands."""
        self.armies[territory] += count
        if self.hooks.added is not None:
            self.hooks.added(self, territory, seat, count)

    def lose_defenders(self, territory: int, count: int) -> None:
        if self.hooks.lose_defenders is None:
            self.armies[territory] -= count
        else:
            self.hooks.lose_defenders(self, territory, count)

    def force(self, territory: int, seat: int) -> int:
        """The armies of ``seat`` in ``territory``."""
        if self.hooks.force is None:
            return self.armies[territory] if self.owner[territory] == seat else 0
        return self.hooks.force(self, territory, seat)

    def defending_seat(self, territory: int) -> int:
        """Who defends a territory: its owner (Team RISK: see the variant)."""
        if self.hooks.defending_seat is None:
            return self.owner[territory]
        return self.hooks.defending_seat(self, territory)

    def mover(self, territory: int) -> int:
        """Whose armies leave ``territory`` in a move: its owner's (Team RISK: the current player's)."""
        if self.hooks.mover is None:
            return self.owner[territory]
        return self.hooks.mover(self, territory)

    def commands(self, seat: int) -> bool:
        """Whether the current player moves this seat's armies: its own (or an active neutral ally's)."""
        if self.hooks.commands is None:
            return seat == self.current
        return seat == self.current or self.hooks.commands(self, seat)

    def room(self, territory: int) -> int:
        """How many more armies ``territory`` may take (no limit but the expert army cap)."""
        if self.hooks.room is None:
            return UNLIMITED
        return self.hooks.room(self, territory)

    def may_reinforce(self, territory: int, player: int) -> bool:
        """Whether ``player`` may place reinforcements on ``territory``: one it controls ("place ALL of
        them into territories that you control"; Team RISK: see the variant)."""
        if self.owner[territory] == player:
            return True
        return self.hooks.may_reinforce is not None and self.hooks.may_reinforce(self, territory, player)

    def fortify_targets(self, source: int) -> list[int]:
        """Own territories the armies in ``source`` may move to under the fortify rule."""
        if self.hooks.fortify_targets is not None:
            return self.hooks.fortify_targets(self, source)
        player = self.owner[source]
        owner = self.owner
        if self.rules.fortify == "adjacent":
            return [n for n in self.board.neighbours[source] if owner[n] == player]
        seen = {source}
        stack = [source]
        neighbours = self.board.neighbours
        while stack:
            for n in neighbours[stack.pop()]:
                if n not in seen and owner[n] == player:
                    seen.add(n)
                    stack.append(n)
        seen.discard(source)
        return sorted(seen)

    def connected(self, source: int, target: int) -> bool:
        """Whether ``target`` is among :meth:`fortify_targets` of ``source`` (one stack per territory):
        the search stops as soon as it reaches ``target``."""
        owner = self.owner
        player = owner[source]
        neighbours = self.board.neighbours
        if target == source or owner[target] != player:
            return False
        if self.rules.fortify == "adjacent":
            return target in self.board.adjacent[source]
        seen = {source}
        stack = [source]
        while stack:
            for n in neighbours[stack.pop()]:
                if n not in seen and owner[n] == player:
                    if n == target:
                        return True
                    seen.add(n)
                    stack.append(n)
        return False

    def occupy_range(self) -> tuple[int, int]:
        assert self._occupy is not None
        source, target, minimum, _ = self._occupy
        # The minimum has already moved in; the source must keep one army.
        mover = self.mover(source)
        return minimum, minimum + min(self.force(source, mover) - 1, self.room(target))

    # -- queries -------------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == _GAME_OVER

    def territories_of(self, player: int) -> list[int]:
        return [t for t, o in enumerate(self.owner) if o == player]

    def continents_of(self, player: int) -> list[int]:
        owner = self.owner
        return [c.index for c in self.board.continents if all(owner[t] == player for t in c.territories)]

    def reinforcement_for(self, player: int) -> int:
        """Armies for territories (at least 3) and whole continents, before any card trade."""
        bonus = sum(self.board.continents[c].bonus for c in self.continents_of(player))
        return max(3, self.territory_count[player] // 3) + bonus

    def set_value(self, cards: tuple[int, ...] | list[int], sets_traded: int | None = None) -> int:
        """The armies a set is worth now (or after ``sets_traded`` sets) under these rules."""
        k = self.sets_traded if sets_traded is None else sets_traded
        mode = self.rules.card_values
        if mode == "fixed":
            value = fixed_set_value([self.board.card_symbols[c] for c in cards])
        elif mode == "plus-one":
            value = 4 + k
        elif k < len(ESCALATING_VALUES):
            value = ESCALATING_VALUES[k]
        else:
            value = ESCALATING_VALUES[-1] + 5 * (k - len(ESCALATING_VALUES) + 1)
        return value if self.hooks.set_value is None else self.hooks.set_value(self, value)

    def next_set_value(self) -> int | None:
        """The value of the next set under escalating rules (``None`` for the fixed chart)."""
        return None if self.rules.card_values == "fixed" else self.set_value(())

    def must_trade(self, player: int | None = None) -> bool:
        """Whether the player to act must trade a set before doing anything else."""
        p = self.current if player is None else player
        if self.phase == _REINFORCE:
            return len(self.hands[p]) >= self.rules.forced_trade_at
        if self.phase == _ELIMINATION_TRADE:
            return len(self.hands[p]) > 4
        return False

    def opponent(self) -> int:
        """The other player still in the game (2-player RISK)."""
        for i in range(1, self.humans):
            p = (self.current + i) % self.humans
            if self.alive[p]:
                return p
        return self.current

    def in_game_from(self, seat: int) -> int:
        """The first player still in the game from ``seat`` on, in seat order."""
        for i in range(self.humans):
            p = (seat + i) % self.humans
            if self.alive[p]:
                return p
        return seat

    def draw_card(self, player: int) -> None:
        if not self.deck:
            if not self.discard:
                return  # every card is in someone's hand: nothing to draw
            self.deck, self.discard = self.discard, []
            self._rng.shuffle(self.deck)
        card = self.deck.pop()
        if self._script is not None:
            wanted = self._scripted("draw")
            if wanted != card:
                if wanted not in self.deck:
                    raise IllegalActionError(
                        f"the record draws card {self.board.card_name(wanted)}, which is not in the draw pile"
                    )
                self._check_chance("draw", wanted, card)
                self.deck.remove(wanted)
                self.deck.append(card)
                card = wanted
        self.hands[player].append(card)
        self.history.append(("chance", "draw", card))

    def _shuffle_deck(self) -> None:
        self.deck = list(range(self.board.card_count))
        self._rng.shuffle(self.deck)

    def end_game(self, winner: int) -> None:
        """``winner`` wins: the game is over."""
        self.winner = winner
        self.phase = Phase.GAME_OVER
        self.to_act = -1
        self._occupy = None
        self._attack = None

    # -- steps of the turn machine that a variant's rules may take (``Game`` defines them) --------------
    def pass_turn(self) -> None:
        """The next player in the game starts its turn."""
        raise NotImplementedError

    def end_setup(self) -> None:
        """The setup placements are over: shuffle the deck, then the first turn (or a variant's step)."""
        raise NotImplementedError

    def begin_play(self) -> None:
        """The first turn begins (after the setup and any variant's step after it)."""
        raise NotImplementedError

    def settle_roll(
        self, source: int, target: int, attacker_dice: int, attack: tuple[int, ...], defence: tuple[int, ...]
    ) -> None:
        """Apply the losses of a roll; on a conquest, take the territory."""
        raise NotImplementedError

    def move_in(self, count: int) -> None:
        """Move ``count`` armies into the territory just conquered (the minimum is there already)."""
        raise NotImplementedError


UNLIMITED = 1 << 30

ESCALATING_VALUES = (4, 6, 8, 10, 12, 15)
# Fixed set values (2003 Mission and Team RISK): by the symbol of a three-of-a-kind, or one of each.
FIXED_VALUES = (4, 6, 8)
FIXED_ONE_OF_EACH = 10


def is_set(symbols: tuple[int, ...] | list[int]) -> bool:
    """Three card symbols form a set: three alike, one of each, or any two plus a wild."""
    if WILD in symbols:
        return True
    a, b, c = symbols
    return (a == b == c) or (a != b and b != c and a != c)


def fixed_set_value(symbols: tuple[int, ...] | list[int]) -> int:
    """The value of a set under the fixed chart (2003 Mission and Team RISK).

    "A wild card can be used for any one of the above cards": a wild completes the set the other
    cards make. Two alike and a wild are three alike (4, 6 or 8 by the kind); two different and a
    wild are one of each (10). A set that could be read either way (two wilds and one card: three
    alike or one of each) takes the best value it can make, which is one of each.
    """
    plain = {s for s in symbols if s != WILD}
    if len(plain) == 1 and len(symbols) - symbols.count(WILD) >= 2:
        return FIXED_VALUES[next(iter(plain))]  # three alike, or two alike completed by a wild
    return FIXED_ONE_OF_EACH  # one of each (a wild completing it), or two wilds: the best reading


def card_label(game: State, card: Any) -> str:
    """A card's name for a message (or what was given, when it is no card)."""
    if isinstance(card, int) and 0 <= card < game.board.card_count:
        return game.board.card_name(card)
    return repr(card)


if TYPE_CHECKING:
    _EVERY_STATE_TAKES_THE_STEPS: type[Steps] = State  # (checked by mypy)
