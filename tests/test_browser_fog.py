"""Fog of war in a real browser (Debian's Chromium, Playwright, a real `risk serve`; issue 27).

Two friends and a bot play a fogged game: Ann creates it in the lobby with "Fog of war" ticked, she
and Bob open their seats in two browser contexts (Bob's at a phone's width), a spectator watches in a
third. After some turns (the seats handed to the stand-in bot and taken back, so that the game waits
on a person), each page is compared with the server's truth, the game rebuilt from the server's store:

- every territory out of the seat's sight is drawn under the fog, with no owner on its shape (only
  `data-fog` and what the seat last saw) and the last-seen count marked as old; every territory in
  sight shows its true owner and armies; some hidden territory has changed since it was last seen, and
  the page shows the old value, never the new one;
- nothing the page received over its websocket holds the owner or armies of a hidden territory, nor
  another player's territory count; the players' panel says "?" for those;
- a hidden territory's card says it is out of sight and what was last seen, and when;
- the spectator sees no territory at all.

Then both friends resign (Ann in her page): the game is over and every page shows the whole board as
the server has it, and says that the fog has lifted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from live_server import free_port, request, server
from test_browser import LAPTOP, PHONE, browser, shot, wait_until

__all__ = ["browser"]  # the browser is test_browser's fixture

SEED = 4242


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str]]:
    """A server of its own, and the URL of its store (read by the test for the truth)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('fog') / 'games.sqlite3'}"
    number = free_port()
    with server(url, number):
        yield number, url


def truth(url: str, game_id: str) -> Any:
    """The whole game as the server holds it: replayed from its store by a master of our own."""
    from risk.server.master import GameMaster
    from risk.server.sql import open_storage

    storage = open_storage(url)
    try:
        return GameMaster(storage).live(game_id)
    finally:
        storage.close()


# What the page draws of each territory: its shape's data and its badge.
DRAWN = """() => [...document.querySelectorAll('[data-territory]')].map(shape => {
  const slug = shape.dataset.territory;
  const badge = document.querySelector(`[data-armies="${slug}"]`);
  const veil = document.querySelector(`[data-veil="${slug}"]`);
  return {
    slug,
    owner: shape.dataset.owner === undefined ? null : Number(shape.dataset.owner),
    fog: shape.dataset.fog || null,
    seenOwner: shape.dataset.seenOwner === undefined ? null : Number(shape.dataset.seenOwner),
    count: badge.querySelector('text').textContent,
    old: badge.classList.contains('old'),
    veiled: !!veil && getComputedStyle(veil).display !== 'none',
    label: shape.getAttribute('aria-label'),
  };
})"""


def open_page(context: Any, url: str) -> Any:
    """A page that keeps its errors and every state message its websocket received."""
    page = context.new_page()
    page.errors = []
    page.states = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))

    def frames(socket: Any) -> None:
        def received(payload: Any) -> None:
            message = json.loads(payload) if isinstance(payload, str) else {}
            if message.get("type") == "state":
                page.states.append(message)

        socket.on("framereceived", received)

    page.on("websocket", frames)
    page.goto(url)
    return page


def shows_state(page: Any, state_id: int) -> None:
    page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state_id, timeout=30_000)


def check_fogged_page(page: Any, view: dict[str, Any], game: Any, seat: int | None) -> int:
    """The page draws the seat's view and nothing of the truth out of sight; answers how many hidden
    territories hold an old value (one that is no longer true)."""
    drawn = page.evaluate(DRAWN)
    assert len(drawn) == len(view["territories"]) == len(game.owner)
    stale = 0
    for index, (row, shown) in enumerate(zip(view["territories"], drawn, strict=True)):
        if row.get("hidden"):
            assert shown["owner"] is None, f"{shown['slug']} shows an owner out of sight"
            assert shown["veiled"] and shown["old"], f"{shown['slug']} is not drawn under the fog"
            seen = row.get("seen")
            if seen is None:
                assert shown["fog"] == "unseen" and shown["count"] == "" and shown["seenOwner"] is None
                assert "never seen" in shown["label"], shown["label"]
            else:
                assert shown["fog"] == "seen" and shown["seenOwner"] == seen["owner"]
                assert shown["count"] == (str(seen["armies"]) if seen["armies"] else "")
                assert "last seen" in shown["label"], shown["label"]
                if (seen["owner"], seen["armies"]) != (game.owner[index], game.armies[index]):
                    stale += 1
        else:
            assert shown["fog"] is None and not shown["veiled"] and not shown["old"], shown["slug"]
            assert (shown["owner"], shown["count"]) == (
                game.owner[index],
                str(game.armies[index]) if game.armies[index] else "",
            ), f"{shown['slug']} in sight is not drawn as it is"
    # The players' panel: a count the view leaves out is a "?", never a 0.
    for index, player in enumerate(view["players"]):
        stats = page.locator(f".player-row[data-seat='{index}'] .player-stats .stat")
        lands = stats.nth(0).inner_text()
        if "territories" in player:
            assert player["territories"] == sum(1 for owner in game.owner if owner == index)
            assert lands == str(player["territories"])
        else:
            assert index != seat, "the player's own count is left out"
            assert lands == "?" and stats.nth(1).inner_text() == "?"
    return stale


