"""2-player RISK with active neutrals (2003): bribes, allies, and the status dice after an invasion.

"In the second version, these neutrals are active and can be allied with one player or the other."
Each neutral's cannon moves toward the player who bribes it with a card ("give one of your Territory
cards ... at the start of your turn", at most two a turn, none once it holds five); a neutral next to
you is your ally: you roll one die to reinforce it, attack and fortify with its armies ("one free
move for each of your allies"). "After you finish an invasion into a neutral's territory ... and/or
after you finish an invasion using an allied army, roll 1 die. On a roll of 1-4, move that
neutral's cannon one position away from you." "You get no card for using an ally to conquer a
territory" (the core's card rule: only the current player's own conquests earn one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar

from mypy_extensions import trait

from risk.rules.actions import CALL_OFF, Action, Attack, Bribe, CallOff, Fortify, Place, ReinforceAlly
from risk.rules.hooks import ActionRule
from risk.rules.state import DERIVED, LIST, Kept, Phase, State, card_label
from risk.rules.variants.base import Variant

Invasion = tuple[int, int, tuple[int, ...]]


def _save_invasion(invasion: Invasion | None, state: Any) -> Any:
    return None if invasion is None else [invasion[0], invasion[1], list(invasion[2])]


def _load_invasion(value: Any, state: Any) -> Invasion | None:
    return None if value is None else (value[0], value[1], tuple(value[2]))


@trait
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
        Invasion | None, Kept(save=_save_invasion, load=_load_invasion, absent=lambda seats: None)
    ]


def neutral_seat(game: State, number: int) -> int:
    """The seat of neutral number ``number`` (1-based), or -1."""
    seat = game.humans + number - 1
    return seat if number >= 1 and seat < len(game.players) and game.neutral[seat] else -1


def open_invasion(game: ActiveNeutralState) -> int | None:
    """The target of the invasion under way, if any."""
    return None if game._invasion is None else game._invasion[0]


def invasion_needs_call_off(game: ActiveNeutralState) -> bool:
    """An invasion is under way whose end rolls a neutral's status die."""
    inv = game._invasion
    return inv is not None and (inv[1] >= 0 or bool(inv[2]))


def _shift(game: ActiveNeutralState, seat: int, toward: bool) -> None:
    """Move a neutral's cannon one position toward (or away from) the current player."""
    me, other = game.current, game.opponent()
    if not toward:
        me, other = other, me
    if game.ally[seat] == other:
        game.ally[seat] = -1
    elif game.ally[seat] == -1:
        game.ally[seat] = me


def end_invasion(game: ActiveNeutralState) -> None:
    """One status roll per neutral involved, one at a time: the invaded one, then the allies used."""
    invasion, game._invasion = game._invasion, None
    if invasion is None:
        return
    _, invaded, allies_used = invasion
    seats = ([invaded] if invaded >= 0 else []) + [a for a in allies_used if a != invaded]
    for seat in seats:
        if game.alive[seat] and game.roll_die() <= 4:
            _shift(game, seat, toward=False)


# -- the variant's own actions ---------------------------------------------------------------------------
def _neutral_refusal(game: ActiveNeutralState, number: int) -> tuple[int, str]:
    seat = neutral_seat(game, number)
    if seat < 0 or not game.alive[seat]:
        return seat, f"there is no neutral-{number} in the game"
    return seat, ""


def refuse_bribe(game: ActiveNeutralState, action: Bribe, name: str) -> str:
    seat, why = _neutral_refusal(game, action.neutral)
    if why:
        return why
    neutral = game.players[seat]
    if game.phase != Phase.REINFORCE or game.placed_this_turn or game.traded_this_turn:
        return "bribes are given at the start of the turn, before reinforcements"
    if action.card not in game.hands[game.to_act]:
        return f"{name} does not hold the card {card_label(game, action.card)}"
    if len(game.hands[seat]) >= 5:
        return f"{neutral} already has 5 cards and can no longer be bribed"
    if game.bribed[seat] >= 2:
        return f"{neutral} has had two cards this turn"
    return ""


