"""The fair-play checks the game master makes on a game's record alone (docs/web.md, "Fair play")."""

from __future__ import annotations

from risk.server.errors import Refusal
from risk.server.storage import GameRecord


def check_one_browser(record: GameRecord, seat: int, browser: str | None) -> None:
    """One browser, one seat of a rated game: a Refusal if another seat of ``record`` was taken (or
    bound) from ``browser`` (the SHA-256 of its id cookie), whatever the account."""
    if browser is None or not record.settings.get("rated"):
        return
    if any(s.browser == browser and s.seat != seat for s in record.seats):
        raise Refusal(
            "same-browser",
            "this browser holds another seat of this rated game: one seat each, whatever the account",
        )