def check_received(page: Any) -> None:
    """Nothing the page was sent names a hidden territory's owner or armies, or another's count."""
    assert page.states, "the page received no state"
    for message in page.states:
        view = message["view"]
        if message.get("outcome"):
            continue
        for row in view["territories"]:
            if row.get("hidden"):
                assert "owner" not in row and "armies" not in row, row
        for index, player in enumerate(view["players"]):
            if index != message["seat"]:
                assert "territories" not in player, (index, player)


def test_two_friends_and_a_bot_play_a_fogged_game(browser: Any, store: tuple[int, str]) -> None:
    port, url = store
    base = f"http://127.0.0.1:{port}"

    # Ann creates the game in the lobby: Bob in the second seat, a bot in the third, fog of war on.
    ann_context = browser.new_context(viewport=LAPTOP)
    lobby = open_page(ann_context, f"{base}/")
    lobby.locator("#fog-field").wait_for(timeout=30_000)
    assert not lobby.locator("#fog").is_checked()
    assert lobby.locator("#fog-open-field").is_hidden()  # no fog, nothing to see through
    lobby.locator(".seat-row .seat-name").first.fill("Ann")
    lobby.locator(".seat-row .seat-kind").nth(1).select_option("human")
    lobby.locator(".seat-row .seat-name").nth(1).fill("Bob")
    lobby.locator(".seat-row .seat-kind").nth(2).select_option("bot")
    lobby.check("#setup-deal")
    lobby.check("#fog")
    lobby.locator("#fog-open-field").wait_for()
    assert not lobby.locator("#fog-open").is_checked()  # spectators are fogged unless the host says
    lobby.locator("summary", has_text="Table settings").click()
    lobby.locator("#bot-delay").fill("0")
    lobby.locator("#seed").fill(str(SEED))
    lobby.locator("#fog-field").scroll_into_view_if_needed()
    shot(lobby, "fog-lobby-laptop")
    lobby.click("#create-game")
    play_now = lobby.locator("#play-now")
    play_now.wait_for(timeout=30_000)
    ann_link = play_now.get_attribute("href") or ""
    bob_link = lobby.locator("#link-seat-1 code").inner_text()
    game_id = ann_link.split("/game/")[1].split("#")[0]
    ann_token, bob_token = ann_link.split("#token=")[1], bob_link.split("#token=")[1]
    summary = request(port, "GET", f"/api/games/{game_id}")
    assert summary["rules"] == "2008 setup=deal fog=on"
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]

    # Some turns pass: the stand-in bot plays both friends' seats, then they take them back.
    for token in (ann_token, bob_token):
        request(port, "POST", f"/api/games/{game_id}/stand-in", {"on": True}, token=token)
    wait_until(
        lambda: (
            request(port, "GET", f"/api/games/{game_id}/view", token=ann_token)["round"] >= 4
            or request(port, "GET", f"/api/games/{game_id}")["status"] == "over"
        ),
        what="four rounds",
        timeout=180,
    )
    for token in (ann_token, bob_token):
        request(port, "POST", f"/api/games/{game_id}/stand-in", {"on": False}, token=token)
    # The bot plays on until one of the friends is to act: the board then stays as it is.
    views: dict[str, dict[str, Any]] = {}

    def a_friend_to_act() -> bool:
        for name, token in (("ann", ann_token), ("bob", bob_token)):
            views[name] = request(port, "GET", f"/api/games/{game_id}/view", token=token)
        # Both read at one state: the bot may have moved between the two reads (CI met it).
        same = views["ann"]["state_id"] == views["bob"]["state_id"]
        return same and any(v["legal"] for v in views.values())

    wait_until(a_friend_to_act, what="a friend's turn", timeout=60)
    assert views["ann"]["status"] == "playing", "the stand-in bots ended the game: choose another seed"
    live = truth(url, game_id)
    assert live.state_id == views["ann"]["state_id"] == views["bob"]["state_id"]

    ann = open_page(ann_context, f"{base}{ann_link}")
    bob_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    bob = open_page(bob_context, f"{base}/game/{game_id}#token={bob_token}")
    watcher_context = browser.new_context(viewport=LAPTOP)
    watcher = open_page(watcher_context, f"{base}/game/{game_id}")
    pages = {"ann": ann, "bob": bob, "watcher": watcher}
    for page in pages.values():
        shows_state(page, live.state_id)
    page_seat = {"ann": 0, "bob": 1}

    stale = 0
    for name in ("ann", "bob"):
        view = views[name]["view"]
        assert view["fog"] is True
        hidden = [row for row in view["territories"] if row.get("hidden")]
        assert hidden, f"{name} sees the whole board"
        stale += check_fogged_page(pages[name], view, live.game, page_seat[name])
        check_received(pages[name])
        assert "Fog of war" in pages[name].locator("#fog-note").inner_text()
    assert stale, "no hidden territory changed since it was seen: the test shows nothing old"

    # The spectator sees no territory while the game runs.
    watched = request(port, "GET", f"/api/games/{game_id}/view")["view"]
    assert all(row.get("hidden") for row in watched["territories"])
    check_fogged_page(watcher, watched, live.game, None)
    check_received(watcher)
    assert "spectators see no territory" in watcher.locator("#fog-note").inner_text()
    assert "hidden from spectators" in (watcher.locator(".board-legend").text_content() or "")

    # A hidden territory's card: out of sight, what was seen and when.
    seen_slug = ann.evaluate("() => document.querySelector('[data-fog=seen]')?.dataset.territory || ''")
    assert seen_slug
    ann.hover(f'[data-territory="{seen_slug}"]', force=True)
    card = ann.locator("#hover-info")
    card.wait_for(state="visible")
    assert "out of sight" in card.inner_text() and "last seen" in card.inner_text(), card.inner_text()
    # At a phone's width, the map is the width of the screen and the fog is drawn there too.
    assert bob.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert bob.locator(".fog-veil.on").count() > 0
    for name, page in pages.items():
        shot(page, f"fog-{name}")
    # The spectator's page at a phone's width too.
    watcher.set_viewport_size(PHONE)
    wait_until(
        lambda: watcher.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"], "the phone"
    )
    assert watcher.locator(".fog-veil.on").count() == len(watched["territories"])
    shot(watcher, "fog-watcher-phone")
    watcher.set_viewport_size(LAPTOP)

    # Both friends resign (Ann in her page): the bot wins, and the fog lifts on every page.
    ann.locator("#seat-panel > summary").click()
    ann.click("#resign")
    ann.click("#resign-confirm")
    wait_until(
        lambda: request(port, "GET", f"/api/games/{game_id}/view", token=bob_token)["seats"][0]["resigned"],
        what="Ann's resignation",
    )
    request(port, "POST", f"/api/games/{game_id}/resign", {}, token=bob_token)
    wait_until(lambda: request(port, "GET", f"/api/games/{game_id}")["status"] == "over", what="the end")
    final = truth(url, game_id)
    for name, page in pages.items():
        shows_state(page, final.state_id)
        page.locator("#fog-lifted").wait_for(timeout=30_000)
        shot(page, f"fog-over-{name}")
        page.click("#close-gameover")
        drawn = page.evaluate(DRAWN)
        assert [d["owner"] for d in drawn] == list(final.game.owner), name
        assert [d["count"] for d in drawn] == [str(a) if a else "" for a in final.game.armies], name
        assert not any(d["fog"] or d["veiled"] or d["old"] for d in drawn), name
        assert "The fog has lifted" in page.locator("#fog-note").inner_text()
        # The whole log replaces the lines the page held (log_reset): its newest lines are the game's.
        whole = request(port, "GET", f"/api/games/{game_id}/view")
        newest = [line["text"] for line in whole["log"]][-12:]
        shown = page.evaluate(
            "() => [...document.querySelectorAll('#log .log-entry[data-index] .log-text')]"
            ".map((e) => e.textContent)"
        )
        assert shown[-len(newest) :] == newest, name
        last_index = page.evaluate(
            "() => Number([...document.querySelectorAll('#log .log-entry[data-index]')].pop().dataset.index)"
        )
        assert last_index == whole["log_start"] + len(whole["log"]) - 1, name
        shot(page, f"fog-lifted-{name}")
        assert page.errors == [], (name, page.errors)
    for context in (ann_context, bob_context, watcher_context):
        context.close()


