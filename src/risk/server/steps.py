"""One step of a game and its log lines: what the master, a blitz and an undo all apply the same way;
and whether a step is a resignation."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from risk.narrate import LogLine, narrate, snapshot
from risk.rules.actions import Action
from risk.rules.game import Game
from risk.rules.variants.fog import EVERYONE
from risk.server.errors import Refusal
from risk.server.logwindow import SEEN_BY, LogWindow


def log_entry(line: LogLine) -> dict[str, Any]:
    """A log line as the live game keeps it: with its readers under fog of war (the log window keeps
    them apart from the line: they are never sent)."""
    entry = line.to_dict()
    return entry if line.seen_by == EVERYONE else entry | {SEEN_BY: line.seen_by}


def opening_log(game: Game) -> LogWindow:
    """The log of a game that has just been made: its setup's chance steps (a first roll, a deal)."""
    return LogWindow(log_entry(line) for line in narrate(game, snapshot(game), list(game.history)))


def apply_narrated(
    game: Game, log: list[dict[str, Any]] | LogWindow, action: Action | str, *, checked: bool = False
) -> None:
    """Apply ``action`` to ``game`` in place and add its log lines: checked by the engine, unless
    ``checked`` says it was already (a move is parsed and checked once, risk.server.master.pipeline)."""
    before, start = snapshot(game), len(game.history)
    if checked and not isinstance(action, str):
        game.apply_unchecked(action)
    else:
        game.apply(action)
    log.extend(log_entry(line) for line in narrate(game, before, game.history[start:]))


def is_resignation(text: str) -> bool:
    """Whether a move's text is a resignation: the one move a player may make at any time."""
    words = text.split(None, 1)
    return bool(words) and words[0].lower() == "resign"


def own_resignation(action: Any, seat: int) -> Any:
    """``resign`` or ``resign P`` sent by ``seat``: its own resignation (P must be that seat)."""
    if getattr(action, "player", None) not in (None, seat):
        raise Refusal("illegal", "a player resigns only their own seat: send 'resign'")
    return replace(action, player=seat)
