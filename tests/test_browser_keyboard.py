"""A whole turn with the keyboard alone, in a real browser (Debian's Chromium, Playwright), with the
accessibility audit (test_browser_a11y) of the board while an attack is chosen and a move-in is asked.

The territories the current step allows are in the tab order with a name a screen reader says
("Alaska, yours, 26 armies"); Enter on one does what a click does; every button is reached with Tab
and pressed with Enter. No mouse, no touch, no script clicking for the player.

With the page's keys (docs/web.md, "Keys": keys.js, keynav.js) the same turn takes under 30 presses:
the arrows move between neighbouring territories, letters press the action panel's buttons.
"""

from __future__ import annotations

from typing import Any, TypeVar

from live_server import request
from test_browser import LAPTOP, SCREEN_POINT, browser, port, shot, wait_until
from test_browser_a11y import assert_accessible
from whole_turn import PagePlayer, play_a_whole_turn

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e) return null;
  return {territory: e.dataset ? e.dataset.territory || null : null, id: e.id || null,
          label: e.getAttribute('aria-label')};
}"""


class Keys(PagePlayer):
    """A player with the keyboard alone: Tab to a territory or a control, Enter."""

    def tab_to(self, territory: str | None = None, element_id: str | None = None) -> dict[str, Any]:
        """Press Tab until the wanted territory or control has the focus (at most one lap of the page)."""
        for tabs in range(251):
            if tabs:
                self.page.keyboard.press("Tab")
            focused = self.page.evaluate(FOCUSED)
            if focused and (
                (territory and focused["territory"] == territory)
                or (element_id and focused["id"] == element_id)
            ):
                return focused
        raise AssertionError(f"Tab never reached {territory or element_id}")

    def press_on(self, territory: str | None = None, element_id: str | None = None) -> dict[str, Any]:
        focused = self.tab_to(territory, element_id)
        self.page.keyboard.press("Enter")
        return focused

    def choose(self, slug: str) -> None:
        self.press_on(territory=slug)

    def press(self, element_id: str) -> None:
        self.press_on(element_id=element_id)


Player = TypeVar("Player", bound=PagePlayer)


def seat_page(
    browser: Any, port: int, options: dict[str, Any], player: type[Player]
) -> tuple[Player, list[str]]:
    """A 'deal' game of Ann and two bots, Ann's page open at a laptop's size (the accessibility
    audit's script let in): the player at it and the page's errors."""
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    body = {"seats": seats, "seed": 11, "bot_delay": 0, "options": {"setup": "deal", **options}}
    created = request(port, "POST", "/api/games", body)
    token = created["seats"][0]["token"]
    page = browser.new_page(viewport=LAPTOP, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    return player(page, port, created["id"], token), errors


def test_a_whole_turn_with_the_keyboard_alone(browser: Any, port: int) -> None:
    keys, errors = seat_page(browser, port, {}, Keys)
    page = keys.page

    def spoken_name(slug: str) -> None:
        # The name a screen reader says: the territory, whose it is, its armies.
        focused = keys.tab_to(slug)
        title = page.evaluate(
            "s => document.querySelector(`[data-territory='${s}'] title`).textContent", slug
        )
        assert focused["label"].startswith(f"{title}, yours, "), focused

    def attack_chosen(source: str, target: str) -> None:
        assert_accessible(page, "the board with an attack chosen")

    done = play_a_whole_turn(
        keys,
        on_setup=spoken_name,
        on_attack_chosen=attack_chosen,
        on_occupy=lambda: assert_accessible(page, "the board asking how many armies move in"),
    )
    assert {"reinforce", "attack", "move", "fortify", "end"} <= done, done
    assert errors == []
    page.close()


# The key of each control the whole turn presses (keynav.js's BUTTON_KEYS).
BUTTON_KEYS = {"place-all": "a", "blitz": "b", "move-confirm": "m", "end-phase": "e"}


class ArrowKeys(PagePlayer):
    """A player with the arrows and the page's keys alone, counting every key pressed. To reach a
    territory they press the arrow that points most toward it on the screen, as a person looking at
    the map does (the other way round when that arrow led back to a territory already passed)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.pressed: list[str] = []

    def key(self, name: str) -> None:
        self.pressed.append(name)
        self.page.keyboard.press(name)

    def focused(self) -> str | None:
        focused = self.page.evaluate(FOCUSED)
        return focused["territory"] if focused else None

    def arrows_to(self, slug: str) -> None:
        passed: set[str] = set()
        for _ in range(30):
            here = self.focused()
            if here == slug:
                return
            if here is None:
                self.key("n")  # onto the map: the first territory the move allows
                continue
            (x, y), (tx, ty) = (self.page.evaluate(SCREEN_POINT, s) for s in (here, slug))
            dx, dy = tx - x, ty - y
            across = "ArrowRight" if dx > 0 else "ArrowLeft"
            down = "ArrowDown" if dy > 0 else "ArrowUp"
            keys = [across, down] if abs(dx) >= abs(dy) else [down, across]
            self.key(keys[1] if here in passed else keys[0])
            passed.add(here)
            wait_until(lambda h=here: self.focused() != h, what="the arrow to move the focus", timeout=5)
        raise AssertionError(f"the arrows never reached {slug}: {self.pressed}")

    def choose(self, slug: str) -> None:
        self.arrows_to(slug)
        self.key("Enter")

    def press(self, element_id: str) -> None:
        self.key(BUTTON_KEYS[element_id])


# One army to place in the setup: 15 armies for 14 territories.
ONE_TO_PLACE = {"starting_armies": "3:15"}


def test_a_whole_turn_in_under_30_key_presses(browser: Any, port: int) -> None:
    keys, errors = seat_page(browser, port, ONE_TO_PLACE, ArrowKeys)
    page = keys.page

    def ring_shown(source: str, target: str) -> None:
        # The focus shows as a ring round the territory, and its card says whose it is.
        assert page.locator(".focus-ring").count() == 1
        assert page.locator("#hover-info").is_visible()
        shot(page, "keyboard-focus-ring")

    done = play_a_whole_turn(keys, on_attack_chosen=ring_shown)
    assert {"reinforce", "attack", "move", "fortify", "end"} <= done, done
    assert len(keys.pressed) < 30, keys.pressed
    print(f"a whole turn in {len(keys.pressed)} key presses: {' '.join(keys.pressed)}")
    assert errors == []
    page.close()


def test_the_arrows_reach_any_territory_and_enter_there_says_why_not(browser: Any, port: int) -> None:
    keys, errors = seat_page(browser, port, ONE_TO_PLACE, ArrowKeys)
    page = keys.page
    state = keys.my_turn()
    owners = {t["name"].lower().replace(" ", "-"): t["owner"] for t in state["view"]["territories"]}
    theirs = next(slug for slug, owner in owners.items() if owner not in (None, state["seat"]))

    # Keys typed in the chat are the chat's: no territory takes the focus.
    page.locator("#tab-chat").click()
    page.locator("#chat-input").fill("")
    page.locator("#chat-input").press_sequentially("ny?")
    assert page.locator("#chat-input").input_value() == "ny?"
    assert keys.focused() is None and page.locator("#keys-help").count() == 0
    page.locator("#chat-input").blur()

    # A territory the setup's placement does not allow: reached with the arrows, its name and owner
    # read, and Enter there says why and sends nothing.
    keys.arrows_to(theirs)
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.split(",")[0] == state["view"]["territories"][list(owners).index(theirs)]["name"], label
    assert page.locator(".focus-ring").count() == 1
    before = keys.state()["state_id"]
    keys.key("Enter")
    page.locator("#message", has_text="is not yours").wait_for(timeout=10_000)
    assert keys.state()["state_id"] == before

    # y: to one of yours; Enter there places the setup's army.
    keys.key("y")
    assert owners[keys.focused() or ""] == state["seat"]
    keys.key("Enter")
    wait_until(lambda: keys.state()["state_id"] > before, what="the placement to be taken")

    # Zoomed in, the map pans to keep the focused territory in view, however far the arrows go.
    for _ in range(3):
        page.locator("#zoom-in").click()
    keys.key("y")  # back onto the map from the zoom button
    far = "eastern-australia" if keys.focused() != "eastern-australia" else "alaska"
    keys.arrows_to(far)
    x, y = page.evaluate(SCREEN_POINT, far)
    box = page.locator(".board-svg").bounding_box()
    assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"], (x, y, box)
    shot(page, "keyboard-zoomed")

    # ?: the keys' list, a dialog that passes the audit; Escape closes it and the focus comes back.
    focused = keys.focused()
    keys.key("?")
    page.locator("#keys-help").wait_for(state="visible")
    assert page.locator("#keys-help dt").count() >= 10
    assert_accessible(page, "the keys' list")
    shot(page, "keyboard-keys-help")
    keys.key("Escape")
    page.locator("#keys-help").wait_for(state="hidden")
    assert keys.focused() == focused
    assert errors == []
    page.close()
