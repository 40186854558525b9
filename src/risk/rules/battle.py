"""Battles: attack, defend, occupy and stop attacking. Each action's refusal (the reason, or ``""``),
its effect, and the legal actions of the attack, defence and occupation phases.

The common, legal case is checked first with plain comparisons; names are looked up only to say
why an action is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from risk.rules.actions import END_ATTACK, Action, Attack, Defend, EndAttack, Occupy
from risk.rules.hooks import ActionRule
from risk.rules.state import LOSSES, Battle, Phase, State, battle_losses

# Final: a C variable in the compiled build, not a look-up on the Enum class (docs/compiled.md).
_ATTACK: Final = Phase.ATTACK
_DEFEND: Final = Phase.DEFEND
_OCCUPY: Final = Phase.OCCUPY
_GAME_OVER: Final = Phase.GAME_OVER
_ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
_FORTIFY: Final = Phase.FORTIFY


def territory_refusal(game: State, *territories: object) -> str:
    for t in territories:
        if not isinstance(t, int) or not 0 <= t < len(game.board):
            return f"{t!r} is not a territory of the {game.board.name} board"
    return ""


# -- attack -------------------------------------------------------------------------------------------
def refuse_attack(game: State, action: Attack, name: str) -> str:
    if game.phase != _ATTACK:
        return "attacks are only made in the attack phase"
    owner, board, hooks = game.owner, game.board, game.hooks
    s, t = action.source, action.target
    valid = type(s) is int and type(t) is int and 0 <= s < len(owner) and 0 <= t < len(owner)
    if not valid and (bad := territory_refusal(game, s, t)):
        return bad
    attacker, defender = owner[s], owner[t]
    if attacker != game.current:
        if hooks.source_refusal is None:
            return f"{board.name_of(s)} is not held by {name}"
        if why := hooks.source_refusal(game, s, attacker, name):
            return why
    if hooks.target_refusal is not None:
        if why := hooks.target_refusal(game, s, t, name):
            return why
    elif defender == game.to_act or defender == attacker:
        return f"{board.name_of(t)} is held by {game.players[defender]}: attack an enemy territory"
    if hooks.attack_refusal:
        for check in hooks.attack_refusal:
            if why := check(game, action, name):
                return why
    if t not in board.adjacent[s]:
        return f"{board.name_of(t)} is not adjacent to {board.name_of(s)}"
    if hooks.attack_armies_refusal is not None:
        return hooks.attack_armies_refusal(game, s, attacker, action.dice, name)
    force = game.armies[s]
    if force < 2:
        noun = "army" if force == 1 else "armies"
        return f"{board.name_of(s)} has only {force} {noun}: it takes at least 2 to attack"
    most = 3 if force > 3 else force - 1
    if not 1 <= action.dice <= most:
        return f"{board.name_of(s)} has {force} armies, so it may roll 1 to {most} dice"
    return ""


def apply_attack(game: State, action: Attack) -> None:
    target = action.target
    game._attack = (action.source, target, action.dice)
    game.attacked_this_turn = True
    hooks = game.hooks
    if hooks.attack_declared:
        for hook in hooks.attack_declared:
            hook(game, action)
    if game.armies[target] >= 2:
        defender = game.owner[target] if hooks.defending_seat is None else hooks.defending_seat(game, target)
        if not game.alive[defender]:
            resolve_battle(game, DEFEND_TWO)  # a player who resigned: its armies roll the most dice they may
            return
        game.phase = _DEFEND  # the defender chooses 1 or 2 dice
        # 2-player RISK: "Your opponent rolls defense for neutral territories."
        game.to_act = game.opponent() if game.neutral[defender] else defender
    else:
        resolve_battle(game, DEFEND_ONE)


# -- defend -------------------------------------------------------------------------------------------
def refuse_defend(game: State, action: Defend, name: str) -> str:
    if game.phase != _DEFEND:
        return "there is no attack to defend against"
    assert game._attack is not None
    target = game._attack[1]
    armies = game.armies[target]
    most = min(2, armies)
    if not 1 <= action.dice <= most:
        return f"{game.board.name_of(target)} has {armies} armies, so it may roll 1 to {most} dice"
    return ""


DEFEND_ONE, DEFEND_TWO = Defend(1), Defend(2)


def resolve_battle(game: State, action: Defend) -> None:
    """Roll the battle under way: the attacker's dice against the defender's ``action.dice``."""
    assert game._attack is not None
    source, target, attacker_dice = game._attack
    game._attack = None
    game.to_act = game.current
    attack, defence = game._roll(attacker_dice, action.dice)
    hooks = game.hooks
    if hooks.rolled:
        for hook in hooks.rolled:
            if hook(game, source, target, attacker_dice, attack, defence):
                return  # the attacker may still change the dice
    if hooks.settle_battle is None:
        settle_battle(game, source, target, attacker_dice, attack, defence)
    else:
        hooks.settle_battle(game, source, target, attacker_dice, attack, defence)


def settle_battle(
    game: State,
    source: int,
    target: int,
    attacker_dice: int,
    attack: tuple[int, ...],
    defence: tuple[int, ...],
) -> None:
    """One stack per territory: apply the losses; on a conquest the territory changes hands and the
    defender may be eliminated."""
    losses = LOSSES.get((attack, defence))
    attacker_losses, defender_losses = battle_losses(attack, defence) if losses is None else losses
    armies, owner = game.armies, game.owner
    attacker, defender = owner[source], owner[target]  # the attacker: the current player, or an ally
    armies[source] -= attacker_losses
    armies[target] -= defender_losses
    conquered = armies[target] == 0
    # tuple.__new__, not Battle(...): a NamedTuple's own __new__ is Python code, which the compiled
    # build would run for every roll (about 2,500 instructions; the same tuple either way).
    game.last_battle = tuple.__new__(
        Battle, (source, target, attack, defence, attacker_losses, defender_losses, conquered)
    )
    if not conquered:
        game.phase = _ATTACK
        return
    player = game.current
    if attacker == player:
        # 2003: "You get no card for using an ally to conquer a territory."
        game.conquered_this_turn = True
    game.conquests_this_turn += 1
    # A conquering roll never costs the attacker an army, so "at least as many armies as dice
    # rolled" (1993) and "the units used to win the battle" (2003, 2008) are the same minimum.
    minimum = attacker_dice
    # The armies that fought move in at once (2003: "Take the units used to win the battle and
    # move them"), so no territory is ever empty; the OCCUPY choice adds more from the source.
    game.take_territory(target, attacker, minimum)
    game.add_armies(source, attacker, -minimum)
    eliminated = game.territory_count[defender] == 0
    if eliminated:
        game.alive[defender] = False
        game.hands[player].extend(game.hands[defender])
        game.hands[defender] = []
    game._occupy = (source, target, minimum, eliminated)
    game.phase = _OCCUPY
    if eliminated and sum(game.alive[: game.humans]) == 1:
        # The last opponent is gone (2-player RISK: "You do NOT need to eliminate neutral armies").
        occupy(game, minimum)
        game.end_game(player)
        return
    if armies[source] == 1:
        occupy(game, minimum)  # nothing more can move: no question to ask


# -- occupy -------------------------------------------------------------------------------------------
def refuse_occupy(game: State, action: Occupy, name: str) -> str:
    if game.phase != _OCCUPY:
        return "there is no conquered territory to move into"
    low, high = game.occupy_range()
    if not low <= action.armies <= high:
        return f"move in {low} to {high} armies, not {action.armies}"
    return ""


def apply_occupy(game: State, action: Occupy) -> None:
    occupy(game, action.armies)


def occupy(game: State, count: int) -> None:
    assert game._occupy is not None
    source, target, minimum, eliminated = game._occupy
    game._occupy = None
    hooks = game.hooks
    mover = game.owner[target] if hooks.mover is None else hooks.mover(game, target)
    if count > minimum:
        game.add_armies(source, mover, minimum - count)
        game.add_armies(target, mover, count - minimum)
    if game.phase == _GAME_OVER:
        return
    if hooks.conquered:
        for hook in hooks.conquered:
            hook(game)
    if eliminated and len(game.hands[game.current]) >= game.rules.elimination_trade_at:
        game.phase = _ELIMINATION_TRADE
        game.pending = 0
    else:
        game.phase = _ATTACK


# -- stop attacking ------------------------------------------------------------------------------------
def refuse_end_attack(game: State, action: EndAttack, name: str) -> str:
    return "" if game.phase == _ATTACK else "the attack phase is not under way"


def apply_end_attack(game: State, action: EndAttack) -> None:
    for hook in game.hooks.end_attack:
        hook(game)
    if game.rules.card_draw == "before-fortify" and game.conquered_this_turn:
        game.draw_card(game.current)
        game.conquered_this_turn = False  # the card for this turn has been drawn
    game.phase = _FORTIFY


RULES: dict[type, ActionRule] = {
    Attack: ActionRule(refuse_attack, apply_attack),
    Defend: ActionRule(refuse_defend, resolve_battle),
    Occupy: ActionRule(refuse_occupy, apply_occupy),
    EndAttack: ActionRule(refuse_end_attack, apply_end_attack),
}


# -- legal actions ------------------------------------------------------------------------------------
def attack_phase_actions(game: State) -> Iterator[Action]:
    hooks = game.hooks
    if hooks.attack_actions is not None:
        yield from hooks.attack_actions(game)
    else:
        yield from attacks(game)
    for extras in hooks.attack_extras:
        yield from extras(game)
    for closing in hooks.closing_actions:
        yield from closing(game)
    yield END_ATTACK


def attacks(game: State) -> Iterator[Attack]:
    """Every attack of the player to act: from each of its territories with 2 or more armies."""
    player = game.to_act
    owner, armies, adjacent = game.owner, game.armies, game.board.neighbours
    for s in range(len(owner)):
        if owner[s] == player and armies[s] >= 2:
            most = min(3, armies[s] - 1)
            for t in adjacent[s]:
                if owner[t] != player:
                    for d in range(1, most + 1):
                        yield Attack(s, t, d)


def defences(game: State) -> Iterator[Action]:
    assert game._attack is not None
    for d in range(1, min(2, game.armies[game._attack[1]]) + 1):
        yield Defend(d)


def occupations(game: State) -> Iterator[Action]:
    low, high = game.occupy_range()
    return (Occupy(n) for n in range(low, high + 1))
