"""Determinisation: one full game consistent with what a player knows, for search under hidden cards.

A player sees the board, every army, the size of every hand, the face-up discard pile and its own
cards. It does not see the other hands, the order of the draw pile, the game's seed or its generator.
:func:`determinise` copies the game behind the view and overwrites every one of those hidden parts
with a sample drawn from ``rng``: the unseen cards are dealt at random to the other players by
their hand sizes, the rest become the draw pile in random order, and the copy gets a fresh
generator. Two games that differ only in hidden parts therefore give the same determinisation
for the same ``rng`` state.
"""

from __future__ import annotations

import random

from risk.rules.game import Game
from risk.view import View


def determinise(view: View, rng: random.Random) -> Game:
    """A complete game, sampled uniformly among those ``view.player`` cannot tell apart from the real one."""
    real: Game = view._game
    me = view.player
    game = real.copy()
    # The history would reveal other players' draws; search does not need it.
    game.history = []
    game.seed = 0

    hand_sizes = [len(hand) for hand in real.hands]
    seen = set(real.hands[me]) if me >= 0 else set()
    seen.update(real.discard)
    # Which cards are in play is public (a variant may leave some out); where they are is not.
    in_play = sorted({*real.deck, *real.discard, *(card for hand in real.hands for card in hand)})
    unseen = [card for card in in_play if card not in seen]
    rng.shuffle(unseen)
    for player in range(len(real.players)):
        if player == me:
            continue
        size = hand_sizes[player]
        game.hands[player] = unseen[:size]
        unseen = unseen[size:]
    game.deck = unseen
    game._rng = random.Random(rng.getrandbits(64))
    return game
