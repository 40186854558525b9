"""Debian's Chromium for the browser tests, driven by Playwright: one browser for the whole run.

Each test opens contexts of its own in it (cookies, storage and pages apart); a module's leftover
contexts are closed when the module ends (tests/test_browser.py's ``browser`` fixture). Launching it
once instead of once per module saves about 1.5 s of CPU a module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]


def require_chromium() -> None:
    """Debian's Chromium, which the browser tests drive: a failure in CI (.ci/run installs it), elsewhere
    the test is left out with what to install."""
    if not CHROMIUM.exists():
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail("Debian's Chromium is missing: .ci/run installs it (apt-get install chromium)")
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")


def launched() -> Iterator[Any]:
    """Chromium, headless, until the generator is closed."""
    require_chromium()
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield browser
        browser.close()
