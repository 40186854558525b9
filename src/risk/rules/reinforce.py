"""Reinforcements: trading card sets and placing armies (the setup's, the turn's, an ally's). Each
action's refusal (the reason, or ``""``) and effect, and the legal actions of the reinforcement phases."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from risk.rules.actions import Action, Place, Trade
from risk.rules.battle import territory_refusal
from risk.rules.hooks import ActionRule
from risk.rules.setup import next_setup_placer
from risk.rules.state import Phase, State, card_label, is_set

# Final: a C variable in the compiled build, not a look-up on the Enum class (docs/compiled.md).
_SETUP_PLACE: Final = Phase.SETUP_PLACE
_REINFORCE: Final = Phase.REINFORCE
_ELIMINATION_TRADE: Final = Phase.ELIMINATION_TRADE
_ATTACK: Final = Phase.ATTACK


# -- place ---------------------------------------------------------------------------------------------
def refuse_place(game: State, action: Place, name: str) -> str:
    where = action.territory
    owner, board = game.owner, game.board
    if not (type(where) is int and 0 <= where < len(owner)) and (bad := territory_refusal(game, where)):
        return bad
    phase = game.phase
    if phase == _SETUP_PLACE:
        if action.armies != 1:
            return "setup armies are placed one at a time"
        if owner[where] != game.placing_for:
            seat = game.players[game.placing_for]
            return f"{board.name_of(where)} is not held by {seat}, whose army is being placed"
        return ""
    if phase not in (_REINFORCE, _ELIMINATION_TRADE):
        rule = game.hooks.place_rules.get(phase)
        return "there are no armies to place now" if rule is None else rule.refuse(game, action, name)
    player = game.to_act
    if game.must_trade(player):
        return f"{name} holds {len(game.hands[player])} cards and must trade a set first"
    if not 1 <= action.armies <= game.pending:
        return f"{name} has {game.pending} armies to place, not {action.armies}"
    if game.hooks.capacity_refusal:
        for check in game.hooks.capacity_refusal:
            if why := check(game, where, action.armies):
                return why
    if owner[where] == player:
        return ""
    if game.hooks.placement_refusal is not None:
        return game.hooks.placement_refusal(game, where, player, name)
    return f"{board.name_of(where)} is not held by {name}"


def apply_place(game: State, action: Place) -> None:
    phase = game.phase
    if phase == _SETUP_PLACE:
        game.add_armies(action.territory, game.placing_for, action.armies)
        game.setup_armies[game.placing_for] -= 1
        next_setup_placer(game, game.current + 1)
    elif phase in (_REINFORCE, _ELIMINATION_TRADE):
        game.add_armies(action.territory, game.current, action.armies)
        game.placed_this_turn = True
        game.pending -= action.armies
        if game.pending == 0:
            game.phase = _ATTACK
        else:
            for hook in game.hooks.reinforcements_changed:
                hook(game)
    else:
        game.hooks.place_rules[phase].apply(game, action)


# -- trade ---------------------------------------------------------------------------------------------
def refuse_trade(game: State, action: Trade, name: str) -> str:
    phase = game.phase
    player = game.to_act
    if phase == _REINFORCE:
        if game.placed_this_turn:
            return "sets are traded at the start of the turn, before placing armies"
    elif phase == _ELIMINATION_TRADE:
        if len(game.hands[player]) <= 4:
            return f"{name} holds 4 or fewer cards: no more trades until the next turn"
    else:
        return "sets are traded at the start of the turn"
    cards = action.cards
    if not isinstance(cards, tuple) or len(cards) != 3:
        return "a trade is exactly three cards"
    hand = game.hands[player]
    if len(set(cards)) != 3:
        return "a trade is three different cards"
    for c in cards:
        if not isinstance(c, int) or c not in hand:
            return f"{name} does not hold the card {card_label(game, c)}"
    if not is_set([game.board.card_symbols[c] for c in cards]):
        return "those cards are not a set (three alike, one of each, or two and a wild)"
    return ""


def apply_trade(game: State, action: Trade) -> None:
    player = game.current
    hand = game.hands[player]
    value = game.set_value(action.cards)
    for c in action.cards:
        hand.remove(c)
    game.discard.extend(action.cards)
    game.sets_traded += 1
    game.traded_this_turn = True
    game.pending += value
    bonus_rule = game.rules.territory_card_bonus
    if bonus_rule != "none" and not (bonus_rule == "once-per-turn" and game.territory_bonus_used):
        for c in action.cards:
            if c < len(game.board) and game.owner[c] == player:
                game.add_armies(c, player, min(2, max(0, game.room(c))))
                game.territory_bonus_used = True
                break
    for hook in game.hooks.reinforcements_changed:
        hook(game)


RULES: dict[type, ActionRule] = {
    Place: ActionRule(refuse_place, apply_place),
    Trade: ActionRule(refuse_trade, apply_trade),
}


# -- legal actions ------------------------------------------------------------------------------------
def trade_options(game: State, player: int) -> list[Trade]:
    """Every set the player may trade, one action per distinct bonus territory it could earn."""
    hand = sorted(game.hands[player])
    symbols = game.board.card_symbols
    owner = game.owner
    bonus_possible = game.rules.territory_card_bonus != "none" and not (
        game.rules.territory_card_bonus == "once-per-turn" and game.territory_bonus_used
    )
    options: list[Trade] = []
    for combo in combinations(hand, 3):
        if not is_set([symbols[c] for c in combo]):
            continue
        held = [c for c in combo if c < len(game.board) and owner[c] == player] if bonus_possible else []
        if len(held) <= 1:
            options.append(Trade(combo))
        else:
            for first in held:  # the bonus goes to the first held territory listed
                rest = tuple(c for c in combo if c != first)
                options.append(Trade((first, rest[0], rest[1])))
    return options


def may_trade(game: State, player: int) -> bool:
    phase = game.phase
    return (phase == _REINFORCE and not game.placed_this_turn) or (
        phase == _ELIMINATION_TRADE and len(game.hands[player]) > 4
    )


def reinforce_actions(game: State) -> Iterator[Action]:
    player = game.to_act
    hooks = game.hooks
    for extras in hooks.start_actions:
        yield from extras(game)
    if may_trade(game, player):
        yield from trade_options(game, player)
    if game.must_trade(player):
        return
    owner, pending = game.owner, game.pending
    if hooks.room is None and hooks.may_reinforce is None:
        for t in range(len(owner)):
            if owner[t] == player:
                for n in range(1, pending + 1):
                    yield Place(t, n)
        return
    for t in range(len(owner)):
        if game.may_reinforce(t, player):
            for n in range(1, min(pending, game.room(t)) + 1):
                yield Place(t, n)


def count_reinforce_actions(game: State) -> int:
    player = game.to_act
    total = len(trade_options(game, player)) if may_trade(game, player) else 0
    for extras in game.hooks.start_actions:
        total += sum(1 for _ in extras(game))
    if not game.must_trade(player):
        if game.hooks.room is not None:
            total += sum(
                max(0, min(game.pending, game.room(t)))
                for t in range(len(game.owner))
                if game.may_reinforce(t, player)
            )
        elif game.hooks.may_reinforce is not None:
            total += sum(1 for t in range(len(game.owner)) if game.may_reinforce(t, player)) * game.pending
        else:
            total += game.territory_count[player] * game.pending
    return total


def setup_places(game: State) -> Iterator[Action]:
    seat, owner = game.placing_for, game.owner
    if game.hooks.room is None:
        return (Place(t, 1) for t in range(len(owner)) if owner[t] == seat)
    return (Place(t, 1) for t in range(len(owner)) if owner[t] == seat and game.room(t) >= 1)
