"""The board on a phone and on one laptop screen (issue 23, items 3 and 7), in a real browser.

- 390x844 with touch: a finger claims Great Britain, Iceland, Madagascar and New Guinea by tapping
  where a player sees them (panning the map with a swipe to reach them), a tap beside a small
  island takes the nearest territory the move allows, no territory card stays stuck after a tap;
  then a whole turn (reinforce, attack, move in, fortify, end) by taps alone, the page never
  scrolled and the controls always on screen;
- 1366x768: your cards, your goal (a secret mission; the headquarters), whose turn it is and the log
  on one screen without scrolling; your seat's settings folded away.
"""

from __future__ import annotations

from typing import Any

import pytest

from live_server import request
from test_browser import LAPTOP, PHONE, SCREEN_POINT, browser, port, shot, wait_until
from whole_turn import PagePlayer, play_a_whole_turn
from whole_turn import act_and_wait as done_by_the_server

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

SMALL = ["new-guinea", "great-britain", "iceland", "madagascar"]  # Australia first: the bots like it


class Finger(PagePlayer):
    """A player's finger on a phone: taps what it sees, swipes the map to see more."""

    def __init__(self, page: Any, port: int, game_id: str, token: str) -> None:
        super().__init__(page, port, game_id, token)
        self.cdp = page.context.new_cdp_session(page)

    def map_box(self) -> dict[str, float]:
        return self.page.locator(".board-svg").bounding_box()

    def point(self, slug: str) -> tuple[float, float]:
        """Where the player sees the territory: its army badge on the screen."""
        x, y = self.page.evaluate(SCREEN_POINT, slug)
        return x, y

    def visible(self, x: float, y: float, margin: float = 24) -> bool:
        box = self.map_box()
        return box["x"] + margin < x < box["x"] + box["width"] - margin and (
            box["y"] + margin < y < box["y"] + box["height"] - margin
        )

    def swipe(self, start: tuple[float, float], end: tuple[float, float], steps: int = 10) -> None:
        touch = lambda kind, x, y: self.cdp.send(  # noqa: E731
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [] if kind == "touchEnd" else [{"x": x, "y": y}]},
        )
        touch("touchStart", *start)
        for i in range(1, steps + 1):
            touch(
                "touchMove",
                start[0] + (end[0] - start[0]) * i / steps,
                start[1] + (end[1] - start[1]) * i / steps,
            )
        touch("touchEnd", *end)
        # A person looks before tapping again (and Chrome folds a tap right after a swipe into the swipe).
        self.page.wait_for_timeout(800)

    def bring_into_view(self, slug: str) -> tuple[float, float]:
        """Swipe the map until the territory is on screen, as a player would."""
        for _ in range(6):
            x, y = self.point(slug)
            if self.visible(x, y):
                return x, y
            box = self.map_box()
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            # Move the territory toward the middle, at most most of a screen at a time.
            dx = max(-box["width"] * 0.8, min(box["width"] * 0.8, cx - x))
            dy = max(-box["height"] * 0.8, min(box["height"] * 0.8, cy - y))
            self.swipe((cx - dx / 2, cy - dy / 2), (cx + dx / 2, cy + dy / 2))
        raise AssertionError(f"{slug} could not be brought into view")

    def tap_territory(self, slug: str) -> None:
        x, y = self.bring_into_view(slug)
        self.page.touchscreen.tap(x, y)

    def choose(self, slug: str) -> None:
        self.tap_territory(slug)

    def press(self, element_id: str) -> None:
        self.tap(f"#{element_id}")

    def tap(self, selector: str) -> None:
        locator = self.page.locator(selector).first
        locator.wait_for(timeout=30_000)
        self.assert_on_screen(selector)
        locator.tap()

    def assert_on_screen(self, selector: str) -> None:
        """The page is not scrolled, and the control is inside the screen."""
        assert self.page.evaluate("() => window.scrollY") == 0
        box = self.page.evaluate(
            """(selector) => {  // found and measured at once: a redraw may replace it in between
                const found = document.querySelector(selector);
                if (!found || !found.getClientRects().length) return null;
                const r = found.getBoundingClientRect();
                return { x: r.x, y: r.y, width: r.width, height: r.height };
            }""",
            selector,
        )
        assert box is not None, f"{selector} is not shown"
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
            f"{selector} is off the screen: {box}"
        )

    def act_and_wait(self, do: Any, what: str = "the tap") -> None:
        done_by_the_server(self, do, what)  # tapped again if not taken (whole_turn.act_and_wait)


def phone_page(browser: Any, port: int, created: dict[str, Any]) -> tuple[Any, Finger]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    token = created["seats"][0]["token"]
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    return context, Finger(page, port, created["id"], token)


def game(port: int, seed: int, **options: str) -> dict[str, Any]:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    body: dict[str, Any] = {"seats": seats, "seed": seed, "bot_delay": 0}
    if options:
        body["options"] = options
    return request(port, "POST", "/api/games", body)


def owner(finger: Finger, slug: str) -> int:
    view = finger.state()["view"]
    return next(t["owner"] for t in view["territories"] if t["name"].lower().replace(" ", "-") == slug)


