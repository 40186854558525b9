"""2-player RISK for the heuristic bots: neutral armies as buffers, and allies in the active game.

The rules (1993, 2003 and 2008 2-player RISK): one or four neutral armies hold territories but never
take a turn. Passive neutrals never attack, so a neutral stack is no threat and a territory that
only borders neutrals is as safe as the interior; taking a neutral territory earns a territory and
a card but breaks no bonus, eliminates no rival and may open a front to the opponent. Active
neutrals (2003) can be bribed with a card, reinforced by a die roll, and attack for the player they
are allied with; every invasion of a neutral's territory, or made with an ally's armies, ends with a
status die that moves the neutral one step away from the invader on 1-4.

Everything here reads public facts only: the board, the armies, the neutrals' alliances (their
"cannons" are on the table) and the bot's own hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from risk.bots.base import ALLY_PLACE, ATTACK, REINFORCE, SETUP_PLACE
from risk.bots.battle_odds import win_probability
from risk.rules.actions import CALL_OFF, Action, Attack, Bribe, Place, ReinforceAlly
from risk.view import View

if TYPE_CHECKING:
    from collections.abc import Sequence

# The status die after an invasion of a neutral, or one made with an ally: 1-4 of 6 moves it away.
SHIFT_CHANCE = 4 / 6
# Least win probability for an attack with an ally's armies (they cost us nothing but the alliance).
ALLY_ATTACK_ODDS = 0.6
# An uninvolved neutral worth bribing into an alliance: armies it could throw at the opponent.
BRIBE_STACK = 6


def in_duel(view: View) -> bool:
    """Whether this is 2-player RISK (neutral armies on the board)."""
    return view.rules.neutrals > 0


def is_active(view: View) -> bool:
    return view.active_neutrals


def hostile_seats(view: View, me: int) -> list[bool]:
    """Per seat: whether its armies can ever attack ``me``: the opponent's, and in the active game a
    neutral allied with the opponent. Passive, uninvolved and our own allied neutrals never do."""
    active = is_active(view)
    ally = view.ally
    return [
        seat != me and (not view.neutral[seat] or (active and ally[seat] not in (-1, me)))
        for seat in range(len(view.players))
    ]


def hostile(view: View, me: int) -> list[bool]:
    """Per territory: whether the armies there can attack ``me`` (see :func:`hostile_seats`)."""
    seats = hostile_seats(view, me)
    return [seat >= 0 and seats[seat] for seat in view.owner]


def seat_total(view: View, seat: int) -> int:
    return sum(a for t, a in enumerate(view.armies) if view.owner[t] == seat)


def value_change(view: View, me: int, target: int, hostile_at: Sequence[bool]) -> float:
    """What a duel adds to (or takes from) the world-domination value of conquering ``target``.

    The opponent's territory counts double: its loss is our gain, and its income is what threatens
    us. A neutral's territory next to the opponent is a buffer: taking it opens a front. In the
    active game, invading an uninvolved neutral may hand it (and all its armies) to the opponent,
    and invading our own ally throws the alliance away."""
    holder = view.owner[target]
    if not view.neutral[holder]:
        return 1.0
    change = 0.0
    neighbours = view.board.neighbours[target]
    fronts = sum(1 for n in neighbours if hostile_at[n])
    if fronts:
        change -= 0.4 * fronts
    if is_active(view):
        ally = view.ally[holder]
        if ally == me:
            change -= 6.0
        elif ally == -1:
            change -= SHIFT_CHANCE * min(6.0, seat_total(view, holder) / 4.0)
    return change


def duel_action(view: View, me: int) -> Action | None:
    """A 2-player decision the world-domination plan does not make, or ``None`` to leave it to the plan:
    where a neutral's setup army goes, bribes, allies' reinforcements and attacks, calling off."""
    phase = view.phase
    if phase == SETUP_PLACE and view.placing_for != me:
        return Place(neutral_setup_target(view, me, view.placing_for), 1)
    if not is_active(view) or view.current != me:
        return None
    if phase == REINFORCE:
        return bribe(view, me)
    if phase == ALLY_PLACE:
        return Place(ally_front(view, me, view.placing_for), view.pending)
    if phase == ATTACK and not view.attacked_this_turn:
        for seat in range(view.humans, len(view.players)):
            help_ally = ReinforceAlly(seat - view.humans + 1)  # a free die of armies for an ally
            if view.ally[seat] == me and view.is_legal(help_ally):
                return help_ally
    return None


def neutral_setup_target(view: View, me: int, seat: int) -> int:
    """Where a neutral's setup army hinders the opponent most: on the neutral territories inside the
    continents the opponent is closest to holding, and between the opponent and us."""
    owner, board = view.owner, view.board
    hostile_seat = hostile_seats(view, me)
    # The opponent's share of each continent: a neutral stack there blocks its bonus.
    share = []
    for continent in board.continents:
        members = continent.territories
        theirs = sum(1 for t in members if owner[t] >= 0 and hostile_seat[owner[t]])
        share.append(continent.bonus * theirs / len(members))
    best, best_score = -1, -1e9
    for t in range(len(owner)):
        if owner[t] != seat or not view.visible(t):  # fog of war: only where we see it
            continue
        near_them = sum(1 for n in board.neighbours[t] if owner[n] >= 0 and hostile_seat[owner[n]])
        near_me = sum(1 for n in board.neighbours[t] if owner[n] == me)
        # A wall both sides touch shields us; one only they touch blocks their way on.
        score = share[board.continent_of[t]] + near_them + (0.5 * near_me if near_them else 0.0)
        score -= 0.05 * view.armies[t]  # spread over several walls rather than one tower
        if score > best_score:
            best, best_score = t, score
    return best


def ally_front(view: View, me: int, seat: int) -> int:
    """An ally's territory where its armies can strike the opponent: its largest stack next to it."""
    owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
    hostile_seat = hostile_seats(view, me)
    held = [t for t in range(len(owner)) if owner[t] == seat and view.visible(t)]  # fog: what we see
    return max(
        held,
        key=lambda t: (any(owner[n] >= 0 and hostile_seat[owner[n]] for n in neighbours[t]), armies[t], -t),
    )


