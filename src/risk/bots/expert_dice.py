"""The 1993 expert dice options for the heuristic bots, decided with exact odds.

After each roll of an attack the attacker may (1993 experts) re-roll any one die, its own or the
defender's, once per roll while holding the card of either territory ("attack advantage"), and once
a turn turn one of its own dice into a 6 ("commanders"). A change is worth making when it raises
the chance of taking the territory: each settled roll is valued by the exact probability
(:mod:`risk.odds`) of conquering from the armies left on both sides; a re-roll by the mean over the
six faces the die may show. The commander is spent only for a clear gain, since it is gone for the
rest of the turn.
"""

from __future__ import annotations

from risk.bots.battle_odds import win_probability
from risk.rules.actions import ACCEPT_DICE, Action, Commander, Reroll
from risk.rules.game import battle_losses
from risk.view import View

# The least gain in conquest probability that spends the once-a-turn commander.
COMMANDER_GAIN = 0.08
# A re-roll is free, but a gain this small is the dice's noise.
REROLL_GAIN = 1e-9
FACES = range(1, 7)


def roll_value(fighting: int, defenders: int, attack: tuple[int, ...], defence: tuple[int, ...]) -> float:
    """P(conquering) once this roll is settled: 1 if it takes the territory, else the exact odds of the
    invasion from the armies both sides have left."""
    attacker_losses, defender_losses = battle_losses(attack, defence)
    left = defenders - defender_losses
    if left <= 0:
        return 1.0
    return win_probability(fighting - attacker_losses, left)


def _with_die(dice: tuple[int, ...], index: int, face: int) -> tuple[int, ...]:
    changed = list(dice)
    changed[index] = face
    return tuple(sorted(changed, reverse=True))


def options(view: View, me: int) -> list[tuple[float, Action]]:
    """Every legal way to settle the pending roll with its value (P(conquering)), accepting first."""
    rolled = view.pending_roll
    assert rolled is not None
    source, target, attack, defence, _ = rolled
    attacker = view.owner[source] if view.units is None else me
    fighting = view.force(source, attacker) - 1
    defenders = view.armies[target]
    choices: list[tuple[float, Action]] = [(roll_value(fighting, defenders, attack, defence), ACCEPT_DICE)]
    for index in range(len(attack)):
        reroll = Reroll("attacker", index + 1)
        if view.is_legal(reroll):
            faces = [roll_value(fighting, defenders, _with_die(attack, index, f), defence) for f in FACES]
            choices.append((sum(faces) / 6 - REROLL_GAIN, reroll))
        commander = Commander(index + 1)
        if view.is_legal(commander):
            value = roll_value(fighting, defenders, _with_die(attack, index, 6), defence)
            choices.append((value - COMMANDER_GAIN, commander))
    for index in range(len(defence)):
        reroll = Reroll("defender", index + 1)
        if view.is_legal(reroll):
            faces = [roll_value(fighting, defenders, attack, _with_die(defence, index, f)) for f in FACES]
            choices.append((sum(faces) / 6 - REROLL_GAIN, reroll))
    return choices


def adjust(view: View, me: int) -> Action:
    """The best way to settle the pending roll: a re-roll or the commander where it pays, else accept.
    Ties keep the earlier choice (accepting comes first)."""
    best_value = -1.0
    best: Action = ACCEPT_DICE
    for value, action in options(view, me):
        if value > best_value:
            best_value, best = value, action
    return best


__all__ = ["COMMANDER_GAIN", "adjust", "options", "roll_value"]
