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
