"""The notifier: hears the master's announcements, queues their events in the outbox, and sends what
is due by each subscription's channel, retrying with backoff.

A move never waits for it: the master's listener only reads the published game and appends the events
to a list in memory (no database, no network); a worker task writes them to the outbox and sends,
in a worker thread. The host's log says what failed and how often, never an address or a token.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Sequence

from risk.rules.game import Game
from risk.server.master import GameMaster
from risk.server.master.base import Announcement
from risk.server.notify.channels import AddressGone, Channel, ChannelError, Message
from risk.server.notify.events import WAIT_WHILE_OPEN, Watcher, still_true, turn_events
from risk.server.notify.outbox import Event, Outbox, OutboxError, Queued, Subscription
from risk.server.notify.seal import Seal
from risk.server.polling import Polling
from risk.server.storage import GameRecord, Storage, StorageError

log = logging.getLogger(__name__)

RETRY_S = 30.0  # the first retry after a failure; doubled at each failure after it
MAX_RETRY_S = 3600.0
POLL_S = 1.0
CLAIM_LIMIT = 20  # subscriptions claimed at once (each claim one short transaction)
MAX_CLAIMS = 10  # claims a pass at most
OPEN_PAGE_WAIT_S = 60.0  # a move told while the player's page is open: looked at again after this
# The subject of a message with several events: the most pressing one's.
SUBJECTS = {
    "end": "the game is over",
    "defend": "your defence is wanted",
    "move": "it is your move",
    "turn": "whose move it is",
    "remind": "your time runs out soon",
    "attacked": "you were attacked",
}


class Notifier:
    """Events in, messages out. ``present(game_id)``: the seats with the game open (nothing is sent to
    them); ``clock``: the time (tests set it); ``seal``: what the seat tokens are kept sealed with."""

    def __init__(
        self,
        outbox: Outbox,
        storage: Storage,
        channels: Sequence[Channel],
        present: Callable[[str], set[int]],
        *,
        clock: Callable[[], float] = time.time,
        retry_s: float = RETRY_S,
        poll_s: float = POLL_S,
        seal: Seal | None = None,
    ) -> None:
        self.seal = seal or Seal.random()
        self.outbox, self.storage = outbox, storage
        self.channels = {channel.name: channel for channel in channels}
        self.present, self.clock = present, clock
        self.retry_s, self.poll_s = retry_s, poll_s
        self.watcher = Watcher(clock)
        self._heard: list[Event] = []
        self._heard_lock = threading.Lock()
        self._swept = False
        self._loop = Polling("notifier", self.step, poll_s, (OutboxError, StorageError), log)

    # -- events in -------------------------------------------------------------------------------
    def listen_to(self, master: GameMaster) -> None:
        """Hear every committed change of the master (in the thread that made it, after its commit)."""

        def listener(announcement: Announcement) -> None:
            if announcement.kind in ("moved", "changed"):
                shown = master.live(announcement.game_id).published
                self.heard(shown.record, shown.game)

        master.subscribe(listener)

    def heard(self, record: GameRecord, game: Game) -> None:
        """The events of the game as published: kept in memory (no database, no network here)."""
        events = self.watcher.events(record, game)
        if events:
            self.add(events)

    def add(self, events: Sequence[Event]) -> None:
        # Not a wake of the worker: it comes within POLL_S, and one pass a move (a thread, a
        # transaction) cost the server a third of its moves per second.
        with self._heard_lock:
            self._heard.extend(events)

    def sweep(self) -> None:
        """At start: what each subscribed game's row says a seat waits for, so that a move committed
        just before the server died is told (its key: queued once, whatever was queued before)."""
        for game_id in self.outbox.subscribed_games():
            record = self.storage.get_game(game_id)
            if record is not None:
                self.add(turn_events(record))
        self._swept = True

    def flush(self) -> int:
        """Queue the events heard so far; kept in memory to try again if the database is down."""
        with self._heard_lock:
            events, self._heard = self._heard, []
        if not events:
            return 0
        try:
            return self.outbox.enqueue(events, self.clock())
        except OutboxError:
            with self._heard_lock:
                self._heard[:0] = events
            raise

    # -- messages out ----------------------------------------------------------------------------
    def step(self) -> int:
        """One pass: queue what was heard, send what is due. The number of messages sent."""
        if not self._swept:
            self.sweep()
        self.flush()
        sent = 0
        # A full claim means more is due: claimed again at once (a burst is not one batch a second),
        # up to MAX_CLAIMS a pass so that the heard events are flushed in between.
        for _ in range(MAX_CLAIMS):
            claimed = self.outbox.claim(self.clock(), CLAIM_LIMIT)
            for sub, rows in claimed.items():
                sent += self._deliver(sub, rows)
            if len(claimed) < CLAIM_LIMIT:
                break
        return sent

    def _deliver(self, sub: Subscription, rows: list[Queued]) -> int:
        now = self.clock()
        rows = self._still_true(sub, rows, now)
        if not rows:
            return 0
        if sub.seat in self.present(sub.game_id):
            # The player is looking at the game: what happened they see; their move waits (they may
            # close the page before playing it) until it is made (stale) or the page is closed.
            seen = [row for row in rows if row.kind not in WAIT_WHILE_OPEN]
            if seen:
                self.outbox.skipped(seen)
            if any(row.kind == "end" for row in seen):
                self.outbox.forget_game(sub.game_id)  # seen on the page: the addresses go all the same
            if len(seen) < len(rows):
                waiting = [row for row in rows if row.kind in WAIT_WHILE_OPEN]
                self.outbox.later(waiting, now + OPEN_PAGE_WAIT_S)
            return 0
        if sub.last_sent is not None and now < sub.last_sent + sub.every_s:
            self.outbox.later(rows, sub.last_sent + sub.every_s)  # the player's pace
            return 0
        channel = self.channels.get(sub.channel)
        if channel is None:  # the host took the channel away (no --smtp): kept for when it is back
            self.outbox.later(rows, now + MAX_RETRY_S)
            return 0
        try:
            channel.send(compose(sub, rows, self.seal.open(sub.seat_token)))
        except AddressGone as exc:  # the browser unsubscribed: nobody there to try again for
            self.outbox.skipped(rows)
            self.outbox.unsubscribe_by_id(sub.id)
            log.info(
                "notification for game %s seat %d by %s: %s; the subscription is deleted",
                sub.game_id, sub.seat, sub.channel, exc,
            )  # fmt: skip
            return 0
        except ChannelError as exc:
            attempts = sub.failures + 1  # in a row, of any of the subscription's messages
            wait = min(self.retry_s * 2 ** (attempts - 1), MAX_RETRY_S)
            paused = self.outbox.failed(sub, rows, now + wait)
            log.warning(
                "notification for game %s seat %d by %s failed (attempt %d, next in %.0f s%s): %s",
                sub.game_id, sub.seat, sub.channel, attempts, wait, "; paused" if paused else "", exc,
            )  # fmt: skip
            return 0
        self.outbox.sent(sub, rows, self.clock())
        if any(row.kind == "end" for row in rows):
            self.outbox.forget_game(sub.game_id)  # the addresses of a finished game are deleted
        return 1

    def _still_true(self, sub: Subscription, rows: list[Queued], now: float) -> list[Queued]:
        """The rows still worth telling; the stale ones are skipped, a reminder whose deadline moved
        waits for its new time."""
        record = self.storage.get_game(sub.game_id)
        fresh: list[Queued] = []
        stale: list[Queued] = []
        for row in rows:
            verdict = still_true(record, row.kind, row.key, now)
            if verdict is True:
                fresh.append(row)
            elif verdict is False:
                stale.append(row)
            else:
                self.outbox.later([row], verdict)
        if stale:
            self.outbox.skipped(stale)
        return fresh

    # -- the worker task -------------------------------------------------------------------------
    def start(self) -> None:
        self._loop.start()

    async def stop(self) -> None:
        await self._loop.stop()


def compose(sub: Subscription, rows: Sequence[Queued], token: str = "") -> Message:
    """One message for the rows of one subscription (all the events since the last); ``token``: the
    seat's, opened from its seal, for the link ("": the link opens the game without the seat)."""
    kinds = [row.kind for row in rows]
    first = min(SUBJECTS, key=lambda kind: (kind not in kinds, list(SUBJECTS).index(kind)))
    site = sub.site.rstrip("/")
    # The oldest row's key: a message sent again after a crash (its rows not marked sent) has it too.
    digest = hashlib.sha256(rows[0].key.encode()).hexdigest()[:32]
    seat = sub.seat >= 0  # a seat's own channel, not the game's webhook
    return Message(
        to=sub.address,
        subject=f"RISK game {sub.game_id}: {SUBJECTS[first]}",
        text="\n".join(row.text for row in rows),
        message_id=f"<{digest}@risk.notify>",
        link=f"{site}/game/{sub.game_id}" + (f"#token={token}" if seat and token else ""),
        unsubscribe=f"{site}/notify/unsubscribe/{sub.id}" if seat else "",
        game_id=sub.game_id,
        events=tuple((row.kind, row.text) for row in rows),
    )
