"""A game in memory, as the master holds it and the modules plugged into it read it (risk.server.hooks)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from risk.bots import bot_label
from risk.rules.game import Game
from risk.server.blitz import BlitzPlan
from risk.server.logwindow import LogWindow
from risk.server.storage import GameRecord
from risk.server.timing import TurnClock
from risk.server.undo import Checkpoint


@dataclass
class LiveGame:
    """A game in memory: the engine state rebuilt from the stored actions, and its public log."""

    record: GameRecord
    game: Game
    log: LogWindow  # the newest lines; positions count from the first line of the whole log
    lock: threading.RLock = field(default_factory=threading.RLock)
    deadline: float | None = None  # when the clock running now runs out (risk.server.clock)
    externals: dict[int, Any] = field(default_factory=dict)  # seat -> ExternalBot, started on demand
    starters: list[int] = field(default_factory=list)  # who started each turn: rounds, as players count
    # fast-play: the moves that may still be taken back (oldest first), the log lengths undos cut the
    # log back to (by the undo's state id, for connections that saw the longer log), and a blitz
    # waiting for a human defender's dice.
    undo_points: list[Checkpoint] = field(default_factory=list)
    log_cuts: list[tuple[int, int]] = field(default_factory=list)
    blitz: BlitzPlan | None = None
    clock: TurnClock = field(default_factory=TurnClock)
    notes: list[dict[str, Any]] = field(default_factory=list)  # server notes, placed in the log
    resigned: set[int] = field(default_factory=set)

    def note_turns(self, game: Game) -> None:
        while len(self.starters) < game.turn:
            self.starters.append(game.current)

    @property
    def state_id(self) -> int:
        return self.record.state_id

    @property
    def waiting(self) -> bool:
        return any(s.kind == "open" for s in self.record.seats)

    def may_play(self, seat: int) -> bool:
        """Whether ``seat`` is shown what it may do: not a spectator, nor a player whose seat a bot plays."""
        if not 0 <= seat < len(self.record.seats):
            return False
        record = self.record.seats[seat]
        return record.kind != "human" or record.stand_in is None

    def seat_entries(self, present: Collection[int] | None) -> list[dict[str, Any]]:
        """Each seat as everyone may see it. ``connected``: a human seat has a page open (bots are always
        there); None when the caller does not know (the master without the web app)."""
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot if s.kind == "bot" else None,
                "bot_label": bot_label(s.bot or "") if s.kind == "bot" else None,  # "hard · warlord"
                "stand_in": s.stand_in if s.kind == "human" else None,
                "missed": s.missed,
                "resigned": s.seat in self.resigned,
                "connected": None
                if present is None
                else (s.kind != "open" and (s.kind != "human" or s.seat in present)),
            }
            for s in self.record.seats
        ]
