"""Blitz: a whole invasion settled by the server in one request, every roll stored and in the log.

The attacker asks once: attack FROM TO with the most dice, again and again, until the territory falls,
the attacking territory is down to N armies (``floor``; 1 is a blitz to the end), or the attack stops
being legal. The rolls are applied to a copy of the game; the caller stores them all in one
transaction and only then shows them, so a crash keeps all of them or none.

Nobody's choice is made for them without their consent:

- a defender played by the server (a bot, or a bot standing in for an away human) chooses its dice as
  it would have one roll at a time (seeded by the state id, so the rolls are the same);
- a human defender chooses their dice themselves: the blitz stores the attack that asks them and
  waits (:class:`BlitzPlan` is kept by the master); their answer, or the defend time limit's default
  that the game's settings announce to everyone, rolls, and the blitz goes on from there;
- a roll that the attacker may still change (1993 experts: commanders, attack advantage) stops the
  blitz: that choice is the attacker's;
- the move into a conquered territory is always left to the attacker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from risk.rules.actions import Attack
from risk.rules.game import Game, Phase
from risk.server.steps import apply_narrated

# (game, defender seat, state id at which it decides) -> its "defend N", or None: a human decides.
Defence = Callable[[Game, int, int], str | None]


@dataclass(frozen=True)
class BlitzPlan:
    seat: int  # the attacker
    source: int
    target: int
    floor: int  # stop once the source holds this many armies or fewer

    def describe(self, game: Game) -> dict[str, Any]:
        slug = game.board.slug_of
        return {"from": slug(self.source), "to": slug(self.target), "until": self.floor}


@dataclass
class BlitzRun:
    """What a blitz did: the game it reached, the actions to store (seat, text) in order, their log
    lines, the rolls, and why it stopped."""

    game: Game  # the game after the run
    steps: list[tuple[int, str]] = field(default_factory=list)
    lines: list[dict[str, Any]] = field(default_factory=list)
    rolls: int = 0
    stopped: str = ""  # conquered, floor, cannot, defender, adjust, over
    message: str = ""
    waiting: BlitzPlan | None = None  # set when a human defender is to choose: the blitz goes on after

    def to_dict(self) -> dict[str, Any]:
        return {
            "rolls": self.rolls,
            "actions": len(self.steps),
            "stopped": self.stopped,
            "message": self.message,
        }


def _phase_now(game: Game) -> Phase:
    """The game's phase after a move (read through a call: the type checker would hold it to what it
    was checked to be before the move)."""
    return game.phase


def strength(game: Game, source: int) -> int:
    """The armies that attack from ``source``: all of them, or in Team RISK the current player's."""
    return game.armies[source] if game.units is None else game.force(source, game.current)


def most_dice(game: Game, source: int, target: int) -> int:
    """The most dice the rules allow for this attack now; 0 if it is not legal at all."""
    for dice in (3, 2, 1):
        if game.is_legal(Attack(source, target, dice)):
            return dice
    return 0


def run_blitz(
    game: Game, plan: BlitzPlan, state_id: int, defence: Defence, settled: bool = False
) -> BlitzRun:
    """Attack on ``game`` (changed in place) as ``plan`` says, from state ``state_id``. ``settled``: a
    roll of this blitz was settled just before (a human's defence), so a conquest by it ends the blitz."""
    run = BlitzRun(game=game)
    name = game.board.name_of
    source, target = name(plan.source), name(plan.target)

    def stop(why: str, message: str) -> BlitzRun:
        run.stopped, run.message = why, message
        return run

    while True:
        if settled and game.last_battle is not None and game.last_battle.conquered:
            return stop("conquered", f"{target} is conquered.")
        if game.is_over:
            return stop("over", "The game is over.")
        if game.phase == Phase.ADJUST_DICE:
            return stop("adjust", "The dice may still be changed: your choice.")
        if game.phase != Phase.ATTACK or game.to_act != plan.seat:
            return stop("cannot", f"The attack on {target} can go no further.")
        left = strength(game, plan.source)
        if left <= plan.floor:
            return stop("floor", f"Stopped with {left} {'army' if left == 1 else 'armies'} left in {source}.")
        dice = most_dice(game, plan.source, plan.target)
        if dice == 0:
            return stop("cannot", f"The attack on {target} from {source} can go no further.")
        text = game.action_text(Attack(plan.source, plan.target, dice))
        apply_narrated(game, run.lines, text)
        run.steps.append((plan.seat, text))
        if _phase_now(game) == Phase.DEFEND:
            defender = game.to_act
            choice = defence(game, defender, state_id + len(run.steps))
            if choice is None:
                run.waiting = plan
                who = game.players[defender]
                return stop("defender", f"{who} chooses the defence dice; the blitz goes on after.")
            apply_narrated(game, run.lines, choice)
            run.steps.append((defender, choice))
        run.rolls += 1
        settled = True
