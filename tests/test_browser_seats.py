"""The turn clock and seats in a real browser: Debian's Chromium driven by Playwright, a real `risk serve`.

- the turn clock with a short limit: it shows, counts down, runs out; the note appears in the log; the
  stand-in bot plays the seat; the player takes it back and the clock is theirs again;
- "Your turn": the title, the favicon, the sound and the notification (asked for after a click) when
  the tab is in the background;
- the seat opened on another device: the old page says so and offers to play there again;
- a game created in the lobby: the host hands an absent friend's seat to a bot, and resigns.
Screenshots (laptop and phone) go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import time
from typing import Any

import test_browser
from live_server import request
from test_browser import LAPTOP, PHONE, shot

# The same Chromium and `risk serve` fixtures as the board's browser tests (a server for this module).
browser = test_browser.browser
port = test_browser.port

TURN_ICON = "/static/img/favicon-turn.svg"

# Headless pages are never hidden; a test says when its tab is "in the background", and counts the
# notifications the page makes.
BACKGROUND = """
Object.defineProperty(Document.prototype, "hidden", {
  configurable: true, get() { return !!window.__hidden; },
});
window.__shown = [];
if (window.Notification) {
  const Real = window.Notification;
  window.Notification = class extends Real {
    constructor(title, options) { super(title, options); window.__shown.push(title); }
  };
}
"""


def create(port: int, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return request(port, "POST", "/api/games", {"seats": seats, "seed": 31, "bot_delay": 0.2} | extra)


def view(port: int, game_id: str, token: str | None = None) -> dict[str, Any]:
    return request(port, "GET", f"/api/games/{game_id}/view", token=token)


def wait_until(condition: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited in vain for {what}")
        time.sleep(0.05)


def open_seat(
    browser: Any, port: int, game_id: str, token: str, viewport: dict[str, int] = LAPTOP, **options: Any
) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    context.add_init_script(BACKGROUND)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    return page


def test_the_turn_clock_runs_out_and_the_stand_in_plays(browser: Any, port: int) -> None:
    ann = [{"kind": "human", "name": "Ann"}]
    game = create(
        port, ann + [{"kind": "bot", "bot": "quick"}] * 2, turn_time=5, missed_turns=1, stand_in="fortress"
    )
    game_id, token = game["id"], game["seats"][0]["token"]
    page = open_seat(browser, port, game_id, token)
    # Ann's turn to claim: the clock shows, for her, and counts down; the title and favicon say so.
    page.wait_for_function("() => document.title === 'Your turn · RISK'", timeout=30_000)
    clock = page.locator("#clock")
    clock.wait_for(state="visible", timeout=30_000)
    assert clock.get_attribute("data-seat") == "0" and clock.get_attribute("data-for") == "turn"
    assert "mine" in (clock.get_attribute("class") or "")
    assert page.locator("#favicon").get_attribute("href") == TURN_ICON
    first = page.locator("#clock-time").inner_text()
    page.wait_for_function(
        "t => document.querySelector('#clock-time').textContent !== t", arg=first, timeout=5_000
    )
    assert page.locator("#clock-time").inner_text() < first  # "0:04" after "0:05"
    assert "0:05 per turn" in (page.locator("#timer-info").text_content() or "")  # in "Your seat", folded
    shot(page, "clock-laptop")
    # It runs out: the note in the log, the stand-in bot in the players panel and in "Your seat".
    note = page.locator("#log li[data-kind='note']", has_text="The clock ran out for Ann")
    note.wait_for(timeout=30_000)
    assert "the fortress bot plays for Ann" in note.inner_text()
    # The same note is a line of the chat, for the page that was open when it was written.
    chat_note = page.locator("#chat-list li.chat-note", has_text="The clock ran out for Ann")
    assert chat_note.count() == 1 and page.locator("#chat-unread").inner_text() == "1"
    page.locator(".player-row[data-seat='0'] .tag-standin", has_text="fortress bot").wait_for(timeout=10_000)
    page.locator("#stand-in-note").wait_for(timeout=10_000)
    # The stand-in plays Ann's seat: her claims go on without her; the page offers her no moves.
    claims = page.locator("#log li[data-kind='claim']", has_text="Ann claims")
    claimed = claims.count()
    wait_until(lambda: claims.count() >= claimed + 2, "the stand-in to claim for Ann", timeout=60)
    assert page.title() != "Your turn · RISK" and page.locator("#controls button").count() == 0
    shot(page, "stand-in-laptop")
    # Ann takes the seat back: her clock again, her moves again.
    page.click("#stand-in-off")
    page.locator("#stand-in-on").wait_for(timeout=10_000)
    page.locator("#log li[data-kind='note']", has_text="Ann is back").wait_for(timeout=10_000)
    wait_until(lambda: view(port, game_id, token)["legal"] != [], "Ann's turn", timeout=60)
    page.wait_for_function("() => document.title === 'Your turn · RISK'", timeout=30_000)
    clock.wait_for(state="visible", timeout=10_000)
    assert view(port, game_id, token)["seats"][0]["stand_in"] is None
    assert page.errors == []
    page.context.close()


def test_your_turn_alerts_when_the_tab_is_in_the_background(browser: Any, port: int) -> None:
    game = create(
        port,
        [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "quick"}, {"kind": "bot", "bot": "quick"}],
    )
    game_id, token = game["id"], game["seats"][0]["token"]
    page = open_seat(browser, port, game_id, token)
    page.context.grant_permissions(["notifications"], origin=f"http://127.0.0.1:{port}")
    # Off until clicked: no sound, no notification.
    assert page.locator("#toggle-sound").get_attribute("aria-pressed") == "false"
    assert page.locator("#toggle-notify").get_attribute("aria-pressed") == "false"
    page.click("#seat-panel > summary")  # "Your seat" is folded away until opened
    page.click("#toggle-sound")
    page.click("#toggle-notify")
    assert page.locator("#toggle-sound").get_attribute("aria-pressed") == "true"
    page.locator("#toggle-notify[aria-pressed='true']").wait_for(timeout=10_000)
    assert (
        page.evaluate("() => localStorage.getItem('risk.sound') + ' ' + localStorage.getItem('risk.notify')")
        == "on on"
    )
    # Ann claims; the tab goes to the background; when her turn comes back, the page tells her.
    wait_until(lambda: view(port, game_id, token)["legal"] != [], "Ann's turn")
    page.wait_for_function("() => document.title === 'Your turn · RISK'", timeout=30_000)
    alerts = int(page.evaluate("() => document.body.dataset.turnAlerts || '0'"))
    page.evaluate("() => { window.__hidden = true; }")
    state = view(port, game_id, token)
    target = next(g["text"].split(" ", 1)[1] for g in state["legal"] if g["text"].startswith("claim "))
    request(
        port,
        "POST",
        f"/api/games/{game_id}/actions",
        {"action": f"claim {target}", "state_id": state["state_id"]},
        token,
    )
    page.wait_for_function("() => window.__shown.length > 0", timeout=30_000)
    assert page.evaluate("() => window.__shown") == ["Your turn · RISK"]
    assert (
        int(page.evaluate("() => document.body.dataset.turnAlerts")) == alerts + 2
    )  # the sound and the notification
    assert page.locator("#favicon").get_attribute("href") == TURN_ICON
    # Another player's turn: the favicon goes back.
    state = view(port, game_id, token)
    target = next(g["text"].split(" ", 1)[1] for g in state["legal"] if g["text"].startswith("claim "))
    request(
        port,
        "POST",
        f"/api/games/{game_id}/actions",
        {"action": f"claim {target}", "state_id": state["state_id"]},
        token,
    )
    page.wait_for_function("() => document.title !== 'Your turn · RISK'", timeout=30_000)
    assert page.locator("#favicon").get_attribute("href") == "/static/img/favicon.svg"
    assert page.errors == []
    page.context.close()


def test_the_seat_opened_on_another_device_continues_there(browser: Any, port: int) -> None:
    game = create(
        port,
        [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}, {"kind": "bot", "bot": "quick"}],
    )
    game_id, token = game["id"], game["seats"][0]["token"]
    laptop = open_seat(browser, port, game_id, token)
    laptop.locator(".player-row[data-seat='0'] .conn-dot.on").wait_for(timeout=10_000)
    phone = open_seat(
        browser, port, game_id, token, PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    # The laptop's page is told and stops; it does not try to reconnect on its own.
    laptop.locator("#moved-note").wait_for(timeout=10_000)
    assert laptop.locator("#conn").get_attribute("data-status") == "closed"
    laptop.wait_for_timeout(1500)
    assert laptop.locator("#conn").get_attribute("data-status") == "closed"
    assert (
        phone.locator("#conn").get_attribute("data-status") == "open" and phone.locator("#banner").is_hidden()
    )
    shot(phone, "seat-phone")
    # Playing here again: the laptop takes the seat back, and the phone is the one told.
    laptop.click("#play-here")
    phone.locator("#moved-note").wait_for(timeout=10_000)
    laptop.locator("#conn[data-status='open']").wait_for(timeout=10_000)
    assert laptop.errors == [] and phone.errors == []
    laptop.context.close()
    phone.context.close()


def test_the_host_hands_an_absent_seat_to_a_bot_and_resigns(browser: Any, port: int) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator(".seat-row input[type=text]").first.fill("Ann")
    page.locator(".seat-row[data-seat='1'] .seat-kind").select_option("human")
    page.locator(".seat-row[data-seat='1'] input[type=text]").fill("Bob")
    page.locator("summary", has_text="Table settings").click()
    page.locator("#bot-delay").fill("0.1")
    page.locator("#turn-time").fill("5")  # minutes, the unit shown first
    page.locator("#time-bank").fill("1.5")  # hours
    page.locator("#vacation-days").fill("4")
    page.locator("#missed-turns").fill("3")
    page.locator("#stand-in").select_option("fortress")
    page.click("#create-game")
    play_now = page.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    href = play_now.get_attribute("href") or ""
    game_id = href.split("/game/")[1].split("#")[0]
    assert page.evaluate(
        "id => JSON.parse(localStorage.getItem('risk.hosts.v1')).some(h => h.game === id)", game_id
    )
    timer = request(port, "GET", f"/api/games/{game_id}/view")["timer"]
    assert timer == {
        "turn_time": 300.0,
        "defend_timeout": 30.0,
        "missed_turns": 3,
        "stand_in": "fortress",
        "time_bank": 5400.0,
        "vacation_days": 4.0,
    }
    play_now.click()
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    # Bob never came: the host's button on his row hands his seat to the stand-in bot.
    button = page.locator(".player-row[data-seat='1'] .host-replace")
    button.wait_for(timeout=10_000)
    assert (
        page.locator(".player-row[data-seat='0'] .host-replace").count() == 0
    )  # not on a player who is here
    shot(page, "host-laptop")
    button.click()
    page.locator(".player-row[data-seat='1'] .tag-standin").wait_for(timeout=10_000)
    page.locator(
        "#log li[data-kind='note']", has_text="The host handed Bob's seat to the fortress bot"
    ).wait_for(timeout=10_000)
    assert page.locator(".player-row[data-seat='1'] .host-replace").count() == 0
    # Ann's seat panel (folded away until opened) tells the clock's settings in words, and takes
    # a vacation of a day and a half out of her four; she comes back early and has the rest back.
    page.click("#seat-panel > summary")
    info = page.locator("#timer-info").inner_text()
    assert "a time bank of 1 hour 30 minutes each" in info and "4 days of vacation each" in info, info
    page.locator("#vacation-days-input").fill("1.5")
    page.click("#vacation-go")
    page.locator("#vacation-words", has_text="On vacation until").wait_for(timeout=10_000)
    page.locator("#log li[data-kind='note']", has_text="Ann is on vacation until").wait_for(timeout=10_000)
    own = request(port, "GET", f"/api/games/{game_id}/view")["seat_clocks"][0]
    assert own["away_until"] is not None and own["vacation_left"] == 2.5 * 86400, own
    shot(page, "vacation-laptop")
    page.click("#vacation-back")
    page.locator("#vacation-go").wait_for(timeout=10_000)
    page.locator("#log li[data-kind='note']", has_text="Ann is back from vacation").wait_for(timeout=10_000)
    own = request(port, "GET", f"/api/games/{game_id}/view")["seat_clocks"][0]
    assert own["away_until"] is None and 4 * 86400 - 60 < own["vacation_left"] <= 4 * 86400, own
    # Ann resigns (a second click confirms): her armies stay; the bots play on.
    page.click("#resign")
    page.click("#resign-confirm")
    page.locator("#resigned-note").wait_for(timeout=10_000)
    page.locator(".player-row[data-seat='0'] .tag-resigned").wait_for(timeout=10_000)
    page.locator("#log li", has_text="Ann resigns").first.wait_for(timeout=10_000)
    state = request(port, "GET", f"/api/games/{game_id}/view")
    assert state["seats"][0]["resigned"] is True and state["view"]["players"][0]["alive"] is False
    shot(page, "resigned-laptop")
    assert errors == []
    context.close()
