"""The lobby in a player's words (issue 23 items 6 and 8), in a real browser (Debian's Chromium,
Playwright) against a real `risk serve`:

- every rule option has a player's label and one line of help; the engine's name is in its tooltip;
  no choice is shown in the engine's words; the rare options are folded away;
- a preset sets up a game of the rulebooks in one click (rulebook, game, options, players), and the
  game created is that game;
- "deal territories" is a plain choice: the game starts with placing armies, not claiming;
- the quick start (issue 37) is a new game's default: territories dealt and my starting armies placed
  for me as the hard bot would (spread, not one pile); claiming and placing by hand is a click away;
- starting armies are a box per player count, not "3:35,4:30,5:25";
- all of it at a laptop's and a phone's width, without sideways scrolling.
Screenshots go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

from typing import Any

import pytest

import test_browser
from live_server import request
from risk.rules.options import OPTIONS
from test_browser import LAPTOP, PHONE, shot, wait_until

browser = test_browser.browser  # the same Chromium and server as the board's browser tests
port = test_browser.port
expect = pytest.importorskip("playwright.sync_api").expect


def open_lobby(browser: Any, port: int, viewport: dict[str, int] = LAPTOP, **options: Any) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#preset-list .preset").first.wait_for(timeout=30_000)
    return page


def create(page: Any, port: int) -> dict[str, Any]:
    """Create the game of the form: the server's summary of it."""
    before = page.evaluate("() => document.querySelector('#play-now')?.getAttribute('href') || ''")
    page.click("#create-game")
    page.wait_for_function(
        "before => (document.querySelector('#play-now')?.getAttribute('href') || before) !== before",
        arg=before,
        timeout=30_000,
    )
    href = page.locator("#play-now").get_attribute("href") or ""
    game_id = href.split("/game/")[1].split("#")[0]
    return request(port, "GET", f"/api/games/{game_id}")


def no_sideways_scrolling(page: Any) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the page is {width[0]} px wide on a {width[1]} px screen"


@pytest.mark.parametrize("game", ["world", "capital", "two-player"])
def test_every_option_in_a_players_words(browser: Any, port: int, game: str) -> None:
    page = open_lobby(browser, port)
    page.select_option("#game", game)
    page.click("#rules-details > summary")
    rows = page.locator("#options .option-row")
    assert rows.count() >= 10
    # The rare ones are folded: out of sight until asked for.
    rare = page.locator("#rare-options .option-row").first
    assert page.locator("#rare-options").get_attribute("open") is None and rare.is_hidden()
    page.click("#rare-options > summary")
    rare.wait_for()
    engine_values = {str(c) for info in OPTIONS.values() for c in info.choices or ()}
    for row in rows.all():
        name = row.get_attribute("data-option")
        label = row.locator(".opt-name")
        help_line = row.locator(".opt-desc").inner_text()
        assert label.inner_text() != name and name in (label.get_attribute("title") or ""), name
        assert help_line and "\n" not in help_line and name not in help_line, name
        assert name in (row.locator(".opt-desc").get_attribute("title") or ""), name
        for shown in row.locator("option").all_inner_texts():
            assert shown.replace(" (rulebook)", "") not in engine_values, f"{name}: {shown}"
    # Neither are the territories in engine words ("claim", "deal"); 2-player RISK always deals, but
    # my starting armies placed for me stays a choice.
    assert page.locator("#setup-choices").is_visible() == (game != "two-player")
    assert page.locator("#auto-place-field").is_visible()
    no_sideways_scrolling(page)
    assert page.errors == []
    page.context.close()


def test_presets_set_up_the_games_of_the_rulebooks(browser: Any, port: int) -> None:
    page = open_lobby(browser, port)
    expect(page.locator("#preset-quick")).to_have_attribute("aria-pressed", "true")  # the quick start
    page.click("#preset-classic")
    expect(page.locator("#preset-classic")).to_have_attribute("aria-pressed", "true")
    assert page.locator("#setup-claim").is_checked()  # the rulebook's claim
    page.click("#preset-team")
    expect(page.locator("#preset-team")).to_have_attribute("aria-pressed", "true")
    assert page.locator("#edition").input_value() == "2003" and page.locator("#game").input_value() == "team"
    assert page.locator("#seats .seat-row").count() == 4
    team = create(page, port)
    assert team["rules"] == "2003 game=team" and len(team["seats"]) == 4
    # The short Capital RISK: the option that makes it short, and four players.
    page.click("#preset-capital-short")
    assert page.locator("#seats .seat-row").count() == 4
    capital = create(page, port)
    assert capital["rules"] == "2008 game=capital capitals-to-win=short"
    # The 1993 experts: their variations, shown changed in the folded options (which open for it).
    page.click("#preset-experts")
    page.click("#rules-details > summary")
    expect(page.locator("#rare-options")).to_have_attribute("open", "")
    expect(page.locator("#changed-count")).to_have_text("5 changed")
    assert page.locator("#rare-options .option-row.changed").count() == 3
    experts = create(page, port)
    assert set(experts["rules"].split()) == {
        "1993",
        "card-values=plus-one",
        "fortify=extended",
        "army-cap=12",
        "attack-advantage=on",
        "commanders=on",
    }
    # A change by hand leaves the preset: none is pressed.
    page.select_option("#opt-fortify", "chain")
    expect(page.locator(".preset[aria-pressed='true']")).to_have_count(0)
    shot(page, "lobby-presets-laptop")
    assert page.errors == []
    page.context.close()


