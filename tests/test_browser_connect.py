"""The game page's connection in a real browser (Debian's Chromium, a real `risk serve`): a connection
the server never answers (a handshake or a hello lost on the way, seen on a loaded CI machine as a
page left "Connecting…" for a minute) is dropped after a while and tried again, and the page plays.

Playwright's WebSocket routing takes the page's first connection and answers nothing; the second is
let through to the server. Playwright's clock runs the page's timers on, so the wait is not real.
"""

from __future__ import annotations

import re
from typing import Any

from live_server import request
from test_browser import LAPTOP, browser, port

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

HELLO_WAIT_MS = 20_000  # api.js HELLO_WAIT


def test_a_connection_the_server_never_answers_is_dropped_and_tried_again(browser: Any, port: int) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 2
    created = request(port, "POST", "/api/games", {"seats": seats, "seed": 3, "options": {"setup": "deal"}})
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    tries: list[str] = []

    def route(ws: Any) -> None:
        tries.append(ws.url)
        if len(tries) > 1:
            ws.connect_to_server()
        # The first is held: open to the page, and nothing ever comes back.

    page.route_web_socket(re.compile(r"/api/games/[^/]+/ws$"), route)
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator('#conn[data-status="connecting"]').wait_for(timeout=30_000)
    assert len(tries) == 1
    page.clock.run_for(HELLO_WAIT_MS - 1_000)
    assert page.locator("#conn").get_attribute("data-status") == "connecting", "dropped too soon"
    # Past the wait: the page drops the silent connection and tries again (after at most 0.5 s).
    page.clock.run_for(1_000 + 600)
    page.locator('#conn[data-status="open"]').wait_for(timeout=30_000)
    assert len(tries) == 2
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    assert page.locator("#banner").is_hidden()
    assert errors == []
    page.close()
