"""Games out of memory that need the server before anyone asks for them (docs/web.md, "Restarts").

A starting server serves at once: it reads only the rows of the unfinished games, never their actions.
A game is loaded (its stored actions replayed into a live game) when it is first needed: a page or a
request for it (the web app loads it then, in a worker thread), or, kept here, a bot of the server's
to move or a clock about to run out. Each row says who is to act and when its clock runs out
(:func:`risk.server.timing.wake_time`); the games that need the server are woken in that order, one
load at a time in a thread of their own, so pages and players' moves never queue behind them, and
each game's driver (the hub's) then plays its bots and runs its clock as before the restart.

With several server processes (risk.server.peers) each wakes the same games; the one that takes a
game's driver lock loads and drives it, the others leave it alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections.abc import Iterable
from typing import Protocol

from anyio import CapacityLimiter, to_thread

from risk.server.errors import Refusal, Unloadable
from risk.server.master import GameMaster
from risk.server.peers import Peers
from risk.server.storage import GameRecord
from risk.server.timing import wake_time

log = logging.getLogger("risk.server")

LOAD_AHEAD = 2.0  # seconds before a clock runs out that its game is loaded (a load takes milliseconds)
STORE_RETRY = 1.0  # seconds before the unfinished games are read again when the store failed


class WakingHub(Protocol):
    """What the wake-ups need of the hub (risk.server.hub): the master, the other processes, and the
    games' drivers."""

    master: GameMaster
    peers: Peers | None

    def kick(self, game_id: str) -> None: ...


class Wakeups:
    """The games to wake, soonest first, and the task that wakes them."""

    def __init__(self, hub: WakingHub) -> None:
        self.hub = hub
        self._queue: list[tuple[float, int, str]] = []  # (when, order, game id): a heap
        self._order = itertools.count()
        self._changed: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._threads: CapacityLimiter | None = None

    def start(self) -> None:
        """Read the unfinished games and wake them as they need it, in the background (from the event
        loop, once it runs: the server answers meanwhile)."""
        self._changed = asyncio.Event()
        self._threads = CapacityLimiter(1)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def plan(self, records: Iterable[GameRecord]) -> int:
        """Wake each of these games when it needs the server; answers how many will be woken."""
        planned = 0
        for record in records:
            when = wake_time(record)
            if when is not None:
                heapq.heappush(self._queue, (max(0.0, when - LOAD_AHEAD), next(self._order), record.id))
                planned += 1
        if self._changed is not None:
            self._changed.set()
        return planned

    async def reread(self) -> None:
        """Read the unfinished games again and wake those that need it (another process stopped:
        risk.server.peers; games it drove may need a driver here)."""
        self.plan(await self._unfinished())

    async def _unfinished(self) -> list[GameRecord]:
        while True:
            try:
                return await to_thread.run_sync(self.hub.master.unfinished_games)
            except Refusal as refusal:  # the store is down: the games are read when it is back
                log.warning("could not read the unfinished games (%s): trying again", refusal.message)
                await asyncio.sleep(STORE_RETRY)

    async def _run(self) -> None:
        assert self._changed is not None
        records = await self._unfinished()
        planned = self.plan(records)
        log.info("%d unfinished games, %d to wake for a bot or a clock", len(records), planned)
        clock = self.hub.master.clock
        while True:
            self._changed.clear()
            if not self._queue:
                await self._changed.wait()
                continue
            wait = self._queue[0][0] - clock()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), wait)
                continue
            _, _, game_id = heapq.heappop(self._queue)
            try:
                await self._wake(game_id)
            except Exception:  # one game's trouble never stops the others' waking
                log.exception("game %s: waking it failed", game_id)

    async def _wake(self, game_id: str) -> None:
        hub, master = self.hub, self.hub.master
        if master.loaded(game_id) is None:
            if hub.peers is not None and not await hub.peers.take_wheel(game_id):
                return  # another process drives it
            try:
                await to_thread.run_sync(master.live, game_id, limiter=self._threads)
            except Unloadable as refusal:
                log.error("%s", refusal.detail)  # this game only: the others play on
                if hub.peers is not None:
                    hub.peers.let_go(game_id)
                return
            except Refusal:
                pass  # the store failed: the game's driver reads it again until the store answers
        hub.kick(game_id)