def test_deal_the_territories_and_starting_armies_in_words(browser: Any, port: int) -> None:
    page = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    page.click("#setup-deal")
    expect(page.locator("#preset-quick")).to_have_attribute("aria-pressed", "true")
    page.uncheck("#auto-place")  # I place my starting armies myself
    expect(page.locator("#setup-desc")).to_contain_text("dealt to them, then places the rest of their armies")
    page.click("#rules-details > summary")
    page.click("#rare-options > summary")
    three = page.locator("#opt-starting-armies-3")
    assert three.input_value() == "35"
    assert page.locator("#opt-starting-armies input").count() == 3  # 3, 4 and 5 players in 2008
    three.fill("40")
    three.press("Tab")
    expect(page.locator("#changed-count")).to_have_text("2 changed")
    no_sideways_scrolling(page)
    shot(page, "lobby-deal-phone")
    game = create(page, port)
    assert set(game["rules"].split()) == {"2008", "setup=deal", "starting-armies=3:40,4:30,5:25"}
    view = request(port, "GET", f"/api/games/{game['id']}/view")["view"]
    assert view["phase"] == "setup-place"  # no claiming: the territories were dealt
    assert page.errors == []
    page.context.close()


def test_the_quick_start_is_the_default_and_starts_at_my_first_turn(browser: Any, port: int) -> None:
    """The quick start in plain words, as a new game's default: the territories dealt and my starting
    armies placed for me (the seat's standing order, kept by the server) as a strong player would,
    spread over my borders; the first thing I am asked is my first turn's move, and my defence dice are
    the most, never asked."""
    page = open_lobby(browser, port, PHONE, is_mobile=True, has_touch=True)
    expect(page.locator("#auto-place-field")).to_be_visible()
    assert page.locator("#setup-deal").is_checked() and page.locator("#auto-place").is_checked()
    assert "(rulebook)" in page.locator("label", has=page.locator("#setup-claim")).inner_text()
    assert "as a strong player would" in page.locator("#auto-place-field").inner_text()
    expect(page.locator("#setup-desc")).to_contain_text("your first turn comes straight away")
    no_sideways_scrolling(page)
    page.locator("#setup-field").scroll_into_view_if_needed()
    shot(page, "lobby-quick-start-phone")
    page.locator("summary", has_text="Table settings").click()
    page.fill("#bot-delay", "0")  # the bots' own setup at full speed: what is tested is mine
    game = create(page, port)
    assert game["rules"] == "2008 setup=deal"
    token = (page.locator("#play-now").get_attribute("href") or "").split("#token=")[1]

    def mine() -> dict[str, Any]:
        return request(port, "GET", f"/api/games/{game['id']}/view", token=token)

    wait_until(lambda: mine()["legal"] and mine()["view"]["phase"] != "setup-place", "my first turn", 60)
    state = mine()
    assert state["view"]["phase"] in ("reinforce", "choose-capital"), state["view"]["phase"]
    assert state["prefs"]["auto_setup"] is True
    assert state["prefs"]["defence"] == "most"
    # Not one pile: at most half of my extra armies on one territory.
    extra = [t["armies"] - 1 for t in state["view"]["territories"] if t["owner"] == state["seat"]]
    assert max(extra) <= sum(extra) / 2, extra
    assert page.errors == []
    page.context.close()


def test_claiming_by_hand_is_a_click_away(browser: Any, port: int) -> None:
    """The rulebook's way: take turns claiming, my box unticked: the game starts with my claim."""
    page = open_lobby(browser, port)
    page.click("#setup-claim")
    page.uncheck("#auto-place")
    expect(page.locator("#setup-desc")).to_contain_text("claim the empty territories one at a time")
    assert "Claim my territories" not in page.locator("#setup-desc").inner_text()
    page.check("#auto-place")
    words = "Claim my territories and place my starting armies"
    expect(page.locator("#auto-place-field")).to_contain_text(words)
    page.uncheck("#auto-place")
    game = create(page, port)
    assert game["rules"] == "2008"
    token = (page.locator("#play-now").get_attribute("href") or "").split("#token=")[1]
    state = request(port, "GET", f"/api/games/{game['id']}/view", token=token)
    assert state["view"]["phase"] == "claim" and state["prefs"]["auto_setup"] is False
    # The rulebook or game changed: the setup chosen stays chosen.
    page.select_option("#edition", "1993")
    assert page.locator("#setup-claim").is_checked()
    assert page.errors == []
    page.context.close()


def test_a_chat_webhook_given_with_the_game(browser: Any, port: int) -> None:
    """Table settings' chat webhook: checked before the game is made, set with the host's token after
    (docs/web.md, "Notifications"), and never shown back."""
    page = open_lobby(browser, port)
    page.locator("details.more:has(#webhook-url) > summary").click()
    page.fill("#webhook-url", "ftp://hooks.example.org/risk")
    games = len(request(port, "GET", "/api/games")["games"])
    page.click("#create-game")
    expect(page.locator("#form-error")).to_contain_text("must be an address starting with https://")
    assert len(request(port, "GET", "/api/games")["games"]) == games  # nothing made
    page.fill("#webhook-url", "https://hooks.example.org/risk")
    shot(page, "lobby-webhook-laptop")
    summary = create(page, port)
    page.locator(".toast", has_text="The chat webhook is set").wait_for(timeout=10_000)
    host = page.evaluate(
        "id => JSON.parse(localStorage.getItem('risk.hosts.v1')).find((h) => h.game === id).token",
        summary["id"],
    )
    hook = request(port, "GET", f"/api/games/{summary['id']}/notify/webhook", token=host)
    assert hook == {"webhook": {"set": True, "paused": False, "failures": 0}}
    assert page.errors == []
    page.context.close()
