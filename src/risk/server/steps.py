"""One step of a game and its log lines: what the master, a blitz and an undo all apply the same way;
and whether a step is a resignation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from risk.narrate import narrate, snapshot
from risk.rules.game import Game
from risk.server.errors import Refusal
from risk.server.logwindow import LogWindow


def apply_narrated(game: Game, log: list[dict[str, Any]] | LogWindow, text: str) -> None:
    """Apply ``text`` (checked by the engine) to ``game`` in place and add its public log lines."""
    before, start = snapshot(game), len(game.history)
    game.apply(text)
    log.extend(line.to_dict() for line in narrate(game, before, game.history[start:]))


def is_resignation(text: str) -> bool:
    """Whether a move's text is a resignation: the one move a player may make at any time."""
    words = text.split(None, 1)
    return bool(words) and words[0].lower() == "resign"


def own_resignation(action: Any, seat: int) -> Any:
    """``resign`` or ``resign P`` sent by ``seat``: its own resignation (P must be that seat)."""
    if getattr(action, "player", None) not in (None, seat):
        raise Refusal("illegal", "a player resigns only their own seat: send 'resign'")
    return replace(action, player=seat)
