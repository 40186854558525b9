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
(tests/test_determinise.py). Under fog of war the board is hidden too: every territory out of the
player's sight gets an owner and armies sampled from what it last saw (:func:`_resample_board`), and
the copy is played without fog (search sees its own sample whole). It lives in the engine, as the
one place outside the turn machine that writes a game's hidden parts, so that search code never
touches them.
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
from risk.rules.variants import hooks_for

# Draws of the other players' secret missions before the incomplete ones are picked by hand.
MISSION_DRAWS = 8


def determinise(real: Game, me: int, rng: random.Random, *, through_fog: bool = False) -> Game:
    """A complete game, sampled uniformly among those player ``me`` cannot tell apart from ``real``
    (``me`` may be -1, a spectator, who holds no card). ``real`` is not changed. ``through_fog``
    (benchmarks only: :class:`risk.view.View`'s keyword): under fog of war the board is not
    sampled but copied as it is."""
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
    if real.rules.fog == "on" and not real.is_over:
        if through_fog:
            _drop_fog(game)
        else:
            _resample_board(real, game, me, rng)
    _resample_missions(real, game, me, rng)
    _resample_capitals(real, game, me, rng)
    game._rng = random.Random(rng.getrandbits(64))
    return game


def _resample_board(real: Game, game: Game, me: int, rng: random.Random) -> None:
    """Fog of war: owners and armies of the territories out of ``me``'s sight, from its memory.

    A territory it saw keeps the owner it saw there while that player is still in the game (else
    another player still in it, at random) and the armies it saw; one it never saw goes to a player
    still in the game at random, with the median of the opposing armies it sees. Every player still
    in the game holds at least one territory (an elimination is public). The copy then drops the
    fog: its rules, its memories, who witnessed what."""
    count = len(real.board)
    sight = real.in_sight[me] if me >= 0 else [0] * count
    seen_owner = real.seen_owner[me] if me >= 0 else [-1] * count
    seen_armies = real.seen_armies[me] if me >= 0 else [0] * count
    rivals = [
        p
        for p in range(len(real.players))
        if p != me and real.alive[p] and (real.team is None or me < 0 or real.team[p] != real.team[me])
    ]
    hidden = [t for t in range(count) if not sight[t]]
    if rivals and hidden:
        visible_rivals = sorted(real.armies[t] for t in range(count) if sight[t] and real.owner[t] in rivals)
        typical = visible_rivals[len(visible_rivals) // 2] if visible_rivals else 3
        for t in hidden:
            owner = seen_owner[t]
            if owner in rivals:
                game.owner[t], game.armies[t] = owner, max(1, seen_armies[t])
            else:
                game.owner[t] = rivals[int(rng.random() * len(rivals))]
                game.armies[t] = max(1, seen_armies[t] if owner >= 0 else typical)
        held = [0] * len(real.players)
        for t in range(count):
            if game.owner[t] >= 0:
                held[game.owner[t]] += 1
        for p in rivals:
            if held[p] == 0:  # still in the game: it holds something out of sight
                spare = [t for t in hidden if held[game.owner[t]] > 1]
                if spare:
                    t = spare[int(rng.random() * len(spare))]
                    held[game.owner[t]] -= 1
                    game.owner[t] = p
                    held[p] = 1
    if game.units is not None:  # Team RISK: a sampled territory's armies are its owner's
        for t in hidden:
            row = [0] * len(real.players)
            if game.owner[t] >= 0:
                row[game.owner[t]] = game.armies[t]
            game.units[t] = row
    game.territory_count = [0] * len(real.players)
    for owner in game.owner:
        if owner >= 0:
            game.territory_count[owner] += 1
    if game.current != me and game.phase not in (Phase.CLAIM, Phase.SETUP_PLACE, Phase.CHOOSE_CAPITAL):
        game.pending = 0 if game.phase != Phase.REINFORCE else game.reinforcement_for(game.current)
    game.last_battle = None
    _drop_fog(game)


def _drop_fog(game: Game) -> None:
    """The copy is played without fog: its rules, its memories, who witnessed what."""
    game.rules = game.rules.with_options(fog="off")
    game._hooks = hooks_for(game.rules)
    game.seen_owner, game.seen_armies, game.seen_turn, game.in_sight, game.witnessed = [], [], [], [], []


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


def without_fog(real: Game) -> Game:
    """A copy of ``real`` played without fog of war: every territory in sight of every view of it (a
    server's spectators, when the host lets them see through the fog)."""
    game = real.copy()
    if game.rules.fog == "on":
        game.rules = real.rules.with_options(fog="off")
        game._hooks = hooks_for(game.rules)
        game.seen_owner, game.seen_armies, game.seen_turn, game.in_sight, game.witnessed = [], [], [], [], []
    return game
