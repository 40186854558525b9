"""A seat's settings in the browser (docs/web.md, "A seat's settings"), at a laptop's width and on a
phone (touch): the defence and pace controls change the seat's setting on the server and are
remembered by the browser for the next game it opens; "Place the rest for me" and "Place N" during a
claim setup; the battle animation drawn over the board lets clicks through.
Screenshots go to $RISK_SCREENSHOTS when it is set.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from live_server import request
from test_browser import LAPTOP, PHONE, browser, port, shot  # noqa: F401 (fixtures)


def new_game(port: int, seed: int, **human: Any) -> tuple[str, str]:  # noqa: F811
    created = request(
        port,
        "POST",
        "/api/games",
        {
            "seats": [{"kind": "human", "name": "Ann", **human}] + [{"kind": "bot", "bot": "quick"}] * 2,
            "seed": seed,
            "bot_delay": 0,
        },
    )
    return created["id"], created["seats"][0]["token"]


def prefs(port: int, game_id: str, token: str) -> dict[str, Any]:  # noqa: F811
    return request(port, "GET", f"/api/games/{game_id}/view", token=token)["prefs"]


def wait_for(condition: Any, what: str, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"waited in vain for {what}")


def open_page(browser: Any, size: dict[str, int], touch: bool) -> Any:  # noqa: F811
    context = browser.new_context(viewport=size, has_touch=touch, is_mobile=touch)
    return context, context.new_page()


def open_settings(page: Any, touch: bool) -> None:
    """The seat's settings are folded away in "Your seat" (on a phone, in the sheet under the map,
    whose handle names them): a player unfolds them."""
    page.locator("#seat-panel").wait_for(state="attached", timeout=30_000)
    assert page.locator("#defence-select").is_hidden()
    if touch:
        assert "settings" in page.locator("#sheet-toggle").inner_text()
        page.locator("#sheet-toggle").click()
    page.locator("#seat-panel > summary").click()


@pytest.mark.parametrize("size,touch,name", [(LAPTOP, False, "laptop"), (PHONE, True, "phone")])
def test_the_settings_are_the_seats_and_the_browser_remembers_them(
    browser: Any,  # noqa: F811
    port: int,  # noqa: F811
    size: dict[str, int],
    touch: bool,
    name: str,
) -> None:
    context, page = open_page(browser, size, touch)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id, token = new_game(port, 5)
    assert prefs(port, game_id, token)["defence"] is None  # made through the API without a setting
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    # A new player's first game: the page gives it "always the most dice".
    wait_for(lambda: prefs(port, game_id, token)["defence"] == "most", "the new player's default")
    open_settings(page, touch)
    page.locator("#defence-select").wait_for(timeout=30_000)
    assert page.locator("#defence-select").input_value() == "most"
    page.locator("#defence-select").select_option("matters")
    page.locator("#pace-select").select_option("skip")
    wait_for(lambda: prefs(port, game_id, token)["pace"] == "skip", "the pace to be stored")
    assert prefs(port, game_id, token)["defence"] == "matters"
    page.locator("#seat-prefs").scroll_into_view_if_needed()
    shot(page, f"seat-prefs-{name}")
    box = page.locator("#seat-prefs").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1
    # The next game this browser opens gets the same choices.
    second, second_token = new_game(port, 6)
    page.goto(f"http://127.0.0.1:{port}/game/{second}#token={second_token}")
    wait_for(
        lambda: (p := prefs(port, second, second_token))["defence"] == "matters" and p["pace"] == "skip",
        "the remembered choice in the next game",
    )
    open_settings(page, touch)
    page.locator("#pace-select").wait_for(timeout=30_000)
    wait_for(lambda: page.locator("#pace-select").input_value() == "skip", "the page to show it")
    assert errors == []
    context.close()


# The phone's taps claim for a whole setup (tests/test_browser_phone.py taps a whole turn): make test-all.
@pytest.mark.parametrize(
    "size,touch,name", [(LAPTOP, False, "laptop"), pytest.param(PHONE, True, "phone", marks=pytest.mark.slow)]
)
def test_place_n_then_place_the_rest_for_me(
    browser: Any,  # noqa: F811
    port: int,  # noqa: F811
    size: dict[str, int],
    touch: bool,
    name: str,
) -> None:
    context, page = open_page(browser, size, touch)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id, token = new_game(port, 8, defence="most")
    page.goto(f"http://127.0.0.1:{port}/game/{game_id}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)

    def view() -> dict[str, Any]:
        return request(port, "GET", f"/api/games/{game_id}/view", token=token)

    # Claim by clicking until the placements begin.
    while (state := view())["view"]["phase"] == "claim":
        if state["legal"]:
            slug = state["legal"][0]["text"].split()[1]
            page.wait_for_function(
                "id => document.body.dataset.stateId === String(id)", arg=state["state_id"]
            )
            tap(page, slug, touch)
            wait_for(lambda s=state: view()["state_id"] > s["state_id"], "the claim")
        else:
            time.sleep(0.05)
    state = wait_for(lambda: (s := view())["legal"] and s, "the first placement")
    page.wait_for_function("id => document.body.dataset.stateId === String(id)", arg=state["state_id"])
    me = state["seat"]
    territories = state["view"]["territories"]
    mine = next(t["name"].lower().replace(" ", "-") for t in territories if t["owner"] == me)
    before = next(t["armies"] for t in territories if t["owner"] == me)
    page.locator("#place-n").fill("3")
    page.locator("#place-n").dispatch_event("change")
    shot(page, f"setup-quick-{name}")
    tap(page, mine, touch)
    # Three placements there, one each time the seat's turn comes, none of them asked for.
    wait_for(
        lambda: (
            next(
                t["armies"]
                for t in view()["view"]["territories"]
                if t["name"].lower().replace(" ", "-") == mine
            )
            == before + 3
        ),
        "three armies placed by the queue",
    )
    page.locator("#place-rest").click()
    wait_for(
        lambda: view()["view"]["phase"] not in ("claim", "setup-place"), "the setup placed for the seat", 60
    )
    assert view()["prefs"]["auto_setup"] is True
    assert errors == []
    context.close()


def tap(page: Any, slug: str, touch: bool) -> None:
    """A finger swipes the map until it sees the territory, then taps it; a mouse clicks it."""
    from test_browser import SCREEN_POINT
    from test_browser_phone import Finger

    if touch:
        Finger(page, 0, "", "").tap_territory(slug)
    else:
        page.mouse.click(*page.evaluate(SCREEN_POINT, slug))


def test_a_battle_is_drawn_and_lets_clicks_through(browser: Any, port: int) -> None:  # noqa: F811
    context, page = open_page(browser, LAPTOP, False)
    # Bots alone at a watchable pace, seen by a spectator: a battle comes every few moves, each after
    # the page has opened (a game whose bots raced ahead of the page would draw nothing).
    bots = [{"kind": "bot", "bot": "quick"}] * 3
    created = request(port, "POST", "/api/games", {"seats": bots, "seed": 9, "bot_delay": 0.05})
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}")
    # A bot's attack, drawn as it comes: an arrow and the dice, over the map, never in the way.
    page.locator(".anim-battle").first.wait_for(state="attached", timeout=60_000)
    assert page.locator(".anim-battle .anim-arrow").count() >= 1
    assert page.locator(".anim-battle .anim-die").count() >= 2
    assert page.evaluate("getComputedStyle(document.querySelector('.anim-layer')).pointerEvents") == "none"
    shot(page, "battle-animation-laptop")
    context.close()
