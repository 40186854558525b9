"""Tests for risk.odds (exact battle odds) and the `risk odds` command."""

from __future__ import annotations

import itertools
import json
import math
from collections import defaultdict
from fractions import Fraction
from functools import cache

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from risk import odds as odds_module
from risk.cli.odds import CONTEXT_SETTINGS, odds_command
from risk.odds import BattleOdds, chain, clear_cache, invasion, roll_outcomes

# ---------------------------------------------------------------------------------------------
# An independent, deliberately plain reference: enumerate dice, recurse over states.
# ---------------------------------------------------------------------------------------------


@cache
def reference_roll(attacker_dice: int, defender_dice: int) -> dict[tuple[int, int], Fraction]:
    counts: dict[tuple[int, int], int] = defaultdict(int)
    throws = list(itertools.product(range(1, 7), repeat=attacker_dice + defender_dice))
    for throw in throws:
        attack = sorted(throw[:attacker_dice], reverse=True)
        defence = sorted(throw[attacker_dice:], reverse=True)
        attacker_losses = defender_losses = 0
        for pair in range(min(attacker_dice, defender_dice)):
            if attack[pair] > defence[pair]:
                defender_losses += 1
            else:
                attacker_losses += 1
        counts[attacker_losses, defender_losses] += 1
    return {losses: Fraction(count, len(throws)) for losses, count in counts.items()}


@cache
def reference_end_states(attackers: int, defenders: int, stop_at: int = 0) -> dict[tuple[int, int], Fraction]:
    """Distribution of the final (attackers, defenders) state, by plain recursion."""
    if defenders == 0 or attackers <= stop_at:
        return {(attackers, defenders): Fraction(1)}
    result: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for (attacker_losses, defender_losses), p in reference_roll(min(3, attackers), min(2, defenders)).items():
        for state, q in reference_end_states(
            attackers - attacker_losses, defenders - defender_losses, stop_at
        ).items():
            result[state] += p * q
    return dict(result)


def reference_win(attackers: int, defenders: int) -> Fraction:
    return sum((p for (_, d), p in reference_end_states(attackers, defenders).items() if d == 0), Fraction(0))


def reference_chain(attackers: int, path: tuple[int, ...]) -> tuple[list[Fraction], dict[int, Fraction]]:
    """(P(at least k taken) for k = 0..len(path), distribution of armies left in the last one)."""
    force = {attackers: Fraction(1)}
    at_least = [Fraction(1)]
    arrived: dict[int, Fraction] = {}
    for index, defenders in enumerate(path):
        survivors: dict[int, Fraction] = defaultdict(Fraction)
        for fighting, p in force.items():
            for (a, d), q in reference_end_states(fighting, defenders).items():
                if d == 0:
                    survivors[a] += p * q
        at_least.append(sum(survivors.values(), Fraction(0)))
        if index == len(path) - 1:
            arrived = {s: p for s, p in survivors.items() if p}
        force = {s - 1: p for s, p in survivors.items() if s >= 2}
    return at_least, arrived


# ---------------------------------------------------------------------------------------------
# Single roll
# ---------------------------------------------------------------------------------------------

# Over 6**(a+d) equally likely throws: (attacker_losses, defender_losses) -> count.
PUBLISHED_SINGLE_ROLLS: dict[tuple[int, int], dict[tuple[int, int], Fraction]] = {
    (1, 1): {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)},
    (2, 1): {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)},
    (3, 1): {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)},
    (1, 2): {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)},
    (2, 2): {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296), (2, 0): Fraction(581, 1296)},
    (3, 2): {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776), (2, 0): Fraction(2275, 7776)},
}


@pytest.mark.parametrize("dice", sorted(PUBLISHED_SINGLE_ROLLS))
def test_single_roll_matches_published_fractions(dice: tuple[int, int]) -> None:
    assert roll_outcomes(*dice) == PUBLISHED_SINGLE_ROLLS[dice]
    assert roll_outcomes(*dice) == reference_roll(*dice)


@pytest.mark.parametrize("dice", sorted(PUBLISHED_SINGLE_ROLLS))
def test_single_roll_removes_min_dice_armies(dice: tuple[int, int]) -> None:
    outcomes = roll_outcomes(*dice)
    assert sum(outcomes.values()) == 1
    assert {a + d for a, d in outcomes} == {min(dice)}


