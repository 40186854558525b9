"""Team RISK (2003) for the heuristic bots: the first player eliminated ends the game for both teams.

"The game is over when ONE player on a team is eliminated. The other team wins." So the game is a
race to the first elimination, and the shortest way there is through the opposing players' units:
every conquest is worth a share of the focus for the units of the opposing players it removes (the
weaker the player, the more), and the territory holding a player's last units is worth the game.
Territories worth that much are attacked at lower odds (:data:`FOCUS_ODDS`).

Shared territories are controlled by the player with the most units there, by no one on a tie, and a
tied territory can neither be reinforced nor attacked from: the bots move armies in counts that tie
none (:func:`untied`).

A player is out when no unit of theirs is left on the board; units count, not territories (a tied
territory is controlled by no one but its units still stand).

Measured and left out (benchmarks/bench_neutrals.py, docs/bots.md): a player with 12 units or fewer
putting all its reinforcements on its most threatened territory and a teammate's free move sending
spare armies there; hiding a unit of an endangered player in a teammate's strongest territory (losses
fall on the larger stack first); a focus on the weakest opposing player alone.
"""

from __future__ import annotations

from risk.view import View

# The value of a conquest that takes an opposing player's last units: the game.
WIN_VALUE = 40.0
# The focus shared out over an opposing player's units, scaled by how weak it is against the weakest
# opposing player: a territory holding a third of the weakest player's units is worth 4 more.
FOCUS_WEIGHT = 12.0
# Territories worth at least FOCUS_FLOOR more for the focus are attacked at FOCUS_ODDS or better.
FOCUS_FLOOR = 3.0
FOCUS_ODDS = 0.35


def units_of(view: View) -> list[int]:
    """Every seat's units on the board."""
    assert view.units is not None
    totals = [0] * len(view.players)
    for stack in view.units:
        for seat, count in enumerate(stack):
            totals[seat] += count
    return totals


def focus_values(view: View, me: int) -> list[float]:
    """What Team RISK adds to the value of conquering each territory, for ``me``: the game where it
    holds an opposing player's last units, else the share of each opposing player's units there,
    weighted by ``FOCUS_WEIGHT`` × (the weakest opposing player's units / that player's)."""
    assert view.team is not None and view.units is not None
    totals = units_of(view)
    team = view.team[me]
    rivals = [seat for seat in range(view.humans) if view.alive[seat] and view.team[seat] != team]
    weakest = min(totals[seat] for seat in rivals)
    # The weight of one unit of each rival.
    per_unit = {seat: FOCUS_WEIGHT * weakest / max(1, totals[seat]) ** 2 for seat in rivals}
    values = [0.0] * len(view.owner)
    for t, stack in enumerate(view.units):
        for seat in rivals:
            count = stack[seat]
            if count:
                values[t] += WIN_VALUE if count == totals[seat] else per_unit[seat] * count
    return values


def ties(view: View, me: int, source: int, target: int, moved: int) -> int:
    """How many of ``source`` and ``target`` would be tied (controlled by no one) after ``me`` moves
    ``moved`` of its units from one to the other."""
    assert view.units is not None
    tied = 0
    for territory, change in ((source, -moved), (target, moved)):
        stack = view.units[territory]
        mine = stack[me] + change
        others = max(count for seat, count in enumerate(stack) if seat != me)
        if mine > 0 and mine == others:
            tied += 1
    return tied


def untied(view: View, me: int, source: int, target: int, wanted: int, low: int, high: int) -> int:
    """``wanted`` armies to move from ``source`` to ``target``, or the nearest count in
    ``low``..``high`` (at most two away) that ties fewer of the two territories."""
    if view.units is None:
        return wanted
    best, best_key = wanted, (ties(view, me, source, target, wanted), 0)
    for step in (1, 2):
        for count in (wanted - step, wanted + step):
            if low <= count <= high:
                key = (ties(view, me, source, target, count), step)
                if key < best_key:
                    best, best_key = count, key
    return best


__all__ = [
    "FOCUS_FLOOR",
    "FOCUS_ODDS",
    "FOCUS_WEIGHT",
    "WIN_VALUE",
    "focus_values",
    "ties",
    "units_of",
    "untied",
]
