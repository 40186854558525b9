"""The game page's connection in a real browser (Debian's Chromium, a real `risk serve`):

- a connection the server never answers (a handshake or a hello lost on the way, seen on a loaded CI
  machine as a page left "Connecting…" for a minute) is dropped after a while and tried again;
- a live connection that goes silent without closing (a network gone away: the pings go unanswered)
  is dropped and tried again, so a move is not sent into nothing.

Playwright's WebSocket routing stands between the page and the server (holding a connection, or
dropping what the server says); Playwright's clock runs the page's timers on, so no wait is real.
"""

from __future__ import annotations

import re
from typing import Any

from live_server import request
from test_browser import LAPTOP, browser, port

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

HELLO_WAIT_MS = 20_000  # api.js HELLO_WAIT
PING_EVERY_MS = 25_000  # api.js PING_EVERY


def game_on_a_clock(browser: Any, port: int, seed: int) -> tuple[dict[str, Any], Any, list[str]]:
    """A game of Ann and two bots, and a page (not yet opened on it) whose timers Playwright's clock
    runs; the page's errors collected."""
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 2
    body = {"seats": seats, "seed": seed, "options": {"setup": "deal"}}
    created = request(port, "POST", "/api/games", body)
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    return created, page, errors


def test_a_connection_the_server_never_answers_is_dropped_and_tried_again(browser: Any, port: int) -> None:
    created, page, errors = game_on_a_clock(browser, port, seed=3)
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


def test_a_connection_gone_silent_is_dropped_and_tried_again(browser: Any, port: int) -> None:
    created, page, errors = game_on_a_clock(browser, port, seed=4)
    tries: list[str] = []
    silent: list[bool] = []

    def route(ws: Any) -> None:
        tries.append(ws.url)
        server = ws.connect_to_server()
        first = len(tries) == 1
        # What the server says reaches the page until the first connection is made silent.
        server.on_message(lambda message: None if first and silent else ws.send(message))

    page.route_web_socket(re.compile(r"/api/games/[^/]+/ws$"), route)
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator('#conn[data-status="open"]').wait_for(timeout=30_000)
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    silent.append(True)
    page.clock.run_for(PING_EVERY_MS)  # a ping goes out; its answer never arrives
    assert page.locator("#conn").get_attribute("data-status") == "open" and len(tries) == 1
    page.clock.run_for(PING_EVERY_MS + 1_000)  # a whole interval unanswered: dropped, tried again
    page.locator('#conn[data-status="open"]').wait_for(timeout=30_000)
    assert len(tries) == 2
    assert errors == []
    page.close()