def test_a_finger_claims_the_small_territories_where_it_sees_them(browser: Any, port: int) -> None:
    created = game(port, seed=2)
    context, finger = phone_page(browser, port, created)
    page = finger.page
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # The map takes the screen: wider than the phone (a finger pans it), and much taller than the
    # quarter of the screen it had.
    board = finger.map_box()
    assert board["height"] > PHONE["height"] * 0.4, board
    drawn = page.evaluate(
        "() => { const b = document.querySelector('.layer-land').getBoundingClientRect();"
        " return [b.width, b.height]; }"
    )
    assert drawn[0] > PHONE["width"] * 1.5, drawn
    for slug in SMALL:
        finger.my_turn()
        if slug == "madagascar":
            # Beside the island, in the sea: the nearest territory the move allows is taken.
            finger.bring_into_view(slug)
            right, middle = page.evaluate(
                "s => { const b = document.querySelector(`[data-territory='${s}']`).getBoundingClientRect();"
                " return [b.right, b.top + b.height / 2]; }",
                slug,
            )
            finger.act_and_wait(lambda x=right + 8, y=middle: page.touchscreen.tap(x, y), "the tap beside it")
        else:
            finger.act_and_wait(lambda s=slug: finger.tap_territory(s), f"the tap on {slug}")
        assert owner(finger, slug) == 0, f"the tap on {slug} did not claim it"
        assert page.evaluate("() => window.scrollY") == 0
    # A tap's territory card closes by itself: none stays stuck over the map.
    wait_until(lambda: page.locator("#hover-info").is_hidden(), what="the territory card to close", timeout=6)
    shot(page, "phone-claimed")
    assert errors == []
    context.close()


def test_a_whole_turn_by_taps_on_a_phone(browser: Any, port: int) -> None:
    created = game(port, seed=11, setup="deal")
    context, finger = phone_page(browser, port, created)
    page = finger.page
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def prompt_says_tap() -> None:
        # A phone's prompts say tap, not click.
        assert page.locator("#phase-detail").inner_text() == "Tap one of your territories to attack from."

    def attack_chosen(source: str, target: str) -> None:
        shot(page, "phone-attack")
        # The territories being fought over are on the map, not under the controls.
        for slug in (source, target):
            assert finger.visible(*finger.point(slug), margin=0), f"{slug} is hidden"

    done = play_a_whole_turn(
        finger,
        before_attack=prompt_says_tap,
        on_attack_chosen=attack_chosen,
        on_occupy=lambda: shot(page, "phone-occupy"),
        after_each=lambda: assert_not_scrolled(page),
    )
    assert {"reinforce", "attack", "move", "fortify", "end"} <= done, done
    assert errors == []
    context.close()


def assert_not_scrolled(page: Any) -> None:
    """Nothing scrolled the page, and nothing makes it wider than the phone."""
    assert page.evaluate("() => window.scrollY") == 0
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1, f"the page is {width} px wide on a {PHONE['width']} px phone"


@pytest.mark.parametrize(
    ("edition", "kind", "title"),
    [("1993", "secret-mission", "Secret mission"), ("2008", "capital", "Headquarters")],
)
def test_everything_you_need_on_one_laptop_screen(
    browser: Any, port: int, edition: str, kind: str, title: str
) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    body = {
        "edition": edition,
        "game": kind,
        "seats": seats,
        "seed": 3,
        "bot_delay": 0,
        "options": {"setup": "deal"},
    }
    created = request(port, "POST", "/api/games", body)
    page = browser.new_page(viewport=LAPTOP)
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={created['seats'][0]['token']}")
    page.locator("#goal-panel").wait_for(state="visible", timeout=30_000)
    assert page.locator("#goal-title").text_content() == title
    page.locator("#log li").first.wait_for(timeout=30_000)
    # The bots' setup done, the page waits for Ann. Every message redraws the players' rows (a seat
    # connecting is one), so all is measured in one step of the page's own thread: a row redrawn
    # between finding it and measuring it would have no box.
    page.locator(".player-row.acting", has_text="Ann").wait_for(timeout=30_000)
    selectors = ["#turn-info", "#phase", ".player-row.acting", "#goal", "#hand-panel", "#log-pane", "#log li"]
    boxes = page.evaluate(
        """(selectors) => selectors.map((selector) => {
            const found = document.querySelectorAll(selector);
            if (!found.length) return null;
            const r = found[found.length - 1].getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
        })""",
        selectors,
    )
    for selector, box in zip(selectors, boxes, strict=True):
        assert box is not None and box["height"] > 0, f"{selector} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= LAPTOP["width"], f"{selector}: {box}"
        assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (
            f"{selector} is below the fold: {box}"
        )
    # The log shows lines, not a sliver: at least four of them.
    assert page.locator("#log-pane").bounding_box()["height"] >= 4 * 24
    assert page.evaluate("() => document.scrollingElement.scrollHeight") <= LAPTOP["height"]
    # Your seat's settings are folded away until opened.
    assert page.evaluate("() => document.querySelector('#seat-panel').tagName") == "DETAILS"
    assert page.locator("#stand-in-on").is_hidden()
    page.locator("#seat-panel > summary").click()
    page.locator("#stand-in-on").wait_for(state="visible", timeout=10_000)
    shot(page, f"laptop-one-screen-{kind}")
    page.close()
