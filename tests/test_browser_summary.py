"""After the game in a real browser (Debian's Chromium, Playwright, a real `risk serve`).

- a record file uploaded on /replay is shown, and its timelapse slider (and Play, and the turn
  buttons) puts on the map exactly the owners and armies the engine had after that many actions;
- a finished bot game: from the lobby's "Finished" list to its summary page, which shows the
  winner, the four charts, the luck meter of every player and the battles (one opens on the map);
  the board's game-over panel links to it; a running game's summary is refused with a way back;
- both at a laptop's and a phone's width, without sideways scrolling.
"""

from __future__ import annotations

import time
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from live_server import request
from risk.history import summarize
from risk.maps import Board
from risk.play.simulate import play_game
from risk.record import write_record
from risk.rules.game import Game
from risk.rules.options import Rules
from test_board_parts import generated_board, small_board
from test_browser import LAPTOP, PHONE, browser, port, shot, wait_until

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

BOTS = [
    {"kind": "bot", "bot": "quick", "name": "Ann"},
    {"kind": "bot", "bot": "continental", "name": "Bob"},
    {"kind": "bot", "bot": "fortress", "name": "Cy"},
]


def board_after(game: Game, actions: int) -> tuple[list[int], list[int]]:
    """The engine's owners and armies after the first ``actions`` actions of ``game``."""
    chances = deque((kind, value) for entry, kind, value in game.history if entry == "chance")
    replayed = Game(game.rules, list(game.players[: game.humans]), seed=0, board=game.board, _script=chances)
    done = 0
    for entry, _, action in game.history:
        if entry == "action":
            if done == actions:
                break
            replayed.apply(action)
            done += 1
    return list(replayed.owner), list(replayed.armies)


def map_on_page(page: Any) -> tuple[dict[str, int], dict[str, str]]:
    owners = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#tl-board [data-territory]')]
              .map(e => [e.dataset.territory, Number(e.dataset.owner)]))"""
    )
    armies = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#tl-board [data-armies]')]
              .map(e => [e.dataset.armies, e.querySelector('text').textContent]))"""
    )
    return owners, armies


def assert_map_is(page: Any, game: Game, frame: int) -> None:
    owner, armies = board_after(game, frame)
    slugs = [game.board.slug_of(t) for t in range(len(game.board))]
    shown_owners, shown_armies = map_on_page(page)
    assert shown_owners == dict(zip(slugs, owner, strict=True)), f"owners at step {frame}"
    expected = {slug: str(count) if count else "" for slug, count in zip(slugs, armies, strict=True)}
    assert shown_armies == expected, f"armies at step {frame}"


def slider_at(page: Any) -> int:
    return int(page.locator("#tl-slider").input_value())