def test_roll_outcomes_returns_a_fresh_dict() -> None:
    outcomes = roll_outcomes(1, 1)
    outcomes.clear()
    assert roll_outcomes(1, 1) == PUBLISHED_SINGLE_ROLLS[1, 1]


@pytest.mark.parametrize(
    ("attacker_dice", "defender_dice", "message"),
    [(0, 1, "attacker_dice"), (4, 1, "attacker_dice"), (1, 0, "defender_dice"), (3, 3, "defender_dice")],
)
def test_roll_outcomes_rejects_bad_dice(attacker_dice: int, defender_dice: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        roll_outcomes(attacker_dice, defender_dice)


def test_roll_outcomes_rejects_non_integers() -> None:
    with pytest.raises(ValueError, match="integer"):
        roll_outcomes(2.0, 1)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Invasion
# ---------------------------------------------------------------------------------------------

# P(attacker conquers), A fighting armies (rows, 1..10) against D defenders (columns, 1..10),
# to three decimals: Osborne (2003), Table 3. Reproduced by the exact computation and by the
# independent reference solver above.
OSBORNE_TABLE = """
0.417 0.106 0.027 0.007 0.002 0.000 0.000 0.000 0.000 0.000
0.754 0.363 0.206 0.091 0.049 0.021 0.011 0.005 0.003 0.001
0.916 0.656 0.470 0.315 0.206 0.134 0.084 0.054 0.033 0.021
0.972 0.785 0.642 0.477 0.359 0.253 0.181 0.123 0.086 0.057
0.990 0.890 0.769 0.638 0.506 0.397 0.297 0.224 0.162 0.118
0.997 0.934 0.857 0.745 0.638 0.521 0.423 0.329 0.258 0.193
0.999 0.967 0.910 0.834 0.736 0.640 0.536 0.446 0.357 0.287
1.000 0.980 0.947 0.888 0.818 0.730 0.643 0.547 0.464 0.380
1.000 0.990 0.967 0.930 0.873 0.808 0.726 0.646 0.558 0.480
1.000 0.994 0.981 0.954 0.916 0.861 0.800 0.724 0.650 0.568
"""


def test_osborne_table_of_attacker_wins() -> None:
    rows = [[float(cell) for cell in line.split()] for line in OSBORNE_TABLE.strip().splitlines()]
    for attackers, row in enumerate(rows, 1):
        for defenders, published in enumerate(row, 1):
            exact = invasion(attackers, defenders, exact=True).attacker_wins
            assert exact == reference_win(attackers, defenders), (attackers, defenders)
            assert abs(float(exact) - published) <= 0.0005, (attackers, defenders)
            assert invasion(attackers, defenders).attacker_wins == pytest.approx(float(exact), abs=1e-14)


@pytest.mark.parametrize(
    ("attackers", "defenders", "attacker_wins"),
    [
        (1, 1, Fraction(5, 12)),  # 0.4167
        (2, 1, Fraction(1955, 2592)),  # 0.7542
        (3, 1, Fraction(342035, 373248)),  # 0.9164
        (1, 2, Fraction(275, 2592)),  # 0.1061
        (2, 2, Fraction(235, 648)),  # 0.3627
        (3, 2, Fraction(6610505, 10077696)),  # 0.6560
        (3, 3, Fraction(511817135, 1088391168)),  # 0.4703
    ],
)
def test_well_known_attacker_wins(attackers: int, defenders: int, attacker_wins: Fraction) -> None:
    assert invasion(attackers, defenders, exact=True).attacker_wins == attacker_wins
    assert invasion(attackers, defenders).attacker_wins == pytest.approx(float(attacker_wins), abs=1e-15)


@pytest.mark.parametrize(
    ("attackers", "defenders", "rounded"),
    [(1, 1, 0.4167), (2, 1, 0.7542), (3, 1, 0.9164), (1, 2, 0.1061), (2, 2, 0.3627), (3, 3, 0.4703)],
)
def test_well_known_attacker_wins_to_four_decimals(attackers: int, defenders: int, rounded: float) -> None:
    assert round(invasion(attackers, defenders).attacker_wins, 4) == rounded


def test_three_against_two_full_result() -> None:
    odds = invasion(3, 2, exact=True)
    assert odds.attacker_survivors == {
        1: Fraction(906815, 10077696),
        2: Fraction(326375, 1679616),
        3: Fraction(1445, 3888),
    }
    assert odds.defender_survivors == {1: Fraction(1269541, 10077696), 2: Fraction(366275, 1679616)}
    assert odds.expected_attacker_losses == Fraction(14173453, 10077696)
    assert odds.expected_defender_losses == Fraction(14490551, 10077696)
    assert odds.defender_wins == 1 - odds.attacker_wins


@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at"), [(12, 9, 0), (20, 7, 3), (7, 20, 1), (15, 15, 5)]
)
def test_invasion_matches_reference_solver(attackers: int, defenders: int, stop_at: int) -> None:
    exact = invasion(attackers, defenders, stop_at=stop_at, exact=True)
    assert exact.outcomes == reference_end_states(attackers, defenders, stop_at)
    floats = invasion(attackers, defenders, stop_at=stop_at)
    assert floats.outcomes.keys() == exact.outcomes.keys()
    for state, p in exact.outcomes.items():
        assert floats.outcomes[state] == pytest.approx(float(p), rel=1e-12, abs=1e-300)