def test_the_lobby_sends_who_may_see_through_the_fog(browser: Any, store: tuple[int, str]) -> None:
    """The fog box and its spectators' choice make the body of POST /api/games (the request is looked
    at, not sent on)."""
    port, _ = store
    context = browser.new_context(viewport=LAPTOP)
    page = open_page(context, f"http://127.0.0.1:{port}/")
    page.locator("#fog-field").wait_for(timeout=30_000)
    refusal = {"error": {"code": "bad-request", "message": "looked at"}}
    page.route(
        "**/api/games",
        lambda route: (
            route.continue_()
            if route.request.method != "POST"
            else route.fulfill(status=422, content_type="application/json", body=json.dumps(refusal))
        ),
    )
    bodies: list[dict[str, Any]] = []

    def create() -> None:
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/api/games")) as sent:
            page.click("#create-game")
        bodies.append(json.loads(sent.value.post_data or "{}"))

    create()
    page.check("#fog")
    page.locator("#preset-quick").click()  # a preset keeps the fog
    assert page.locator("#fog").is_checked()
    create()
    page.check("#fog-open")
    create()
    page.locator("summary", has_text="Table settings").click()
    page.uncheck("#spectators")
    assert page.locator("#fog-open").is_disabled()
    create()
    assert [(b["options"].get("fog"), b["spectators"], b["spectator_view"]) for b in bodies] == [
        (None, True, "fogged"),
        ("on", True, "fogged"),
        ("on", True, "open"),
        ("on", False, "fogged"),
    ]
    assert bodies[1]["options"] == {"fog": "on", "setup": "deal"}
    assert page.errors == []
    context.close()
