"""Quick match in a real browser against a real `risk serve` (docs/web.md, "Quick match"; issue 39
items 2-4): two strangers sign up, queue for a live 2-player game and are put in one rated game,
each page opening it on its own; one resigns from the page; both ratings move, the leaderboard and
the profiles show it. A player waits in a days queue at a phone's width and leaves it; a guest, no
account, joins a public game's open seat from the lobby. Screenshots go to $RISK_SCREENSHOTS."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import test_browser
from live_server import free_port, request, server
from test_browser import LAPTOP, PHONE, shot
from test_browser_lobby import no_sideways_scrolling, open_lobby

browser = test_browser.browser
expect = pytest.importorskip("playwright.sync_api").expect
pytestmark = pytest.mark.browser

PASSWORD = "a long enough password"
GAME_LINK = re.compile(r"/game/([\w-]+)#token=")


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A real `risk serve` of this module's own (its tests sign up more often than the rate allows)."""
    database = tmp_path_factory.mktemp("quickmatch") / "games.sqlite3"
    number = free_port()
    with server(f"sqlite:///{database}", number, "--no-rate-limits"):
        yield number


def signed_up(browser: Any, port: int, name: str, viewport: dict[str, int] = LAPTOP, **options: Any) -> Any:
    """A lobby page whose player made an account through the account box."""
    page = open_lobby(browser, port, viewport, **options)
    expect(page.locator("#quick-sign-in")).to_be_visible()
    page.click("#quick-sign-in")  # quick match asks a guest to sign in: the account box opens
    page.fill("#sign-up-name", name)
    page.fill("#sign-up-password", PASSWORD)
    page.click("#sign-up button[type=submit]")
    expect(page.locator("#account-button")).to_have_text(name, timeout=15_000)
    expect(page.locator("#quick-find")).to_be_visible()
    return page


def queue_for(page: Any, game: str, players: int, pace: str, *, waits: bool = True) -> None:
    page.select_option("#quick-game", game)
    page.select_option("#quick-players", str(players))
    page.check(f"#quick-pace-{pace}")
    page.click("#quick-find")
    if waits:
        expect(page.locator("#quick-waiting .quick-entry")).to_contain_text(
            "Looking for a game", timeout=15_000
        )


def test_two_strangers_meet_through_quick_match_and_both_ratings_move(browser: Any, port: int) -> None:
    quinn = signed_up(browser, port, "Quinn")
    rory = signed_up(browser, port, "Rory")
    queue_for(quinn, "two-player", 2, "live")
    expect(quinn.locator("#quick-waiting")).to_contain_text("no one else waiting here yet")
    shot(quinn, "quickmatch-waiting-laptop")
    queue_for(rory, "two-player", 2, "live", waits=False)  # the server matches them at once...
    quinn.wait_for_url(GAME_LINK, timeout=30_000)  # ...and each page opens the game by itself
    rory.wait_for_url(GAME_LINK, timeout=30_000)
    game_id = GAME_LINK.search(quinn.url).group(1)  # type: ignore[union-attr]
    assert GAME_LINK.search(rory.url).group(1) == game_id  # type: ignore[union-attr]
    summary = request(port, "GET", f"/api/games/{game_id}")
    assert summary["rated"] is True and sorted(s["name"] for s in summary["seats"]) == ["Quinn", "Rory"]
    expect(rory.locator("#seat-panel")).to_be_visible(timeout=30_000)
    shot(rory, "quickmatch-game-laptop")

    # Rory resigns from the page: Quinn wins the rated game.
    rory.locator("#seat-panel > summary").click()
    rory.click("#resign")
    rory.click("#resign-confirm")
    expect(rory.locator("#resigned-note")).to_be_visible(timeout=15_000)
    assert request(port, "GET", f"/api/games/{game_id}")["status"] == "over"
    board = request(port, "GET", "/api/ratings?family=two-player&pace=live")["players"]
    named = {row["name"]: row for row in board}
    assert [row["name"] for row in board][:2] == ["Quinn", "Rory"]
    assert named["Quinn"]["mu"] > 25 > named["Rory"]["mu"] and named["Quinn"]["games"] == 1

    quinn.goto(f"http://127.0.0.1:{port}/players?family=two-player&pace=live")
    expect(quinn.locator(".leaderboard tbody tr").first).to_contain_text("Quinn")
    quinn.goto(f"http://127.0.0.1:{port}/players/Rory")
    expect(quinn.locator("#profile-games .gi-status")).to_contain_text("place 2 of 2")
    # Back in the lobby, the game is among Quinn's games, and no entry waits any more.
    quinn.goto(f"http://127.0.0.1:{port}/")
    expect(quinn.locator(f'#my-games [data-game="{game_id}"]')).to_be_visible(timeout=15_000)
    expect(quinn.locator("#quick-placed")).to_contain_text("Found: 2-Player RISK")
    expect(quinn.locator("#quick-waiting")).to_have_count(0)
    assert not quinn.errors and not rory.errors
    quinn.context.close()
    rory.context.close()


def test_a_days_queue_at_a_phones_width_and_leaving_it(browser: Any, port: int) -> None:
    page = signed_up(browser, port, "Sage", PHONE, is_mobile=True, has_touch=True)
    queue_for(page, "world", 4, "days")
    entry = page.locator("#quick-waiting .quick-entry")
    expect(entry).to_contain_text("World Domination, 4 players, over days")
    expect(entry).to_contain_text("ratings within 2 of yours")
    expect(page.locator("#quick-count")).to_have_text("you wait for this game (above)")
    expect(page.locator("#quick-find")).to_be_disabled()
    page.locator("#quick-box").scroll_into_view_if_needed()
    no_sideways_scrolling(page)
    shot(page, "quickmatch-days-phone")
    mine = request(port, "GET", "/api/quickmatch/queues")["waiting"]
    assert {"game": "world", "players": 4, "pace": "days", "waiting": 1} in mine
    entry.get_by_role("button", name=re.compile("Leave the queue")).click()
    expect(page.locator("#quick-waiting")).to_have_count(0)
    assert request(port, "GET", "/api/quickmatch/queues")["waiting"] == []
    assert not page.errors
    page.context.close()


def test_a_guest_joins_an_open_game_from_the_lobby(browser: Any, port: int) -> None:
    body = {
        "seats": [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "bot", "bot": "quick"}],
        "seed": 11,
        "bot_delay": 0,
    }
    created = request(port, "POST", "/api/games", body)
    page = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    # At a phone's width, quick match and your games come first, the long new-game form after them.
    expect(page.locator("#quick-sign-in")).to_be_visible(timeout=15_000)
    quick, form = (page.locator(f"#{name}").bounding_box() for name in ("quick-box", "new-game"))
    assert quick is not None and form is not None and quick["y"] < form["y"]
    shot(page, "lobby-guest-phone")
    item = page.locator(f'#open-games [data-game="{created["id"]}"]')
    expect(item).to_be_visible(timeout=15_000)
    item.locator(".join-name").fill("Wren")
    item.locator(".join-button").click()
    page.wait_for_url(GAME_LINK, timeout=15_000)
    summary = request(port, "GET", f"/api/games/{created['id']}")
    assert summary["status"] == "playing" and summary["seats"][1]["name"] == "Wren"
    assert not page.errors
    page.context.close()
