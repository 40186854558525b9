"""Open games in a real browser against a real `risk serve` (docs/web.md, "Open games"; issue 39 item
2): each open game's line says its game, rulebook, board, seats taken, clock and whether it is rated;
each filter (game, rulebook, board, players, clock, rated only) narrows the list as it should, stays in
the page's address through a reload, and says so when it hides every open game, with a way back; a
seat is taken from a filtered list; a filter finds an open game behind a hundred newer ones; the
filters at a phone's width. Screenshots go to $RISK_SCREENSHOTS when it is set."""

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


def serve(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[int]:
    database = tmp_path_factory.mktemp(name) / "games.sqlite3"
    number = free_port()
    with server(f"sqlite:///{database}", number, "--no-rate-limits"):
        yield number


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A `risk serve` of this module's own, its open games the ones GAMES makes (no rate limits: the
    module makes more games from one address than the creation rate allows)."""
    yield from serve(tmp_path_factory, "open-games")


def waiting(port: int, seats: int, **body: Any) -> str:
    """A public game with Ann in its first seat and the others open: its id."""
    people = [{"kind": "human", "name": "Ann"}] + [{"kind": "open"}] * (seats - 1)
    return str(request(port, "POST", "/api/games", {"seats": people, **body})["id"])


@pytest.fixture(scope="module")
def games(port: int) -> dict[str, str]:
    """Five open games, each of another kind: name -> id."""
    generated = request(port, "POST", "/api/boards/generate", {"territories": 14, "continents": 3, "seed": 7})
    return {
        "world": waiting(port, 3),
        "mission": waiting(port, 4, edition="1993", game="secret-mission", board="pangaea", turn_time=86_400),
        "rated": waiting(port, 2, game="two-player", rated=True, turn_time=180),
        "hourly": waiting(port, 3, edition="2003", board="crossroads", turn_time=3_600),
        "own-board": waiting(port, 3, board=generated["board"], turn_time=600),
    }


def shows(page: Any, ids: set[str]) -> None:
    """The list comes to show these open games, and only these (it redraws once a filter's answer is in)."""
    page.wait_for_function(
        """ids => {
            const shown = [...document.querySelectorAll("#open-games .game-item")].map((i) => i.dataset.game);
            return shown.length === ids.length && ids.every((id) => shown.includes(id));
        }""",
        arg=sorted(ids),
        timeout=10_000,
    )


def to_the_open_seats(page: Any) -> None:
    """Scroll the page to the open seats' title, for a screenshot of the filters and the list."""
    page.evaluate("() => document.querySelector('#open-title').scrollIntoView({block: 'start'})")


def test_each_open_game_says_what_it_is_and_each_filter_narrows_the_list(
    browser: Any, port: int, games: dict[str, str]
) -> None:
    page = open_lobby(browser, port, LAPTOP)
    shows(page, set(games.values()))
    mission = page.locator(f'#open-games [data-game="{games["mission"]}"]')
    expect(mission.locator(".gi-title")).to_contain_text("Secret Mission")
    expect(mission.locator(".fact-rulebook")).to_have_text("Rulebook: 1993")
    expect(mission.locator(".fact-board")).to_have_text("Board: Pangaea")
    expect(mission.locator(".fact-players")).to_have_text("Players: 1 of 4 seats taken")
    expect(mission.locator(".fact-clock")).to_have_text("Clock: 1 day a turn")
    expect(mission.locator(".fact-rated")).to_have_text("Rated: No")
    rated = page.locator(f'#open-games [data-game="{games["rated"]}"]')
    expect(rated.locator(".fact-clock")).to_have_text("Clock: 3 minutes a turn")
    expect(rated.locator(".fact-rated")).to_have_text("Rated: Yes (people signed in, no bots)")
    expect(rated.locator(".fact-players")).to_have_text("Players: 1 of 2 seats taken")
    world = page.locator(f'#open-games [data-game="{games["world"]}"]')
    expect(world.locator(".fact-board")).to_have_text("Board: Classic world")
    expect(world.locator(".fact-clock")).to_have_text("Clock: No clock")
    expect(world.locator(".fact-rulebook")).to_have_text("Rulebook: 2008")
    own = page.locator(f'#open-games [data-game="{games["own-board"]}"]')
    expect(own.locator(".fact-board")).to_contain_text("(uploaded or generated)")
    expect(page.locator(f'#open-games [data-game="{games["hourly"]}"] .fact-board')).to_have_text(
        "Board: The Crossroads"
    )
    to_the_open_seats(page)
    shot(page, "open-games-laptop")

    def only(select: str, value: str, expected: list[str]) -> None:
        page.select_option(select, value)
        shows(page, {games[name] for name in expected})
        page.select_option(select, "")

    only("#open-edition", "2008", ["world", "rated", "own-board"])
    only("#open-edition", "1993", ["mission"])
    only("#open-family", "secret-mission", ["mission"])
    only("#open-family", "world", ["world", "hourly", "own-board"])
    only("#open-board", "pangaea", ["mission"])
    only("#open-board", "classic", ["world", "rated"])
    only("#open-board", "other", ["own-board"])
    only("#open-players", "2", ["rated"])
    only("#open-players", "3", ["world", "hourly", "own-board"])
    only("#open-clock", "days", ["mission", "hourly"])
    only("#open-clock", "live", ["world", "rated", "own-board"])
    page.check("#open-rated")
    shows(page, {games["rated"]})
    page.uncheck("#open-rated")
    shows(page, set(games.values()))
    expect(page.locator("#open-clear")).to_be_hidden()

    # Two filters together; the address keeps them through a reload.
    page.select_option("#open-clock", "days")
    page.select_option("#open-players", "4")
    shows(page, {games["mission"]})
    assert re.search(r"\?clock=days&players=4$", page.url), page.url
    page.reload()
    expect(page.locator("#open-clock")).to_have_value("days")
    expect(page.locator("#open-players")).to_have_value("4")
    shows(page, {games["mission"]})
    expect(page.locator("#open-clear")).to_be_visible()

    # Filters that hide every open game say so, and clear in one click.
    page.select_option("#open-edition", "2008")
    expect(page.locator("#open-games .filtered-out")).to_contain_text("No open seats match these filters.")
    expect(page.locator("#open-games .game-item")).to_have_count(0)
    expect(page.locator("#open-clear")).to_be_hidden()  # the message's button stands in for it
    to_the_open_seats(page)
    shot(page, "open-games-filtered-out-laptop")
    page.click("#open-clear-all")
    shows(page, set(games.values()))
    assert "?" not in page.url
    for select in ("#open-family", "#open-edition", "#open-board", "#open-players", "#open-clock"):
        expect(page.locator(select)).to_have_value("")
    assert not page.errors
    page.context.close()


def test_a_seat_is_taken_from_a_filtered_list(browser: Any, port: int, games: dict[str, str]) -> None:
    page = open_lobby(browser, port, LAPTOP)
    page.goto(f"http://127.0.0.1:{port}/?board=pangaea")
    item = page.locator(f'#open-games [data-game="{games["mission"]}"]')
    expect(page.locator("#open-games .game-item")).to_have_count(1, timeout=30_000)
    item.locator(".join-name").fill("Zed")
    item.locator(".join-seat").select_option("2")
    item.locator(".join-button").click()
    page.wait_for_url(re.compile(rf"/game/{games['mission']}#token="), timeout=30_000)
    seats = request(port, "GET", f"/api/games/{games['mission']}")["seats"]
    assert [(s["name"], s["open"]) for s in seats][2] == ("Zed", False)
    page.goto(f"http://127.0.0.1:{port}/?board=pangaea")
    expect(item.locator(".fact-players")).to_have_text("Players: 2 of 4 seats taken", timeout=30_000)
    assert not page.errors
    page.context.close()


def test_the_filters_at_a_phones_width(browser: Any, port: int, games: dict[str, str]) -> None:
    page = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    page.goto(f"http://127.0.0.1:{port}/?clock=days")
    shows(page, {games["mission"], games["hourly"]})
    to_the_open_seats(page)
    no_sideways_scrolling(page)
    for select in page.locator(".open-filters select, .open-filters .check").all():
        box = select.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    shot(page, "open-games-phone")
    page.select_option("#open-edition", "2008")
    expect(page.locator("#open-games .filtered-out")).to_be_visible()
    no_sideways_scrolling(page)
    shot(page, "open-games-filtered-out-phone")
    assert not page.errors
    page.context.close()


@pytest.fixture(scope="module")
def crowded_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A server of its own, for an open game behind more than GET /api/games's cap of newer ones."""
    yield from serve(tmp_path_factory, "crowded")


def test_a_filter_finds_an_open_game_behind_a_hundred_newer_ones(browser: Any, crowded_port: int) -> None:
    old = waiting(crowded_port, 4, edition="1993", board="pangaea")
    for _ in range(100):
        waiting(crowded_port, 3)
    assert old not in {g["id"] for g in request(crowded_port, "GET", "/api/games?status=waiting")["games"]}
    page = open_lobby(browser, crowded_port, LAPTOP)
    expect(page.locator("#open-games .more-games")).to_have_text("and 92 more")
    page.select_option("#open-board", "pangaea")
    shows(page, {old})
    assert not page.errors
    page.context.close()
