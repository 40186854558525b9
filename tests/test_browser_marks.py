"""Seats told apart without their colours (issue 37; docs/web.md, "Colours"): Debian's Chromium, a real
`risk serve`.

An 8-player game on the pangaea board, at a laptop's and a phone's size: every army badge carries its
owner's mark (palette.js's marks, seat by seat), in the badge's corner, beside the count and clear of
it; every row of the players' list carries its seat's mark in its swatch; no two seats share one.
RISK_SCREENSHOTS=DIR keeps the screenshots.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from live_server import request
from risk.maps.labels import BADGE_RADIUS, GAP
from test_browser import LAPTOP, PHONE, browser, port, shot
from test_browser_boards import STILL, open_game

__all__ = ["browser", "port"]  # the browser and the server are test_browser's fixtures

PALETTE_JS = Path(__file__).resolve().parent.parent / "src" / "risk" / "web" / "js" / "palette.js"

MARKS_SHOWN = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const badges = [...document.querySelectorAll('.board-svg .territory')].map(t => {
    const badge = document.querySelector(`[data-armies="${t.dataset.territory}"]`);
    const mark = badge.querySelector('.seat-mark');
    return {
      owner: Number(t.dataset.owner), mark: mark.dataset.mark, drawn: (mark.getAttribute('d') || '').length,
      markBox: box(mark), countBox: box(badge.querySelector('.badge-text')),
      discBox: box(badge.querySelector('.badge-disc')),
      count: badge.querySelector('.badge-text').textContent,
    };
  });
  const rows = [...document.querySelectorAll('#players .player-row')].map(row => {
    const icon = row.querySelector('.player-swatch .mark-icon');
    const width = icon ? icon.getBoundingClientRect().width : 0;
    return { seat: Number(row.dataset.seat), mark: icon ? icon.dataset.mark : null, width };
  });
  return { badges, rows };
}"""


def seat_marks() -> list[str]:
    found = re.search(r"export const PALETTE = (\{.*\});\s*$", PALETTE_JS.read_text(encoding="utf-8"), re.S)
    assert found
    marks: list[str] = json.loads(found.group(1))["marks"]
    return marks


def overlap_area(a: list[float], b: list[float]) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


@pytest.mark.parametrize(("viewport", "label"), [(LAPTOP, "laptop"), (PHONE, "phone")])
def test_every_seat_wears_its_own_mark(browser: Any, port: int, viewport: dict[str, int], label: str) -> None:
    seats = [{"kind": "human", "name": "Ann"}] + [{"kind": "bot", "bot": "quick"}] * 7
    body = {"edition": "2003", "board": "pangaea", "seed": 3, **STILL, "seats": seats}
    created = request(port, "POST", "/api/games", body)
    page = open_game(browser, port, created["id"], viewport)
    page.wait_for_function("() => document.querySelectorAll('#players .player-row').length === 8")
    shown = page.evaluate(MARKS_SHOWN)
    marks = seat_marks()
    badges = [b for b in shown["badges"] if b["owner"] >= 0]
    assert len(badges) == len(shown["badges"]) > 80  # every territory dealt
    # Each badge: its owner's mark, drawn; all eight seats' marks on the board, eight different ones.
    assert all(b["mark"] == marks[b["owner"]] and b["drawn"] > 20 for b in badges)
    assert {b["owner"] for b in badges} == set(range(8))
    assert len({b["mark"] for b in badges}) == 8
    for b in badges:
        mark, count, disc = b["markBox"], b["countBox"], b["discBox"]
        size = (mark[2] - mark[0]) * (mark[3] - mark[1])
        assert size > 0
        # Beside the count, not over it (the count's box holds the font's whole line height).
        assert overlap_area(mark, count) <= 0.15 * size, b
        # In the badge's bottom right corner, inside the square that risk.maps.labels keeps names
        # off (the disc's radius of 11 units, its rim and a gap: 13.8 units from its centre).
        x, y, radius = (disc[0] + disc[2]) / 2, (disc[1] + disc[3]) / 2, (disc[2] - disc[0]) / 2
        reach = radius * (BADGE_RADIUS + GAP) / 11
        assert mark[0] > x and mark[1] > y and mark[2] <= x + reach and mark[3] <= y + reach, b
    # The players' list: each row's swatch has its seat's mark.
    assert [r["mark"] for r in shown["rows"]] == marks[:8]
    if label == "phone":
        page.click("#sheet-toggle")
        page.wait_for_timeout(400)
    assert all(r["width"] >= 10 for r in page.evaluate(MARKS_SHOWN)["rows"])
    shot(page, f"marks-pangaea8-{label}")
    assert page.errors == []
    page.close()
