"""The examples in the public API's docstrings run as written."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import risk
import risk.maps.armies
import risk.maps.validate
import risk.rules.game
import risk.textfile


def examples(module: ModuleType) -> list[doctest.DocTest]:
    """The module's docstring examples, to run in its namespace. A module compiled by mypyc keeps no
    docstrings: its examples are read from its source and run on the compiled module all the same."""
    file = Path(module.__file__ or "")
    if file.suffix == ".py":
        return doctest.DocTestFinder().find(module)
    spec = importlib.util.spec_from_file_location(
        f"_source_of_{module.__name__}", file.with_name(file.name.split(".")[0] + ".py")
    )
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = source  # (the state's fields are read through sys.modules)
    try:
        spec.loader.exec_module(source)
    finally:
        del sys.modules[spec.name]
    return doctest.DocTestFinder().find(source, module.__name__, globs=vars(module))


@pytest.mark.parametrize(
    "module", [risk, risk.rules.game, risk.textfile, risk.maps.validate, risk.maps.armies]
)
def test_docstring_examples(module: ModuleType) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in examples(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0 and result.failed == 0