def apply_bribe(game: ActiveNeutralState, action: Bribe) -> None:
    seat = neutral_seat(game, action.neutral)
    game.hands[game.current].remove(action.card)
    game.hands[seat].append(action.card)
    game.bribed[seat] += 1
    _shift(game, seat, toward=True)


def refuse_reinforce_ally(game: ActiveNeutralState, action: ReinforceAlly, name: str) -> str:
    seat, why = _neutral_refusal(game, action.neutral)
    if why:
        return why
    neutral = game.players[seat]
    if game.phase != Phase.ATTACK or game.attacked_this_turn:
        return "allies are reinforced after your own reinforcements, before combat"
    if game.ally[seat] != game.to_act:
        return f"{neutral} is not allied with {name}"
    if game.ally_reinforced[seat]:
        return f"{neutral} has been reinforced this turn"
    return ""


def apply_reinforce_ally(game: ActiveNeutralState, action: ReinforceAlly) -> None:
    seat = neutral_seat(game, action.neutral)
    game.ally_reinforced[seat] = True
    game.pending = game.roll_die()  # "roll 1 die, and place that many units"
    game.placing_for = seat
    game.phase = Phase.ALLY_PLACE


def refuse_call_off(game: ActiveNeutralState, action: CallOff, name: str) -> str:
    return "" if game.phase == Phase.ATTACK and game._invasion is not None else "no invasion is under way"


def apply_call_off(game: ActiveNeutralState, action: CallOff) -> None:
    end_invasion(game)


def refuse_ally_place(game: ActiveNeutralState, action: Place, name: str) -> str:
    ally = game.players[game.placing_for]
    if not 1 <= action.armies <= game.pending:
        return f"{game.pending} armies to place for {ally}, not {action.armies}"
    if game.owner[action.territory] != game.placing_for:
        return f"{game.board.name_of(action.territory)} is not held by {ally}"
    return ""


def apply_ally_place(game: ActiveNeutralState, action: Place) -> None:
    game.add_armies(action.territory, game.placing_for, action.armies)
    game.pending -= action.armies
    if game.pending == 0:
        game.phase = Phase.ATTACK


def ally_places(game: ActiveNeutralState) -> Iterator[Action]:
    seat, owner = game.placing_for, game.owner
    for t in range(len(owner)):
        if owner[t] == seat:
            yield from (Place(t, n) for n in range(1, game.pending + 1))


