"""An XSS attempt in player names, in a real browser (Debian's Chromium, Playwright, a real `risk serve`).

Names that would be markup if a page ever parsed them as HTML (an ``<svg onload>``, an ``<img onerror>``,
HTML entities) are given to a human seat and to bots. On every page that shows them, the lobby, the
board (players, log) and a finished game's summary, they must read as the text they are: the literal
name is on the page, no element came out of it, no script ran (no dialog), and the browser reported
no Content-Security-Policy violation (which an injected inline handler would have caused).
"""

from __future__ import annotations

from typing import Any

from live_server import request
from test_browser import LAPTOP, browser, port, shot, wait_until

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

NAMES = ["<svg onload=alert(1)>", "<img src=x onerror=f()>", "&lt;i&gt;Cy&amp;"]
WATCH = """() => {
  window.__violations = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
}"""
INJECTED = """() => document.querySelectorAll(
  'svg[onload], img[onerror], [onerror], [onload], img[src="x"], i, script:not([src])').length"""


def check_page(page: Any, names: list[str], dialogs: list[str]) -> None:
    text = page.locator("body").inner_text()
    for name in names:
        assert name in text, f"{name!r} is not shown as text on {page.url}"
    assert page.evaluate(INJECTED) == 0, f"markup came out of a name on {page.url}"
    assert page.evaluate("() => window.__violations") == [], page.url
    assert dialogs == []


def test_names_that_look_like_markup_are_shown_as_text(browser: Any, port: int) -> None:
    playing = request(
        port,
        "POST",
        "/api/games",
        {
            "seats": [
                {"kind": "human", "name": NAMES[0]},
                {"kind": "bot", "bot": "quick", "name": NAMES[1]},
                {"kind": "bot", "bot": "quick", "name": NAMES[2]},
            ],
            "seed": 31,
            "bot_delay": 0,
        },
    )
    finished = request(
        port,
        "POST",
        "/api/games",
        {"seats": [{"kind": "bot", "bot": "quick", "name": n} for n in NAMES], "seed": 32, "bot_delay": 0},
    )
    wait_until(
        lambda: request(port, "GET", f"/api/games/{finished['id']}")["status"] == "over",
        what="the bots to finish",
        timeout=180,
    )
    context = browser.new_context(viewport=LAPTOP)
    context.add_init_script(script=f"({WATCH})()")
    page = context.new_page()
    dialogs: list[str] = []
    errors: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.on("pageerror", lambda error: errors.append(str(error)))
    base = f"http://127.0.0.1:{port}"

    # The lobby lists both games with their players.
    page.goto(f"{base}/")
    page.locator(f'[data-game="{finished["id"]}"]').first.wait_for()
    page.locator(f'[data-game="{playing["id"]}"]').first.wait_for()
    check_page(page, NAMES, dialogs)
    shot(page, "xss-lobby")

    # The board of the human seat: the players' panel and the log name everyone.
    token = playing["seats"][0]["token"]
    page.goto(f"{base}/game/{playing['id']}#token={token}")
    page.wait_for_function("() => document.body.dataset.stateId !== undefined")
    page.locator("#players").get_by_text(NAMES[2]).first.wait_for()
    check_page(page, NAMES, dialogs)
    shot(page, "xss-board")

    # A finished game's summary: the result, the charts' legends, the luck meter.
    page.goto(f"{base}/game/{finished['id']}/summary")
    page.locator("#summary-body").wait_for(state="visible")
    check_page(page, NAMES, dialogs)
    shot(page, "xss-summary")
    assert errors == []
    context.close()
