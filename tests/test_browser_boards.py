"""Boards in the browser (docs/boards.md, "Boards in the web app"; Debian's Chromium, a real `risk serve`):

- the lobby offers the shipped boards with a picture; a board file uploaded there is checked by the
  server, and the game created on it is drawn: every territory a shape, no name over another name
  or any badge (measured on the rendered page, as tests/test_browser_board.py does on the classic
  board), on a generated 100-territory board and on a board without outlines;
- an 8-player bot game on a generated board goes on;
- an invalid upload shows its problems in plain words and creates nothing.

RISK_SCREENSHOTS=DIR keeps the screenshots (laptop 1366x768, phone 390x844).
"""

from __future__ import annotations

import copy
import itertools
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from chromium import wait_or_explain
from live_server import request
from risk.maps.generate import generate_board
from risk.maps.labels import board_unit
from test_browser import LAPTOP, PHONE, browser, port, shot
from test_browser_board import BOXES, overlap

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

BOTS8 = [{"kind": "bot", "bot": "quick"}] * 8
# A game that stays as it is drawn: every territory dealt at once, then a bot's move every 5 s. At full
# speed, the bots would play on under the module's next tests (on 100 territories, for minutes).
STILL: dict[str, Any] = {"bot_delay": 5, "options": {"setup": "deal"}}


@cache
def big_board() -> dict[str, Any]:
    return generate_board(100, 10, seed=3, players=(2, 10))


