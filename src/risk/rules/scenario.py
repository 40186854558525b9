"""Scripted positions: the map rearranged at the start of a turn.

For benchmarks and studies of a position that ordinary play reaches only by chance (a runaway leader
holding two continents, say): play the game to the start of a turn, then :func:`rearrange` the
territories and armies, and play on. Everything else (hands, deck, the generator, whose turn it is)
stays as it was. The game's history does not show the change, so its record no longer replays.
"""

from __future__ import annotations

from collections.abc import Sequence

from risk.errors import IllegalActionError
from risk.rules.state import Phase, State


def rearrange(game: State, owner: Sequence[int], armies: Sequence[int]) -> None:
    """Give territory ``t`` to player ``owner[t]`` with ``armies[t]`` armies.

    Only at the start of a turn of a world-domination game without variants (nothing traded or placed
    yet), every territory owned by a player still in the game with at least one army, and every
    player still in the game keeping a territory (a rearrangement eliminates no one). The territory
    counts follow, and the current player's reinforcements are counted afresh from the new map. A
    position refused raises :class:`IllegalActionError` and leaves the game unchanged."""
    refusal = _refusal(game, owner, armies)
    if refusal:
        raise IllegalActionError(f"cannot rearrange the map: {refusal}")
    # In place: views (and bots holding what they read) see the game's own lists, live.
    game.owner[:] = owner
    game.armies[:] = armies
    game.territory_count[:] = [game.owner.count(seat) for seat in range(len(game.players))]
    game.pending = game.reinforcement_for(game.current)


def _refusal(game: State, owner: Sequence[int], armies: Sequence[int]) -> str:
    if game.hooks.names:
        return f"the game has variants ({', '.join(sorted(game.hooks.names))}); only world domination"
    if game.phase != Phase.REINFORCE or game.placed_this_turn or game.traded_this_turn or game.turn < 1:
        return "only at the start of a turn, before anything is traded or placed"
    size = len(game.board)
    if len(owner) != size or len(armies) != size:
        return f"{len(owner)} owners and {len(armies)} army counts for {size} territories"
    for territory, (seat, count) in enumerate(zip(owner, armies, strict=True)):
        name = game.board.name_of(territory)
        if not (isinstance(seat, int) and 0 <= seat < game.humans and game.alive[seat]):
            return f"{name}: {seat!r} is not a player in the game"
        if not isinstance(count, int) or count < 1:
            return f"{name}: {count!r} armies (at least 1)"
    for seat in range(game.humans):
        if game.alive[seat] and seat not in owner:
            return f"{game.players[seat]} would have no territory left"
    return ""
