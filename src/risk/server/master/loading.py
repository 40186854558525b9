"""Games in and out of memory: a game is read from the store and its actions replayed when first
needed (two first requests replay it once), caught up with another server process's moves, and
dropped when nobody needs it."""

from __future__ import annotations

import time
from dataclasses import asdict, replace

from risk.errors import RiskError
from risk.rules.game import Game
from risk.server.errors import Refusal, Unloadable
from risk.server.live import LiveGame
from risk.server.master.base import MasterBase, game_progress, log, new_game, trim_log
from risk.server.steps import apply_narrated, is_resignation, opening_log
from risk.server.storage import ActionRecord, GameRecord
from risk.server.undo import (
    Checkpoint,
    Undo,
    effective_entries,
    may_take_back,
    reveals_nothing,
    undo_lines,
    undo_target,
)


class Loading(MasterBase):
    """Reading games from the store into memory, and keeping them up to date with it."""

    def live(self, game_id: str) -> LiveGame:
        """The game in memory; one out of memory is read from the store and replayed first (blocking:
        the web app calls this in a worker thread for a game that is not loaded)."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        with self._loading(game_id):
            live = self._live.get(game_id)  # loaded by the thread that had the lock before
            if live is None:
                try:
                    live = self._load(game_id)
                except Refusal as refusal:
                    if refusal.code == "unavailable" and not isinstance(refusal, Unloadable):
                        self.announce(game_id, "failed")  # shown again once the store answers
                    raise
                self._live[game_id] = live
            return live

    def _load(self, game_id: str) -> LiveGame:
        """Read the game and replay its stored actions into a live game: the same dice, cards, log and
        clock as before. One that does not replay is refused (:class:`Unloadable`), never half-loaded."""
        started = time.perf_counter()
        record = self._store(lambda: self.storage.get_game(game_id))
        if record is None:
            raise Refusal("not-found", f"no game {game_id!r}")
        stored_entries = self._store(lambda: self.storage.actions(game_id))
        try:
            live = self._replay(record, stored_entries)
        except RiskError as error:  # stored rules, board or names the engine refuses
            raise Unloadable(game_id, str(error)) from None
        log.info(
            "game %s loaded: %d stored actions replayed in %.0f ms",
            game_id,
            len(stored_entries),
            (time.perf_counter() - started) * 1000,
        )
        return live

    def _replay(self, record: GameRecord, stored_entries: list[ActionRecord]) -> LiveGame:
        game_id = record.id
        game = new_game(record)
        # The chance steps of the setup (the first roll, a deal) come before any action.
        opening = opening_log(game)
        live = LiveGame(record=replace(record, state_id=0), game=game, log=opening)
        try:
            entries = effective_entries(stored_entries)  # undone actions are not replayed
        except ValueError as error:
            raise Unloadable(game_id, str(error)) from None
        for entry in entries:
            # A store edited by hand (or by a release that disagreed on the rules) is refused
            # with the action that does not fit, never half-loaded.
            stored = entry.entry if isinstance(entry, Undo) else entry
            if isinstance(entry, Undo):
                problem = self._replay_undo(live, entry)
            else:
                problem = self._replay_action(live, entry)
            if problem is not None:
                raise Unloadable(
                    game_id,
                    f"stored action {stored.seq} does not fit the rules (the server's log says why)",
                    f"stored action {stored.seq} ({stored.text!r}) does not fit: {problem}",
                )
            for plugged in self.hooks:
                plugged.replayed(live, stored)
        live.record = record
        for plugged in self.hooks:
            plugged.loaded(self.table, live, len(opening))
        trim_log(live)
        live.publish()
        return live

    def _replay_action(self, live: LiveGame, stored: ActionRecord) -> str | None:
        """Loading: apply a stored action; answers what is wrong with it, if anything."""
        game = live.game
        if stored.seat != game.to_act and not is_resignation(stored.text):
            return f"it is by seat {stored.seat}, but seat {game.to_act} was to act"
        log_length, turns = len(live.log), len(live.starters)
        try:
            before = game.copy() if may_take_back(game, game.parse(stored.text)) else None
            apply_narrated(game, live.log, stored.text)
        except RiskError as error:
            return str(error)
        live.note_turns(game)
        undoable = before is not None and reveals_nothing(before, game, stored.seat)
        keep_undo_point(
            live, stored.seq, stored.seat, stored.text, before if undoable else None, log_length, turns
        )
        return None

    @staticmethod
    def _replay_undo(live: LiveGame, undo: Undo) -> str | None:
        """Loading: an undo that counts. The moves it took back are not part of the game; they are
        replayed on a copy only to check that they could be taken back, and for the log line."""
        seat, game = undo.entry.seat, live.game
        lines: list[dict[str, object]] = []
        if not undo.undone:
            return "it takes back nothing"
        for stored in undo.undone:
            if stored.seat != seat or game.to_act != seat:
                return f"it takes back action {stored.seq}, which was not a move of seat {seat}'s own turn"
            before, game = game, game.copy()
            try:
                apply_narrated(game, lines, stored.text)
            except RiskError as error:
                return f"the action {stored.seq} it takes back does not fit: {error}"
            if not reveals_nothing(before, game, seat):
                return f"the action {stored.seq} ({stored.text!r}) revealed something: no taking it back"
        name, seats = live.game.players[seat], len(live.game.players)
        live.log.extend(undo_lines(name, seat, len(undo.undone), lines, seats))
        return None

    def catch_up(self, game_id: str) -> str | None:
        """Another server process changed the game in the store (risk.server.feed): bring the game in
        memory up to the store. Answers None if it is not in memory or nothing changed, "moved" if new
        actions were replayed (the log grew), "changed" if only its seats, clock or settings changed,
        and "reloaded" if it was read again from the start (an undo cut its log back)."""
        live = self._live.get(game_id)
        if live is None:
            return None
        with live.lock:
            if self._live.get(game_id) is not live:
                return None
            record = self._store(lambda: self.storage.get_game(game_id))
            if record is None:
                return None
            entries: list[ActionRecord] = []
            if record.state_id > live.state_id:
                entries = self._store(lambda: self.storage.actions(game_id, after=live.state_id))
            if record.state_id < live.state_id or any(undo_target(e.text) is not None for e in entries):
                return self._reload(game_id)
            caught = self._replay_new(live, record, entries)
            live.publish()
            return caught

    def _reload(self, game_id: str) -> str:
        """The store and this memory disagree: the store is the truth."""
        self.forget(game_id)
        self.live(game_id)
        return "reloaded"

    def _replay_new(self, live: LiveGame, record: GameRecord, entries: list[ActionRecord]) -> str | None:
        """Catching up: another process's new actions replayed here, and the game's row as stored."""
        game_id = record.id
        before, log_before = live.record, len(live.log)
        if entries:
            live.game = live.game.copy()  # the readers outside the lock hold the game as published
        for stored in entries:
            if self._replay_action(live, stored) is not None:
                return self._reload(game_id)
            for plugged in self.hooks:
                plugged.replayed(live, stored)
        if entries:
            # The actions were read after the game's row: more may have come in between, and the
            # live game is where the last one read left it.
            last = entries[-1]
            record = replace(record, state_id=last.seq, updated=last.at, **asdict(game_progress(live)))
        live.record = record
        if entries:
            live.blitz = None  # a blitz waiting here was answered, or overtaken, elsewhere
        for plugged in self.hooks:
            plugged.caught_up(self.table, live, log_before)
        trim_log(live)
        if entries:
            return "moved"
        return "changed" if record != before else None


def keep_undo_point(
    live: LiveGame, seq: int, seat: int, text: str, before: Game | None, log_length: int, turns: int
) -> None:
    """After a step: remember the position before it if it may be taken back; else nothing before
    it may be any more."""
    if before is None:
        live.undo_points.clear()
    else:
        live.undo_points.append(Checkpoint(seq, seat, text, before, log_length, turns))
