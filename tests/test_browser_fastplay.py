"""Faster play in a real browser (Debian's Chromium, Playwright) against a real `risk serve`:

- a blitz to a conquest in one click: one websocket message, every roll in the log, then the move in,
  the attacker kept selected for the next target (and let go of with Escape), the move in taken back;
- a placement taken back with the Undo button and with Ctrl+Z: the army count is restored.

Ann's moves up to the position each test needs are made over the HTTP API with a fixed, simple
policy (the bots play on the server), so the games are the same every run.
Screenshots of the attack panel go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from live_server import post, request
from test_browser import (  # noqa: F401 - the browser and port fixtures are used by name
    LAPTOP,
    PHONE,
    Person,
    browser,
    port,
    shot,
)

expect = pytest.importorskip("playwright.sync_api").expect
BOARD: dict[str, Any] = {}


def board(server_port: int) -> dict[str, Any]:
    if not BOARD:
        data = request(server_port, "GET", "/api/boards/classic")["board"]
        BOARD["slugs"] = [t["slug"] for t in data["territories"]]
        index = {t["name"]: i for i, t in enumerate(data["territories"])}
        BOARD["neighbours"] = [[index[n] for n in t["neighbours"]] for t in data["territories"]]
    return BOARD


def new_game(server_port: int, seed: int) -> tuple[str, str]:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 2
    created = post(server_port, "/api/games", {"seats": seats, "seed": seed, "bot_delay": 0})
    return created["id"], created["seats"][0]["token"]


def simple_move(state: dict[str, Any], server_port: int) -> str:
    """Ann's policy: claim and place where the legal list starts, reinforce her biggest stack on a
    border, trade when she must, never attack, move everything in, defend with the most dice."""
    legal = state["legal"]
    texts = {g["text"]: g for g in legal}
    view, me = state["view"], state["seat"]
    phase = view["phase"]
    rows = view["territories"]
    first = legal[0]
    if phase == "reinforce" and any(t.startswith("place ") for t in texts):
        neighbours, slugs = board(server_port)["neighbours"], board(server_port)["slugs"]
        border = [
            i
            for i, row in enumerate(rows)
            if row["owner"] == me and any(rows[n]["owner"] != me for n in neighbours[i])
        ]
        target = max(border, key=lambda i: rows[i]["armies"])
        group = texts.get(f"place {slugs[target]}")
        if group is not None:
            return f"{group['text']} {group['max']}"
    if phase == "attack" and "endattack" in texts:
        return "endattack"
    if phase == "fortify" and "endturn" in texts:
        return "endturn"
    return first["text"] if "max" not in first else f"{first['text']} {first['max']}"


def drive(server_port: int, game_id: str, token: str, wanted: Callable[[dict[str, Any]], Any]) -> Any:
    """Play Ann over HTTP until ``wanted(state)`` answers something, which is returned."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        state = request(server_port, "GET", f"/api/games/{game_id}/view", token=token)
        assert state["status"] != "over", "the game ended before the position came"
        if not state["legal"]:
            time.sleep(0.05)  # a bot of the server's is to move
            continue
        found = wanted(state)
        if found:
            return found
        body = {"action": simple_move(state, server_port), "state_id": state["state_id"]}
        request(server_port, "POST", f"/api/games/{game_id}/actions", body, token=token)
    raise AssertionError("the position never came")


def strong_attack(server_port: int) -> Callable[[dict[str, Any]], tuple[str, str, dict[str, Any]] | None]:
    def found(state: dict[str, Any]) -> tuple[str, str, dict[str, Any]] | None:
        if state["view"]["phase"] != "attack":
            return None
        slugs = board(server_port)["slugs"]
        rows = state["view"]["territories"]
        for group in state["legal"]:
            words = group["text"].split()
            if words[0] != "attack":
                continue
            source, target = slugs.index(words[1]), slugs.index(words[2])
            if rows[target]["armies"] >= 2 and rows[source]["armies"] >= 3 * rows[target]["armies"] + 4:
                return words[1], words[2], state
        return None

    return found


