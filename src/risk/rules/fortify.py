"""The end of the turn: the free move (fortify) and ending the turn. Each action's refusal (the
reason, or ``""``) and effect, and the legal actions of the fortify phase."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from risk.rules.actions import END_TURN, Action, EndTurn, Fortify
from risk.rules.battle import territory_refusal
from risk.rules.hooks import ActionRule
from risk.rules.state import Phase, State

# Final: a C variable in the compiled build, not a look-up on the Enum class (docs/compiled.md).
_FORTIFY: Final = Phase.FORTIFY
_TURN_END: Final = Phase.TURN_END
_ATTACK: Final = Phase.ATTACK


def refuse_fortify(game: State, action: Fortify, name: str) -> str:
    phase = game.phase
    if phase != _FORTIFY:
        if phase == _ATTACK:
            return "fortifying is only after attacking"
        return "fortifying is only at the end of the turn, after attacking"
    owner, board, hooks = game.owner, game.board, game.hooks
    s, t = action.source, action.target
    valid = type(s) is int and type(t) is int and 0 <= s < len(owner) and 0 <= t < len(owner)
    if not valid and (bad := territory_refusal(game, s, t)):
        return bad
    if hooks.fortify_refusal is not None:
        return hooks.fortify_refusal(game, action, name)
    seat = owner[s]
    if seat != game.current:
        if hooks.source_refusal is None:
            return f"{board.name_of(s)} is not held by {name}"
        if why := hooks.source_refusal(game, s, seat, name):
            return why
    if owner[t] != seat:
        return f"{board.name_of(t)} is not held by {game.players[seat]}"
    for check in hooks.move_refusal:
        if why := check(game, action, seat, name):
            return why
    if s == t:
        return "the armies must move to another territory"
    armies = game.armies
    if not 1 <= action.armies <= armies[s] - 1:
        return f"{board.name_of(s)} can move 1 to {armies[s] - 1} armies (one stays behind)"
    for capacity in hooks.capacity_refusal:
        if why := capacity(game, t, action.armies):
            return why
    if not game.connected(s, t):
        if game.rules.fortify == "adjacent":
            return f"{board.name_of(t)} is not adjacent to {board.name_of(s)} (fortify=adjacent)"
        return f"{board.name_of(t)} is not connected to {board.name_of(s)} through territories held by {name}"
    return ""


def apply_fortify(game: State, action: Fortify) -> None:
    mover = game.mover(action.source)
    game.add_armies(action.source, mover, -action.armies)
    game.add_armies(action.target, mover, action.armies)
    goes_on = False
    for hook in game.hooks.after_fortify:
        goes_on = hook(game, action) or goes_on
    if not goes_on and game.rules.fortify != "extended":  # 1993 experts: "one or more territories"
        end_turn(game)


def refuse_end_turn(game: State, action: EndTurn, name: str) -> str:
    phase = game.phase
    if phase in (_FORTIFY, _TURN_END):
        return ""
    if phase == _ATTACK:
        return "the turn ends after attacking: 'endattack' first"
    return "the turn cannot end in this phase"


def apply_end_turn(game: State, action: EndTurn) -> None:
    if game.phase == _TURN_END:
        game.pass_turn()
    else:
        end_turn(game)


def end_turn(game: State) -> None:
    """The turn ends: the card for a conquest is drawn, then the next player's turn begins."""
    if game.conquered_this_turn:
        game.draw_card(game.current)
        game.conquered_this_turn = False
    for hook in game.hooks.end_turn:
        if hook(game):
            return
    game.pass_turn()


RULES: dict[type, ActionRule] = {
    Fortify: ActionRule(refuse_fortify, apply_fortify),
    EndTurn: ActionRule(refuse_end_turn, apply_end_turn),
}


# -- legal actions ------------------------------------------------------------------------------------
def fortify_phase_actions(game: State) -> Iterator[Action]:
    if game.hooks.fortify_actions is not None:
        yield from game.hooks.fortify_actions(game)
    else:
        yield from fortifications(game)
    yield END_TURN


def fortifications(game: State) -> Iterator[Fortify]:
    player = game.to_act
    owner, armies = game.owner, game.armies
    capped = game.hooks.room is not None
    for s in range(len(owner)):
        if owner[s] == player and armies[s] >= 2:
            for t in game.fortify_targets(s):
                most = min(armies[s] - 1, game.room(t)) if capped else armies[s] - 1
                for n in range(1, most + 1):
                    yield Fortify(s, t, n)


def count_fortify_actions(game: State) -> int:
    hooks = game.hooks
    if hooks.room is not None or hooks.fortify_actions is not None:
        return sum(1 for _ in fortify_phase_actions(game))
    player, owner, armies = game.to_act, game.owner, game.armies
    return 1 + sum(
        len(game.fortify_targets(s)) * (armies[s] - 1)
        for s in range(len(owner))
        if owner[s] == player and armies[s] >= 2
    )
