"""Team RISK (2003) for the heuristic bots: the first player eliminated ends the game for both teams.

"The game is over when ONE player on a team is eliminated. The other team wins." That makes our
own weakest player the team's weak point: a player with few
armies left keeps its reinforcements on its most threatened territory, and a teammate sends spare
armies into that player's threatened territories ("You may fortify ... into other team members'
territories"). (Going after the opposing player with the fewest units, as a bonus on the value of
its territories, was tried and measured worse than today's bot: benchmarks/bench_neutrals.py.)

A player is out when no unit of theirs is left on the board; units count, not territories (a tied
territory is controlled by no one but its units still stand).
"""

from __future__ import annotations

from risk.bots.base import FORTIFY, REINFORCE
from risk.rules.actions import Action, Fortify, Place
from risk.rules.game import Game

# A player with this many units or fewer is in danger of going out (and ending the game).
ENDANGERED_UNITS = 12


def units_of(game: Game) -> list[int]:
    """Every seat's units on the board."""
    assert game.units is not None
    totals = [0] * len(game.players)
    for stack in game.units:
        for seat, count in enumerate(stack):
            totals[seat] += count
    return totals


def team_action(game: Game, me: int) -> Action | None:
    """A Team RISK decision the world-domination plan does not make, or ``None``."""
    if game.team is None or game.current != me:
        return None
    totals = units_of(game)
    endangered = totals[me] <= ENDANGERED_UNITS
    if game.phase == REINFORCE and endangered and game.pending and not game.must_trade(me):
        guard = most_threatened(game, me, me, lambda t: game.may_reinforce(t, me))
        if guard >= 0:
            return Place(guard, game.pending)
    if game.phase == FORTIFY:
        return rescue(game, me, totals)
    return None


def threat_to(game: Game, territory: int, team: int) -> int:
    """The largest stack of the other team next to ``territory`` (its fighting armies)."""
    assert game.team is not None
    worst = 0
    for n in game.board.neighbours[territory]:
        if game.armies[n] - 1 > worst and game.team_at(n) not in (team, -1):
            worst = game.armies[n] - 1
    return worst


def most_threatened(game: Game, me: int, seat: int, allowed: object) -> int:
    """Among the territories holding ``seat``'s units (and ``allowed``), the one whose threat most
    exceeds its armies; -1 when none is threatened."""
    assert game.team is not None and game.units is not None
    team = game.team[me]
    best, best_gap = -1, -(10**9)
    for t, stack in enumerate(game.units):
        if not stack[seat] or not allowed(t):  # type: ignore[operator]
            continue
        threat = threat_to(game, t, team)
        if threat == 0:
            continue
        gap = threat - game.armies[t]
        if gap > best_gap:
            best, best_gap = t, gap
    return best


def rescue(game: Game, me: int, totals: list[int]) -> Action | None:
    """Spare armies of ours into the most threatened territory of an endangered teammate."""
    assert game.team is not None and game.units is not None
    team = game.team[me]
    mates = [
        seat
        for seat in range(game.humans)
        if seat != me and game.alive[seat] and game.team[seat] == team and totals[seat] <= ENDANGERED_UNITS
    ]
    if not mates:
        return None
    weakest = min(mates, key=lambda seat: (totals[seat], seat))
    target = most_threatened(game, me, weakest, lambda t: True)
    if target < 0:
        return None
    # Our largest stack that can reach it, keeping what its own border needs.
    best: tuple[int, int] | None = None
    for source, stack in enumerate(game.units):
        spare = min(stack[me], game.armies[source] - 1) - threat_to(game, source, team) // 2
        if source == target or spare < 1 or target not in game.fortify_targets(source):
            continue
        if best is None or spare > best[1]:
            best = (source, spare)
    if best is None:
        return None
    move = Fortify(best[0], target, best[1])
    return move if game.is_legal(move) else None


__all__ = ["ENDANGERED_UNITS", "rescue", "team_action", "units_of"]
