"""The master's ground floor: its store, the games it holds, its plug-ins, and the one way any change
to a game is stored: :meth:`MasterBase.transaction`, one commit for a move and all it sets off, and,
once committed, an announcement to whoever listens (the hub)."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from risk.rules.game import Game
from risk.rules.options import Rules
from risk.server.clock import ClockHooks
from risk.server.errors import Refusal, store_failed
from risk.server.hooks import Table, TableHooks
from risk.server.live import LiveGame, Pending
from risk.server.master.specs import record_board
from risk.server.seats import SeatHooks
from risk.server.storage import ChatRecord, GameRecord, Progress, StaleWrite, Storage, StorageError
from risk.server.timing import defending

log = logging.getLogger("risk.server")

T = TypeVar("T")


@dataclass(frozen=True)
class Announcement:
    """A change to a game, told once it is committed (or once its commit failed).

    ``kind``: "moved" (new actions, or a new game), "changed" (no new action: seats, a seat's settings,
    the clock; ``seats``: only these seats' views changed), "failed" (the store failed: the game is read
    from it again, and every page shown where it is)."""

    game_id: str
    kind: str
    seats: tuple[int, ...] | None = None


Listener = Callable[[Announcement], None]


def game_progress(live: LiveGame, game: Game | None = None) -> Progress:
    """What the game's row says of it with its actions: status, winner, turn, who is to act."""
    game = game or live.game
    status = "over" if game.is_over else ("waiting" if live.waiting else "playing")
    return Progress(
        status=status,
        winner=game.winner,
        turn=game.turn,
        to_act=None if game.is_over else game.to_act,
        defending=defending(game),
    )


def trim_log(live: LiveGame) -> None:
    """Let the log drop its oldest lines, but none an undo may still cut back to."""
    live.log.trim(min((point.log_length for point in live.undo_points), default=None))


def new_game(record: GameRecord) -> Game:
    """A stored game's engine before its first action."""
    return Game(
        Rules.from_description(record.rules),
        [s.name for s in record.seats],
        seed=record.seed,
        board=record_board(record),
    )


