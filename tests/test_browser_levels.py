"""The lobby's seat menu offers levels (easy, normal, hard, expert) in a real browser, and the game shows
which bot plays each level. Debian's Chromium driven by Playwright, a real `risk serve`.
Screenshots (laptop and phone) go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import json
import urllib.error
from typing import Any

import pytest

import test_browser
from live_server import request
from risk.bots import LEVELS
from test_browser import LAPTOP, PHONE, shot

browser = test_browser.browser
port = test_browser.port


def open_lobby(
    browser: Any, port: int, viewport: dict[str, int], **options: Any
) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator(".seat-row[data-seat='1'] .seat-bot option").first.wait_for(state="attached", timeout=30_000)
    return context, page, errors


def test_the_seat_menu_offers_levels_with_their_descriptions(browser: Any, port: int) -> None:
    context, page, errors = open_lobby(browser, port, LAPTOP)
    menu = page.locator(".seat-row[data-seat='1'] .seat-bot")
    levels = menu.locator("optgroup[label='Levels'] option")
    assert levels.evaluate_all("options => options.map(o => o.value)") == list(LEVELS)
    # Each level keeps its bot's name in sight, and a new bot seat starts at "normal".
    assert levels.evaluate_all("options => options.map(o => o.textContent)") == [
        name.capitalize() if level.bot_name == name else f"{name.capitalize()} ({level.bot_name})"
        for name, level in LEVELS.items()
    ]
    assert menu.input_value() == "normal"
    description = page.locator(".seat-row[data-seat='1'] .bot-desc")
    assert description.inner_text() == f"Normal: {LEVELS['normal'].description} (the quick bot)."
    # The bots stay available by name after the levels.
    bots = menu.locator("optgroup[label='Bots by name'] option")
    assert "beginner" in bots.evaluate_all("options => options.map(o => o.value)")

    menu.select_option("easy")
    assert description.inner_text() == f"Easy: {LEVELS['easy'].description} (the beginner bot)."
    assert page.locator(".seat-row[data-seat='1'] .seat-name").get_attribute("placeholder") == "Easy 2"
    page.locator(".seat-row[data-seat='2'] .seat-bot").select_option("hard")
    shot(page, "levels-lobby-laptop")

    page.locator("summary", has_text="Table settings").click()
    stand_in = page.locator("#stand-in")
    assert stand_in.locator("optgroup[label='Levels'] option").count() == len(LEVELS)
    page.fill("#bot-delay", "0")
    page.click("#create-game")
    play_now = page.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    game_id = (play_now.get_attribute("href") or "").split("/game/")[1].split("#")[0]
    seats = request(port, "GET", f"/api/games/{game_id}")["seats"]
    assert [(s["bot"], s["bot_label"]) for s in seats[1:]] == [
        ("easy", "easy · beginner"),
        ("hard", "hard · warlord"),
    ]
    # The game page names the level and the bot that plays it.
    page.goto(f"http://127.0.0.1:{port}{play_now.get_attribute('href')}")
    page.locator("text=bot · hard · warlord").first.wait_for(timeout=30_000)
    assert page.locator("text=bot · easy · beginner").count() >= 1
    shot(page, "levels-game-laptop")
    assert not errors, errors
    context.close()


def test_the_seat_menu_at_phone_width(browser: Any, port: int) -> None:
    context, page, errors = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    page.locator(".seat-row[data-seat='2'] .seat-bot").select_option("expert")
    description = page.locator(".seat-row[data-seat='2'] .bot-desc")
    assert description.inner_text() == f"Expert: {LEVELS['expert'].description} (the expert bot)."
    assert description.is_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the lobby is {width} px wide on a {PHONE['width']} px phone"
    page.locator("#seats").scroll_into_view_if_needed()
    shot(page, "levels-lobby-phone")
    assert not errors, errors
    context.close()


def test_the_server_takes_levels_for_seats_and_stand_ins(port: int) -> None:
    seats_asked = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "Expert"},
        {"kind": "bot", "bot": "easy"},
    ]
    created = request(
        port,
        "POST",
        "/api/games",
        {"seats": seats_asked, "seed": 4, "bot_delay": 0, "stand_in": "hard", "turn_time": 600},
    )
    seats = request(port, "GET", f"/api/games/{created['id']}")["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Expert 2", "Easy 3"]
    assert seats[1]["bot_label"] == "expert" and seats[0]["bot_label"] is None
    with pytest.raises(urllib.error.HTTPError) as refused:
        request(port, "POST", "/api/games", {"seats": [{"kind": "bot", "bot": "grandmaster"}] * 3})
    assert refused.value.code == 422
    message = json.loads(refused.value.read())["error"]["message"]
    assert "no bot or level 'grandmaster'; levels: easy, normal, hard, expert" in message
