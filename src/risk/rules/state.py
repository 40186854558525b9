"""The state every game has, each field declared once.

A field is declared by its annotation alone: ``owner: Annotated[list[int], LIST]`` says what it holds
and, through its :class:`Kept`, how a copy duplicates it and how a save writes and reads it. Copying,
saving and restoring go through the declarations (:func:`declared_fields`), so a new field is one
line in the class of the rule it belongs to: the core's here, a game variant's in its module
(``risk/rules/variants/``). Nothing else lists the fields.
"""

from __future__ import annotations

import inspect
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Annotated, Any, NamedTuple, get_type_hints

from risk.errors import IllegalActionError
from risk.maps import Board, load_map
from risk.rules.options import Rules


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


PHASE_NAMES = {p: p.name.lower().replace("_", "-") for p in Phase}
PHASE_BY_NAME = {name: p for p, name in PHASE_NAMES.items()}

TIED = -2  # Team RISK: a territory whose top stacks tie is controlled by no one


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner (a player index), the reason in words, and every winning seat
    (the winner alone, or its whole team in Team RISK)."""

    winner: int | None
    reason: str
    winners: tuple[int, ...] = ()


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

    def saved_as(self, key: str) -> Kept:
        return self._replace(key=key)

    def when_absent(self, absent: Callable[[int], Any]) -> Kept:
        return self._replace(absent=absent)


VALUE = Kept()
LIST = Kept(copy_list, _save_list, lambda value, state: list(value))
LISTS = Kept(
    copy_lists, _save_lists, lambda value, state: None if value is None else [list(v) for v in value]
)
TUPLE = Kept(same, _save_tuple, _load_tuple)  # a tuple or None, saved as a list
DERIVED = Kept(same, None)  # rebuilt from the rules, not saved


def declared_fields(cls: type) -> list[tuple[str, Kept]]:
    """The fields a class declares itself (not its bases'), in order, with how each is kept."""
    hints = get_type_hints(cls, include_extras=True)
    fields = []
    for name in inspect.get_annotations(cls):
        kept = [m for m in getattr(hints[name], "__metadata__", ()) if isinstance(m, Kept)]
        if not kept:
            raise TypeError(f"{cls.__name__}.{name} does not say how it is kept (Annotated[..., Kept])")
        fields.append((name, kept[0]))
    return fields


def state_fields(cls: type) -> list[tuple[str, Kept]]:
    """Every field of a state class and its bases, bases first."""
    seen: dict[str, Kept] = {}
    for klass in reversed(cls.__mro__):
        if klass is not object and inspect.get_annotations(klass):
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
    history: Annotated[list[tuple[str, Any, Any]], Kept(copy_list, _save_history, _load_history)]
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

    def _roll_die(self) -> int:
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


# -- the state every game has ------------------------------------------------------------------------


def _save_rules(rules: Rules, state: Any) -> str:
    return rules.describe()


def _save_board(board: Board, state: Any) -> str:
    return board.name


def _save_battle(battle: Battle | None, state: Any) -> Any:
    return None if battle is None else list(battle)


def _load_battle(value: Any, state: Any) -> Battle | None:
    if value is None:
        return None
    return Battle(value[0], value[1], tuple(value[2]), tuple(value[3]), *value[4:])


def _load_rules(value: str, state: Any) -> Rules:
    return Rules.from_description(value)


def _load_board(value: str, state: Any) -> Board:
    return load_map(value)


def _load_players(value: list[str], state: Any) -> tuple[str, ...]:
    return tuple(value)


def _save_phase(phase: Phase, state: Any) -> str:
    return PHASE_NAMES[phase]


def _load_phase(name: str, state: Any) -> Phase:
    return PHASE_BY_NAME[name]


# Functions named in annotations are module-level: a lambda there would see the class, not the module.


class State(Chance):
    """What every game has: the board and the seats, owners and armies, hands and deck, the phase
    and the turn. Rules and game variants read and change it; the turn machine (``Game``) drives it."""

    rules: Annotated[Rules, Kept(same, _save_rules, _load_rules)]
    board: Annotated[Board, Kept(same, _save_board, _load_board)]
    players: Annotated[tuple[str, ...], Kept(same, _save_list, _load_players)]
    # Neutral armies (2-player RISK) sit in the seats after the players and never take a turn.
    humans: Annotated[int, DERIVED]
    neutral: Annotated[list[bool], DERIVED]
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