def open_seat(
    context: Any,
    server_port: int,
    game_id: str,
    token: str,
    state_id: int,
    sent: list[dict[str, Any]] | None = None,
) -> tuple[Any, list[str]]:
    """Ann's page on the position of ``state_id``; its errors; the moves it sends go into ``sent``."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    if sent is not None:
        keep = sent

        def watch(socket: Any) -> None:
            socket.on("framesent", lambda payload: keep.append(json.loads(payload)))

        page.on("websocket", watch)
    page.goto(f"http://127.0.0.1:{server_port}/game/{game_id}#token={token}")
    page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state_id, timeout=30_000)
    return page, errors


def click_territory(page: Any, slug: str) -> None:
    """A click where a person aims: the territory's army badge (badges let clicks through), the map
    dragged to it first when it is off the screen (a phone shows part of the board)."""
    x, y = Person(page, 0, "", "").in_view(slug)
    page.mouse.click(x, y)


def test_a_blitz_in_one_click_shows_every_roll(browser: Any, port: int) -> None:  # noqa: F811
    game_id, token = new_game(port, seed=41)
    source, target, state = drive(port, game_id, token, strong_attack(port))
    context = browser.new_context(viewport=LAPTOP)
    territories = request(port, "GET", "/api/boards/classic")["board"]["territories"]
    names = {t["slug"]: t["name"] for t in territories}
    sent: list[dict[str, Any]] = []
    page, errors = open_seat(context, port, game_id, token, state["state_id"], sent)
    battles_before = page.locator('#log li[data-kind="battle"]').count()
    click_territory(page, source)
    page.locator("#cancel-selection").wait_for()
    click_territory(page, target)
    page.locator("#odds").filter(has_text="%").wait_for(timeout=30_000)
    shot(page, "attack-panel-laptop")
    page.click("#blitz")
    # One click, one message: the server rolled the whole invasion.
    page.locator("#move-slider").wait_for(timeout=30_000)
    after = request(port, "GET", f"/api/games/{game_id}/view", token=token)
    assert after["view"]["phase"] == "occupy"
    moves = [m for m in sent if m.get("type") in ("action", "blitz")]
    blitz = {"type": "blitz", "from": source, "to": target, "until": 1, "state_id": state["state_id"]}
    assert moves == [blitz | {"ref": moves[0]["ref"]}]
    said = re.fullmatch(r"Blitz, (\d+) rolls?: (.+)", page.locator("#message").inner_text())
    assert said is not None, page.locator("#message").inner_text()
    rolls = int(said.group(1))
    assert rolls >= 2 and after["state_id"] - state["state_id"] >= 2 * rolls - 1
    battles = page.locator('#log li[data-kind="battle"]')
    page.wait_for_function(
        "n => document.querySelectorAll('#log li.log-battle').length === n", arg=battles_before + rolls
    )
    assert battles.count() == battles_before + rolls
    assert said.group(2) == f"{names[target]} is conquered."
    shot(page, "blitz-conquered-laptop")
    # Move in: the attacker stays selected for the next target (the source if it can still attack,
    # else the territory the armies moved into).
    page.click("#move-confirm")
    page.locator(".selection-row").wait_for(timeout=30_000)
    chosen = page.locator(".selection-row strong").inner_text()
    assert chosen in (names[source], names[target])
    assert page.locator("[data-territory].selected").count() == 1
    shot(page, "attack-reselected-laptop")
    page.keyboard.press("Escape")
    page.locator(".selection-row").wait_for(state="detached")
    assert page.locator("[data-territory].selected").count() == 0
    # The move in revealed nothing: it can be taken back, to the choice again.
    page.click("#undo")
    page.locator("#move-slider").wait_for(timeout=30_000)
    assert page.locator('#log li[data-kind="undo"]').count() == 1
    assert errors == []
    context.close()


def test_undo_a_placement_restores_the_count(browser: Any, port: int) -> None:  # noqa: F811
    game_id, token = new_game(port, seed=43)

    def reinforcing(state: dict[str, Any]) -> dict[str, Any] | None:
        view = state["view"]
        places = [g for g in state["legal"] if g["text"].startswith("place ")]
        if view["phase"] == "reinforce" and view["pending"] >= 3 and places:
            return state
        return None

    state = drive(port, game_id, token, reinforcing)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page, errors = open_seat(context, port, game_id, token, state["state_id"])
    slug = next(g["text"].split()[1] for g in state["legal"] if g["text"].startswith("place "))
    badge = page.locator(f'[data-armies="{slug}"] text')
    count = int(badge.text_content() or 0)
    page.locator("#place-1").click()
    click_territory(page, slug)
    page.locator("#undo").wait_for(timeout=30_000)
    expect(badge).to_have_text(str(count + 1))
    assert "1 army placed in" in page.locator(".undo-what").inner_text()
    shot(page, "undo-phone")
    page.click("#undo")
    page.locator("#undo").wait_for(state="detached", timeout=30_000)
    expect(badge).to_have_text(str(count))
    assert "takes back" in page.locator('#log li[data-kind="undo"]').last.inner_text()
    # Ctrl+Z does the same.
    click_territory(page, slug)
    page.locator("#undo").wait_for(timeout=30_000)
    expect(badge).to_have_text(str(count + 1))
    page.keyboard.press("Control+z")
    page.locator("#undo").wait_for(state="detached", timeout=30_000)
    expect(badge).to_have_text(str(count))
    view = request(port, "GET", f"/api/games/{game_id}/view", token=token)
    assert view["view"]["pending"] == state["view"]["pending"] and view["undo"] is None
    assert errors == []
    context.close()
