"""risk.odds_float, the bots' compiled float path of the battle odds: the very floats of risk.odds."""

from __future__ import annotations

import random
from unittest.mock import patch

import pytest

import risk.odds
from risk.bots.battle_odds import ODDS_CAP, win_probability
from risk.odds import chain, clear_cache, invasion
from risk.odds_float import attacker_wins, chain_odds


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


def chains(count: int, seed: int) -> list[tuple[int, tuple[int, ...]]]:
    """Chains of the sizes the warlord asks about (its stacks and the victims' territories, clamped to
    3 x ODDS_CAP armies in all), small ones most."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        attackers = rng.choice([rng.randint(0, 12), rng.randint(0, ODDS_CAP), rng.randint(0, 3 * ODDS_CAP)])
        length = rng.randint(1, 7)
        path = tuple(
            rng.choice([rng.randint(1, 4), rng.randint(1, 20), rng.randint(1, ODDS_CAP)])
            for _ in range(length)
        )
        found.append((attackers, path))
    return found


def test_a_chain_gets_the_floats_of_risk_odds_summed_in_lists() -> None:
    # risk.odds sums the long diagonals of a chain's later territories in NumPy, whose dot fuses a
    # multiply and an add where a diagonal ends: there the two differ in the last bit (below). Summed
    # in lists as here, risk.odds gives the very same floats.
    with patch.object(risk.odds, "_VECTORISE_FROM", 10**9):
        differing = [
            (attackers, path)
            for attackers, path in chains(1500, seed=1)
            if chain_odds(attackers, path)
            != (chain(attackers, path).takes_all, chain(attackers, path).expected_conquered)
        ]
    assert differing == []


def test_a_chain_agrees_with_risk_odds_to_the_last_bits() -> None:
    checked = 0
    for attackers, path in chains(1500, seed=2):
        exact = chain(attackers, path)
        takes_all, expected = chain_odds(attackers, path)
        assert takes_all == pytest.approx(exact.takes_all, rel=1e-12, abs=1e-300)
        assert expected == pytest.approx(exact.expected_conquered, rel=1e-12)
        checked += 1
    assert checked == 1500
    assert chain_odds(5, (1, 1)) == (chain(5, (1, 1)).takes_all, chain(5, (1, 1)).expected_conquered)
    assert chain_odds(0, (3,)) == (0.0, 0.0)


@pytest.mark.parametrize(("attackers", "path"), [(-1, (2,)), (3, ()), (3, (2, 0))])
def test_a_chain_without_a_territory_or_armies_is_refused(attackers: int, path: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="need attackers >= 0"):
        chain_odds(attackers, path)
