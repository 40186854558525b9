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


GAME_PAGE_SIGNS = """() => ({
  state_shown: document.body.dataset.stateId || null,
  badges: document.querySelectorAll('.board-svg .badge').length,
  empty_badges: document.querySelectorAll('.board-svg .badge.empty').length,
  status: (document.querySelector('#phase') || {}).textContent || null,
  toasts: [...document.querySelectorAll('#toasts > *')].map((t) => t.textContent),
})"""


def wait_or_explain(
    page: Any,
    expression: str,
    timeout: float,
    port: int,
    game_id: str | None = None,
    errors: list[str] | None = None,
) -> None:
    """``page.wait_for_function(expression)``; when the time is up, a failure that says what the page
    showed, what its game is on the server, and what the server printed (a wait that fails in CI
    once in many runs must leave enough behind to find out why). ``errors``: the page's errors
    collected since it opened (else those from now on)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    from live_server import request, server_log

    if errors is None:
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        # polled by a timer, not by animation frames: a page the browser draws seldom is still asked
        page.wait_for_function(expression, timeout=timeout, polling=100)
    except PlaywrightTimeout:
        shown = page.evaluate(GAME_PAGE_SIGNS)
        try:
            game = request(port, "GET", f"/api/games/{game_id}") if game_id else None
        except Exception as error:  # what the server says (or that it said nothing) explains too
            game = repr(error)
        raise AssertionError(
            f"waited {timeout / 1000:.0f} s for {expression}\n"
            f"the page showed: {shown}\nits errors: {errors}\n"
            f"the game on the server: {game}\nthe server printed:\n{server_log(port)}"
        ) from None
