"""The board as a player sees it at a laptop's width (Debian's Chromium, Playwright, a real `risk serve`).

- No territory's name covers another name or any army badge, measured on the rendered SVG
  (getBoundingClientRect of every name and every badge's disc) at 1366x768 (issue 23, item 4).
- Colours (item 5): the neutrals of a 2-player game wear distinct patterns, Team RISK's seats a
  ring of their team's colour on their badges, with a legend.
"""

from __future__ import annotations

import itertools
from typing import Any

from chromium import wait_or_explain
from live_server import request
from test_browser import LAPTOP, browser, port

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    names: all('.board-svg text.t-name').map(e => [e.dataset.name || e.textContent, box(e)]),
    badges: all('.board-svg .badge').map(e => [e.dataset.armies, box(e.querySelector('.badge-disc'))]),
  };
}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def open_game(browser: Any, port: int, body: dict[str, Any]) -> Any:
    created = request(port, "POST", "/api/games", body)
    page = browser.new_page(viewport=LAPTOP)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"http://127.0.0.1:{port}/game/{created['id']}")
    # every territory has armies (the setup is over): every badge is shown
    wait_or_explain(
        page,
        "() => document.querySelectorAll('.board-svg .badge').length > 0"
        " && !document.querySelector('.board-svg .badge.empty')",
        60_000,
        port,
        created["id"],
        errors,
    )
    page.errors = errors
    return page


def test_no_name_covers_another_name_or_a_badge_at_laptop_width(browser: Any, port: int) -> None:
    bots = [{"kind": "bot", "bot": "quick"}] * 4
    body = {"edition": "1993", "game": "world", "seats": bots, "seed": 7, "bot_delay": 0}
    page = open_game(browser, port, body)
    measured = page.evaluate(BOXES)
    names, badges = dict(measured["names"]), dict(measured["badges"])
    assert len(names) == len(badges) == 42
    assert all(box[2] - box[0] > 10 and box[3] - box[1] > 5 for box in names.values())  # drawn, visible
    found = [f"{a} / {b}" for (a, x), (b, y) in itertools.combinations(names.items(), 2) if overlap(x, y)]
    found += [
        f"{a} / badge of {b}"
        for (a, x), (b, y) in itertools.product(names.items(), badges.items())
        if overlap(x, y)
    ]
    assert found == []
    assert page.errors == []
    page.close()


PAINTS = """() => {
  const fills = {};
  for (const t of document.querySelectorAll('.board-svg .territory')) {
    (fills[t.dataset.owner] ||= new Set()).add(t.getAttribute('fill'));
  }
  const all = (selector) => [...document.querySelectorAll(selector)];
  return {
    fills: Object.fromEntries(Object.entries(fills).map(([k, v]) => [k, [...v]])),
    patterns: all('.board-svg defs pattern[id^="paint-"]').map(p => p.id),
    legend: all('.board-legend .legend-text').map(e => e.textContent),
    swatches: all('.player-row .player-swatch').map(e => getComputedStyle(e).backgroundImage),
  };
}"""
MARKS = """() => [...document.querySelectorAll('.board-svg .territory')].map(t => {
  const badge = document.querySelector(`[data-armies="${t.dataset.territory}"]`);
  return [t.dataset.owner, badge.querySelector('.seat-mark').dataset.mark];
})"""
LEGEND = "() => [...document.querySelectorAll('.board-legend .legend-text')].map(e => e.textContent)"


def test_the_neutrals_wear_a_pattern_each_with_a_legend(browser: Any, port: int) -> None:
    bots = [{"kind": "bot", "bot": "quick"}] * 2
    body = {"edition": "2003", "game": "two-player", "seats": bots, "seed": 4, "bot_delay": 0}
    page = open_game(browser, port, body)
    seen = page.evaluate(PAINTS)
    neutral_fills = [seen["fills"][str(seat)] for seat in range(2, 6) if str(seat) in seen["fills"]]
    assert len(neutral_fills) >= 3  # the neutrals that still hold land
    assert all(len(f) == 1 and f[0].startswith("url(#paint-") for f in neutral_fills)
    assert len({f[0] for f in neutral_fills}) == len(neutral_fills)  # a pattern each
    assert {p.split("-")[1] for p in seen["patterns"]} <= {"stripes", "dots", "cross", "bars"}
    assert seen["legend"] == ["Neutral 1", "Neutral 2", "Neutral 3", "Neutral 4"]
    # the players' list shows the same patterns (the two players: plain colours)
    assert [s != "none" for s in seen["swatches"]] == [False, False, True, True, True, True]
    assert page.errors == []
    page.close()


def test_teammates_wear_their_team_s_mark_with_a_legend(browser: Any, port: int) -> None:
    bots = [{"kind": "bot", "bot": "quick"}] * 6
    body = {"edition": "2003", "game": "team", "seats": bots, "seed": 4, "bot_delay": 0}
    page = open_game(browser, port, body)
    by_owner = {int(owner): mark for owner, mark in page.evaluate(MARKS) if int(owner) >= 0}
    assert by_owner
    # The team's shape, each teammate's drawn its own way (seats 0, 2, 4: solid, open, with a dot).
    styles = ["", "-open", "-dot"]
    for owner, mark in by_owner.items():
        assert mark == ("triangle" if owner % 2 == 0 else "square") + styles[owner // 2], (owner, mark)
    assert page.evaluate(LEGEND) == ["Team 1: Quick 1, Quick 3, Quick 5", "Team 2: Quick 2, Quick 4, Quick 6"]
    assert page.errors == []
    page.close()
