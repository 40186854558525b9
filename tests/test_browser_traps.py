"""The small traps a new player fell into (issue 23 item 9), each in a real browser (Debian's Chromium,
Playwright) against a real `risk serve`, and card trading from end to end:

- a second click on the chosen attacker keeps it, and the target clicked next is attacked from it;
- a seat moved to another tab no longer asks "Claim a territory" under its "Play here" banner;
- `/game/ID/summary#token=...` in a fresh browser offers the record;
- the top bar fits a 390 px phone (nothing cut short: "Your de… 0:30");
- a player holding sets: the suggested set with the bonus territory named, then their own pick traded.

The positions are played before the server starts (the humans' moves chosen by a quick bot, the same
every run); the server then opens them from its database.
Screenshots go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

import test_browser
from live_server import free_port, request, server
from risk import View
from risk.bots import make_bot
from risk.rules.state import Phase
from risk.server.master import GameMaster, GameSpec, SeatSpec
from test_browser import LAPTOP, PHONE, SCREEN_POINT, shot
from test_server_social import finished_game

browser = test_browser.browser  # the same Chromium as the board's browser tests

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect


def play_until(master: GameMaster, seed: int, wanted: Callable[[View], bool], **spec: Any) -> dict[str, Any]:
    """A game of Ann (moves by a quick bot) and two quick bots, played until ``wanted(Ann's view)``
    holds when Ann is to act: {id, token, view}."""
    record, seats = master.create_game(
        GameSpec(
            seats=[SeatSpec("human", "Ann"), SeatSpec("bot", bot="quick"), SeatSpec("bot", bot="quick")],
            seed=seed,
            bot_delay=0,
            **spec,
        )
    )
    live = master.live(record.id)
    ann = make_bot("quick", 1)
    for _ in range(5000):
        assert not live.game.is_over, "the game ended before the position came"
        turn = master.bot_turn(record.id)
        if turn is not None:
            seat, state_id, decide = turn
            master.submit_as(record.id, seat, decide(), state_id)
            continue
        view = View(live.game, 0)
        if wanted(view):
            return {"id": record.id, "token": seats[0].token, "view": view}
        master.submit_as(record.id, 0, view.action_text(ann.choose(view)), live.state_id)
    raise AssertionError("the position never came")


def two_sources_reach_a_target(view: View) -> bool:
    if view.phase != Phase.ATTACK:
        return False
    sources: dict[str, set[str]] = {}
    for group in view.legal_groups():
        words = group["text"].split()
        if words[0] == "attack":
            sources.setdefault(words[2], set()).add(words[1])
    return any(len(s) >= 2 for s in sources.values())


def two_sets_to_trade(view: View) -> bool:
    """Two sets to choose from, one with a card of a territory Ann holds (its +2 goes there)."""
    if view.phase != Phase.REINFORCE or view.traded_this_turn:
        return False
    sets = {tuple(sorted(t.cards)) for t in view.trade_options()}
    held = [c for cards in sets for c in cards if c < len(view.owner) and view.owner[c] == 0]
    return len(sets) >= 2 and bool(held)


def defending(view: View) -> bool:
    return view.phase == Phase.DEFEND and view.to_act == 0


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, dict[str, Any]]]:
    """The server's port and its games: a finished one, and positions for each trap."""
    from risk.server.sql import open_storage

    url = f"sqlite:///{tmp_path_factory.mktemp('traps') / 'games.sqlite3'}"
    storage = open_storage(url)
    try:
        finished_id, finished_tokens = finished_game(storage)
        master = GameMaster(storage)
        positions = {
            "finished": {"id": finished_id, "token": finished_tokens[0]},
            "attack": play_until(master, 2, two_sources_reach_a_target),
            "trade": play_until(master, 3, two_sets_to_trade),
            "defend": play_until(master, 5, defending, defend_timeout=600, turn_time=600),
        }
    finally:
        storage.close()
    number = free_port()
    with server(url, number):
        yield number, positions


def open_seat(
    browser: Any, port: int, game: dict[str, Any], viewport: dict[str, int] = LAPTOP, **options: Any
) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    # This player chose to be asked every roll (seatprefs.js remembers it): the positions stay where
    # they were stored, the defence prompt included, instead of the new player's "most dice".
    context.add_init_script("localStorage.setItem('risk.seat-prefs.v1', JSON.stringify({defence: 'every'}))")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{game['id']}#token={game['token']}")
    state = request(port, "GET", f"/api/games/{game['id']}/view", token=game["token"])
    page.wait_for_function(
        "id => document.body.dataset.stateId === String(id)", arg=state["state_id"], timeout=30_000
    )
    return page


def click_territory(page: Any, slug: str) -> None:
    x, y = page.evaluate(SCREEN_POINT, slug)
    page.mouse.click(x, y)


def names(port: int) -> dict[str, str]:
    return {t["slug"]: t["name"] for t in request(port, "GET", "/api/boards/classic")["board"]["territories"]}


def test_a_second_click_on_the_attacker_keeps_it(browser: Any, games: tuple[int, dict[str, Any]]) -> None:
    port, positions = games
    game = positions["attack"]
    state = request(port, "GET", f"/api/games/{game['id']}/view", token=game["token"])
    sources: dict[str, list[str]] = {}
    for group in state["legal"]:
        words = group["text"].split()
        if words[0] == "attack":
            sources.setdefault(words[2], []).append(words[1])
    target, froms = next((t, s) for t, s in sources.items() if len(s) >= 2)
    source = froms[-1]
    page = open_seat(browser, port, game)
    click_territory(page, source)
    page.locator("#cancel-selection").wait_for(timeout=30_000)
    # A player clicks the chosen attacker again, to be sure, then the target.
    click_territory(page, source)
    click_territory(page, target)
    page.locator("#odds").filter(has_text="%").wait_for(timeout=30_000)
    assert "Choose where" not in page.locator("#message").inner_text()
    assert page.locator(".battle-card .bc-side strong").first.inner_text() == names(port)[source]
    shot(page, "trap-reclick-laptop")
    assert page.errors == []
    page.context.close()


def test_a_seat_moved_to_another_tab_asks_nothing_there(
    browser: Any, games: tuple[int, dict[str, Any]]
) -> None:
    port, _ = games
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    created = request(port, "POST", "/api/games", {"seats": seats, "seed": 3, "bot_delay": 0})
    game = {"id": created["id"], "token": created["seats"][0]["token"]}
    first = open_seat(browser, port, game)
    expect(first.locator("#phase")).to_have_text("Claim a territory", timeout=30_000)
    second = open_seat(browser, port, game)
    first.locator("#moved-note").wait_for(timeout=10_000)
    expect(first.locator("#phase")).not_to_have_text("Claim a territory")
    assert "another tab" in first.locator("#phase").inner_text()
    assert first.locator("[data-territory].source").count() == 0  # nothing offered to click
    shot(first, "trap-moved-laptop")
    # Back here: the prompt is this page's again.
    first.click("#play-here")
    expect(first.locator("#phase")).to_have_text("Claim a territory", timeout=30_000)
    assert first.errors == [] and second.errors == []
    first.context.close()
    second.context.close()


def test_the_summary_link_with_a_token_offers_the_record(
    browser: Any, games: tuple[int, dict[str, Any]]
) -> None:
    port, positions = games
    game = positions["finished"]
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # a fresh browser
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{game['id']}/summary#token={game['token']}")
    button = page.locator("#download-record")
    button.wait_for(timeout=30_000)
    assert page.locator("#record-note").count() == 0
    assert page.locator("#to-board").get_attribute("href").endswith(f"#token={game['token']}")
    with page.expect_download() as download:
        button.click()
    assert download.value.suggested_filename == f"risk-{game['id']}.risk"
    assert errors == []
    context.close()


def test_the_top_bar_fits_a_phone(browser: Any, games: tuple[int, dict[str, Any]]) -> None:
    port, positions = games
    page = open_seat(
        browser, port, positions["defend"], PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    )
    page.locator("#clock .clock-who").wait_for(timeout=30_000)
    shot(page, "trap-topbar-phone")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.topbar, .topbar *')]
              .filter(e => e.offsetParent !== null && e.textContent.trim())
              .filter(e => e.getBoundingClientRect().width > 1)  // words kept for screen readers only
              .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)
              .map(e => e.id || e.className)"""
    )
    assert cut == [], f"cut short in the top bar at 390 px: {cut}"
    assert page.locator("#clock").inner_text().replace("\n", " ").startswith("Your defence")
    assert page.errors == []
    page.context.close()


def test_card_trading_from_end_to_end(browser: Any, games: tuple[int, dict[str, Any]]) -> None:
    port, positions = games
    game = positions["trade"]
    state = request(port, "GET", f"/api/games/{game['id']}/view", token=game["token"])
    view, shown = state["view"], names(port)
    trades = [g["text"].split()[1:] for g in state["legal"] if g["text"].startswith("trade ")]
    assert len(trades) >= 2
    held = {t["name"] for t in view["territories"] if t["owner"] == state["seat"]}
    page = open_seat(browser, port, game)
    # The suggestion: a set worth the most, its cards and the territory its +2 goes to, by name.
    best = max(entry["value"] for entry in view["set_values"])
    suggest = page.locator(".suggest")
    expect(suggest).to_contain_text(f"= {best} armies")
    cards = suggest.locator("strong").inner_text().split(" + ")
    assert sorted(cards) in [sorted(shown.get(c, "Wild") for c in set_) for set_ in trades]
    bonus = [c for c in cards if c in held]
    assert bonus, "the suggested set shows a territory Ann holds"
    assert f"(+2 on {bonus[0]})" in suggest.inner_text()  # 2008: two extra armies there
    assert f"(+{best})" in page.locator("#trade-best").inner_text()
    shot(page, "trade-suggested-laptop")
    # The player's own pick: another set, chosen card by card in the hand.
    mine = next(s for s in trades if sorted(shown.get(c, "Wild") for c in s) != sorted(cards))
    for card in mine:
        page.locator(f'#hand [data-card="{card}"]').click()
    page.locator("#trade").wait_for(timeout=30_000)
    page.click("#trade")
    page.locator("#trade").wait_for(state="detached", timeout=30_000)
    after = request(port, "GET", f"/api/games/{game['id']}/view", token=game["token"])
    assert sorted(c["card"] for c in after["view"]["hand"]) == sorted(
        c["card"] for c in view["hand"] if c["card"] not in mine
    )
    traded = page.locator("#log li", has_text="trade").last
    traded.wait_for(timeout=30_000)
    shot(page, "trade-done-laptop")
    assert page.errors == []
    page.context.close()
