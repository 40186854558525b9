"""Issue 13's "Done when", as one story in real browsers (Debian's Chromium, Playwright, a real
`risk serve` over SQLite):

Two friends in two browsers play with a turn timer, chat, one walks away and a bot takes the seat,
the game ends, and both look at the summary, the luck meter and the timelapse; a house-rules link
creates the same game for a third person.

Everything is done through the pages, as a person would; the API only checks the results.
Screenshots of the key steps go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from live_server import request
from risk.record import read_record
from test_browser import LAPTOP, Person, browser, port, shot, wait_until
from test_browser_social import chat_texts, say
from test_browser_summary import assert_map_is, map_on_page, slider_at

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

expect = pytest.importorskip("playwright.sync_api").expect

TURN_TIME = 10  # seconds per turn: short, and still room for a page to load and a chat line
RULES_NAME = "Thursday blitz"
GREETING = f"Hi Bob! {TURN_TIME} seconds a turn, no dawdling."
SEED = 31  # the same dice every run, so the bots' game after the friends leave is the same length


def open_context(browser: Any) -> tuple[Any, Any, list[str]]:
    """A fresh browser (its own storage) with one page whose script errors are collected."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    return context, page, errors


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: errors.append(f"a dialog opened: {dialog.message}"))


def public_view(port: int, game_id: str) -> dict[str, Any]:
    return request(port, "GET", f"/api/games/{game_id}/view")


def claim_by_clicking(port: int, game_id: str, people: dict[int, Person], claims: int) -> None:
    """Whoever of ``people`` is to act claims a territory by clicking it, as soon as it is their turn
    (their clock runs), until each of them has claimed ``claims`` more times."""
    left = dict.fromkeys(people, claims)
    deadline = time.monotonic() + 60
    while any(left.values()):
        assert time.monotonic() < deadline, f"the claims did not come round: {left} left"
        state = public_view(port, game_id)
        assert state["view"]["phase"] == "claim", "the claims ended before the friends had made theirs"
        seat = state["view"]["to_act"]
        if seat not in people or not left[seat]:
            time.sleep(0.05)
            continue
        person = people[seat]
        mine = person.wait_for_my_turn()
        person.step(mine)
        wait_until(
            lambda taken=mine["state_id"]: public_view(port, game_id)["state_id"] > taken,
            "the claim to be taken",
        )
        left[seat] -= 1


def create_in_the_lobby(page: Any, port: int) -> tuple[str, str, str, str]:
    """Ann fills the lobby's form, saves it as house rules and creates the game:
    (game id, Ann's link, Bob's link, the house rules' link)."""
    page.goto(f"http://127.0.0.1:{port}/")
    page.locator("#edition option").first.wait_for(state="attached", timeout=30_000)
    page.locator(".seat-row[data-seat='0'] .seat-name").fill("Ann")
    # The rulebook's setup, claimed and placed by hand (the lobby's default is the quick start).
    page.click("#setup-claim")
    page.uncheck("#auto-place")
    page.locator(".seat-row[data-seat='1'] .seat-kind").select_option("human")
    page.locator(".seat-row[data-seat='1'] .seat-name").fill("Bob")
    page.locator(".seat-row[data-seat='2'] .seat-bot").select_option("quick")
    page.click("#rules-details summary")
    page.select_option("#opt-fortify", "adjacent")
    page.locator("summary", has_text="Table settings").click()
    page.fill("#bot-delay", "0")
    page.fill("#turn-time", str(TURN_TIME))
    page.select_option("#turn-time-unit", "1")  # seconds
    page.fill("#missed-turns", "1")
    page.select_option("#stand-in", "quick")
    page.fill("#seed", str(SEED))
    # The group's house rules, saved before the game (and kept as a link and a QR code).
    page.click("#house-rules summary")
    page.fill("#rules-name", RULES_NAME)
    page.click("#save-rules")
    rules_link = page.locator("#rules-link code")
    rules_link.wait_for(timeout=30_000)
    expect(page.locator("#rules-link-qr")).to_be_visible()
    shot(page, "story-1-lobby-house-rules")
    page.click("#create-game")
    play_now = page.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    ann_link = play_now.get_attribute("href") or ""
    bob_link = page.locator("#link-seat-1 code").inner_text()
    game_id = ann_link.split("/game/")[1].split("#")[0]
    shot(page, "story-2-lobby-created")
    return game_id, ann_link, bob_link, rules_link.inner_text()