class MasterBase:
    """The store, the games in memory, the plug-ins, transactions and announcements."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        allow_external_bots: bool = False,
        hooks: Sequence[TableHooks] | None = None,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.allow_external_bots = allow_external_bots
        # The modules plugged into the master (risk.server.hooks), called in this order.
        self.hooks: tuple[TableHooks, ...] = (SeatHooks(), ClockHooks()) if hooks is None else tuple(hooks)
        self._live: dict[str, LiveGame] = {}
        # One lock per game being loaded or committed (with how many threads want it): two first
        # requests for a game replay it once, games load side by side, and a load waits for a commit.
        # Re-entrant: the plug-ins of a game being loaded may commit (the clock started again).
        self._loads: dict[str, tuple[threading.RLock, list[int]]] = {}
        self._loads_guard = threading.Lock()
        self._listeners: list[Listener] = []
        # The account signed in on the request being answered (risk.server.accounts.current; None:
        # no one): a seat bound to an account acts and sees only for it.
        self.signed_in: Callable[[], str | None] = lambda: None
        # Fair play (risk.server.fairplay): the browser the request being answered came from (its id
        # cookie's SHA-256; None: not known), and the check of a seat being taken (bans, blocks) by
        # (game, seat, account, browser), which refuses with a Refusal.
        self.browser: Callable[[], str | None] = lambda: None
        self.may_sit: Callable[[GameRecord, int, str | None, str | None], None] = lambda *_: None

    @property
    def table(self) -> Table:
        """The master as its plug-ins see it (risk.server.hooks): the whole master, GameMaster, is one."""
        return cast(Table, self)

    # -- announcements ---------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener`` after every committed change (from the thread that made it)."""
        self._listeners.append(listener)

    def announce(self, game_id: str, kind: str, seats: tuple[int, ...] | None = None) -> None:
        announcement = Announcement(game_id, kind, seats)
        for listener in list(self._listeners):
            try:
                listener(announcement)
            except Exception:  # a listener's failure is its own: the change is stored
                log.exception("game %s: a listener of the master failed", game_id)

    # -- the store -------------------------------------------------------------------------------
    def store(self, operation: Callable[[], T]) -> T:
        """Run one operation on the game store, for the modules plugged into the master (chat, clock,
        house rules): a store that cannot be reached is refused, nothing changed."""
        return self._store(operation)

    def _store(self, operation: Callable[[], T]) -> T:
        try:
            return operation()
        except StaleWrite:
            raise
        except StorageError as error:
            raise store_failed(error, "the game store could not be reached, nothing was changed") from None

    @contextlib.contextmanager
    def transaction(self, live: LiveGame) -> Iterator[Pending]:
        """A change to ``live`` (called with its lock held): what the body changes in memory and puts in
        the :class:`Pending` (actions, seats, clock, notes) is stored in one commit when it ends; a
        failed commit puts the memory back as it was, and the game is read from the store when next
        needed. A transaction inside another joins it: a move and its consequences are one commit.
        Once committed, the readers outside the lock see the change and the listeners are told."""
        if live.pending is not None:
            yield live.pending
            return
        # What to go back to: the game as last committed is its published copy (every change to a
        # game in memory is published), so no copy is made unless the change fails; a game being
        # loaded has none yet.
        saved = live.shown or live.copy()
        in_memory = self._live.get(live.record.id) is live  # not a game being loaded
        pending = live.pending = Pending()
        try:
            yield pending
            changed = bool(pending.actions or pending.change)
            if changed:
                # Another thread may drop the game from memory meanwhile (nobody watches it, says the
                # hub) and read it again: a load waits for the commit, and one made before it lacks
                # the change, so it is dropped too (read again when next asked for).
                with self._loading(live.record.id):
                    notes = self._commit(live, pending)
                    current = self._live.get(live.record.id)
                    if current is not None and current is not live:
                        self.forget(live.record.id)
            else:
                notes = []
        except BaseException:
            live.restore(saved.copy() if saved is live.shown else saved)  # the published copy stays
            raise
        live.pending = None
        for note, log_at in zip(notes, pending.note_places, strict=True):
            live.add_note(note, log_at)
        if live.game.is_over and pending.actions:
            for external in live.externals.values():
                external.close()  # tells the program the result and ends it
        trim_log(live)
        live.publish()
        # Told even if the game left memory meanwhile: the change is stored, and a bot may be to move.
        if changed and in_memory:
            self.announce(live.record.id, "moved" if pending.actions else "changed")

    def _commit(self, live: LiveGame, pending: Pending) -> list[ChatRecord]:
        """The commit point: everything pending in one transaction, or a refusal with nothing stored."""
        game_id = live.record.id
        progress = game_progress(live) if pending.actions else None
        try:
            return self.storage.commit(game_id, pending.actions, progress, pending.change)
        except StaleWrite:
            # Another process moved this game on: reload it from the store.
            self.forget(game_id)
            raise Refusal("stale", "the game moved on: look at the board again and retry") from None
        except StorageError as error:
            # The commit may have gone through with only its answer lost (the connection dropped
            # during COMMIT): the store, not this memory, says what the game is, so the game is read
            # from it again when next asked for, and the board then shows the move if it was stored.
            self.forget(game_id)
            self.announce(game_id, "failed")
            what = "the move could not be stored" if pending.actions else "nothing was changed"
            raise store_failed(error, what) from None

    # -- the games in memory ---------------------------------------------------------------------
    @contextlib.contextmanager
    def _loading(self, game_id: str) -> Iterator[None]:
        """Hold the game's load lock (loading it, or committing a change to it: a game dropped from
        memory during a commit is read again only once the commit is over); the lock is dropped once no
        thread wants it."""
        with self._loads_guard:
            lock, users = self._loads.setdefault(game_id, (threading.RLock(), [0]))
            users[0] += 1
        try:
            with lock:
                yield
        finally:
            with self._loads_guard:
                users[0] -= 1
                if not users[0]:
                    del self._loads[game_id]

    def loaded(self, game_id: str) -> LiveGame | None:
        """The game if it is in memory (never read from the store)."""
        return self._live.get(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game from memory (it is reloaded from storage when next asked for)."""
        live = self._live.pop(game_id, None)
        if live is not None:
            for bot in live.externals.values():
                bot.close()
