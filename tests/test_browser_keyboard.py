"""A whole turn with the keyboard alone, in a real browser (Debian's Chromium, Playwright), with the
accessibility audit (test_browser_a11y) of the board while an attack is chosen and a move-in is asked.

The territories the current step allows are in the tab order with a name a screen reader says
("Alaska, yours, 26 armies"); Enter on one does what a click does; every button is reached with Tab
and pressed with Enter. No mouse, no touch, no script clicking for the player.
"""

from __future__ import annotations

from typing import Any

from live_server import request
from test_browser import LAPTOP, browser, port
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


def test_a_whole_turn_with_the_keyboard_alone(browser: Any, port: int) -> None:
    seats = [
        {"kind": "human", "name": "Ann"},
        {"kind": "bot", "bot": "quick"},
        {"kind": "bot", "bot": "quick"},
    ]
    created = request(
        port, "POST", "/api/games", {"seats": seats, "seed": 11, "bot_delay": 0, "options": {"setup": "deal"}}
    )
    token = created["seats"][0]["token"]
    page = browser.new_page(viewport=LAPTOP, bypass_csp=True)  # bypass: the accessibility audit's script
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}#token={token}")
    page.locator('[data-territory="alaska"]').wait_for(timeout=30_000)
    keys = Keys(page, port, created["id"], token)

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
