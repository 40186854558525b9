"""The hub's side of several server processes on one database (risk.server.feed has the wire).

A process learns of the other processes' changes from the feed and, for the games its own pages watch
or its own driver plays, catches them up from the store and shows the pages the new state. A game
nobody here watches or drives is only dropped from memory: it is read again when next asked for.
Pages' presence (who has a page open) is shared the same way, so a player on another process shows
as connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from fastapi.concurrency import run_in_threadpool

from risk.server.connection import Connection
from risk.server.errors import Refusal
from risk.server.feed import ChangeFeed
from risk.server.master import GameMaster
from risk.view import SPECTATOR

log = logging.getLogger("risk.server.peers")

NO_GAME = "-"  # the game field of announcements about no game in particular ("hello")
WHEEL_RETRY = 1.0  # seconds: how soon a process with pages on a game it may not drive looks again


class Rereading(Protocol):
    async def reread(self) -> None:
        """Read the unfinished games again and wake those that need it (risk.server.wakeups)."""


class PeersHub(Protocol):
    """What the other processes' side needs of its process's hub (risk.server.hub)."""

    master: GameMaster
    connections: dict[str, set[Connection]]  # the pages open here, by game
    drivers: dict[str, asyncio.Task[None]]  # the games driven here
    failed: set[str]  # games whose store failed on a move: read again, shown again

    @property
    def wakeups(self) -> Rereading: ...

    def store_failed(self, game_id: str) -> None: ...

    def kick(self, game_id: str) -> None: ...

    async def broadcast(self, game_id: str, force: bool = False) -> None: ...

    async def announce_presence(self, game_id: str, newcomer: Connection | None = None) -> None: ...


class Peers:
    """The other server processes, as one process's hub sees them."""

    def __init__(self, hub: PeersHub, conninfo: str, origin: str) -> None:
        self.hub = hub
        self.master = hub.master
        self.origin = origin
        self.remote_present: dict[str, dict[str, set[int]]] = {}  # game -> process -> seats with a page
        self.on_chat: Callable[[str], Awaitable[None]] | None = None  # new chat stored by another process
        self._loop = asyncio.get_running_loop()
        self._tasks: set[asyncio.Task[None]] = set()
        self._retrying: set[str] = set()  # games with a look at their lock pending (take_wheel)
        self._behind: dict[str, int] = {}  # games behind the store at the last check: the store's state
        self.feed = ChangeFeed(
            conninfo,
            origin,
            on_change=lambda *change: self._soon(self.on_change, *change),
            resync=lambda: self._soon(self.resync),
            orphans=lambda: self._soon(self.take_orphans),
            tick=lambda: self._soon(self.check_behind),
        )

    def start(self) -> None:
        self.feed.start()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await run_in_threadpool(self.feed.stop)

    def _soon(self, callback: Callable[..., None], *args: str) -> None:
        """From the feed's thread into the event loop (which may have closed at shutdown)."""
        with contextlib.suppress(RuntimeError):
            self._loop.call_soon_threadsafe(callback, *args)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- another process changed something ---------------------------------------------------------
    def on_change(self, game_id: str, change: str, origin: str, extra: str) -> None:
        hub = self.hub
        if change == "hello":  # a process (re)started: it wants to know which seats have pages here
            for watched in list(hub.connections):
                self.announce_presence(watched)
            return
        if change == "presence":
            seats = {int(s) for s in extra.split(",") if s.isdigit()}
            by_process = self.remote_present.setdefault(game_id, {})
            if seats:
                by_process[origin] = seats
            else:
                by_process.pop(origin, None)
            if not by_process:
                self.remote_present.pop(game_id, None)
            if hub.connections.get(game_id):
                self._spawn(hub.announce_presence(game_id))
            return
        if change == "chat":
            if hub.connections.get(game_id) and self.on_chat is not None:
                self._spawn(self.on_chat(game_id))
            return
        self._spawn(self.catch_up(game_id))

    async def catch_up(self, game_id: str) -> None:
        hub, master = self.hub, self.master
        watched = bool(hub.connections.get(game_id))
        driver = hub.drivers.get(game_id)
        if not watched and (driver is None or driver.done()):
            master.forget(game_id)  # nobody here needs it: read again when asked for
            return
        try:
            caught = await run_in_threadpool(master.catch_up, game_id)
        except Refusal as refusal:
            if refusal.code == "unavailable":
                hub.store_failed(game_id)
            return
        if caught == "reloaded":  # an undo cut the log back: every page gets it whole again
            for connection in list(hub.connections.get(game_id, ())):
                connection.log_sent = 0
        # Always: the game may have been read again meanwhile (a stale write of this process's own
        # reloads it), and a page is sent only a state newer than the one it has.
        await hub.broadcast(game_id, force=caught in ("changed", "reloaded"))
        hub.kick(game_id)  # a bot's or a clock's turn may have come: its driver (here or there) plays

    def resync(self) -> None:
        """The feed was down (announcements may be lost): every game held here is caught up, and the
        other processes are asked again which seats have pages open."""
        for game_id in set(self.hub.connections) | set(self.hub.drivers):
            self._spawn(self.catch_up(game_id))
        self._spawn(self._announce(NO_GAME, "hello", ""))
        for watched in list(self.hub.connections):
            self.announce_presence(watched)

    def check_behind(self) -> None:
        """Every few seconds, a safety net under the announcements: any game watched here that the store
        has moved past is caught up (one query for all of them)."""
        if self.hub.connections:
            self._spawn(self._catch_up_behind(list(self.hub.connections)))

    async def _catch_up_behind(self, game_ids: list[str]) -> None:
        state_ids = getattr(self.master.storage, "state_ids", None)
        if state_ids is None:
            return
        try:
            stored = await run_in_threadpool(state_ids, game_ids)
        except Exception as error:  # the store is down: the next look, or the drivers, find it again
            log.warning("could not compare the games with the store (%s)", error)
            return
        # A game a move or two behind is usually an announcement on its way: only one still behind
        # what the store held at the previous look (2 s ago) was missed.
        behind: dict[str, int] = {}
        for game_id, state_id in stored.items():
            live = self.master.loaded(game_id)
            if live is None:
                continue
            if live.state_id < self._behind.get(game_id, -1):
                log.warning("game %s: caught up by the periodic check, not by an announcement", game_id)
                self._spawn(self.catch_up(game_id))
            elif state_id > live.state_id:
                behind[game_id] = state_id
        self._behind = behind

    def take_orphans(self) -> None:
        """Another process stopped: the unfinished games it drove get a driver here (whichever live
        process takes each game's lock first), and its pages no longer count as present."""
        alive = self.feed.peers()
        for game_id, by_process in list(self.remote_present.items()):
            for origin in [o for o in by_process if o not in alive]:
                del by_process[origin]
            if not by_process:
                del self.remote_present[game_id]
            if self.hub.connections.get(game_id):
                self._spawn(self.hub.announce_presence(game_id))
        self._spawn(self._adopt())

    async def _adopt(self) -> None:
        # The rows say which games need a driver (a bot to move, a clock running): those are woken,
        # and the first live process to take a game's lock drives it (risk.server.wakeups).
        await self.hub.wakeups.reread()

    # -- what this process tells the others ------------------------------------------------------
    def present(self, game_id: str) -> set[int]:
        """Seats with a page open on another process."""
        seats: set[int] = set()
        for by_process in self.remote_present.get(game_id, {}).values():
            seats |= by_process
        return seats

    def announce_presence(self, game_id: str) -> None:
        seats = sorted({c.seat for c in self.hub.connections.get(game_id, ()) if c.seat != SPECTATOR})
        self._spawn(self._announce(game_id, "presence", ",".join(map(str, seats))))

    async def _announce(self, game_id: str, change: str, extra: str) -> None:
        announce = getattr(self.master.storage, "announce", None)
        if announce is None:
            return
        try:
            await run_in_threadpool(announce, change, game_id, extra)
        except Exception as error:  # presence is a courtesy: a failed one is shown again on the next
            log.warning("game %s: could not tell the other processes (%s)", game_id, error)

    # -- the game's driver ----------------------------------------------------------------------
    async def take_wheel(self, game_id: str) -> bool:
        """Whether this process may drive the game now: it holds the game's lock, or takes it. A game
        here with nothing for a driver to do takes no lock."""
        if self.feed.owns(game_id):
            return True
        # A game in memory is asked without the store (a failed store: read it again first).
        in_memory = self.master.loaded(game_id) is not None and game_id not in self.hub.failed
        if in_memory and not self.master.needs_driver(game_id):
            return False
        if await run_in_threadpool(self.feed.try_own, game_id):
            return True
        # Another process holds the lock. If it is about to give it back having seen an older state
        # (it read the game before our move was stored), nobody would drive the game: while the game
        # has work and pages here, look again shortly.
        if self.hub.connections.get(game_id) and game_id not in self._retrying:
            self._retrying.add(game_id)
            self._loop.call_later(WHEEL_RETRY, self._retry_wheel, game_id)
        return False

    def _retry_wheel(self, game_id: str) -> None:
        self._retrying.discard(game_id)
        self.hub.kick(game_id)

    def let_go(self, game_id: str) -> None:
        if self.feed.let_go(game_id):
            self._loop.run_in_executor(None, self.feed.release, game_id)
