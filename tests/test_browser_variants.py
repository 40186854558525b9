"""The game variants in a real browser (Debian's Chromium, Playwright, a real `risk serve`).

Each game's own colours and goal panel, as the pages decide them: by how the game is won (the
view's and the lobby's `goal`), never by the game's name (issue 22, item 1):

- Secret Mission RISK's seats wear the colours its "destroy" missions name (5: black, 6: gray),
  in the lobby's seat list and on the board; other games keep the usual colours;
- Team RISK's seats wear their team's colours;
- the goal panel: a secret mission, the headquarters, the mission cards; none in world domination.

And a rule option added as a variant module (`card-value-cap`, issue 22 item 7) shows up in the
lobby's rule options by itself and makes the game it is set for.
"""

from __future__ import annotations

from typing import Any

import pytest

from live_server import request
from test_browser import LAPTOP, browser, port
from test_palette import fills, palette

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures


def css(name: str) -> str:
    """A palette.js colour as the browser gives it back ("rgb(244, 8, 5)")."""
    fill = {**fills([c["name"] for c in palette()["seats"]]), **fills(palette()["named"])}[name]
    return f"rgb({int(fill[1:3], 16)}, {int(fill[3:5], 16)}, {int(fill[5:7], 16)})"


RED, BLUE, GREEN, YELLOW, PURPLE, ORANGE = map(css, ["red", "blue", "green", "yellow", "purple", "orange"])
BLACK, GRAY = css("black"), css("gray")

CASES = [
    # edition, game, seats, the seats' colours on the board, the goal panel's title ("": no panel)
    ("1993", "secret-mission", 6, [RED, BLUE, GREEN, YELLOW, BLACK, GRAY], "Secret mission"),
    ("1993", "world", 6, [RED, BLUE, GREEN, YELLOW, PURPLE, ORANGE], ""),
    ("2003", "team", 4, [RED, BLUE, YELLOW, GREEN], ""),
    ("2008", "capital", 3, [RED, BLUE, GREEN], "Headquarters"),
    ("2003", "mission", 3, [RED, BLUE, GREEN], "Missions"),
]


@pytest.mark.parametrize(("edition", "game", "count", "colours", "panel"), CASES)
def test_the_board_shows_each_game_by_its_goal(
    browser: Any, port: int, edition: str, game: str, count: int, colours: list[str], panel: str
) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * (count - 1)
    body = {"edition": edition, "game": game, "seats": seats, "seed": 3, "bot_delay": 5}
    created = request(port, "POST", "/api/games", body)
    token = created["seats"][0]["token"]
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator(f".player-row[data-seat='{count - 1}'] .player-swatch").wait_for(timeout=30_000)
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.player-row .player-swatch')]
              .map(e => getComputedStyle(e).backgroundColor)"""
    )
    assert shown == colours
    if panel:
        page.locator("#goal-panel").wait_for(state="visible", timeout=30_000)
        assert page.locator("#goal-title").text_content() == panel
    else:
        assert page.locator("#goal-panel").is_hidden()
    assert errors == []
    page.close()


def test_the_lobby_colours_the_seats_of_the_game_chosen(browser: Any, port: int) -> None:
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#edition option").first.wait_for(state="attached", timeout=30_000)
    page.select_option("#edition", "1993")

    def seat_colours(game: str) -> list[str]:
        page.select_option("#game", game)
        while page.locator("#seats .seat-row").count() < 6:
            page.click("#add-seat")
        return page.evaluate("() => [...document.querySelectorAll('#seats .swatch')].map(e => e.title)")

    assert seat_colours("secret-mission") == ["red", "blue", "green", "yellow", "black", "gray"]
    assert seat_colours("world") == ["red", "blue", "green", "yellow", "purple", "orange"]
    page.close()


def test_the_lobby_offers_the_card_value_cap_and_creates_a_game_with_it(browser: Any, port: int) -> None:
    """A house rule shipped as a variant module shows up among the lobby's rule options by itself."""
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#edition option").first.wait_for(state="attached", timeout=30_000)
    page.click("#setup-claim")  # the rulebook's setup (the lobby's default, dealt, is a change too)
    page.click("#rules-details summary")
    field = page.locator("#opt-card-value-cap")
    assert field.input_value() == "0"
    row = page.locator(".option-row", has=field)
    assert "house rule" in row.locator(".opt-desc").inner_text()
    assert "not in any rulebook" in (row.locator(".opt-desc").get_attribute("title") or "")
    field.fill("10")
    field.press("Tab")  # a person moves on: the field's change
    page.locator("#changed-count", has_text="1 changed").wait_for(timeout=30_000)
    page.click("#create-game")
    play_now = page.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    game_id = (play_now.get_attribute("href") or "").split("/game/")[1].split("#")[0]
    assert request(port, "GET", f"/api/games/{game_id}")["rules"] == "2008 card-value-cap=10"
    assert errors == []
    page.close()
