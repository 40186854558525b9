"""A battle's roll as an explicit chance event, for search: its outcomes with their exact probabilities,
and which action rolls one.

Only an ``attack`` on a territory that cannot choose its dice (one army) and a ``defend`` roll the
battle's dice at once (``Game.apply_with_dice`` takes the dice of either). A roll's outcomes come in
two grains:

- ``"losses"``: one outcome per result of the roll, (attacker's losses, defender's losses): at most
  three. The dice shown for it are the likeliest throw with that result (the first in
  :data:`ROLL_ORDER` among equals): the rules look at a roll's losses only, unless the game's dice
  can still change after the roll (the 1993 expert options: re-roll a die, the commander's 6).
- ``"dice"``: one outcome per throw, both sides' dice sorted high to low (56 x 21 = 1,176 for three
  dice against two): for the games whose dice can change after the roll, and for whoever wants them.

Both are exact: each probability is the number of the 6 ** (a + d) equally likely throws that give
the outcome over 6 ** (a + d), the same numbers as :func:`risk.odds.roll_outcomes`.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Final, NamedTuple

from risk.errors import RulesError
from risk.rules.actions import Action, Attack, Defend
from risk.rules.game import Game, Phase
from risk.rules.state import LOSSES, ROLLS

GRAINS: Final = ("losses", "dice")

# Every sorted throw of 1 to 3 dice (the attacker's) and of 1 or 2 (the defender's): an outcome's
# place in these lists is its number in a fixed chance space (risk.env.spiel's chance actions).
ROLL_ORDER: Final[tuple[tuple[int, ...], ...]] = tuple(
    roll for dice in (1, 2, 3) for roll in sorted(set(ROLLS[dice]), reverse=True)
)
DEFENCE_ORDER: Final[tuple[tuple[int, ...], ...]] = tuple(
    roll for dice in (1, 2) for roll in sorted(set(ROLLS[dice]), reverse=True)
)
_ROLL_NUMBER: Final = {roll: number for number, roll in enumerate(ROLL_ORDER)}
_DEFENCE_NUMBER: Final = {roll: number for number, roll in enumerate(DEFENCE_ORDER)}
# Losses (attacker, defender) as one number: a roll loses at most two armies in all.
LOSS_OUTCOMES: Final = ((0, 1), (1, 0), (0, 2), (1, 1), (2, 0))
_LOSS_NUMBER: Final = {losses: number for number, losses in enumerate(LOSS_OUTCOMES)}
_DEFEND: Final = Phase.DEFEND


class BattleOutcome(NamedTuple):
    """One outcome of a roll: the dice shown (sorted high to low), the losses and the exact probability."""

    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    probability: Fraction

    def number(self, grain: str) -> int:
        """This outcome's number in the fixed chance space of ``grain``: a losses outcome's place in
        :data:`LOSS_OUTCOMES`; a throw's ``attacker's place in ROLL_ORDER * len(DEFENCE_ORDER) +
        defender's place in DEFENCE_ORDER``."""
        if grain == "losses":
            return _LOSS_NUMBER[self.attacker_losses, self.defender_losses]
        return _ROLL_NUMBER[self.attacker_dice] * len(DEFENCE_ORDER) + _DEFENCE_NUMBER[self.defender_dice]


def chance_space(grain: str) -> int:
    """How many numbers the outcomes of ``grain`` take (OpenSpiel's ``max_chance_outcomes``)."""
    check_grain(grain)
    return len(LOSS_OUTCOMES) if grain == "losses" else len(ROLL_ORDER) * len(DEFENCE_ORDER)


def check_grain(grain: str) -> None:
    if grain not in GRAINS:
        raise RulesError(f"a roll's outcomes are by {' or '.join(repr(g) for g in GRAINS)}, not {grain!r}")


def dice_matter(game: Game) -> bool:
    """Whether the game's dice can still change after a roll (the 1993 expert options), so that a
    roll's outcome is its dice, not only its losses."""
    return bool(game.hooks.rolled)


def grain_for(game: Game, grain: str | None) -> str:
    """The grain of ``game``'s rolls: ``grain`` (``None``: ``"dice"`` where the dice matter, else
    ``"losses"``); ``"losses"`` is refused where the dice matter."""
    if grain is None:
        return "dice" if dice_matter(game) else "losses"
    check_grain(grain)
    if grain == "losses" and dice_matter(game):
        raise RulesError(
            "this game's dice can change after the roll (the 1993 expert options): its outcomes are "
            "by 'dice', not 'losses'"
        )
    return grain


@cache
def battle_outcomes(
    attacker_dice: int, defender_dice: int, grain: str = "losses"
) -> tuple[BattleOutcome, ...]:
    """Every outcome of one roll of ``attacker_dice`` (1-3) against ``defender_dice`` (1-2), by
    ``grain``, with its exact probability (they sum to 1), in the order of their numbers."""
    check_grain(grain)
    if not (1 <= attacker_dice <= 3 and 1 <= defender_dice <= 2):
        raise RulesError(f"a roll is 1 to 3 dice against 1 or 2, not {attacker_dice} against {defender_dice}")
    throws = Counter((attack, defence) for attack in ROLLS[attacker_dice] for defence in ROLLS[defender_dice])
    total = 6 ** (attacker_dice + defender_dice)
    if grain == "dice":
        outcomes = [
            BattleOutcome(attack, defence, *LOSSES[attack, defence], Fraction(count, total))
            for (attack, defence), count in throws.items()
        ]
    else:
        counts: Counter[tuple[int, int]] = Counter()
        shown: dict[tuple[int, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}
        likeliest: dict[tuple[int, int], int] = {}
        # The throws in the fixed order: the first of the likeliest stands for its losses.
        for (attack, defence), count in sorted(
            throws.items(), key=lambda item: (_ROLL_NUMBER[item[0][0]], _DEFENCE_NUMBER[item[0][1]])
        ):
            losses = LOSSES[attack, defence]
            counts[losses] += count
            if count > likeliest.get(losses, 0):
                likeliest[losses], shown[losses] = count, (attack, defence)
        outcomes = [
            BattleOutcome(*shown[losses], *losses, Fraction(count, total)) for losses, count in counts.items()
        ]
    return tuple(sorted(outcomes, key=lambda outcome: outcome.number(grain)))


def roll_of(game: Game, action: Action) -> tuple[tuple[int, int] | None, Game | None]:
    """The roll that applying ``action`` (legal now) makes at once, and what was learnt finding it:
    ``(dice, applied)``. ``dice``: the roll's (attacker's, defender's) number of dice, ``None`` when
    it rolls none. An attack is tried on a copy of the game (whether it rolls at once is the rules'
    and the variants' business); ``applied`` is that copy when the attack rolled none (the position
    after it, to keep rather than apply the attack again), else ``None``."""
    kind = type(action)
    if kind is Defend:
        pending = game.pending_attack
        if game.phase is _DEFEND and pending is not None:
            assert isinstance(action, Defend)
            return (pending[2], action.dice), None
        return None, None
    if kind is not Attack:
        return None, None
    trial = game.copy()
    before = len(trial.history)
    trial.apply_unchecked(action)
    for entry_kind, what, value in trial.history[before:]:
        if entry_kind == "chance" and what == "dice":
            attack, defence = value
            return (len(attack), len(defence)), None
    return None, trial