def test_expected_losses_follow_from_outcomes() -> None:
    odds = invasion(9, 6, stop_at=2, exact=True)
    assert odds.expected_attacker_losses == sum((9 - a) * p for (a, _), p in odds.outcomes.items())
    assert odds.expected_defender_losses == sum((6 - d) * p for (_, d), p in odds.outcomes.items())


def test_float_agrees_with_exact_on_a_large_battle() -> None:
    exact = invasion(150, 120, exact=True)
    floats = invasion(150, 120)
    assert floats.attacker_wins == pytest.approx(float(exact.attacker_wins), rel=1e-12)
    assert floats.expected_attacker_losses == pytest.approx(float(exact.expected_attacker_losses), rel=1e-12)
    assert floats.expected_defender_losses == pytest.approx(float(exact.expected_defender_losses), rel=1e-12)


def assert_floats_match_exact(floats: BattleOdds[float], exact: BattleOdds[Fraction]) -> None:
    """Same end states, each probability equal up to float rounding."""
    assert floats.outcomes.keys() == exact.outcomes.keys()
    for state, p in exact.outcomes.items():
        assert floats.outcomes[state] == pytest.approx(float(p), rel=1e-12, abs=1e-300), state
    assert floats.attacker_survivors.keys() == exact.attacker_survivors.keys()
    assert floats.defender_survivors.keys() == exact.defender_survivors.keys()
    for field in ("attacker_wins", "expected_attacker_losses", "expected_defender_losses"):
        assert getattr(floats, field) == pytest.approx(float(getattr(exact, field)), rel=1e-12), field


# Small and large, lopsided, stopping early: every part of the float engine (the 3-against-2 bulk
# in lists and in NumPy, the rows and columns of one or two dice) against the exact engine.
@pytest.mark.parametrize(
    ("attackers", "defenders", "stop_at"),
    [
        (40, 35, 0),
        (64, 3, 0),
        (3, 64, 0),
        (2, 41, 0),
        (1, 30, 0),
        (30, 1, 0),
        (2, 30, 1),
        (50, 50, 1),
        (50, 50, 2),
        (45, 30, 7),
        (21, 60, 20),
        (100, 80, 0),
        (120, 2, 5),
    ],
)
def test_float_engine_matches_exact_outcome_by_outcome(attackers: int, defenders: int, stop_at: int) -> None:
    exact = invasion(attackers, defenders, stop_at=stop_at, exact=True)
    assert_floats_match_exact(invasion(attackers, defenders, stop_at=stop_at), exact)


@settings(max_examples=40, deadline=None)
@given(
    attackers=st.integers(min_value=0, max_value=70),
    defenders=st.integers(min_value=1, max_value=70),
    stop_at=st.integers(min_value=0, max_value=12),
)
def test_float_engine_matches_exact_everywhere(attackers: int, defenders: int, stop_at: int) -> None:
    exact = invasion(attackers, defenders, stop_at=stop_at, exact=True)
    assert_floats_match_exact(invasion(attackers, defenders, stop_at=stop_at), exact)