def without_outlines(data: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(data)
    out.pop("size")
    out["name"] = "no-outlines"
    for row in out["territories"]:
        row.pop("outline")
    return out


def board_file(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / f"{data['name']}.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def lobby(browser: Any, port: int, viewport: dict[str, int] = LAPTOP) -> Any:
    page = browser.new_page(viewport=viewport)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.wait_for_selector('.board-card[data-board="classic"] img')
    return page


def collisions_on_page(page: Any) -> list[str]:
    measured = page.evaluate(BOXES)
    names, badges = dict(measured["names"]), dict(measured["badges"])
    found = [f"{a} / {b}" for (a, x), (b, y) in itertools.combinations(names.items(), 2) if overlap(x, y)]
    found += [
        f"{a} / badge of {b}"
        for (a, x), (b, y) in itertools.product(names.items(), badges.items())
        if overlap(x, y)
    ]
    return found


def drawn(page: Any, territories: int) -> None:
    """Every territory has a shape (a path, not a node), its name and its badge."""
    shapes = page.evaluate("""() => [...document.querySelectorAll('.board-svg .territory')].map(
        e => [e.tagName, e.getBBox().width * e.getBBox().height])""")
    assert len(shapes) == territories
    assert all(tag == "path" and area > 0 for tag, area in shapes)
    assert page.locator(".board-svg text.t-name").count() == territories


def open_game(browser: Any, port: int, game_id: str, viewport: dict[str, int] = LAPTOP) -> Any:
    page = browser.new_page(viewport=viewport)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}")
    # On a time-out: what the page showed (its connection too), the game on the server, its log.
    wait_or_explain(
        page,
        "() => document.querySelectorAll('.board-svg .badge').length > 0"
        " && !document.querySelector('.board-svg .badge.empty')",
        90_000,
        port,
        game_id,
        page.errors,
    )
    return page


def test_the_lobby_offers_the_boards_with_pictures(browser: Any, port: int) -> None:
    page = lobby(browser, port)
    picture = page.locator('.board-card[data-board="classic"] img')
    page.wait_for_function("() => document.querySelector('.board-card img').naturalWidth > 0")
    assert picture.get_attribute("alt") == "The classic board"
    assert page.locator('.board-card[data-board="classic"]').get_attribute("aria-pressed") == "true"
    shot(page, "boards-lobby-laptop")
    page.close()


def test_every_edition_takes_the_seats_a_board_declares(browser: Any, port: int) -> None:
    """Issue 36: the 2008 rules' 3 to 5 players are the classic board's; pangaea takes 10 seats under
    every edition, as the server does (Rules.player_range)."""
    page = lobby(browser, port)
    page.select_option("#edition", "2008")
    assert page.locator("#seat-limits").inner_text().startswith("3 to 5 players")
    page.click('.board-card[data-board="pangaea"]')
    for _ in range(10):
        if page.locator("#add-seat").is_disabled():
            break
        page.click("#add-seat")
    assert page.locator("#seats .seat-kind").count() == 10
    assert page.locator("#seat-limits").inner_text() == "3 to 10 players"
    assert page.errors == []
    page.close()


def test_a_game_on_an_uploaded_board_is_created_in_the_lobby_and_drawn(
    browser: Any, port: int, tmp_path: Path
) -> None:
    page = lobby(browser, port)
    page.set_input_files("#board-file", str(board_file(tmp_path, big_board())))
    custom = page.locator('.board-card[data-board="custom"]')
    custom.wait_for(timeout=30_000)
    assert custom.get_attribute("aria-pressed") == "true"
    assert "100 territories" in custom.inner_text()
    page.select_option("#edition", "1993")
    for _ in range(5):  # 3 seats to 8: the board takes up to 10
        page.click("#add-seat")
    assert page.locator("#seats .seat-kind").count() == 8
    page.locator("#seats .seat-kind").first.select_option("bot")  # 8 bots: the game plays itself
    shot(page, "boards-lobby-uploaded-laptop")
    page.click("#create-game")
    page.locator("#created").wait_for(state="visible", timeout=30_000)
    games = request(port, "GET", "/api/games")["games"]
    mine = [g for g in games if g["board"] == big_board()["name"]]
    assert len(mine) == 1 and len(mine[0]["seats"]) == 8
    assert page.errors == []
    page.close()

    game = open_game(browser, port, mine[0]["id"])
    drawn(game, 100)
    assert collisions_on_page(game) == []
    assert game.errors == []
    game.close()


def test_an_eight_player_bot_game_on_a_generated_board_goes_on(browser: Any, port: int) -> None:
    body = {"edition": "1993", "seats": BOTS8, "seed": 5, "bot_delay": 0.05, "board": big_board()}
    created = request(port, "POST", "/api/games", body)
    page = open_game(browser, port, created["id"])
    drawn(page, 100)
    assert collisions_on_page(page) == []
    colours = page.evaluate(
        "() => new Set([...document.querySelectorAll('.board-svg .territory')]"
        ".map(t => t.getAttribute('fill'))).size"
    )
    assert colours >= 6  # the seats' own colours (a seat or two may be out by now)
    assert len(request(port, "GET", f"/api/games/{created['id']}")["seats"]) == 8
    first = request(port, "GET", f"/api/games/{created['id']}")["turn"]
    page.wait_for_function(
        f"async () => (await (await fetch('/api/games/{created['id']}')).json()).turn > {first + 2}",
        timeout=90_000,
        polling=1000,
    )
    shot(page, "boards-game-100-8p-laptop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(500)
    shot(page, "boards-game-100-8p-phone")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_board_without_outlines_is_drawn_as_cells(
    browser: Any, port: int, viewport: dict[str, int]
) -> None:
    body = {
        "edition": "1993",
        "seats": BOTS8[:4],
        "seed": 6,
        **STILL,
        "board": without_outlines(big_board()),
    }
    created = request(port, "POST", "/api/games", body)
    page = open_game(browser, port, created["id"], viewport)
    drawn(page, 100)
    if viewport == LAPTOP:
        assert collisions_on_page(page) == []
        assert page.locator(".board-svg .layer-overland .sea-line").count() >= 1  # sea links, dashed
    shot(page, f"boards-game-cells-{'laptop' if viewport == LAPTOP else 'phone'}")
    assert page.errors == []
    page.close()


def test_an_invalid_upload_shows_its_problems_and_creates_nothing(
    browser: Any, port: int, tmp_path: Path
) -> None:
    data = copy.deepcopy(generate_board(20, 3, seed=1))
    data["territories"][0]["neighbours"] = ["Nowhere"]
    data["continents"][0]["bonus"] = -3
    before = {g["id"] for g in request(port, "GET", "/api/games")["games"]}
    page = lobby(browser, port, PHONE)
    page.set_input_files("#board-file", str(board_file(tmp_path, data)))
    problems = page.locator("#board-problems")
    problems.wait_for(state="visible", timeout=30_000)
    text = problems.inner_text()
    assert "cannot be played" in text and "Nowhere" in text and "bonus" in text
    assert page.locator('.board-card[data-board="custom"]').count() == 0
    assert page.locator('.board-card[data-board="classic"]').get_attribute("aria-pressed") == "true"
    shot(page, "boards-lobby-invalid-phone")
    assert {g["id"] for g in request(port, "GET", "/api/games")["games"]} == before
    assert page.errors == []
    page.close()


def test_mission_cards_in_the_words_of_the_board(browser: Any, port: int) -> None:
    """Mission RISK on a generated board: the goal panel shows the board's own cards (the view names a
    card by key; the board's JSON gives its words), not the classic board's."""
    body = {
        "edition": "2003",
        "game": "mission",
        "seed": 7,
        **STILL,
        "board": big_board(),
        "seats": [{"kind": "human", "name": "Ann"}, *BOTS8[:2]],
    }
    created = request(port, "POST", "/api/games", body)
    token = created["seats"][0]["token"]
    page = browser.new_page(viewport=LAPTOP)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator("#goal-panel .mission-list li").first.wait_for(timeout=90_000)
    answer = request(port, "GET", f"/api/games/{created['id']}/board")
    cards = {card["key"]: card for card in answer["mission_cards"]}
    own = request(port, "GET", f"/api/games/{created['id']}/view", token=token)
    keys = own["view"]["mission_cards"][0]["unclaimed"]
    shown = page.locator("#goal-panel .mission-list li").all_text_contents()
    assert len(shown) == len(keys) == 4
    for key, line in zip(keys, shown, strict=True):
        assert line.startswith(f"{cards[key]['rank'].title()}: {cards[key]['text']}"), (key, line)
    shot(page, "boards-mission-cards-laptop")
    assert page.errors == []
    page.close()


def test_a_board_of_another_shape_opens_whole_on_a_laptop(browser: Any, port: int) -> None:
    """Pangaea (3:2) on a laptop's wide map: the page opens on the whole board, every territory's
    name and badge inside the map (filling the width cropped its north and south)."""
    body = {"edition": "2003", "board": "pangaea", "seed": 3, **STILL, "seats": BOTS8[:3]}
    created = request(port, "POST", "/api/games", body)
    page = open_game(browser, port, created["id"], LAPTOP)
    page.wait_for_timeout(300)
    outside = page.evaluate("""() => {
        const map = document.querySelector('.board-svg').getBoundingClientRect();
        return [...document.querySelectorAll('.board-svg .badge, .board-svg text.t-name')].filter(e => {
            const r = e.getBoundingClientRect();
            return r.top < map.top - 1 || r.bottom > map.bottom + 1
                || r.left < map.left - 1 || r.right > map.right + 1;
        }).map(e => e.textContent);
    }""")
    assert outside == []
    shot(page, "boards-game-pangaea-laptop")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize(("viewport", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_the_small_board_is_drawn_whole_without_collisions(
    browser: Any, port: int, viewport: dict[str, int], label: str
) -> None:
    """The crossroads, the small board we ship, in a 3-player game: every territory drawn with its
    name and badge, no name over another name or a badge, at a laptop's and a phone's width."""
    body = {"edition": "1993", "board": "crossroads", "seed": 5, **STILL, "seats": BOTS8[:3]}
    created = request(port, "POST", "/api/games", body)
    page = open_game(browser, port, created["id"], viewport)
    page.wait_for_timeout(300)
    drawn(page, 24)
    assert collisions_on_page(page) == []
    # The page sizes its badges with the unit the server placed the names by (larger than a 42-territory
    # board's: risk.maps.labels.board_unit).
    drawing = request(port, "GET", f"/api/games/{created['id']}/board")["drawing"]
    unit = board_unit(drawing["viewBox"], 24)
    assert unit > board_unit(drawing["viewBox"])
    radius = float(page.locator(".board-svg .badge-disc").first.get_attribute("r"))
    assert radius == pytest.approx(11 * unit, rel=1e-6)
    shot(page, f"boards-game-crossroads-{label}")
    assert page.errors == []
    page.close()


@pytest.mark.parametrize(("viewport", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_an_upload_with_many_problems_lists_them_all_with_their_lines(
    browser: Any, port: int, tmp_path: Path, viewport: dict[str, int], label: str
) -> None:
    data = copy.deepcopy(generate_board(40, 5, seed=2))
    for row in data["territories"]:  # a misspelt field on every territory, and one problem more
        row["neighbors"] = []
    data["links"][0]["by"] = "tunnel"
    page = lobby(browser, port, viewport)
    page.set_input_files("#board-file", str(board_file(tmp_path, data)))
    problems = page.locator("#board-problems")
    problems.wait_for(state="visible", timeout=30_000)
    rows = page.locator("#board-problems .problem-list li").all_text_contents()
    assert len(rows) == 41 and f"{len(rows)} problems" in problems.inner_text()
    assert all(row.startswith("line ") for row in rows)
    assert "neighbors" in rows[0] and "tunnel" in rows[1]  # one of each kind first, then the others
    assert "more" not in problems.inner_text()
    box = page.locator("#board-problems .problem-list")
    sizes = box.evaluate("e => [e.scrollHeight, e.clientHeight, e.scrollWidth, e.clientWidth]")
    assert sizes[0] > sizes[1] and sizes[2] <= sizes[3], sizes  # it scrolls down, never sideways
    problems.scroll_into_view_if_needed()
    shot(page, f"boards-lobby-problems-{label}")
    page.locator("#board-problems .problem-list li").last.scroll_into_view_if_needed()
    assert page.locator("#board-problems .problem-list li").last.is_visible()
    assert page.errors == []
    page.close()
