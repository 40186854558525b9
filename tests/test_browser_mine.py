"""The lobby's "Your games" (docs/web.md, "Your games") in a real browser against a real `risk serve`:
two games, one where it is this browser's move: that one comes first, with its time left in words,
then the game waiting for another player; a seat link pasted on this device joins the list; a link
whose token holds no seat is a line that says so, and the rest of the list is there. Screenshots go to
$RISK_SCREENSHOTS when it is set."""

from __future__ import annotations

import re
from typing import Any

import pytest

import test_browser
from live_server import post, request
from test_browser import LAPTOP, PHONE, shot
from test_browser_lobby import no_sideways_scrolling, open_lobby

browser = test_browser.browser
port = test_browser.port
expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

DAY = 86_400


def two_humans_game(port: int) -> tuple[str, list[str], int]:
    """A game of two humans and a bot with a day a turn: its id, the humans' tokens, the seat to act."""
    body = {
        "seats": [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "quick"},
        ],
        "turn_time": DAY,
        "seed": 5,
    }
    created = post(port, "/api/games", body)
    tokens = [s["token"] for s in created["seats"][:2]]
    view = request(port, "GET", f"/api/games/{created['id']}/view", token=tokens[0])["view"]
    return created["id"], tokens, view["to_act"]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_your_move_first_then_the_games_waiting_for_others(
    browser: Any, port: int, viewport: dict[str, int]
) -> None:
    waiting_id, waiting_tokens, waiting_to_act = two_humans_game(port)
    mine_id, mine_tokens, mine_to_act = two_humans_game(port)
    assert waiting_to_act in (0, 1) and mine_to_act in (0, 1)  # seed 5: a human starts
    held = [
        {
            "game": waiting_id,
            "seat": 1 - waiting_to_act,
            "token": waiting_tokens[1 - waiting_to_act],
            "mine": True,
        }
    ]
    page = open_lobby(browser, port, viewport)
    page.evaluate("held => localStorage.setItem('risk.seats.v1', JSON.stringify(held))", held)
    page.reload()
    # The held game drawn first: its line, put in above the fold, moves the fold down (a click aimed
    # before that landed elsewhere on a loaded machine and the fold stayed shut: CI met it).
    expect(page.locator("#my-games .game-item")).to_have_count(1, timeout=15_000)
    # The game where it is this browser's move is added from its link, pasted, as from another device.
    page.click(".seat-links summary")
    expect(page.locator("#seat-link")).to_be_visible()
    page.fill("#seat-link", f"http://127.0.0.1:{port}/game/{mine_id}#token={mine_tokens[mine_to_act]}")
    page.click("#add-seat-link button[type=submit]")
    page.fill("#seat-link", f"http://127.0.0.1:{port}/game/{mine_id}#token={'x' * 32}")
    page.click("#add-seat-link button[type=submit]")
    items = page.locator("#my-games .game-item")
    expect(items).to_have_count(3, timeout=15_000)
    expect(items.nth(0)).to_have_attribute("data-game", mine_id)
    statuses = [items.nth(i).locator(".gi-status").inner_text() for i in range(3)]
    assert re.fullmatch(r"Your move: (1 day|23 hours \d+ minutes?) left", statuses[0]), statuses
    waiting_name = ["Ann", "Bob"][waiting_to_act]
    assert re.fullmatch(rf"{waiting_name}'s move: (1 day|23 hours \d+ minutes?) left", statuses[1]), statuses
    assert statuses[2].startswith("This link does not work"), statuses
    expect(items.nth(0)).to_have_class(re.compile("your-move"))
    expect(items.nth(0).locator("a", has_text="Play now")).to_have_attribute(
        "href", re.compile(rf"/game/{mine_id}#token=")
    )
    no_sideways_scrolling(page)
    assert not page.errors
    shot(page, f"mine-{'laptop' if viewport is LAPTOP else 'phone'}")
    page.context.close()


def test_a_link_pasted_before_the_page_is_ready_is_taken(browser: Any, port: int) -> None:
    """The seat-link form works from the first moment: pasted while the page still waits for the
    server (its /api/meta held back here), the link is added, not submitted by the browser as a
    form (which reloaded the page and lost it: CI met it on a loaded machine)."""
    game_id, tokens, to_act = two_humans_game(port)
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    held_back: list[Any] = []
    page.route("**/api/meta", lambda route: held_back.append(route))
    page.goto(f"http://127.0.0.1:{port}/")
    page.click(".seat-links summary")
    page.fill("#seat-link", f"http://127.0.0.1:{port}/game/{game_id}#token={tokens[to_act]}")
    page.click("#add-seat-link button[type=submit]")
    assert held_back, "the page asked for /api/meta"
    for route in held_back:
        route.continue_()
    items = page.locator("#my-games .game-item")
    expect(items).to_have_count(1, timeout=15_000)
    expect(items.nth(0)).to_have_attribute("data-game", game_id)
    assert page.url == f"http://127.0.0.1:{port}/"  # no reload: the form was not submitted
    context.close()
