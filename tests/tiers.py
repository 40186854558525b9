"""The two tiers of the suite (docs/testing.md): `make test` plays a representative part of each long
sweep, `make test-all` plays all of it. A case this module marks ``slow`` is left to `make test-all`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest


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
