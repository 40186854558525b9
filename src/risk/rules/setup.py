"""The setup: claiming empty territories (or dealing them), and the order of the setup placements."""

from __future__ import annotations

from collections.abc import Iterator

from risk.errors import IllegalActionError, RulesError
from risk.rules.actions import Action, Claim
from risk.rules.battle import territory_refusal
from risk.rules.hooks import ActionRule
from risk.rules.state import Phase, State


def refuse_claim(game: State, action: Claim, name: str) -> str:
    if game.phase != Phase.CLAIM:
        return "claiming is only during setup, while territories are empty"
    if bad := territory_refusal(game, action.territory):
        return bad
    if game.owner[action.territory] != -1:
        return f"{game.board.name_of(action.territory)} is already claimed"
    return ""


def apply_claim(game: State, action: Claim) -> None:
    player = game.current
    game.take_territory(action.territory, player, 1)
    game.setup_armies[player] -= 1
    if sum(game.territory_count) == len(game.board):
        game.phase = Phase.SETUP_PLACE
    next_setup_placer(game, player + 1)


RULES: dict[type, ActionRule] = {Claim: ActionRule(refuse_claim, apply_claim)}


def claims(game: State) -> Iterator[Action]:
    owner = game.owner
    return (Claim(t) for t in range(len(owner)) if owner[t] == -1)


def next_setup_placer(game: State, start: int) -> None:
    """Pass the setup turn to the next player, from ``start``, who still has armies to place."""
    if game.hooks.next_setup_placer is not None and game.hooks.next_setup_placer(game):
        return
    n = len(game.players)
    for i in range(n):
        p = (start + i) % n
        if game.setup_armies[p] > 0:
            game.current = game.to_act = game.placing_for = p
            return
    game.end_setup()


def deal_territories(game: State) -> None:
    """Deal every territory (the territory cards): as evenly as can be, from the first player on."""
    order = list(range(len(game.board)))
    game._rng.shuffle(order)
    if game._script is not None:
        generated, order = tuple(order), list(game._scripted("deal"))
        if sorted(order) != list(range(len(game.board))):
            raise IllegalActionError("the record's deal does not list every territory once")
        game._check_chance("deal", tuple(order), generated)
    game.history.append(("chance", "deal", tuple(order)))
    n = len(game.players)
    quota = deal_quotas(game)
    seat = game.first_player
    for territory in order:
        while quota[seat] == 0:
            seat = (seat + 1) % n
        quota[seat] -= 1
        game.take_territory(territory, seat, 1)
        game.setup_armies[seat] -= 1
        seat = (seat + 1) % n


def deal_quotas(game: State) -> list[int]:
    """Territories dealt to each seat: as even as can be, the first seats dealt one more (2008: "two
    players will each receive one extra card")."""
    n, t = len(game.players), len(game.board)
    quota = [t // n] * n if game.hooks.deal_quotas is None else game.hooks.deal_quotas(game)
    for i in range(t - sum(quota)):
        quota[(game.first_player + i) % n] += 1
    return quota


def check_board_fits(game: State) -> None:
    """Refuse, when a game is created, a board its seats cannot all start on: a territory for every
    seat, and starting armies enough to claim (or be dealt) every territory. Without them a claim
    would leave territories empty when play starts, and a deal would place armies a player lacks."""
    board, seats, territories = game.board, len(game.players), len(game.board)
    if seats > territories:
        raise RulesError(
            f"the {board.name} board has {territories} territories, too few for {seats} seats: "
            f"each starts on a territory of its own"
        )
    armies = game.setup_armies
    advice = "or play a board that declares enough starting armies"
    if game.rules.setup == "deal":
        for seat, quota in enumerate(deal_quotas(game)):
            if quota > armies[seat]:
                option = "neutral-armies" if game.neutral[seat] else "starting-armies"
                value = str(quota) if game.neutral[seat] else f"{game.humans}:{quota}"
                raise RulesError(
                    f"the deal gives {game.players[seat]} {quota} of the {territories} territories of "
                    f"the {board.name} board, more than its {armies[seat]} starting armies: give "
                    f"more with the rule option {option} (at least {option}={value}) {advice}"
                )
    elif sum(armies) < territories:
        neutral = sum(armies[seat] for seat in range(game.humans, seats))
        need = -(-(territories - neutral) // game.humans)
        raise RulesError(
            f"{game.humans} players with {armies[0]} starting armies each cannot claim the "
            f"{territories} territories of the {board.name} board: give more with the rule option "
            f"starting-armies (at least starting-armies={game.humans}:{need}) {advice}"
        )
