"""The examples in the public API's docstrings run as written."""

from __future__ import annotations

import doctest

import pytest

import risk
import risk.rules.game
import risk.textfile


@pytest.mark.parametrize("module", [risk, risk.rules.game, risk.textfile])
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
