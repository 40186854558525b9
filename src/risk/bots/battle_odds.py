"""The bots' battle odds: the probability that an invasion succeeds, from the exact odds of :mod:`risk.odds`.

Shared by the heuristic bots, the expert dice and the 2-player decisions; it imports none of them.
"""

from __future__ import annotations

from functools import cache

from risk.odds import invasion

# Beyond this size, odds barely change and the odds tables grow: clamp before asking.
ODDS_CAP = 60


# Bounded: both counts are clamped to ODDS_CAP.
@cache
def win_probability(attackers: int, defenders: int) -> float:
    """P(``attackers`` fighting armies conquer a territory held by ``defenders``), from :mod:`risk.odds`."""
    if attackers <= 0:
        return 0.0
    if defenders <= 0:
        return 1.0
    if attackers > ODDS_CAP or defenders > ODDS_CAP:
        scale = ODDS_CAP / max(attackers, defenders)
        attackers, defenders = max(1, round(attackers * scale)), max(1, round(defenders * scale))
    return invasion(attackers, defenders).attacker_wins


__all__ = ["ODDS_CAP", "win_probability"]