def test_two_friends_play_one_walks_away_and_both_look_back(browser: Any, port: int) -> None:
    ann_context, ann, ann_errors = open_context(browser)
    bob_context, bob, bob_errors = open_context(browser)

    # 1. Ann creates the game in the lobby: Bob (a private link), a quick bot, a short clock.
    game_id, ann_link, bob_link, rules_link = create_in_the_lobby(ann, port)
    assert f"/game/{game_id}#token=" in bob_link and "#rules=" in rules_link
    timer = public_view(port, game_id)["timer"]
    assert timer == {
        "turn_time": float(TURN_TIME),
        "defend_timeout": 30.0,
        "missed_turns": 1,
        "stand_in": "quick",
        "time_bank": 0.0,
        "vacation_days": 0.0,
    }

    # 2. Bob opens his link while Ann goes to the board; both boards come up.
    bob.goto(bob_link, wait_until="commit")
    ann.click("#play-now")
    for page in (ann, bob):
        page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    ann_token = ann_link.split("#token=")[1]
    bob_token = bob_link.split("#token=")[1]
    people = {0: Person(ann, port, game_id, ann_token), 1: Person(bob, port, game_id, bob_token)}
    expect(ann.locator(".player-row[data-seat='1'] .conn-dot.on")).to_be_visible(timeout=30_000)

    # 3. A claim each by clicking; then they chat (each sees the other's line).
    claim_by_clicking(port, game_id, people, 1)
    ann.click("#tab-chat")
    say(ann, GREETING)
    expect(bob.locator("#chat-unread")).to_have_text("1", timeout=30_000)
    bob.click("#tab-chat")
    expect(bob.locator("#chat-list .chat-text").last).to_have_text(GREETING, timeout=30_000)
    say(bob, "gl hf, Ann")
    expect(ann.locator("#chat-list .chat-line[data-seat='1'] .chat-text").last).to_have_text(
        "gl hf, Ann", timeout=30_000
    )
    assert chat_texts(ann) == chat_texts(bob) == [GREETING, "gl hf, Ann"]
    claim_by_clicking(port, game_id, people, 1)

    # The clock is shown to both, counting down: the seat to act's, "mine" on that player's page.
    wait_until(lambda: public_view(port, game_id)["view"]["to_act"] in people, "a friend's turn")
    seat = public_view(port, game_id)["view"]["to_act"]
    for page in (ann, bob):
        expect(page.locator(f"#clock[data-seat='{seat}'][data-for='turn']")).to_be_visible(timeout=10_000)
    first = ann.locator("#clock-time").inner_text()
    ann.wait_for_function(
        "t => document.querySelector('#clock-time').textContent !== t", arg=first, timeout=5_000
    )
    assert ann.locator("#clock-time").inner_text() < first  # "0:08" after "0:09"
    acting = (ann, bob)[seat]
    assert "mine" in (acting.locator("#clock").get_attribute("class") or "")
    shot(ann, "story-3-clock-and-chat-ann")
    shot(bob, "story-3-clock-and-chat-bob")
    claim_by_clicking(port, game_id, people, 1)

    # 4. Bob walks away (closes his page). His clock runs out, the server claims for him, and after
    # that one missed turn the stand-in bot plays his seat; Ann goes on claiming meanwhile.
    bob.close()
    expect(ann.locator(".player-row[data-seat='1'] .conn-dot.off")).to_be_visible(timeout=30_000)
    note = ann.locator("#chat-list li.chat-note", has_text="The clock ran out for Bob")
    deadline = time.monotonic() + 3 * TURN_TIME + 30
    while not note.count():
        assert time.monotonic() < deadline, "Bob's clock never ran out"
        if public_view(port, game_id)["view"]["to_act"] == 0:
            claim_by_clicking(port, game_id, {0: people[0]}, 1)
        time.sleep(0.1)
    assert "the quick bot plays for Bob" in note.inner_text()
    expect(ann.locator("#log li[data-kind='note']", has_text="The clock ran out for Bob")).to_have_count(1)
    expect(ann.locator(".player-row[data-seat='1'] .tag-standin")).to_have_text("quick bot", timeout=10_000)
    bob_seat = public_view(port, game_id)["seats"][1]
    assert bob_seat["stand_in"] == "quick" and bob_seat["connected"] is False
    # The stand-in claims for Bob while Ann claims by clicking.
    bob_claims = ann.locator("#log li[data-kind='claim']", has_text="Bob claims")
    before = bob_claims.count()
    claim_by_clicking(port, game_id, {0: people[0]}, 1)
    wait_until(lambda: bob_claims.count() > before, "the stand-in to claim for Bob")
    ann.click("#tab-log")
    shot(ann, "story-4-bob-away-stand-in")

    # 5. Ann has seen enough: the stand-in plays her seat too, and the bots finish the game.
    ann.click("#seat-panel > summary")  # "Your seat" is folded away until opened
    ann.click("#stand-in-on")
    expect(ann.locator(".player-row[data-seat='0'] .tag-standin")).to_have_text("quick bot", timeout=10_000)
    expect(ann.locator("#gameover")).to_be_visible(timeout=120_000)
    over = request(port, "GET", f"/api/games/{game_id}")
    assert over["status"] == "over" and over["winner"] is not None
    winner = over["seats"][over["winner"]]["name"]
    expect(ann.locator("#gameover")).to_contain_text(f"{winner} wins")
    assert "null" not in ann.locator("#gameover-card").inner_text()  # no missing line written out
    shot(ann, "story-5-game-over")

    # 6. Both look back. Ann from the game-over panel; Bob opens his link again (the finished game).
    summary = request(port, "GET", f"/api/games/{game_id}/summary")
    ann.click("#view-summary")
    ann.wait_for_url(f"**/game/{game_id}/summary", timeout=30_000)
    bob = bob_context.new_page()
    watch_errors(bob, bob_errors)
    bob.goto(bob_link)
    expect(bob.locator("#gameover")).to_be_visible(timeout=30_000)
    expect(bob.locator("#gameover")).to_contain_text(f"{winner} wins")
    # His chat is there too: their two lines, then what happened while he was away.
    bob.click("#close-gameover")
    expect(bob.locator("#action-form")).to_be_hidden()  # nothing is left to play
    bob.click("#tab-chat")
    expect(bob.locator("#chat-list li.chat-note", has_text="The clock ran out for Bob")).to_have_count(1)
    assert chat_texts(bob)[:2] == [GREETING, "gl hf, Ann"]
    shot(bob, "story-6-bob-back-on-the-board")
    bob.click("#to-summary")
    bob.wait_for_url(f"**/game/{game_id}/summary", timeout=30_000)
    # The record, downloaded from the summary as a player would: the engine's game, to compare with.
    with ann.expect_download() as download:
        ann.click("#download-record")
    game = read_record(download.value.path().read_text(encoding="utf-8"))
    assert game.is_over and game.players[game.winner] == winner
    for page in (ann, bob):
        look_at_the_summary(page, summary, game)
    shot(ann, "story-6-summary-ann")
    bob.locator("#charts").scroll_into_view_if_needed()
    shot(bob, "story-6-summary-charts-bob")

    # 7. A third person opens the house-rules link in a fresh browser and creates the game in one click.
    cy_context, cy, cy_errors = open_context(browser)
    cy.goto(rules_link)
    expect(cy.locator("#rules-title")).to_have_text(RULES_NAME, timeout=30_000)
    expect(cy.locator("#rules-box")).to_contain_text(f"0:{TURN_TIME:02d} per turn")
    shot(cy, "story-7-house-rules-link")
    cy.click("#rules-create")
    play = cy.locator("#play-now")
    play.wait_for(timeout=30_000)
    new_id = (play.get_attribute("href") or "").split("/game/")[1].split("#")[0]
    original = request(port, "GET", f"/api/games/{game_id}")
    copy = request(port, "GET", f"/api/games/{new_id}")
    assert copy["rules"] == original["rules"] == "2008 fortify=adjacent"
    seats = [(s["kind"], s["bot"]) for s in original["seats"]]
    assert seats == [("human", None), ("human", None), ("bot", "quick")]
    assert [(s["kind"], s["bot"]) for s in copy["seats"]] == seats
    assert public_view(port, new_id)["timer"] == timer

    assert ann_errors == bob_errors == cy_errors == []
    for context in (ann_context, bob_context, cy_context):
        context.close()


