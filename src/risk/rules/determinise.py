"""Determinisation: one full game consistent with what a player knows, for search under hidden cards.

A player sees the board, every army, the size of every hand, the face-up discard pile and its own
cards. It does not see the other hands, the order of the draw pile, the game's seed or its generator.
:func:`determinise` (for bots: :meth:`risk.view.View.determinise`) copies the game and overwrites
every one of those hidden parts with a sample drawn from ``rng``: the unseen cards are dealt at
random to the other players by their hand sizes, the rest become the draw pile in random order, the
other players' secret missions (Secret Mission RISK), unrevealed mission cards (Mission RISK) and
secretly chosen headquarters (Capital RISK) are drawn afresh, consistent with the view (no secret
mission drawn is already complete for a player still in the game, a headquarters is one its chooser
holds, a revealed mission card stays), and the copy gets a fresh generator. Two games that differ
only in hidden parts therefore give the same determinisation for the same ``rng`` state
(tests/test_determinise.py). It lives in the engine, as the one place outside the turn machine that
writes a game's hidden parts, so that search code never touches them.
"""

from __future__ import annotations

import random

from risk.rules.game import Game, Phase
from risk.rules.missions import (
    RANKS,
    effective_mission,
    mission_by_key,
    mission_deck,
    ranked_mission,
    ranked_missions,
)

# Draws of the other players' secret missions before the incomplete ones are picked by hand.
MISSION_DRAWS = 8


def determinise(real: Game, me: int, rng: random.Random) -> Game:
    """A complete game, sampled uniformly among those player ``me`` cannot tell apart from ``real``
    (``me`` may be -1, a spectator, who holds no card). ``real`` is not changed."""
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
    _resample_missions(real, game, me, rng)
    _resample_capitals(real, game, me, rng)
    game._rng = random.Random(rng.getrandbits(64))
    return game


def _resample_missions(real: Game, game: Game, me: int, rng: random.Random) -> None:
    """Secret Mission RISK: the other players' missions; Mission RISK: their unrevealed cards."""
    kind = real.rules.game
    humans, board = real.humans, real.board
    if kind == "secret-mission" and not real.is_over:
        mine = real.missions[me] if 0 <= me < humans else None
        # A destroy card naming its holder reads "occupy 24": then the real occupy-24 card may be
        # in another hand; leaving out the card we show is the close, simple approximation.
        deck = [m.key for m in mission_deck(humans, board) if mine is None or m.key != mine.key]
        others = [seat for seat in range(humans) if seat != me]
        # The engine ends the game as soon as a player in it has a complete mission, so no player
        # still in the game holds one that is complete now: draw again until none does (a few
        # tries; the last draw gives each such player a card that is not complete, if one is left).
        for attempt in range(MISSION_DRAWS):
            pool = deck[:]
            rng.shuffle(pool)
            for seat in others:
                game.missions[seat] = effective_mission(
                    mission_by_key(pool.pop(), humans, board), seat, board
                )
            complete = [seat for seat in others if real.alive[seat] and game.mission_complete(seat)]
            if not complete or real.turn == 0:
                break
            if attempt == MISSION_DRAWS - 1:
                _replace_complete_missions(game, complete, pool, humans)
    elif kind == "mission" and not real.is_over:
        hidden = [p for p in range(humans) if p != me and len(real.missions_claimed[p]) < 3]
        if not hidden:
            return
        seen = {key for p in range(humans) if p not in hidden for key in real.mission_cards[p]}
        seen.update(key for claimed in real.missions_claimed for key in claimed)
        for rank in RANKS:
            pool = [m.key for m in ranked_missions(board) if m.rank == rank and m.key not in seen]
            rng.shuffle(pool)
            for seat in hidden:
                cards = game.mission_cards[seat]
                for index, key in enumerate(cards):
                    if ranked_mission(key, board).rank == rank and pool:
                        cards[index] = pool.pop()


def _replace_complete_missions(game: Game, seats: list[int], pool: list[str], humans: int) -> None:
    """Give each of ``seats`` a card from ``pool`` that is not complete for it, where there is one."""
    for seat in seats:
        for index, key in enumerate(pool):
            mission = effective_mission(mission_by_key(key, humans, game.board), seat, game.board)
            if not mission.is_complete(game, seat):
                game.missions[seat] = mission
                pool.pop(index)
                break


def _resample_capitals(real: Game, game: Game, me: int, rng: random.Random) -> None:
    """Capital RISK: headquarters chosen in secret are hidden until all have chosen."""
    if real.rules.game != "capital" or real.phase != Phase.CHOOSE_CAPITAL:
        return
    game.capitals = list(real.capitals)
    for seat, capital in enumerate(real.capitals):
        if seat != me and capital >= 0:
            own = real.territories_of(seat)
            game.capitals[seat] = own[int(rng.random() * len(own))]
