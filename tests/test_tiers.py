"""`make test` names the files of a tier on pytest's command line (tests/tiers.py): a file left out of
its list would leave its tests out of the run without a word. The lists hold what the marks say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tiers import BOTH_BUILDS, files

TESTS = Path(__file__).parent
BROWSER_MARK = re.compile(r"mark\.browser|marks=\(BROWSER")


def test_every_file_with_browser_cases_is_in_the_browser_tier() -> None:
    listed = {Path(name).name for name in files("browser")}
    marked = {path.name for path in TESTS.glob("test_*.py") if BROWSER_MARK.search(path.read_text("utf-8"))}
    assert marked - listed == set()
    assert "test_browser.py" in listed and "test_doc_examples.py" in listed


def test_the_command_prints_the_paths_and_refuses_an_unknown_tier() -> None:
    root = TESTS.parent

    def command(tier: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "tests/tiers.py", tier], cwd=root, capture_output=True, text=True
        )

    printed = command("both-builds").stdout.split()
    assert printed == [f"tests/{name}" for name in sorted(BOTH_BUILDS)]
    refused = command("fast")
    assert refused.returncode != 0 and "no tier 'fast'" in refused.stderr
    with pytest.raises(SystemExit, match="both-builds or browser"):
        files("everything")
