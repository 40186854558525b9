"""Fair play in a real browser against a real `risk serve` (docs/web.md, "Fair play"; issue 39 item 5):
a player reports a chat line (once: a second report is refused beside the field), mutes a guest (kept
across a reload), blocks an account's player from the ⋯ beside their line; the host reads the report
(never who made it), is refused a ban by an unknown name beside the field, and bans a player from the
⋯ beside their name; the lobby's account box lists the player blocked and unblocks them. At a laptop's
and a phone's width. Screenshots go to $RISK_SCREENSHOTS when it is set."""

from __future__ import annotations

import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest

import test_browser
from live_server import free_port, request, server
from test_browser import PHONE, shot
from test_browser_accounts import signed_up_holding
from test_browser_lobby import no_sideways_scrolling, open_lobby

browser = test_browser.browser
expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A `risk serve` of this module's own, without rate limits (it signs up often from one address)."""
    database = tmp_path_factory.mktemp("fairplay") / "games.sqlite3"
    number = free_port()
    with server(f"sqlite:///{database}", number, "--no-rate-limits"):
        yield number


def say_from(page: Any, game_id: str, token: str, text: str) -> None:
    """A line written through the page's own session (a seat bound to an account needs it)."""
    status = page.evaluate(
        """async ([id, token, text]) => (await fetch(`/api/games/${id}/chat`, {method: "POST",
            headers: {Authorization: `Bearer ${token}`, "Content-Type": "application/json"},
            body: JSON.stringify({text})})).status""",
        [game_id, token, text],
    )
    assert status == 201


def game_page(context: Any, port: int, game_id: str, token: str, host_token: str) -> Any:
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.evaluate(
        "([game, token]) => localStorage.setItem('risk.hosts.v1', JSON.stringify([{game, token}]))",
        [game_id, host_token],
    )
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    expect(page.locator(".board-svg")).to_be_visible(timeout=30_000)
    return page


def line(page: Any, seat: int, text: str) -> Any:
    return page.locator(f'#chat-list .chat-line[data-seat="{seat}"]', has_text=text)


