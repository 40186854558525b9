"""A game in memory, as the master holds it and the modules plugged into it read it (risk.server.hooks)."""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, TypeVar

from risk.bots import bot_label
from risk.bots.protocol import ExternalBot
from risk.rules.game import Game
from risk.server.blitz import BlitzPlan
from risk.server.logwindow import LogWindow
from risk.server.storage import ActionRecord, Change, ChatRecord, GameRecord, Progress
from risk.server.timing import TurnClock
from risk.server.undo import Checkpoint

T = TypeVar("T")


def _shallow(thing: T) -> T:
    """A shallow copy of a plain object (a third of copy.copy's time: it is made after every move)."""
    copied: T = object.__new__(type(thing))
    copied.__dict__.update(thing.__dict__)
    return copied


@dataclass
class Pending:
    """A change under way on a game, stored in one transaction when it ends: its actions (a move and
    what it set off), the game's progress with them, and their consequences (seats, clock, notes, each
    placed in the log at ``note_places``)."""

    actions: list[ActionRecord] = field(default_factory=list)
    progress: Progress | None = None
    change: Change = field(default_factory=Change)
    note_places: list[int] = field(default_factory=list)  # the log length where each note was written


@dataclass
class LiveGame:
    """A game in memory: the engine state rebuilt from the stored actions, and its public log."""

    record: GameRecord
    game: Game
    log: LogWindow  # the newest lines; positions count from the first line of the whole log
    lock: threading.RLock = field(default_factory=threading.RLock)
    deadline: float | None = None  # when the clock running now runs out (risk.server.clock)
    externals: dict[int, ExternalBot] = field(default_factory=dict)  # seat -> ExternalBot, started on demand
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
    # The change under way (risk.server.master's transaction): what it will store, all in one commit.
    pending: Pending | None = None
    # The game as last committed, for readers that do not take the lock (the state messages built
    # on the event loop): a copy, never changed once made (``published``).
    shown: LiveGame | None = None

    def copy(self) -> LiveGame:
        """A copy of everything a change may alter: to go back to if its commit fails, and what the
        readers outside the lock read. The engine states are shared: they are replaced, never changed
        once the game holds them."""
        copied = _shallow(self)
        copied.log = self.log.copy()
        copied.starters = list(self.starters)
        copied.undo_points = list(self.undo_points)
        copied.log_cuts = list(self.log_cuts)
        copied.clock = _shallow(self.clock)
        copied.clock.marks = list(self.clock.marks)
        copied.notes = list(self.notes)
        copied.resigned = set(self.resigned)
        copied.pending = copied.shown = None
        return copied

    def restore(self, saved: LiveGame) -> None:
        """Go back to ``saved`` (a :meth:`copy`): the change under way was not stored."""
        for name in self.__dataclass_fields__:
            if name not in ("lock", "externals", "shown"):
                setattr(self, name, getattr(saved, name))

    def publish(self) -> None:
        """The game as it is now is what readers outside the lock see (after a commit, a load)."""
        self.shown = self.copy()

    @property
    def published(self) -> LiveGame:
        """What readers outside the lock read: the game as last committed."""
        return self.shown if self.shown is not None else self

    def add_note(self, note: ChatRecord, log_at: int) -> None:
        """A server note as stored, shown in the log after line ``log_at``."""
        self.notes.append({"seq": note.seq, "text": note.text, "at": note.at, "log_at": log_at})

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
                "account": s.account is not None,  # a player signed in: blocked by seat (fair play)
                "connected": None
                if present is None
                else (s.kind != "open" and (s.kind != "human" or s.seat in present)),
            }
            for s in self.record.seats
        ]