def bribe(view: View, me: int) -> Bribe | None:
    """A card for a neutral when it pays: to turn the opponent's ally away from our borders, or to win
    a large uninvolved stack that stands next to the opponent. Only a card that no set we could
    trade needs, so the bribe never costs us a trade."""
    if view.placed_this_turn or view.traded_this_turn or not view.hand:
        return None
    card = spare_card(view)
    if card is None:
        return None
    owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
    rival = [not view.neutral[seat] and seat != me for seat in range(len(view.players))]
    best, best_weight = -1, 0.0
    for seat in range(view.humans, len(view.players)):
        offer = Bribe(seat - view.humans + 1, card)
        if not view.alive[seat] or view.ally[seat] == me or not view.is_legal(offer):
            continue
        held = [t for t in range(len(owner)) if owner[t] == seat]
        facing_me = sum(armies[t] - 1 for t in held if any(owner[n] == me for n in neighbours[t]))
        facing_them = sum(
            armies[t] - 1 for t in held if any(owner[n] >= 0 and rival[owner[n]] for n in neighbours[t])
        )
        if view.ally[seat] == -1:
            weight = facing_them if facing_them >= BRIBE_STACK else 0.0
        else:  # the opponent's ally: its stacks next to us are a threat
            weight = 1.5 * facing_me if facing_me >= 3 else 0.0
        if weight > best_weight:
            best, best_weight = seat, weight
    if best < 0:
        return None
    return Bribe(best - view.humans + 1, card)


def spare_card(view: View) -> int | None:
    """A card of our hand that we can give away without losing a set we could trade (nor, with two
    cards or fewer, one we are close to): the one whose loss leaves the most sets."""
    hand = view.hand
    if len(hand) < 3:
        return None  # keep the start of a set
    options = view.trade_options()
    before = len(options)
    best, best_left = None, -1
    for card in sorted(hand):
        # The sets a hand without this card could trade: exactly the options that leave it out.
        left = sum(1 for option in options if card not in option.cards)
        if (before == 0 or left > 0) and left > best_left:
            best, best_left = card, left
    return best


def ally_attack(view: View, me: int) -> Attack | None:
    """The best attack with an ally's armies at good odds on the opponent (active neutrals)."""
    if not is_active(view):
        return None
    owner, armies, neighbours = view.owner, view.armies, view.board.neighbours
    ally = view.ally
    best: tuple[float, int, int] | None = None
    for s in range(len(owner)):
        seat = owner[s]
        if seat < 0 or not view.neutral[seat] or ally[seat] != me or armies[s] < 3 or not view.visible(s):
            continue  # (fog of war: a stack we no longer see may be gone)
        for t in neighbours[s]:
            holder = owner[t]
            if holder == me or holder < 0 or view.neutral[holder]:
                continue
            p = win_probability(armies[s] - 1, armies[t])
            if p >= ALLY_ATTACK_ODDS and (best is None or p > best[0]):
                best = (p, s, t)
    if best is None:
        return None
    _, s, t = best
    return Attack(s, t, min(3, armies[s] - 1))


def call_off_first(view: View, action: Action) -> Action:
    """Active neutrals: an invasion whose end rolls a status die must be called off before another
    target is attacked; calling it off is the first step of ``action``."""
    if (
        isinstance(action, Attack)
        and is_active(view)
        and view.open_invasion is not None
        and view.open_invasion != action.target
        and view.invasion_needs_call_off()
    ):
        return CALL_OFF
    return action


__all__ = [
    "ally_attack",
    "call_off_first",
    "duel_action",
    "hostile",
    "hostile_seats",
    "in_duel",
    "value_change",
]