@pytest.mark.parametrize(("attackers", "defenders", "stop_at"), [(30, 25, 0), (40, 9, 1), (26, 40, 4)])
def test_list_and_numpy_sweeps_agree(
    monkeypatch: pytest.MonkeyPatch, attackers: int, defenders: int, stop_at: int
) -> None:
    results = []
    for threshold in (0, 10**9):  # every diagonal in NumPy, then every one in Python lists
        monkeypatch.setattr(odds_module, "_VECTORISE_FROM", threshold)
        clear_cache()
        results.append(invasion(attackers, defenders, stop_at=stop_at))
    clear_cache()
    in_numpy, in_lists = results
    assert in_numpy.outcomes.keys() == in_lists.outcomes.keys()
    for state, p in in_lists.outcomes.items():
        assert in_numpy.outcomes[state] == pytest.approx(p, rel=1e-13), state


def test_float_chain_matches_exact_chain() -> None:
    path = [5, 12, 3, 20, 1, 7]
    exact = chain(60, path, exact=True)
    floats = chain(60, path)
    assert floats.at_least == pytest.approx([float(p) for p in exact.at_least], rel=1e-12)
    assert floats.arrived.keys() == exact.arrived.keys()
    for survivors, p in exact.arrived.items():
        assert floats.arrived[survivors] == pytest.approx(float(p), rel=1e-12, abs=1e-300)
    assert floats.expected_conquered == pytest.approx(float(exact.expected_conquered), rel=1e-12)