def no_sideways_scrolling(page: Any, width: int) -> None:
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width + 1, f"the page is {scroll} px wide on a {width} px screen"


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_an_uploaded_record_and_its_timelapse(
    browser: Any, port: int, tmp_path: Path, viewport: dict[str, int]
) -> None:
    rules = Rules.preset("2008")
    game, _ = play_game(rules, ["quick", "continental", "fortress"], seed=31)
    path = tmp_path / "game.risk"
    path.write_text(write_record(game), encoding="utf-8")
    summary = summarize(game)
    last = summary["actions"]
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/replay")
    # Not a record first: the reason is shown, nothing else.
    bad = tmp_path / "notes.txt"
    bad.write_text("risk-record 1\nrules: 2008\nplayers: Ann, Bob\n---\n", encoding="utf-8")
    page.set_input_files("#record-file", str(bad))
    page.locator("#upload-error.message-error").wait_for()
    assert "line" in page.locator("#upload-error").text_content()
    assert page.locator("#summary-body").is_hidden()
    page.set_input_files("#record-file", str(path))
    page.locator("#summary-body").wait_for(state="visible")
    page.locator("#tl-board [data-territory='alaska']").wait_for()
    assert page.locator("#upload-error").text_content() == ""
    assert game.players[game.winner] in page.locator("#winner").text_content()
    assert "dice checked" in page.locator("#result").text_content()
    # The slider starts at the end; every step shows the engine's board and the step's log line.
    assert slider_at(page) == last
    assert_map_is(page, game, last)
    for frame in (0, 63, 64, last // 3, last // 2 + 1, last - 1):
        page.locator("#tl-slider").fill(str(frame))
        assert slider_at(page) == frame
        assert_map_is(page, game, frame)
        log = summary["frames"]["steps"][frame][summary["frames"]["fields"].index("log")]
        assert page.locator("#tl-log").text_content().strip() == log
    shot(page, "replay-phone" if viewport["width"] < 500 else "replay-laptop")
    # The turn buttons go to the start of the next turn; Play runs on by itself.
    page.locator("#tl-slider").fill(str(last // 2))
    page.click("#tl-next-turn")
    after = slider_at(page)
    assert after in summary["series"]["frame"] and after > last // 2
    assert_map_is(page, game, after)
    page.select_option("#tl-speed", "80")
    page.click("#tl-play")
    wait_until(lambda: slider_at(page) > after + 20, what="the timelapse to play on")
    page.click("#tl-play")  # pause
    time.sleep(0.2)
    paused = slider_at(page)
    time.sleep(0.3)
    assert slider_at(page) == paused
    assert_map_is(page, game, paused)
    no_sideways_scrolling(page, viewport["width"])
    assert errors == []
    context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_uploaded_records_of_boards_that_are_not_shipped(
    browser: Any, port: int, tmp_path: Path, viewport: dict[str, int]
) -> None:
    """A record carries its board (board-json): the replay draws that board, and a second record,
    of another board, draws its own (not the first one kept)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/replay")
    for name, data in (("generated", generated_board()), ("hand-written", small_board())):
        board = Board(data)
        game, _ = play_game(Rules.preset("2003"), ["quick", "continental", "fortress"], seed=5, board=board)
        path = tmp_path / f"{name}.risk"
        path.write_text(write_record(game), encoding="utf-8")
        page.set_input_files("#record-file", str(path))
        last = summarize(game)["actions"]
        slugs = {board.slug_of(t) for t in range(len(board))}
        wait_until(lambda s=slugs: set(map_on_page(page)[0]) == s, what=f"the {name} board to be drawn")
        assert page.locator("#upload-error").text_content() == ""
        assert slider_at(page) == last
        assert_map_is(page, game, last)
        page.locator("#tl-slider").fill(str(last // 2))
        assert_map_is(page, game, last // 2)
        shot(page, f"replay-{name}-{'phone' if viewport['width'] < 500 else 'laptop'}")
        no_sideways_scrolling(page, viewport["width"])
    assert errors == []
    context.close()


def finished_game(port: int) -> str:
    created = request(port, "POST", "/api/games", {"seats": BOTS, "seed": 77, "bot_delay": 0})
    wait_until(
        lambda: request(port, "GET", f"/api/games/{created['id']}")["status"] == "over",
        what="the bots to finish",
        timeout=180,
    )
    return created["id"]


def test_the_summary_of_a_finished_bot_game(browser: Any, port: int) -> None:
    game_id = finished_game(port)
    summary = request(port, "GET", f"/api/games/{game_id}/summary")
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # From the lobby's list of finished games.
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator(f'#over-games [data-game="{game_id}"] .summary-link').click()
    page.wait_for_url(f"**/game/{game_id}/summary")
    page.locator("#summary-body").wait_for(state="visible")
    winner = summary["players"][summary["winner"]]["name"]
    assert page.locator("#winner").text_content().strip() == f"{winner} wins"
    # Four charts, one line per player, and the cursor of the timelapse on the last turn.
    for key in ("armies", "territories", "cards", "continents"):
        lines = page.locator(f'.chart[data-series="{key}"] polyline.chart-line')
        assert lines.count() == len(summary["players"])
        points = lines.first.get_attribute("points").split()
        assert len(points) == len(summary["series"]["turn"])
    assert page.locator(".chart-cursor[visibility='visible']").count() == 4
    # The luck meter: a bar per player, the value the server counted, the sign shown.
    rows = page.locator(".luck-row")
    rolled = [s for s in summary["luck"]["seats"] if s["rolls"]]
    assert rows.count() == len(rolled) == 3
    for seat in rolled:
        row = page.locator(f'.luck-row[data-seat="{seat["seat"]}"]')
        assert float(row.get_attribute("data-luck")) == seat["luck"]
        value = row.locator(".luck-value").text_content()
        assert value.startswith("+" if seat["luck"] > 0 else "\u2212") and f"{abs(seat['luck']):.1f}" in value
        assert row.locator(".luck-fill").count() == 1
    assert abs(sum(s["luck"] for s in rolled)) < 1e-3  # what one side gains, the other loses
    best = max(rolled, key=lambda s: s["luck"])
    assert summary["players"][best["seat"]]["name"] in page.locator("#luck-headline").text_content()
    # The battles open; one of them is shown on the map.
    page.click("#to-battles")
    battles = summary["luck"]["battles"]
    table = page.locator("#battle-table tbody tr[data-frame]")
    assert table.count() == min(600, len(battles))
    choice = battles[len(battles) // 2]
    page.locator(f'#battle-table tbody tr[data-frame="{choice["frame"]}"] .watch-battle').first.click()
    assert slider_at(page) == choice["frame"]
    slug = summary["territories"][choice["to"]]
    assert page.locator(f'#tl-board [data-armies="{slug}"]').get_attribute("class").find("battle") >= 0
    # Only one player's battles, counted from that player's side.
    page.select_option("#battle-player", str(best["seat"]))
    mine = [b for b in battles if best["seat"] in (b["attacker"], b["defender"])]
    assert table.count() == min(600, len(mine))
    assert summary["players"][best["seat"]]["name"] in page.locator("#battle-luck-head").text_content()
    shot(page, "summary-laptop")
    # The same page at a phone's width.
    page.set_viewport_size(PHONE)
    page.reload()
    page.locator("#summary-body").wait_for(state="visible")
    page.locator(".chart-svg").first.wait_for()
    no_sideways_scrolling(page, PHONE["width"])
    shot(page, "summary-phone")
    # The board's game-over panel links here.
    page.set_viewport_size(LAPTOP)
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}")
    link = page.locator("#view-summary")
    link.wait_for()
    assert link.get_attribute("href") == f"/game/{game_id}/summary"
    assert errors == []
    context.close()


def test_a_running_games_summary_is_refused(browser: Any, port: int) -> None:
    created = request(
        port,
        "POST",
        "/api/games",
        {"seats": [{"kind": "human", "name": "Ann"}, *BOTS[1:]], "seed": 3, "bot_delay": 0},
    )
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}/summary")
    status = page.locator("#summary-status.message-error")
    status.wait_for()
    assert "when the game is over" in status.text_content()
    assert status.locator("a").get_attribute("href") == f"/game/{created['id']}"
    assert page.locator("#summary-body").is_hidden()
    context.close()
