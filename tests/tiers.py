"""The two tiers of the suite (docs/testing.md): `make test` plays a representative part of each long
sweep, `make test-all` plays all of it. A case this module marks ``slow`` is left to `make test-all`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

# The files whose tests `make test` runs on the other build too (docs/testing.md): the build check, and
# what the compiled core (tools/build_compiled.py's COMPILED: the rules, the map, the view, the bots'
# hot paths, the environments' observation and action space) could get differently from pure Python:
# whole games byte for byte, move generation, saved and copied states, the rules' worked examples,
# variants and properties, the fog and the view, the determiniser, the float odds, the bots' decisions
# and the environments' observations and legal actions.
BOTH_BUILDS = frozenset(
    {
        "test_compiled.py",
        "test_golden_records.py",
        "test_perft.py",
        "test_saved_states.py",
        "test_state_fields.py",
        "test_rulebook_examples.py",
        "test_rules_scenario.py",
        "test_variants.py",
        "test_variant_secrets.py",
        "test_engine_properties.py",
        "test_determinise.py",
        "test_fog.py",
        "test_view.py",
        "test_odds_float.py",
        "test_bots.py",
        "test_env.py",
    }
)

# The files whose tests are marked ``browser`` (tests/conftest.py), and the one file with browser cases
# among others (the doc examples that drive Chromium).
BROWSER_FILES = "test_browser"
BROWSER_CASES_ELSEWHERE = ("test_doc_examples.py",)


def only_in_test_all(cases: Sequence[tuple[Any, ...]], slow: Sequence[int]) -> list[Any]:
    """``cases`` (a tuple of values each) for ``pytest.mark.parametrize``, those at the indexes ``slow``
    marked slow: the long ones whose secrets, rules or paths the other cases cover too (each caller
    says which and why)."""
    missing = [index for index in slow if not 0 <= index < len(cases)]
    if missing:
        raise ValueError(f"no case at {missing}: {len(cases)} cases")
    return [
        pytest.param(*case, marks=[pytest.mark.slow] if index in slow else [])
        for index, case in enumerate(cases)
    ]


def sizes(quick: tuple[Any, ...], full: tuple[Any, ...]) -> list[Any]:
    """Two sizes of one sweep for ``pytest.mark.parametrize`` (a value per argument name): ``quick`` in
    `make test`, ``full`` (marked slow) in `make test-all`."""
    return [pytest.param(*quick, id="quick"), pytest.param(*full, id="full", marks=pytest.mark.slow)]


def files(tier: str) -> list[str]:
    """The test files that may hold the tests of ``tier`` (``both-builds``, ``browser``): `make test` names
    them on pytest's command line, so that a run of a few files does not collect (import) all of them
    (about 12 s of CPU a process)."""
    here = Path(__file__).parent
    if tier == "both-builds":
        names = sorted(BOTH_BUILDS)
    elif tier == "browser":
        names = sorted(p.name for p in here.glob(f"{BROWSER_FILES}*.py")) + list(BROWSER_CASES_ELSEWHERE)
    else:
        raise SystemExit(f"no tier {tier!r}: both-builds or browser")
    missing = [name for name in names if not (here / name).exists()]
    if missing:
        raise SystemExit(f"tests/tiers.py names files that are not there: {', '.join(missing)}")
    return [os.path.relpath(here / name) for name in names]


if __name__ == "__main__":
    print(" ".join(files(sys.argv[1] if len(sys.argv) > 1 else "")))
