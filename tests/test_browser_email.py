"""E-mail from the game page (docs/web.md, "Notifications"), against a real `risk serve --smtp` and a
real SMTP server (aiosmtpd) started by the test: a player gives an address in "Your seat", closes the
page, and when their move comes the e-mail's link opens their seat. A bad address is refused on the
page and nothing is stored; the address is never sent back. Screenshots go to $RISK_SCREENSHOTS.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from live_server import free_port, request, server
from test_browser import LAPTOP, PHONE, browser, shot  # noqa: F401 (fixtures)
from test_browser_seatprefs import wait_for
from test_server_notify import Inbox

ADDRESS = "ann@example.org"


@pytest.fixture(scope="module")
def mail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Inbox, int]]:
    """A server that sends e-mail through the test's own SMTP server: (its inbox, the web port)."""
    inbox, smtp_port, port = Inbox(), free_port(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    database = tmp_path_factory.mktemp("email") / "games.sqlite3"
    try:
        with server(
            f"sqlite:///{database}", port, "--smtp", f"smtp://127.0.0.1:{smtp_port}?from=risk@example.org"
        ):
            yield inbox, port
    finally:
        controller.stop()


def open_seat_panel(page: Any, phone: bool) -> None:
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    if phone:
        page.click("#sheet-toggle")
    page.click("#seat-panel > summary")
    page.locator("#email-form, #email-on").first.wait_for(timeout=10_000)


def test_an_email_brings_the_player_back_to_their_seat(browser: Any, mail: tuple[Inbox, int]) -> None:  # noqa: F811
    inbox, port = mail
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    seats.append({"kind": "bot", "bot": "quick"})
    created = request(port, "POST", "/api/games", {"seats": seats, "seed": 11, "bot_delay": 0})
    game_id = created["id"]
    ann, bob = (s["token"] for s in created["seats"][:2])
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={ann}")
    open_seat_panel(page, phone=False)
    # Not an address: refused on the page, nothing stored.
    page.fill("#email-address", "ann at example")
    # Past the browser's own check of an e-mail field: the server's refusal is shown.
    page.evaluate("() => document.querySelector('#email-form').noValidate = true")
    page.click("#email-save")
    page.locator(".toast", has_text="not an e-mail address").wait_for(timeout=10_000)
    assert request(port, "GET", f"/api/games/{game_id}/notify", token=ann)["email"] is None
    shot(page, "email-laptop")
    page.fill("#email-address", ADDRESS)
    page.select_option("#email-pace", "15")
    page.click("#email-save")
    page.locator("#email-on", has_text="at most every 15 minutes").wait_for(timeout=10_000)
    shot(page, "email-on-laptop")
    settings = request(port, "GET", f"/api/games/{game_id}/notify", token=ann)
    assert settings["email"]["pace"] == "each" and ADDRESS not in str(settings)
    assert errors == []
    context.close()
    # Ann's page is closed. Bob plays until it is Ann's move (the bot plays at once): she is told.
    while True:
        state = request(port, "GET", f"/api/games/{game_id}/view", token=bob)
        if state["view"]["to_act"] == 0:
            break
        if state["legal"]:
            move = {"action": state["legal"][0]["text"], "state_id": state["state_id"]}
            request(port, "POST", f"/api/games/{game_id}/actions", move, token=bob)
        time.sleep(0.05)
    mails = wait_for(lambda: inbox.to(ADDRESS), "Ann's e-mail")
    assert "it is your move" in mails[-1]["Subject"]
    body = mails[-1].get_content()
    link = next(line.split(": ", 1)[1] for line in body.splitlines() if line.startswith("Your seat: "))
    assert link.endswith(f"/game/{game_id}#token={ann}") and bob not in body
    # The link opens her seat, where it is her move.
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(link)
    open_seat_panel(page, phone=True)
    page.locator("#email-on").wait_for(timeout=10_000)
    page.locator("#seat-email").scroll_into_view_if_needed()
    shot(page, "email-on-phone")
    assert request(port, "GET", f"/api/games/{game_id}/view", token=ann)["view"]["to_act"] == 0
    # Stop: the address is deleted.
    page.click("#email-stop")
    page.locator("#email-form").wait_for(timeout=10_000)
    assert request(port, "GET", f"/api/games/{game_id}/notify", token=ann)["email"] is None
    assert errors == []
    phone.close()


def test_one_address_for_all_my_games_in_this_browser_and_new_ones(
    browser: Any,  # noqa: F811
    mail: tuple[Inbox, int],
) -> None:
    _, port = mail
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]

    def new_game() -> tuple[str, str]:
        created = request(port, "POST", "/api/games", {"seats": seats, "seed": 5, "bot_delay": 0})
        return created["id"], created["seats"][0]["token"]

    def email_of(game: tuple[str, str]) -> Any:
        return request(port, "GET", f"/api/games/{game[0]}/notify", token=game[1])["email"]

    first, second, third = new_game(), new_game(), new_game()
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    for game_id, token in (second, first):  # the browser holds both seats (their pages were opened)
        page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
        open_seat_panel(page, phone=False)
    page.fill("#email-address", ADDRESS)
    page.select_option("#email-pace", "60")
    page.check("#email-all")
    shot(page, "email-all-laptop")
    page.click("#email-save")
    page.locator(".toast", has_text="E-mail is on for 2 games").wait_for(timeout=10_000)
    page.locator("#email-all-on").wait_for(timeout=10_000)
    assert email_of(first)["every_minutes"] == email_of(second)["every_minutes"] == 60
    assert email_of(third) is None  # not yet this browser's
    # A new game's seat opened here: given the address as its page opens.
    page.goto(f"http://127.0.0.1:{port}/game/{third[0]}#token={third[1]}")
    open_seat_panel(page, phone=False)
    page.locator("#email-on", has_text="at most once an hour").wait_for(timeout=10_000)
    assert email_of(third)["pace"] == "each"
    # Stopped for this game alone: not given again when its page opens again.
    page.click("#email-stop")
    page.locator("#email-form").wait_for(timeout=10_000)
    page.reload()
    open_seat_panel(page, phone=False)
    page.locator("#email-form").wait_for(timeout=10_000)
    assert email_of(third) is None and email_of(first) is not None
    # Stop for all, from the first game: every address deleted, new seats not given it.
    page.goto(f"http://127.0.0.1:{port}/game/{first[0]}#token={first[1]}")
    open_seat_panel(page, phone=False)
    page.click("#email-stop-all")
    page.locator(".toast", has_text="No more e-mail from 2 games").wait_for(timeout=10_000)
    assert email_of(first) is None and email_of(second) is None
    assert errors == []
    context.close()