def test_thousand_against_thousand_is_a_distribution() -> None:
    odds = invasion(1000, 1000)
    assert math.fsum(odds.outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    assert math.fsum(odds.attacker_survivors.values()) == pytest.approx(odds.attacker_wins, abs=1e-12)
    assert 0.998 < odds.attacker_wins < 0.999
    assert all(p > 0 for p in odds.outcomes.values())


def test_no_attackers_cannot_win() -> None:
    odds = invasion(0, 4, exact=True)
    assert odds.attacker_wins == 0
    assert odds.outcomes == {(0, 4): 1}
    assert odds.expected_attacker_losses == odds.expected_defender_losses == 0


def test_stop_at_or_above_attackers_means_no_battle() -> None:
    odds = invasion(4, 3, stop_at=4)
    assert odds.outcomes == {(4, 3): 1.0}
    assert odds.defender_survivors == {3: 1.0}
    assert odds.attacker_wins == 0


def test_stopped_attacker_keeps_its_armies() -> None:
    odds = invasion(10, 5, stop_at=3, exact=True)
    failed_attackers = {a for (a, d) in odds.outcomes if d > 0}
    assert failed_attackers == {2, 3}  # a roll costs the attacker at most two armies
    assert min(odds.attacker_survivors) == 4


def test_results_are_isolated_from_the_cache() -> None:
    first = invasion(6, 4)
    first.attacker_survivors.clear()
    first.outcomes.clear()
    again = invasion(6, 4)
    assert again.attacker_survivors
    assert math.fsum(again.outcomes.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"attackers": -1, "defenders": 3}, "attackers"),
        ({"attackers": 3, "defenders": 0}, "defenders"),
        ({"attackers": 3, "defenders": 2, "stop_at": -1}, "stop_at"),
        ({"attackers": 3.5, "defenders": 2}, "attackers"),
    ],
)
def test_invasion_rejects_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        invasion(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------

small_attackers = st.integers(min_value=0, max_value=30)
small_defenders = st.integers(min_value=1, max_value=30)


@settings(max_examples=60, deadline=None)
@given(attackers=small_attackers, defenders=small_defenders, stop_at=st.integers(min_value=0, max_value=10))
def test_distributions_sum_to_one_exactly(attackers: int, defenders: int, stop_at: int) -> None:
    odds = invasion(attackers, defenders, stop_at=stop_at, exact=True)
    assert sum(odds.outcomes.values()) == 1
    assert sum(odds.attacker_survivors.values()) == odds.attacker_wins
    assert sum(odds.defender_survivors.values()) == 1 - odds.attacker_wins
    assert all(p > 0 for p in odds.outcomes.values())


@settings(max_examples=60, deadline=None)
@given(attackers=small_attackers, defenders=small_defenders)
def test_more_attackers_never_hurt_more_defenders_never_help(attackers: int, defenders: int) -> None:
    wins = invasion(attackers, defenders, exact=True).attacker_wins
    assert invasion(attackers + 1, defenders, exact=True).attacker_wins >= wins
    assert invasion(attackers, defenders + 1, exact=True).attacker_wins <= wins


@settings(max_examples=40, deadline=None)
@given(attackers=small_attackers, defenders=small_defenders, stop_at=st.integers(min_value=0, max_value=10))
def test_giving_up_earlier_never_helps(attackers: int, defenders: int, stop_at: int) -> None:
    patient = invasion(attackers, defenders, stop_at=stop_at, exact=True)
    hasty = invasion(attackers, defenders, stop_at=stop_at + 1, exact=True)
    assert hasty.attacker_wins <= patient.attacker_wins


@settings(max_examples=40, deadline=None)
@given(attackers=small_attackers, defenders=small_defenders)
def test_stop_at_zero_is_a_plain_invasion(attackers: int, defenders: int) -> None:
    assert invasion(attackers, defenders, stop_at=0, exact=True) == invasion(attackers, defenders, exact=True)
    assert invasion(attackers, defenders, stop_at=0) == invasion(attackers, defenders)


@settings(max_examples=40, deadline=None)
@given(attackers=small_attackers, defenders=small_defenders)
def test_chain_of_one_territory_is_an_invasion(attackers: int, defenders: int) -> None:
    single = invasion(attackers, defenders, exact=True)
    one_step = chain(attackers, [defenders], exact=True)
    assert one_step.takes_all == single.attacker_wins
    assert one_step.at_least == (1, single.attacker_wins)
    assert one_step.arrived == single.attacker_survivors
    floats = chain(attackers, [defenders])
    assert floats.takes_all == pytest.approx(float(single.attacker_wins), abs=1e-14)


@settings(max_examples=40, deadline=None)
@given(
    attackers=st.integers(min_value=0, max_value=25),
    path=st.lists(st.integers(min_value=1, max_value=8), min_size=1, max_size=4),
)
def test_chain_matches_reference(attackers: int, path: list[int]) -> None:
    odds = chain(attackers, path, exact=True)
    at_least, arrived = reference_chain(attackers, tuple(path))
    assert list(odds.at_least) == at_least
    assert odds.arrived == arrived
    assert odds.takes_all == at_least[-1] == sum(arrived.values(), Fraction(0))
    assert odds.expected_conquered == sum(k * odds.exactly(k) for k in range(len(path) + 1))
    assert sum(odds.exactly(k) for k in range(len(path) + 1)) == 1
    floats = chain(attackers, path)
    assert floats.at_least == pytest.approx([float(p) for p in at_least], abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Chain
# ---------------------------------------------------------------------------------------------


def test_chain_leaves_one_army_behind_in_each_territory() -> None:
    # 2 fighting armies against 1 then 1: after the first conquest at most 1 army moves on.
    odds = chain(2, [1, 1], exact=True)
    first = invasion(2, 1, exact=True)
    assert odds.at_least[1] == first.attacker_wins
    # Only the branch where both survive continues, with 1 fighting army (1 vs 1: 5/12).
    assert odds.takes_all == first.attacker_survivors[2] * Fraction(5, 12)
    assert odds.arrived == {1: odds.takes_all}


def test_chain_stops_when_a_single_army_survives() -> None:
    odds = chain(1, [1, 1, 1], exact=True)
    assert odds.at_least == (1, Fraction(5, 12), 0, 0)
    assert odds.exactly(1) == Fraction(5, 12)
    assert odds.arrived == {}


@pytest.mark.parametrize(
    ("attackers", "path", "message"),
    [
        (-1, [1], "attackers"),
        (3, [], "at least one territory"),
        (3, [2, 0], r"defenders_path\[1\]"),
        (3, [2, -1], r"defenders_path\[1\]"),
    ],
)
def test_chain_rejects_bad_arguments(attackers: int, path: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chain(attackers, path)


def test_chain_exactly_rejects_out_of_range() -> None:
    with pytest.raises(ValueError, match="conquered"):
        chain(5, [2]).exactly(2)


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------


def make_app(**command_options: object) -> typer.Typer:
    """A stand-in for the main CLI, registering the command the same way."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Keep `odds` a subcommand, as in the real multi-command CLI."""

    app.command("odds", **command_options)(odds_command)  # type: ignore[arg-type]
    return app


runner = CliRunner()


def test_cli_table_output() -> None:
    result = runner.invoke(make_app(), ["odds", "3", "2"])
    assert result.exit_code == 0, result.output
    assert "Attacker conquers" in result.stdout
    assert "65.60%" in result.stdout
    assert "Attacker survivors" in result.stdout
    assert "Defender survivors" in result.stdout


def test_cli_table_bins_long_distributions() -> None:
    result = runner.invoke(make_app(), ["odds", "500", "300"])
    assert result.exit_code == 0, result.output
    assert "–" in result.stdout  # survivor counts are grouped into ranges
    assert len(result.stdout.splitlines()) < 80


def test_cli_json_output() -> None:
    result = runner.invoke(make_app(), ["odds", "10", "5", "--stop", "3", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    expected = invasion(10, 5, stop_at=3)
    assert payload["attacker_wins"] == pytest.approx(expected.attacker_wins)
    assert payload["stop_at"] == 3
    assert payload["expected_attacker_losses"] == pytest.approx(expected.expected_attacker_losses)
    assert payload["expected_defender_losses"] == pytest.approx(expected.expected_defender_losses)
    survivors = math.fsum(payload["attacker_survivors"].values()) + math.fsum(
        payload["defender_survivors"].values()
    )
    assert survivors == pytest.approx(1.0)
    assert math.fsum(outcome["probability"] for outcome in payload["outcomes"]) == pytest.approx(1.0)


def test_cli_chain_table_and_json() -> None:
    table = runner.invoke(make_app(), ["odds", "12", "--chain", "3, 2,4"])
    assert table.exit_code == 0, table.output
    assert "Takes all" in table.stdout
    result = runner.invoke(make_app(), ["odds", "12", "--chain", "3,2,4", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    expected = chain(12, [3, 2, 4])
    assert payload["attacker_wins"] == pytest.approx(expected.takes_all)
    assert payload["at_least"] == pytest.approx(list(expected.at_least))
    assert payload["defenders_path"] == [3, 2, 4]


@pytest.mark.parametrize(
    "args",
    [
        ["3", "0"],
        ["3", "x"],
        ["3"],
        ["3", "2", "--chain", "1"],
        ["3", "--chain", "1,,2"],
        ["3", "--chain", "a,b"],
        ["3", "--chain", ""],
        ["3", "--chain", "2,0"],
        ["3", "--chain", "2", "--stop", "1"],
        ["3", "2", "--stop", "-1"],
        ["3", "2", "--stop", "many"],
        ["--", "-3", "2"],
        ["20000", "3"],
    ],
)
def test_cli_bad_arguments_fail_with_one_line(args: list[str]) -> None:
    result = runner.invoke(make_app(), ["odds", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("risk odds: error:"), result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_cli_negative_number_with_recommended_context_settings() -> None:
    result = runner.invoke(make_app(context_settings=CONTEXT_SETTINGS), ["odds", "-3", "2"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "risk odds: error: A must be at least 0, got -3"


def test_cli_negative_number_with_plain_registration_is_a_usage_error() -> None:
    # Click reads "-3" as an unknown option before the command runs: still no traceback.
    result = runner.invoke(make_app(), ["odds", "-3", "2"])
    assert result.exit_code == 2
    assert "No such option" in result.stderr
    assert "Traceback" not in result.output


def test_the_risk_command_reads_a_negative_count_and_its_help_gives_the_usage_of_docs_odds() -> None:
    """docs/odds.md: ``risk odds -3 2`` gets the one-line check, and ``risk odds --help`` gives both
    forms of the command as the page's usage block does."""
    from pathlib import Path

    from risk.cli.main import app

    result = runner.invoke(app, ["odds", "-3", "2"])
    assert result.exit_code == 2
    assert result.stderr.strip() == "risk odds: error: A must be at least 0, got -3"
    page = (Path(__file__).resolve().parent.parent / "docs" / "odds.md").read_text(encoding="utf-8")
    assert "`risk odds -3 2` prints\n`risk odds: error: A must be at least 0, got -3`" in page
    usage = page.split("## Command line\n\n```\n", 1)[1].split("```", 1)[0].splitlines()
    help_text = " ".join(runner.invoke(app, ["odds", "--help"], terminal_width=200).stdout.split())
    assert usage == ["risk odds A D [--stop K] [--json]", "risk odds A --chain D1,D2,... [--json]"]
    assert all(line in help_text for line in usage), help_text
