"""Fogged games for the tests of the front ends (the bot protocol, the research environment, the
terminal game): positions of whole fogged games, and a copy of a position in which everything a seat
may not see is changed, the board out of its sight included."""

from __future__ import annotations

import random
from collections.abc import Iterator

from risk import View
from risk.bots import make_bot
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.rules.variants.fog import EVERYONE
from test_server_secrets import perturb


def fogged_rules(edition: str = "2008", game: str = "world") -> Rules:
    return Rules.preset(edition).for_game(game).with_options(fog="on")


def fogged_positions(
    rules: Rules, players: int, seed: int, every: int = 13, turns: int = 40
) -> Iterator[Game]:
    """The positions of a game played by the quick bot under ``rules``, one every ``every`` actions,
    until the game ends or passes turn ``turns`` (the live game: copy it to keep it)."""
    game = Game(rules, players, seed=seed)
    bots = [make_bot("quick", seat) for seat in range(game.humans)]
    step = 0
    while not game.is_over and game.turn <= turns:
        if step % every == 0:
            yield game
        game.apply(bots[game.to_act].choose(View(game, game.to_act)))
        step += 1


def hidden_territories(game: Game, seat: int) -> list[int]:
    return [t for t in range(len(game.board)) if not game.in_sight[seat][t]]


def perturb_fogged(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` in which everything ``seat`` may not see is changed: what
    :func:`test_server_secrets.perturb` changes, and, out of its sight, the armies of every territory
    and the owners of pairs of territories (swapped: the counts stay), the other seats' memories and
    sight, and which other seats witnessed each history entry."""
    other = perturb(game, seat, rng)
    hidden = [t for t in hidden_territories(game, seat) if other.owner[t] >= 0]
    for territory in hidden:
        other.armies[territory] = rng.randint(1, 30)
    rng.shuffle(hidden)
    for a, b in zip(hidden[::2], hidden[1::2], strict=False):
        other.owner[a], other.owner[b] = other.owner[b], other.owner[a]
    if other.units is not None:  # Team RISK: the armies by seat follow the owner
        for territory in hidden:
            row = [0] * len(other.units[territory])
            row[other.owner[territory]] = other.armies[territory]
            other.units[territory] = row
    # (New lists: a copy shares the memories with its game, which the engine replaces, never writes.)
    other.seen_owner, other.seen_armies, other.seen_turn, other.in_sight = (
        [row if p == seat else [rng.randint(-1, 5) for _ in row] for p, row in enumerate(memory)]
        for memory in (other.seen_owner, other.seen_armies, other.seen_turn, other.in_sight)
    )
    own_bit = 1 << seat
    other.witnessed = [
        mask if mask == EVERYONE else (mask & own_bit) | (rng.getrandbits(len(game.players)) & ~own_bit)
        for mask in other.witnessed
    ]
    return other
