"""Chat, spectators, house rules and rematches in a real browser (Debian's Chromium, Playwright).

- two players chat between two browser contexts in Team RISK (the team channel stays in the team;
  an XSS attempt in a message and in a player's name shows as text); a spectator reads the "all"
  channel, cannot write, and sees no hand;
- a house-rules link, saved in one context, opened in a fresh one creates the same game in one click;
  a game without spectators refuses a watcher with a clear message;
- "Rematch" in the game-over panel takes both players to the same new game with their old links.
Screenshots go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from live_server import free_port, request, server
from test_browser import (
    LAPTOP,
    PHONE,
    browser,  # noqa: F401 - the browser fixture, shared through `chromium`
    shot,
)
from test_server_social import finished_game

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

XSS_NAME = "<i id=xss1>Bob</i>"
XSS_TEXT = "<img id=xss2 src=x onerror=alert(1)> hi all"


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:  # noqa: F811 - the fixture imported above
    return browser


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, list[str]]:
    """A SQLite database holding a finished game of Ann, Bob and a bot: (url, game id, tokens)."""
    from risk.server.sql import open_storage

    url = f"sqlite:///{tmp_path_factory.mktemp('social') / 'games.sqlite3'}"
    storage = open_storage(url)
    try:
        game_id, tokens = finished_game(storage)
    finally:
        storage.close()
    return url, game_id, tokens


@pytest.fixture(scope="module")
def port(finished: tuple[str, str, list[str]]) -> Iterator[int]:
    number = free_port()
    with server(finished[0], number):
        yield number


def open_page(
    chromium: Any, url: str, viewport: dict[str, int] = LAPTOP, **options: Any
) -> tuple[Any, Any, list[str]]:
    context = chromium.new_context(viewport=viewport, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))
    page.goto(url)
    return context, page, errors


def chat_texts(page: Any) -> list[str]:
    return page.locator("#chat-list .chat-text").all_inner_texts()


def say(page: Any, text: str, channel: str | None = None) -> None:
    if channel is not None:
        page.select_option("#chat-channel", channel)
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    expect(page.locator("#chat-list .chat-line.mine .chat-text").last).to_have_text(text, timeout=30_000)


def test_two_players_chat_and_a_spectator_reads(chromium: Any, port: int) -> None:
    created = request(
        port,
        "POST",
        "/api/games",
        {
            "edition": "2003",
            "game": "team",
            "seats": [
                {"kind": "human", "name": "Ann"},
                {"kind": "human", "name": XSS_NAME},
                {"kind": "bot", "bot": "quick"},
                {"kind": "bot", "bot": "quick"},
            ],
            "seed": 8,
            "bot_delay": 0.3,
        },
    )
    game_id = created["id"]
    base = f"http://127.0.0.1:{port}/game/{game_id}"
    ann_context, ann, ann_errors = open_page(chromium, f"{base}#token={created['seats'][0]['token']}")
    bob_context, bob, bob_errors = open_page(
        chromium, f"{base}#token={created['seats'][1]['token']}", PHONE, is_mobile=True, has_touch=True
    )
    fan_context, fan, fan_errors = open_page(chromium, base)
    for page in (ann, bob, fan):
        page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    # Ann writes to everyone (Team RISK offers her team first).
    ann.click("#tab-chat")
    expect(ann.locator("#chat-channel")).to_have_value("team")
    say(ann, XSS_TEXT, "all")
    expect(bob.locator("#chat-unread")).to_have_text("1", timeout=30_000)
    # The chat tab is folded away on his phone: the sheet's handle says a message came.
    expect(bob.locator("#sheet-unread")).to_have_text("1 new")
    shot(bob, "chat-unread-phone")
    bob.click("#sheet-toggle")  # on his phone the log and chat unfold from the sheet under the map
    bob.click("#tab-chat")
    expect(bob.locator("#chat-unread")).to_be_hidden()
    expect(bob.locator("#sheet-unread")).to_be_hidden()
    expect(bob.locator("#chat-list .chat-text").first).to_have_text(XSS_TEXT, timeout=30_000)
    # Bob answers his team (a bot), then everyone: Ann and the spectator see only the second.
    say(bob, "team plan: take Australia", "team")
    say(bob, "good luck!", "all")
    for page in (ann, fan):
        expect(page.locator("#chat-list .chat-text").last).to_have_text("good luck!", timeout=30_000)
    assert chat_texts(ann) == [XSS_TEXT, "good luck!"]
    assert ann.locator("#chat-list .chat-line[data-seat='1'] .chat-name").first.inner_text() == XSS_NAME
    # Ann's word to her team stays there.
    say(ann, "team: I hold Europe", "team")
    say(ann, "and hello to the stands", "all")
    for page in (bob, fan):
        expect(page.locator("#chat-list .chat-text").last).to_have_text(
            "and hello to the stands", timeout=30_000
        )
    assert chat_texts(bob) == [XSS_TEXT, "team plan: take Australia", "good luck!", "and hello to the stands"]
    # The spectator reads the "all" channel, cannot write, and sees no hand.
    fan.click("#tab-chat")
    assert chat_texts(fan) == [XSS_TEXT, "good luck!", "and hello to the stands"]
    expect(fan.locator("#chat-form")).to_be_hidden()
    expect(fan.locator("#chat-readonly")).to_be_visible()
    assert fan.locator("#hand [data-card]").count() == 0
    expect(fan.locator("#hand")).to_contain_text("secret")
    # Nothing players wrote became HTML, in any page.
    for page in (ann, bob, fan):
        assert page.locator("#xss1, #xss2").count() == 0
    # The lobby's list of games to watch counts the spectator.
    lobby = ann_context.new_page()
    lobby.goto(f"http://127.0.0.1:{port}/")
    expect(lobby.locator(f'#live-games .game-item[data-game="{game_id}"] .watchers')).to_have_text(
        "1 watching", timeout=30_000
    )
    lobby.close()
    shot(ann, "chat-laptop")
    shot(bob, "chat-phone")
    shot(fan, "spectator-laptop")
    # A reload fetches the chat again: the same lines.
    bob.reload()
    bob.click("#sheet-toggle")
    bob.click("#tab-chat")
    expect(bob.locator("#chat-list .chat-text")).to_have_count(4, timeout=30_000)
    assert ann_errors == bob_errors == fan_errors == []
    for context in (ann_context, bob_context, fan_context):
        context.close()


def test_a_house_rules_link_creates_the_same_game(chromium: Any, port: int) -> None:
    host_context, host, errors = open_page(chromium, f"http://127.0.0.1:{port}/")
    host.locator("#edition option").first.wait_for(state="attached", timeout=30_000)
    host.select_option("#game", "capital")
    host.click("#rules-details summary")
    host.select_option("#opt-fortify", "adjacent")
    host.locator("summary", has_text="Table settings").click()
    host.uncheck("#spectators")
    host.click("#house-rules summary")
    host.fill("#rules-name", "Capital night <b>!</b>")
    host.click("#save-rules")
    link = host.locator("#rules-link code")
    link.wait_for(timeout=30_000)
    url = link.inner_text()
    assert "#rules=" in url
    expect(host.locator("#rules-link-qr")).to_be_visible()
    # Visible is not loaded: on a busy machine the QR image arrives a moment after its frame shows.
    host.wait_for_function(
        "() => { const qr = document.querySelector('#rules-link-qr');"
        " return qr.complete && qr.naturalWidth > 0 }",
        timeout=30_000,
    )
    host.locator("#rules-saved").scroll_into_view_if_needed()
    shot(host, "house-rules-laptop")
    # A friend opens the link in a fresh browser: the rules are named; one click creates the game.
    friend_context, friend, friend_errors = open_page(chromium, url, PHONE, is_mobile=True, has_touch=True)
    expect(friend.locator("#rules-title")).to_have_text("Capital night <b>!</b>", timeout=30_000)
    expect(friend.locator("#rules-rules")).to_contain_text("Capital RISK")
    shot(friend, "house-rules-link-phone")
    friend.click("#rules-create")
    play = friend.locator("#play-now")
    play.wait_for(timeout=30_000)
    new_id = play.get_attribute("href").split("/game/")[1].split("#")[0]
    game = request(port, "GET", f"/api/games/{new_id}")
    assert game["rules"] == "2008 game=capital setup=deal fortify=adjacent"  # the quick start: dealt
    assert game["spectators"] is False
    assert [s["kind"] for s in game["seats"]] == ["human", "bot", "bot"]
    # A watcher of that game is told, in words, that it does not allow spectators.
    friend.goto(f"http://127.0.0.1:{port}/game/{new_id}")
    expect(friend.locator("#phase")).to_have_text("This game does not allow spectators.", timeout=30_000)
    expect(friend.locator("#conn")).to_have_attribute("data-status", "closed")
    assert errors == friend_errors == []
    host_context.close()
    friend_context.close()


def test_rematch_from_the_game_over_panel(
    chromium: Any, port: int, finished: tuple[str, str, list[str]]
) -> None:
    _, game_id, tokens = finished
    base = f"http://127.0.0.1:{port}/game/{game_id}"
    ann_context, ann, ann_errors = open_page(chromium, f"{base}#token={tokens[0]}")
    bob_context, bob, bob_errors = open_page(chromium, f"{base}#token={tokens[1]}")
    for page in (ann, bob):
        expect(page.locator("#rematch")).to_have_text("Rematch", timeout=30_000)
    shot(ann, "game-over-laptop")
    ann.click("#rematch")
    ann.wait_for_url(lambda url: game_id not in url, timeout=30_000)
    new_id = ann.url.split("/game/")[1].split("#")[0]
    assert ann.url.endswith(f"#token={tokens[0]}")
    expect(ann.locator(".player-row.me")).to_have_attribute("data-seat", "0", timeout=30_000)
    # Bob's page hears of it (a server note) and offers to join the same game.
    expect(bob.locator("#rematch")).to_have_text("Join the rematch", timeout=30_000)
    bob.click("#rematch")
    bob.wait_for_url(f"**/game/{new_id}#token=*", timeout=30_000)
    expect(bob.locator(".player-row.me")).to_have_attribute("data-seat", "1", timeout=30_000)
    summary = request(port, "GET", f"/api/games/{new_id}")
    assert summary["rematch_of"] == game_id and summary["status"] == "playing"
    assert ann_errors == bob_errors == []
    ann_context.close()
    bob_context.close()
