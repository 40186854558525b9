"""The two tiers of the suite (docs/testing.md): `make test` plays a representative part of each long
sweep, `make test-all` plays all of it. A case this module marks ``slow`` is left to `make test-all`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest


def only_in_test_all(cases: Iterable[Any], slow: Sequence[int]) -> list[Any]:
    """``cases`` for ``pytest.mark.parametrize``, those at the indexes ``slow`` marked slow: the long
    ones whose secrets, rules or paths the other cases cover too (each caller says which and why)."""
    marked = []
    for index, case in enumerate(cases):
        if isinstance(case, type(pytest.param())):
            values, marks, ident = case.values, list(case.marks), case.id
        else:
            values, marks, ident = (case if isinstance(case, tuple) else (case,)), [], None
        if index in slow:
            marks.append(pytest.mark.slow)
        marked.append(pytest.param(*values, marks=marks, id=ident))
    missing = [index for index in slow if not 0 <= index < len(marked)]
    if missing:
        raise ValueError(f"no case at {missing}: {len(marked)} cases")
    return marked


def sizes(quick: tuple[Any, ...], full: tuple[Any, ...]) -> list[Any]:
    """Two sizes of one sweep for ``pytest.mark.parametrize`` (a value per argument name): ``quick`` in
    `make test`, ``full`` (marked slow) in `make test-all`."""
    return [pytest.param(*quick, id="quick"), pytest.param(*full, id="full", marks=pytest.mark.slow)]
