"""Several server processes on one PostgreSQL database (docs/web.md, "Several server processes").

What each process must learn from the others, and how:

* **Changes.** Every write to a game announces itself: ``SqlStorage._lock_game`` sends
  ``NOTIFY risk_changes, '<origin> <change> <game>'`` in the same transaction, which PostgreSQL
  delivers when, and only if, it commits. Each process listens on a connection of its own (a thread
  here) and hands the announcements of the *other* processes to the hub, which catches the game up
  from the store and shows its own connections the new state (``Peers.on_change``). When the listening
  connection comes up (at the start, and after the database restarted, when announcements may have
  been missed) the hub is told to catch up every game it holds and to ask the others which pages they
  have open (``resync``).
* **Who plays a game's bots and runs its clock** (the hub's driver of the game): one process at a
  time, the one holding the game's advisory lock, a session lock on a second connection of the
  process's own, taken when its driver starts and given back when the driver has nothing left to
  wait for. A process that dies drops its connections and so its locks.
* **Who is still there.** Each process holds a lock named after its ``origin`` for its whole life.
  A peer's origin is learnt from its announcements; when its lock can be taken, the peer is gone, and
  the hub looks at every unfinished game again (``orphans``) so their bots and clocks go on.

Actions need no lock of ours: the store serialises them (the game's row locked, its state id
checked: the loser of a race gets ``StaleWrite`` and reloads the game).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger("risk.server.feed")

CHANGES_CHANNEL = "risk_changes"
CHANGES = frozenset({"actions", "seats", "deadline", "settings", "chat", "presence", "hello"})
RECONNECT_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)  # seconds between attempts to reach the database again
WAKE = 0.5  # seconds: how often the listening thread looks up from waiting (to stop, to check peers)
PEER_CHECK = 2.0  # seconds between checks that the peers are still there (and nothing was missed)


def change_payload(origin: str, change: str, game_id: str, extra: str = "") -> str:
    """The NOTIFY payload: ``origin change game [extra]`` (game ids and origins have no spaces)."""
    return f"{origin} {change} {game_id} {extra}".rstrip()


def parse_payload(payload: str) -> tuple[str, str, str, str] | None:
    """(origin, change, game id, extra) of a payload, or None for one that is not ours."""
    parts = payload.split(" ", 3)
    if len(parts) < 3 or parts[1] not in CHANGES:
        return None
    return parts[0], parts[1], parts[2], parts[3] if len(parts) == 4 else ""


def lock_key(kind: str, name: str) -> int:
    """A signed 64-bit advisory lock key for a game or a process (its own space: ``kind``)."""
    digest = hashlib.blake2b(f"risk-{kind}:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class ChangeFeed:
    """One process's link to the others: it listens for their changes and holds its driver locks.

    ``on_change(game_id, change, origin, extra)``, ``resync()`` and ``orphans()`` are called from the
    listening thread: the hub hands them to its event loop."""

    def __init__(
        self,
        conninfo: str,
        origin: str,
        *,
        on_change: Callable[[str, str, str, str], None],
        resync: Callable[[], None],
        orphans: Callable[[], None],
        tick: Callable[[], None],
    ) -> None:
        self.conninfo = conninfo
        self.origin = origin
        self._on_change = on_change
        self._resync = resync
        self._orphans = orphans
        self._tick = tick
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._locks: Any = None  # the psycopg connection holding this process's locks
        self._locks_mutex = threading.Lock()
        self._owned: set[str] = set()
        self._peers: set[str] = set()
        self.listening = threading.Event()  # set while the listening connection is up

    # -- the listening thread -------------------------------------------------------------------
    def start(self) -> None:
        log.info("this server process is %s among the processes on its database", self.origin)
        self._thread = threading.Thread(target=self._listen, name="risk-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(WAKE * 4)
        with self._locks_mutex:
            self._close_locks()

    def _listen(self) -> None:
        import psycopg

        attempt, first = 0, True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self._hold_presence()
                    self.listening.set()
                    if not first:
                        log.warning("the change feed is back: catching up with the other processes")
                    self._resync()  # after a gap, and at the start: who has pages open elsewhere
                    first, attempt = False, 0
                    checked = time.monotonic()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=WAKE):
                            self._notified(note.payload)
                        if time.monotonic() - checked >= PEER_CHECK:
                            checked = time.monotonic()
                            self._check_peers()
                            self._tick()
            except Exception as error:  # the database went away: try again, announcements may be lost
                self.listening.clear()
                if self._stop.is_set():
                    return
                if attempt == 0:
                    log.warning("the change feed lost the database (%s): trying again", _first_line(error))
                first = False
                self._stop.wait(RECONNECT_DELAYS[min(attempt, len(RECONNECT_DELAYS) - 1)])
                attempt += 1

    def _notified(self, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is None:
            return
        origin, change, game_id, extra = parsed
        if origin == self.origin:
            return  # our own change: this process made it, and has shown it already
        self._peers.add(origin)
        self._on_change(game_id, change, origin, extra)

    # -- locks: this process's presence, and the games it drives ---------------------------------
    def _connection(self) -> Any:
        import psycopg

        if self._locks is None or self._locks.closed:
            self._locks = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
            self._owned.clear()  # a new session holds no lock: whatever was held went with the old one
            self._locks.execute("SELECT pg_advisory_lock(%s)", (lock_key("process", self.origin),))
        return self._locks

    def _close_locks(self) -> None:
        if self._locks is not None:
            with contextlib.suppress(Exception):  # already broken: closing is all that is left
                self._locks.close()
        self._locks = None
        self._owned.clear()

    def _hold_presence(self) -> None:
        with self._locks_mutex:
            try:
                self._connection()
            except Exception as error:
                self._close_locks()
                log.warning("the driver locks' connection failed (%s)", _first_line(error))

    def owns(self, game_id: str) -> bool:
        return game_id in self._owned

    def try_own(self, game_id: str) -> bool:
        """Take the game's driver lock if no process holds it (blocking: call it in a worker thread)."""
        return game_id in self.try_own_many([game_id])

    def try_own_many(self, game_ids: Iterable[str]) -> set[str]:
        """The games among ``game_ids`` this process now drives (it held them, or took them now)."""
        wanted = [g for g in dict.fromkeys(game_ids) if g not in self._owned]
        with self._locks_mutex:
            if wanted:
                keys = {lock_key("game", g): g for g in wanted}
                try:
                    rows = self._connection().execute(
                        "SELECT k FROM unnest(%s::bigint[]) AS k WHERE pg_try_advisory_lock(k)", (list(keys),)
                    )
                    self._owned.update(keys[row[0]] for row in rows)
                except Exception as error:
                    self._close_locks()
                    log.warning("the driver locks' connection failed (%s)", _first_line(error))
            return {g for g in game_ids if g in self._owned}

    def let_go(self, game_id: str) -> bool:
        """The game's driver has nothing left to wait for: from now on this process does not count
        itself its driver (at once, in the caller's thread). Answers whether ``release`` must follow."""
        if game_id not in self._owned:
            return False
        self._owned.discard(game_id)
        return True

    def release(self, game_id: str) -> None:
        """Give back one hold of the game's lock, after ``let_go`` (blocking: in a worker thread). Holds
        are counted by PostgreSQL, so a ``try_own`` that ran between the two leaves the lock held."""
        with self._locks_mutex:
            if self._locks is None:
                return  # the session that held it is gone, and the lock with it
            try:
                self._connection().execute("SELECT pg_advisory_unlock(%s)", (lock_key("game", game_id),))
            except Exception as error:
                self._close_locks()  # the session is gone, and its locks with it
                log.warning("the driver locks' connection failed (%s)", _first_line(error))

    def _check_peers(self) -> None:
        """A peer whose presence lock can be taken has stopped: its games need a driver again."""
        if not self._peers:
            return
        gone: list[str] = []
        with self._locks_mutex:
            try:
                conn = self._connection()
                for peer in sorted(self._peers):
                    key = lock_key("process", peer)
                    taken = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                    if taken and taken[0]:
                        conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                        gone.append(peer)
            except Exception as error:
                self._close_locks()
                log.warning("the driver locks' connection failed (%s)", _first_line(error))
                return
        if gone:
            self._peers.difference_update(gone)
            log.warning(
                "%d other server process(es) stopped (%s): their games are taken over",
                len(gone),
                ", ".join(gone),
            )
            self._orphans()

    def peers(self) -> set[str]:
        return set(self._peers)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