def test_report_mute_block_and_ban_from_the_board_page(browser: Any, port: int) -> None:
    body = {
        "seats": [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cyd")],
        "seed": 11,
        "bot_delay": 0,
    }
    created = request(port, "POST", "/api/games", body)
    game_id, host_token = created["id"], created["host_token"]
    ann_token, bob_token, cyd_token = (s["token"] for s in created["seats"])
    ann_lobby = signed_up_holding(browser, port, "Annie", game_id, 0, ann_token)
    bob_lobby = signed_up_holding(browser, port, "Bobby", game_id, 1, bob_token)
    say_from(bob_lobby, game_id, bob_token, "Bob says hello")
    request(port, "POST", f"/api/games/{game_id}/chat", {"text": "buy cheap gold at example.org"}, cyd_token)

    page = game_page(ann_lobby.context, port, game_id, ann_token, host_token)
    page.click("#tab-chat")
    expect(line(page, 2, "cheap gold")).to_be_visible()
    expect(line(page, 1, "Bob says hello")).to_be_visible()
    expect(page.locator("#chat-list .chat-line.mine .fair-more")).to_have_count(0)  # not on my lines

    # Report Cyd's line, with a reason; a second report of it is refused beside the field.
    cyd_line = line(page, 2, "cheap gold")
    cyd_line.locator(".fair-more").click()
    menu = cyd_line.locator(".fair-menu")
    expect(menu.locator(".fair-block")).to_have_count(0)  # a guest: muted, not blocked
    menu.locator("input[name=reason]").fill("spam")
    shot(page, "fairplay-line-menu-laptop")
    menu.locator(".fair-report").click()
    expect(page.locator(".toast", has_text="Reported to the host")).to_be_visible()
    expect(cyd_line.locator(".fair-menu")).to_have_count(0)
    cyd_line.locator(".fair-more").click()
    cyd_line.locator(".fair-report").click()
    expect(cyd_line.locator(".fair-report-form .field-error")).to_contain_text(
        "reported this message already"
    )

    # Mute Cyd: the line leaves the page, the name is tagged, and it holds after a reload.
    cyd_line.locator(".fair-mute").click()
    expect(line(page, 2, "cheap gold")).to_have_count(0)
    cyd_row = page.locator('#players .player-row[data-seat="2"]')
    expect(cyd_row.locator(".tag-muted")).to_be_visible()
    request(port, "POST", f"/api/games/{game_id}/chat", {"text": "more gold"}, cyd_token)
    say_from(bob_lobby, game_id, bob_token, "Bob again")
    expect(line(page, 1, "Bob again")).to_be_visible()
    expect(line(page, 2, "more gold")).to_have_count(0)
    page.reload()
    expect(page.locator(".board-svg")).to_be_visible(timeout=30_000)
    page.click("#tab-chat")
    expect(line(page, 1, "Bob again")).to_be_visible()
    expect(page.locator('#chat-list .chat-line[data-seat="2"]')).to_have_count(0)
    expect(page.locator('#players .player-row[data-seat="2"] .tag-muted')).to_be_visible()

    # Block Bob (an account's player) from the ⋯ beside his line: his lines leave the page.
    bob_line = line(page, 1, "Bob again")
    bob_line.locator(".fair-more").click()
    bob_line.locator(".fair-block").click()
    expect(page.locator(".toast", has_text="You blocked Bob:")).to_be_visible()
    expect(page.locator('#chat-list .chat-line[data-seat="1"]')).to_have_count(0)

    # The host's panel: the report (its reason, never who made it), a ban by a name that is nobody's.
    page.locator("#host-panel > summary").click()
    report = page.locator("#host-reports .host-report")
    expect(report).to_have_count(1)
    expect(report).to_contain_text("buy cheap gold")
    expect(report).to_contain_text("reported once: spam")
    expect(report).not_to_contain_text("Ann")
    # A name half typed when the panel is drawn again (new reports, a refresh): the field keeps its
    # focus and the rest of the name goes in (taken out and put back, it lost the focus: CI's flake).
    page.click("#ban-name")
    page.keyboard.type("Nobody")
    page.evaluate("() => { document.querySelector('#host-reports').dataset.old = '1'; }")
    page.evaluate("() => document.querySelector('#host-refresh').click()")  # a click moves no focus
    page.wait_for_function("() => !document.querySelector('#host-reports').dataset.old")
    page.keyboard.type(" Here")
    expect(page.locator("#ban-name")).to_have_value("Nobody Here")
    expect(page.locator("#ban-name")).to_be_focused()
    page.click("#ban-form button[type=submit]")
    expect(page.locator("#ban-name-error")).to_contain_text("No account has that name")
    expect(page.locator("#ban-name")).to_have_attribute("aria-invalid", "true")
    shot(page, "fairplay-host-laptop")

    # Ban Cyd from the ⋯ beside the name: asked first, then Cyd resigns and is listed.
    cyd_row.locator(".fair-more").click()
    page.locator(".fair-row-menu .fair-ban").click()
    page.locator(".fair-row-menu .fair-ban-yes").click()
    expect(page.locator(".toast", has_text="Cyd is banned")).to_be_visible()
    expect(page.locator("#host-bans .host-ban", has_text="Cyd")).to_be_visible()
    expect(page.locator('#players .player-row[data-seat="2"] .tag-resigned')).to_be_visible(timeout=15_000)
    refused = request_status(port, f"/api/games/{game_id}/chat", {"text": "let me back"}, cyd_token)
    assert refused == 403
    no_sideways_scrolling(page)
    shot(page, "fairplay-banned-laptop")
    assert not page.errors

    # At a phone's width: the sheet, the chat, a line's menu, the host's panel.
    phone = ann_lobby.context.browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    for cookie in ann_lobby.context.cookies():
        phone.add_cookies([cookie])
    small = game_page(phone, port, game_id, ann_token, host_token)
    small.click("#sheet-toggle")
    small.click("#tab-chat")
    say_from(small, game_id, ann_token, "good game all")
    mine = small.locator("#chat-list .chat-line.mine", has_text="good game all")
    expect(mine).to_be_visible()
    small.locator('#players .player-row[data-seat="2"] .fair-more').click()
    expect(small.locator(".fair-row-menu .fair-mute")).to_be_visible()
    no_sideways_scrolling(small)
    shot(small, "fairplay-menu-phone")
    small.locator("#host-panel > summary").click()
    expect(small.locator("#host-reports .host-report")).to_have_count(1)
    small.locator("#host-panel").scroll_into_view_if_needed()
    no_sideways_scrolling(small)
    shot(small, "fairplay-host-phone")
    assert not small.errors
    phone.close()

    # The lobby's account box: Bobby is listed; a name that is nobody's is refused beside the field;
    # Unblock.
    ann_lobby.reload()
    ann_lobby.click("#account-button")
    ann_lobby.locator("summary", has_text="Blocked players").click()
    expect(ann_lobby.locator("#blocked-list .blocked-player", has_text="Bobby")).to_be_visible()
    ann_lobby.fill("#block-name", "Nobody Here")
    ann_lobby.click("#block-form button[type=submit]")
    expect(ann_lobby.locator("#block-name-error")).to_contain_text("No account has that name")
    shot(ann_lobby, "fairplay-blocked-laptop")
    ann_lobby.locator("#blocked-list .blocked-player", has_text="Bobby").locator("button").click()
    expect(ann_lobby.locator("#blocked-none")).to_be_visible()
    assert not ann_lobby.errors
    ann_lobby.context.close()
    bob_lobby.context.close()


def request_status(port: int, path: str, body: dict[str, Any], token: str) -> int:
    try:
        request(port, "POST", path, body, token)
    except urllib.error.HTTPError as refusal:
        return refusal.code
    return 200


def test_blocked_players_at_a_phones_width(browser: Any, port: int) -> None:
    page = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    page.click("#account-button")
    page.fill("#sign-up-name", "Phoebe")
    page.fill("#sign-up-password", "a long enough password")
    page.click("#sign-up button[type=submit]")
    expect(page.locator("#account-button")).to_have_text("Phoebe", timeout=15_000)
    page.locator("summary", has_text="Blocked players").click()
    page.click("#block-form button[type=submit]")  # empty: said beside the field, nothing sent
    expect(page.locator("#block-name-error")).to_contain_text("Give the player's account name")
    page.fill("#block-name", "Phoebe")
    page.click("#block-form button[type=submit]")
    expect(page.locator("#block-name-error")).to_contain_text("cannot block yourself")
    page.locator("#blocked-players").scroll_into_view_if_needed()
    no_sideways_scrolling(page)
    shot(page, "fairplay-blocked-phone")
    assert not page.errors
    page.context.close()
