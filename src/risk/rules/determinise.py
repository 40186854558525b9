"""Determinisation: one full game consistent with what a player knows, for search under hidden cards.

A player sees the board, every army, the size of every hand, the face-up discard pile and its own
cards. It does not see the other hands, the order of the draw pile, the game's seed or its generator.
:func:`determinise` (for bots: :meth:`risk.view.View.determinise`) copies the game and overwrites
every one of those hidden parts with a sample drawn from ``rng``: the unseen cards are dealt at
random to the other players by their hand sizes, the rest become the draw pile in random order, and
the copy gets a fresh generator. What a game variant hides (secret missions, headquarters chosen in
secret, a board out of sight) the variant samples itself (its ``sample_board`` and ``sample_hidden``
hooks: :mod:`risk.rules.variants.base`), consistent with the view. Two games that differ only in
hidden parts therefore give the same determinisation for the same ``rng`` state
(tests/test_determinise.py). A variant that hides the board (fog of war) samples what is out of
sight, and the copy is then played in the open (search sees its own sample whole). It lives in the
engine, as the one place outside the turn machine that writes a game's hidden parts, so that search
code never touches them.
"""

from __future__ import annotations

import random

from risk.rules.game import Game
from risk.rules.variants import hooks_for


def determinise(real: Game, me: int, rng: random.Random, *, through_fog: bool = False) -> Game:
    """A complete game, sampled uniformly among those player ``me`` cannot tell apart from ``real``
    (``me`` may be -1, a spectator, who holds no card). ``real`` is not changed. ``through_fog``
    (benchmarks only: :class:`risk.view.View`'s keyword): a hidden board is not sampled but copied
    as it is."""
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
    hooks = real.hooks
    if hooks.sample_board is not None and not real.is_over:
        if not through_fog:
            hooks.sample_board(real, game, me, rng)
        _play_in_the_open(game)
    for sample in hooks.sample_hidden:  # the board first: a variant's sample may depend on it
        sample(real, game, me, rng)
    game._rng = random.Random(rng.getrandbits(64))
    return game


def _play_in_the_open(game: Game) -> None:
    """The copy is played without a hidden board: its rules, its memories, who witnessed what."""
    in_the_open = game.hooks.in_the_open
    if in_the_open is not None:
        game.rules = in_the_open(game)
        game.hooks = hooks_for(game.rules)


def in_the_open(real: Game) -> Game:
    """A copy of ``real`` played without a hidden board: every territory in sight of every view of it
    (a server's spectators, when the host lets them see through the fog of war)."""
    game = real.copy()
    _play_in_the_open(game)
    return game
