"""The bots' battle odds: the probability that an invasion succeeds, from the exact odds of :mod:`risk.odds`.

Shared by the heuristic bots, the expert dice and the 2-player decisions; it imports none of them. The
odds come from :mod:`risk.odds_float`, the float sweep of :mod:`risk.odds` for this one question, which
mypyc compiles (docs/compiled.md): the same floats as ``invasion(a, d).attacker_wins``.
"""

from __future__ import annotations

from functools import cache

from risk.odds_float import attacker_wins

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
    return attacker_wins(attackers, defenders)


__all__ = ["ODDS_CAP", "win_probability"]
