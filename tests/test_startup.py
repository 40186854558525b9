"""What starting a `risk` command loads: only what the command uses (benchmarks/bench_startup.py times it).

Each check runs in a fresh interpreter, since this test process has imported everything already.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

import risk

# Modules that a short command must not pay for unless it uses them.
HEAVY = ("numpy", "fastapi", "sqlalchemy", "uvicorn", "matplotlib", "alembic", "psycopg")
OTHER_COMMANDS = ("risk.tui", "risk.server", "risk.play.tournament", "risk.bots.protocol")


def modules_after(code: str) -> set[str]:
    """The modules loaded once ``code`` has run in a fresh Python."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(result.stdout.splitlines()[-1]))


def loaded(modules: set[str], prefixes: tuple[str, ...]) -> set[str]:
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)}


def test_the_risk_command_loads_no_other_command_nor_heavy_library() -> None:
    modules = modules_after("import risk.cli.main")
    assert loaded(modules, HEAVY) == set()
    assert loaded(modules, OTHER_COMMANDS) == set()


def test_a_simulated_game_loads_no_heavy_library() -> None:
    code = (
        "import contextlib, io, sys\n"
        "from risk.cli.main import app\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    app(['simulate', '--games', '1', '--json'], standalone_mode=False)"
    )
    modules = modules_after(code)
    assert "risk.play.simulate" in modules
    assert loaded(modules, HEAVY) == set()
    assert loaded(modules, OTHER_COMMANDS) == set()


def test_small_battles_need_no_numpy_and_large_ones_load_it() -> None:
    assert "numpy" not in modules_after("from risk.odds import invasion; invasion(12, 10)")
    assert "numpy" in modules_after("from risk.odds import invasion; invasion(200, 150)")


def test_importing_risk_loads_the_rules_only_when_asked() -> None:
    assert "risk.rules.game" not in modules_after("import risk")
    assert "risk.rules.game" in modules_after("import risk; risk.Game")


PUBLIC_MODULES = (
    "risk.errors",
    "risk.maps",
    "risk.record",
    "risk.rules.actions",
    "risk.rules.game",
    "risk.rules.options",
    "risk.view",
)


@pytest.mark.parametrize("name", risk.__all__)
def test_every_public_name_of_risk_is_the_object_its_module_defines(name: str) -> None:
    value = getattr(risk, name)
    assert any(getattr(importlib.import_module(module), name, None) is value for module in PUBLIC_MODULES)


def test_an_unknown_name_of_risk_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Gmae'"):
        risk.Gmae  # noqa: B018
    assert set(risk.__all__) <= set(dir(risk))
