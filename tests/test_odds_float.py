"""risk.odds_float, the bots' compiled float path of the battle odds: the very floats of risk.odds."""

from __future__ import annotations

import pytest

from risk.bots.battle_odds import ODDS_CAP, win_probability
from risk.odds import clear_cache, invasion
from risk.odds_float import attacker_wins


def test_every_battle_the_bots_ask_about_gets_the_floats_of_risk_odds() -> None:
    # Bit for bit, not approximately: the bots' choices, and so the golden records, rest on these floats.
    # risk.odds sweeps long diagonals (attackers >= 19) in NumPy; this module in lists: the same sums.
    differing = [
        (attackers, defenders)
        for attackers in range(1, ODDS_CAP + 1)
        for defenders in range(1, ODDS_CAP + 1)
        if attacker_wins(attackers, defenders) != invasion(attackers, defenders).attacker_wins
    ]
    clear_cache()
    assert differing == []


@pytest.mark.parametrize(("attackers", "defenders"), [(75, 3), (4, 90), (120, 119)])
def test_battles_beyond_the_bots_cap_agree_too(attackers: int, defenders: int) -> None:
    assert attacker_wins(attackers, defenders) == invasion(attackers, defenders).attacker_wins


def test_win_probability_clamps_big_battles_before_asking() -> None:
    assert win_probability(300, 150) == attacker_wins(ODDS_CAP, ODDS_CAP // 2)
    assert win_probability(0, 5) == 0.0 and win_probability(5, 0) == 1.0


@pytest.mark.parametrize(("attackers", "defenders"), [(0, 3), (-1, 2), (3, 0)])
def test_a_battle_without_armies_on_both_sides_is_refused(attackers: int, defenders: int) -> None:
    with pytest.raises(ValueError, match="must be at least 1"):
        attacker_wins(attackers, defenders)
