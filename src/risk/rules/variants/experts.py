"""The 1993 expert options: the army cap (``army-cap``), and changing the dice just rolled
(``attack-advantage``: re-roll one die; ``commanders``: turn one of your dice into a 6).

"Max 12 armies on a single territory. Excess armies are lost." "If you hold a RISK card showing the
territory you're attacking from OR attacking, you may re-roll any one die per battle involving that
territory ... Cannot be used when defending." "Once per turn while attacking, you may change one of
the dice you've just rolled to show 6." (The other expert options are values of shared options:
``fortify=extended`` and ``card-values=plus-one``.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, ClassVar

from mypy_extensions import trait

from risk.rules.actions import ACCEPT_DICE, AcceptDice, Action, Commander, Reroll
from risk.rules.hooks import ActionRule
from risk.rules.state import VALUE, Kept, Phase, State
from risk.rules.variants.base import Variant

Rolled = tuple[int, int, int, tuple[int, ...], tuple[int, ...], bool]


def _save_rolled(value: Rolled | None, state: Any) -> Any:
    return None if value is None else list(value)


def _load_rolled(value: Any, state: Any) -> Rolled | None:
    if value is None:
        return None
    source, target, dice, attack, defence, rerolled = value
    return source, target, dice, tuple(attack), tuple(defence), rerolled


@trait
class ExpertState(State):
    __slots__ = ()
    # A roll that the attacker may still change: source, target, attacker dice, the attacker's and
    # the defender's dice, whether a die was re-rolled.
    _rolled: Annotated[Rolled | None, Kept(save=_save_rolled, load=_load_rolled, absent=lambda seats: None)]
    commander_used: Annotated[bool, VALUE.when_absent(lambda seats: False)]  # once a turn


class ArmyCap(Variant[State]):
    name = "army-cap"

    def room(self, game: State, territory: int) -> int:
        return self.rules.army_cap - game.armies[territory]

    def capacity_refusal(self, game: State, territory: int, armies: int) -> str:
        if armies > game.room(territory):
            return f"{game.board.name_of(territory)} may hold at most {self.rules.army_cap} armies (army-cap)"
        return ""

    def reinforcements_changed(self, game: State) -> None:
        """'Excess armies are lost' once every own territory holds the cap."""
        p = game.current
        if (
            game.pending
            and not game.must_trade(p)
            and all(game.room(t) <= 0 for t in range(len(game.owner)) if game.may_reinforce(t, p))
        ):
            game.pending = 0
            game.phase = Phase.ATTACK


# -- changing the dice ------------------------------------------------------------------------------------
def _can_adjust(game: ExpertState, source: int, target: int, attack: tuple[int, ...], rerolled: bool) -> bool:
    rules = game.rules
    if rules.commanders == "on" and not game.commander_used and min(attack) < 6:
        return True
    if rules.attack_advantage == "on" and not rerolled:
        hand = game.hands[game.current]
        return source in hand or target in hand
    return False


def _rolled(game: ExpertState) -> Rolled | None:
    return game._rolled if game.phase == Phase.ADJUST_DICE else None


def refuse_accept(game: ExpertState, action: AcceptDice, name: str) -> str:
    return "" if _rolled(game) is not None else "there are no dice to change now"


def refuse_commander(game: ExpertState, action: Commander, name: str) -> str:
    rolled = _rolled(game)
    if rolled is None:
        return "there are no dice to change now"
    attack = rolled[3]
    if game.rules.commanders != "on":
        return "commanders are an expert option (commanders=on)"
    if game.commander_used:
        return "the commander acts once a turn"
    if not 1 <= action.die <= len(attack):
        return f"the attacker rolled {len(attack)} dice, so die 1 to {len(attack)}"
    if attack[action.die - 1] == 6:
        return f"die {action.die} already shows 6"
    return ""


def refuse_reroll(game: ExpertState, action: Reroll, name: str) -> str:
    rolled = _rolled(game)
    if rolled is None:
        return "there are no dice to change now"
    source, target, _, attack, defence, rerolled = rolled
    if game.rules.attack_advantage != "on":
        return "re-rolls are an expert option (attack-advantage=on)"
    if rerolled:
        return "one re-roll per battle"
    hand = game.hands[game.to_act]
    if source not in hand and target not in hand:
        board = game.board
        return f"{name} holds the card of neither {board.name_of(source)} nor {board.name_of(target)}"
    dice = attack if action.side == "attacker" else defence
    if action.side not in ("attacker", "defender") or not 1 <= action.die <= len(dice):
        return f"the {action.side} rolled {len(dice)} dice, so die 1 to {len(dice)}"
    return ""


def adjust(game: ExpertState, action: Reroll | Commander | AcceptDice) -> None:
    assert game._rolled is not None
    source, target, attacker_dice, attack, defence, rerolled = game._rolled
    if isinstance(action, Reroll):
        side = list(attack if action.side == "attacker" else defence)
        side[action.die - 1] = game.roll_die()
        side.sort(reverse=True)
        if action.side == "attacker":
            attack = tuple(side)
        else:
            defence = tuple(side)
        rerolled = True
    elif isinstance(action, Commander):
        dice = list(attack)
        dice[action.die - 1] = 6
        attack = tuple(sorted(dice, reverse=True))
        game.commander_used = True
    if not isinstance(action, AcceptDice) and _can_adjust(game, source, target, attack, rerolled):
        game._rolled = (source, target, attacker_dice, attack, defence, rerolled)
        return
    game._rolled = None
    game.settle_roll(source, target, attacker_dice, attack, defence)


def dice_changes(game: ExpertState) -> Iterator[Action]:
    assert game._rolled is not None
    source, target, _, attack, defence, rerolled = game._rolled
    rules = game.rules
    if rules.commanders == "on" and not game.commander_used:
        yield from (Commander(i + 1) for i, d in enumerate(attack) if d < 6)
    if rules.attack_advantage == "on" and not rerolled:
        hand = game.hands[game.to_act]
        if source in hand or target in hand:
            yield from (Reroll("attacker", i + 1) for i in range(len(attack)))
            yield from (Reroll("defender", i + 1) for i in range(len(defence)))
    yield ACCEPT_DICE


class DiceOptions(Variant[ExpertState]):
    name = "dice-options"
    actions: ClassVar[Mapping[type, ActionRule]] = {
        Reroll: ActionRule(refuse_reroll, adjust),
        Commander: ActionRule(refuse_commander, adjust),
        AcceptDice: ActionRule(refuse_accept, adjust),
    }
    absent_refusals: ClassVar[Mapping[type, str]] = dict.fromkeys(
        (Reroll, Commander, AcceptDice), "there are no dice to change now"
    )
    phase_actions: ClassVar[Mapping[Phase, Any]] = {Phase.ADJUST_DICE: dice_changes}

    def start_turn(self, game: ExpertState) -> None:
        game.commander_used = False

    def rolled(
        self,
        game: ExpertState,
        source: int,
        target: int,
        dice: int,
        attack: tuple[int, ...],
        defence: tuple[int, ...],
    ) -> bool:
        if not _can_adjust(game, source, target, attack, rerolled=False):
            return False
        game._rolled = (source, target, dice, attack, defence, False)
        game.phase = Phase.ADJUST_DICE
        return True

    def turn_dropped(self, game: ExpertState) -> None:
        game._rolled = None
