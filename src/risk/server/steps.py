"""One step of a game and its log lines: what the master, a blitz and an undo all apply the same way."""

from __future__ import annotations

from typing import Any

from risk.narrate import narrate, snapshot
from risk.rules.game import Game
from risk.server.logwindow import LogWindow


def apply_narrated(game: Game, log: list[dict[str, Any]] | LogWindow, text: str) -> None:
    """Apply ``text`` (checked by the engine) to ``game`` in place and add its public log lines."""
    before, start = snapshot(game), len(game.history)
    game.apply(text)
    log.extend(line.to_dict() for line in narrate(game, before, game.history[start:]))
