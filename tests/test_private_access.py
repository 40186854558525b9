"""Outside the rules core, nothing reads another object's private attributes (issue 22): bots and
front ends read games through ``risk.View``. ruff's private-member rule (SLF001, configured in
pyproject.toml) enforces it in ``make test``; these tests check that the configuration does."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUFF = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")


def private_reads(path: str, source: str) -> list[str]:
    """The SLF001 findings of ruff, with the project's configuration, for ``source`` placed at ``path``."""
    assert RUFF is not None, "ruff is a dev dependency (pip install -e '.[dev]')"
    result = subprocess.run(
        [RUFF, "check", "--no-cache", "--output-format", "json", "--stdin-filename", path, "-"],
        input=source,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return [found["message"] for found in json.loads(result.stdout) if found["code"] == "SLF001"]


READS_THE_GAME = "def decide(view, master):\n    return view._game.owner, master._store(print)\n"


OUTSIDE_THE_CORE = [
    "src/risk/bots/quick.py",
    "src/risk/bots/protocol.py",
    "src/risk/server/chat.py",
    "src/risk/tui/rounds.py",
]


@pytest.mark.parametrize("path", OUTSIDE_THE_CORE)
def test_private_reads_are_refused_outside_the_rules_core(path: str) -> None:
    assert len(private_reads(path, READS_THE_GAME)) == 2


def test_the_rules_core_may_read_its_own_games() -> None:
    assert private_reads("src/risk/rules/determinise.py", READS_THE_GAME) == []


def test_no_private_read_is_left_in_the_package() -> None:
    result = subprocess.run(
        [RUFF, "check", "--no-cache", "--select", "SLF001", "src", "benchmarks", "tools"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stdout