class ActiveNeutrals(Variant[ActiveNeutralState]):
    name = "active-neutrals"
    actions: ClassVar[Mapping[type, ActionRule]] = {
        Bribe: ActionRule(refuse_bribe, apply_bribe),
        ReinforceAlly: ActionRule(refuse_reinforce_ally, apply_reinforce_ally),
        CallOff: ActionRule(refuse_call_off, apply_call_off),
    }
    absent_refusals: ClassVar[Mapping[type, str]] = dict.fromkeys(
        (Bribe, ReinforceAlly, CallOff),
        "only active neutrals (2-player RISK, neutral-mode=active) are bribed or allied",
    )
    phase_actions: ClassVar[Mapping[Phase, Any]] = {Phase.ALLY_PLACE: ally_places}
    place_rules: ClassVar[Mapping[Phase, ActionRule]] = {
        Phase.ALLY_PLACE: ActionRule(refuse_ally_place, apply_ally_place)
    }

    def setup(self, game: ActiveNeutralState) -> None:
        game._active = True

    def restore(self, game: ActiveNeutralState) -> None:
        game._active = True

    def start_turn(self, game: ActiveNeutralState) -> None:
        n = len(game.players)
        game.bribed, game.ally_reinforced, game.fortified = [0] * n, [False] * n, [False] * n
        game._invasion = None

    def commands(self, game: ActiveNeutralState, seat: int) -> bool:
        return seat >= 0 and game.ally[seat] == game.current

    # -- refusals ----------------------------------------------------------------------------------------
    def source_refusal(self, game: ActiveNeutralState, territory: int, seat: int, name: str) -> str:
        if game.commands(seat):
            return ""
        return f"{game.board.name_of(territory)} is not held by {name} or an ally"

    def attack_refusal(self, game: ActiveNeutralState, action: Attack, name: str) -> str:
        inv = game._invasion
        if inv is not None and inv[0] != action.target and invasion_needs_call_off(game):
            invaded = game.board.name_of(inv[0])
            return f"call off the invasion of {invaded} first ('calloff'): the neutrals' dice come first"
        return ""

    def move_refusal(self, game: ActiveNeutralState, action: Fortify, seat: int, name: str) -> str:
        return f"{game.players[seat]} has made its free move this turn" if game.fortified[seat] else ""

    # -- events --------------------------------------------------------------------------------------------
    def attack_declared(self, game: ActiveNeutralState, action: Attack) -> None:
        inv = game._invasion
        if inv is None or inv[0] != action.target:
            defender = game.owner[action.target]
            inv = (action.target, defender if game.neutral[defender] else -1, ())
        attacker = game.owner[action.source]
        if attacker != game.current and attacker not in inv[2]:
            inv = (inv[0], inv[1], (*inv[2], attacker))
        game._invasion = inv

    def conquered(self, game: ActiveNeutralState) -> None:
        end_invasion(game)  # the invasion ends with the conquest: the status dice follow

    def end_attack(self, game: ActiveNeutralState) -> None:
        end_invasion(game)

    def after_fortify(self, game: ActiveNeutralState, action: Fortify) -> bool:
        game.fortified[game.owner[action.source]] = True  # "one free move for each of your allies"
        return True

    def turn_dropped(self, game: ActiveNeutralState) -> None:
        game._invasion = None

    # -- legal actions -------------------------------------------------------------------------------------
    def start_actions(self, game: ActiveNeutralState) -> Iterator[Action]:
        if game.phase != Phase.REINFORCE or game.placed_this_turn or game.traded_this_turn:
            return
        player = game.to_act
        for seat in range(game.humans, len(game.players)):
            if game.alive[seat] and len(game.hands[seat]) < 5 and game.bribed[seat] < 2:
                yield from (Bribe(seat - game.humans + 1, c) for c in sorted(set(game.hands[player])))

    def attack_actions(self, game: ActiveNeutralState) -> Iterator[Action]:
        player = game.to_act
        owner, armies, adjacent, ally = game.owner, game.armies, game.board.neighbours, game.ally
        locked = game._invasion[0] if game._invasion is not None and invasion_needs_call_off(game) else None
        for s in range(len(owner)):
            seat = owner[s]
            if (seat == player or ally[seat] == player) and armies[s] >= 2:
                most = min(3, armies[s] - 1)
                for t in adjacent[s]:
                    if owner[t] == player or owner[t] == seat or (locked is not None and t != locked):
                        continue
                    for d in range(1, most + 1):
                        yield Attack(s, t, d)

    def attack_extras(self, game: ActiveNeutralState) -> Iterator[Action]:
        if game._invasion is not None:
            yield CALL_OFF
        if not game.attacked_this_turn:
            for seat in range(game.humans, len(game.players)):
                if game.alive[seat] and game.ally[seat] == game.to_act and not game.ally_reinforced[seat]:
                    yield ReinforceAlly(seat - game.humans + 1)

    def fortify_actions(self, game: ActiveNeutralState) -> Iterator[Action]:
        owner, armies = game.owner, game.armies
        for s in range(len(owner)):
            seat = owner[s]
            if not game.commands(seat) or game.fortified[seat] or armies[s] < 2:
                continue
            for t in game.fortify_targets(s):
                for n in range(1, min(armies[s] - 1, game.room(t)) + 1):
                    yield Fortify(s, t, n)
