"""Resigning (docs/rules.md, "Resigning"): a player leaves, at any time, even out of turn."""

from __future__ import annotations

from risk.rules.actions import Defend, Resign
from risk.rules.battle import resolve_battle
from risk.rules.hooks import ActionRule
from risk.rules.setup import next_setup_placer
from risk.rules.state import Phase, State


def refuse_resign(game: State, action: Resign, name: str) -> str:
    seat = game.to_act if action.player is None else action.player
    if not isinstance(seat, int) or not 0 <= seat < len(game.players):
        return f"there is no player {seat!r}: players are numbered 0 to {len(game.players) - 1}"
    if game.neutral[seat]:
        return f"{game.players[seat]} is neutral armies, not a player"
    if not game.alive[seat]:
        return f"{game.players[seat]} is already out of the game"
    return ""


def apply_resign(game: State, action: Resign) -> None:
    """The player is out; its armies stay where they are as neutral armies (they never move, and
    roll the most dice they may when attacked) and its cards stay with them, for whoever takes its
    last territory. Whatever it was doing is dropped, and the game goes on without it."""
    seat = game.to_act if action.player is None else action.player
    game.history.append(("action", seat, Resign(seat)))
    was_to_act, phase = game.to_act == seat, game.phase
    game.alive[seat] = False
    left = [p for p in range(game.humans) if game.alive[p]]
    if len(left) == 1:
        game.end_game(left[0])  # the last player in the game wins (2-player RISK: the opponent)
        return
    if any(resigned(game, seat, was_to_act) for resigned in game.hooks.resigned):
        return  # a variant's rule (Team RISK: the other team wins; Capital RISK: while choosing)
    if phase in (Phase.CLAIM, Phase.SETUP_PLACE):
        game.setup_armies[seat] = 0  # its armies not yet on the board stay off it
        if was_to_act:
            next_setup_placer(game, seat + 1)
    elif game.current == seat:
        # Its turn: the attack, move or roll under way is dropped, armies not placed are lost, and
        # no card is drawn. The next player in the game starts a turn.
        game._attack = game._occupy = None
        for dropped in game.hooks.turn_dropped:
            dropped(game)
        game.conquered_this_turn = False
        game.pending = 0
        game.pass_turn()
    elif was_to_act:
        assert game._attack is not None  # it was choosing its defence dice: the most are rolled
        resolve_battle(game, Defend(min(2, game.armies[game._attack[1]])))


RULES: dict[type, ActionRule] = {Resign: ActionRule(refuse_resign, apply_resign)}
