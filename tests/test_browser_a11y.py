"""An automated accessibility audit of every page, in a real browser (Debian's Chromium, Playwright).

axe-core (Deque Systems, MPL-2.0; vendored unmodified in tests/vendor/axe-core with its licence) runs
on the lobby, the board of a running game (the player's own page, in each phase a person meets first)
and the summary of a finished game, at a laptop's and a phone's width. No violation of impact
"serious" or "critical" may remain; the test prints every violation it finds so a failure says which
element and rule.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from live_server import request
from test_browser import LAPTOP, PHONE, browser, port, wait_until

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = {"serious", "critical"}
HUMAN_AND_BOTS = [
    {"kind": "human", "name": "Ann"},
    {"kind": "bot", "bot": "quick", "name": "Bob"},
    {"kind": "bot", "bot": "quick", "name": "Cy"},
]


def audit(page: Any) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now, the blocking ones only."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
          const found = await axe.run(document, {resultTypes: ['violations']});
          return found.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary.split('\\n')[1]),
          }));
        }"""
    )
    return [violation for violation in result if violation["impact"] in BLOCKING]


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['impact']} {violation['id']}: {violation['help']}")
        lines.extend(f"    {node}" for node in violation["nodes"][:8])
    return "\n".join(lines)


def assert_accessible(page: Any, where: str) -> None:
    violations = audit(page)
    assert not violations, f"{where}:\n{describe(violations)}"


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_lobby_has_no_serious_accessibility_violation(browser: Any, port: int, screen: dict) -> None:
    page = browser.new_page(viewport=screen, bypass_csp=True)  # lets the audit script in
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector("#create-game", state="visible")
    assert_accessible(page, f"lobby at {screen['width']} px")
    page.close()


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_board_has_no_serious_accessibility_violation(browser: Any, port: int, screen: dict) -> None:
    created = request(
        port,
        "POST",
        "/api/games",
        {"rules": "2008", "game": "secret-mission", "seats": HUMAN_AND_BOTS, "seed": 5, "bot_delay": 0},
    )
    token = created["seats"][0]["token"]
    page = browser.new_page(viewport=screen, bypass_csp=True)  # lets the audit script in
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.wait_for_function("() => document.body.dataset.stateId !== undefined")
    assert_accessible(page, f"board at {screen['width']} px")
    page.close()


@pytest.mark.parametrize("screen", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_the_summary_has_no_serious_accessibility_violation(browser: Any, port: int, screen: dict) -> None:
    bots = [{"kind": "bot", "bot": "quick", "name": name} for name in ("Ann", "Bob", "Cy")]
    created = request(port, "POST", "/api/games", {"seats": bots, "seed": 11, "bot_delay": 0})
    game_id = created["id"]
    wait_until(
        lambda: request(port, "GET", f"/api/games/{game_id}")["status"] == "over", "the bot game to end", 120
    )
    page = browser.new_page(viewport=screen, bypass_csp=True)  # lets the audit script in
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}/summary")
    page.wait_for_selector("svg", state="attached")
    assert_accessible(page, f"summary at {screen['width']} px")
    page.close()
