"""Building a position by hand, for tests."""

from __future__ import annotations

from collections.abc import Mapping

from risk.rules.game import Game, Phase
from risk.rules.options import Rules


def make_position(
    rules: str | Rules = "2008",
    players: int = 3,
    owners: Mapping[str, tuple[int, int]] | None = None,
    *,
    default_owner: int = 1,
    default_armies: int = 1,
    current: int = 0,
    phase: Phase = Phase.ATTACK,
    pending: int = 0,
    hands: Mapping[int, list[str]] | None = None,
    sets_traded: int = 0,
    seed: int = 0,
) -> Game:
    """A game in mid-turn: ``owners`` maps territory names to (player, armies); every other
    territory belongs to ``default_owner`` with ``default_armies``."""
    game = Game(Rules.preset(rules) if isinstance(rules, str) else rules, players, seed=seed)
    board = game.board
    game.owner = [default_owner] * len(board)
    game.armies = [default_armies] * len(board)
    for name, (player, armies) in (owners or {}).items():
        t = board.territory(name)
        game.owner[t], game.armies[t] = player, armies
    seats = len(game.players)  # neutral seats (2-player RISK) come after the players
    game.territory_count = [game.owner.count(p) for p in range(seats)]
    game.alive = [c > 0 for c in game.territory_count]
    game.setup_armies = [0] * seats
    game.hands = [[] for _ in range(seats)]
    for player, cards in (hands or {}).items():
        game.hands[player] = [board.card(c) for c in cards]
    if game.team is not None:  # Team RISK: teammates share one hand (seats 0 and 1 give them)
        game.hands = [game.hands[seat % 2] for seat in range(seats)]
    held = {c for h in game.hands for c in h}
    game.deck = [c for c in range(board.card_count) if c not in held]
    game.sets_traded = sets_traded
    game.current = game.to_act = current
    game.turn = 1
    game.phase = phase
    game.pending = pending
    return game