def look_at_the_summary(page: Any, summary: dict[str, Any], game: Any) -> None:
    """The charts, the luck meter of every player, and the timelapse stepping through the game."""
    page.locator("#summary-body").wait_for(state="visible", timeout=30_000)
    players = summary["players"]
    winner = players[summary["winner"]]["name"]
    assert page.locator("#winner").text_content().strip() == f"{winner} wins"
    for key in ("armies", "territories", "cards", "continents"):
        lines = page.locator(f'.chart[data-series="{key}"] polyline.chart-line')
        expect(lines).to_have_count(len(players))
    rows = page.locator("#luck .luck-row")
    expect(rows).to_have_count(len(players))  # every player rolled: each attacked or defended
    for seat in summary["luck"]["seats"]:
        row = page.locator(f'#luck .luck-row[data-seat="{seat["seat"]}"]')
        assert float(row.get_attribute("data-luck")) == seat["luck"]
        assert players[seat["seat"]]["name"] in row.text_content()
    # The timelapse: the slider starts at the end; moving it puts that step's board on the map.
    last = summary["actions"]
    assert slider_at(page) == last
    at_end = map_on_page(page)
    middle = last // 2
    page.locator("#tl-slider").fill(str(middle))
    assert slider_at(page) == middle
    assert map_on_page(page) != at_end
    assert_map_is(page, game, middle)
    page.click("#tl-next-turn")
    assert slider_at(page) > middle
    assert_map_is(page, game, slider_at(page))
