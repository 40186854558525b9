"""The hub: every game's live connections, and each game's driver, which plays its bots and its clock.

Each websocket connection gets its own seat's view after every accepted action: the hub listens to
the game master, which announces each change once it is committed (the routes call the master only,
never the hub, to say a game changed). Bots and timed-out
players are played by one driver task per game; a bot's thinking runs in a worker thread, so no game
blocks another. With several server processes on one PostgreSQL database, the hub hears the others
through :mod:`risk.server.peers`; games out of memory that need a driver are woken by
:mod:`risk.server.wakeups`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from anyio import CapacityLimiter, to_thread
from fastapi.concurrency import run_in_threadpool

from risk.server.clock import run_out
from risk.server.connection import Connection
from risk.server.errors import Refusal, Unloadable
from risk.server.master import Announcement, GameMaster
from risk.server.peers import Peers
from risk.server.wakeups import Wakeups
from risk.view import SPECTATOR

log = logging.getLogger("risk.server")

STORE_RETRY = 1.0  # seconds before a bot tries again when the store failed
BOT_THREADS = 4  # worker threads for the bots of every game together (players' moves have their own)
PEERS_START = 10.0  # seconds a starting server waits to hear the other processes before serving


class Hub:
    """The live connections of every game, and the driver that plays bots and timed-out defenders."""

    def __init__(self, master: GameMaster) -> None:
        self.master = master
        self.connections: dict[str, set[Connection]] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()  # games whose busy driver must look again when it finishes
        self.sleeping: set[str] = set()  # games whose driver waits for a defender's deadline
        self.failed: set[str] = set()  # games whose store failed on a move: read again, shown again
        self.peers: Peers | None = None  # the other server processes on the same PostgreSQL database
        self.wakeups = Wakeups(self)  # games out of memory that a bot or a clock needs (risk.server.wakeups)
        self._bot_threads: CapacityLimiter | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the web app's, once it has started
        self._announcing: set[asyncio.Task[None]] = set()  # kept until done (the loop keeps weak refs)
        master.subscribe(self._heard)

    async def start(self) -> None:
        """Hear the master's announcements on this event loop, and the other server processes."""
        self._loop = asyncio.get_running_loop()
        await self.start_peers()

    def _heard(self, announcement: Announcement) -> None:
        """The master committed a change (in whichever thread made it): handled on the event loop."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._on_change, announcement)

    def _on_change(self, announcement: Announcement) -> None:
        game_id, kind = announcement.game_id, announcement.kind
        if kind == "failed":
            self.store_failed(game_id)
            return
        if kind == "changed" and announcement.seats is not None:
            shown = self._seats_shown(game_id, announcement.seats)
        else:
            shown = self.moved(game_id, force=kind == "changed")
        task = asyncio.get_running_loop().create_task(shown)
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _seats_shown(self, game_id: str, seats: tuple[int, ...]) -> None:
        for seat in seats:
            await self.refresh_seat(game_id, seat)

    def bot_threads(self) -> CapacityLimiter:
        if self._bot_threads is None:  # made in the event loop, on first use
            self._bot_threads = CapacityLimiter(BOT_THREADS)
        return self._bot_threads

    async def start_peers(self) -> None:
        """On PostgreSQL: listen to the other server processes (risk.server.peers), before the first
        page is served (a change made before we listen would reach that page late)."""
        conninfo = getattr(self.master.storage, "listen_conninfo", lambda: None)()
        if conninfo is not None:
            self.peers = Peers(self, conninfo, self.master.storage.origin)  # type: ignore[attr-defined]
            self.peers.start()
            if not await asyncio.to_thread(self.peers.feed.listening.wait, PEERS_START):
                log.warning("the other server processes cannot be heard yet: going on, trying again")

    async def send_state(self, game_id: str, connection: Connection, force: bool = False) -> None:
        async with connection.lock:
            try:
                await self.load(game_id)
                if not force and self.master.published_state(game_id) <= connection.state_sent:
                    return  # already sent (a broadcast and a hello can cross): never the same state twice
                # An undo since the last state sent cuts the log back: resend it from there.
                # Under fog of war a page's log is its seat's own lines, positions counted in them.
                fogged_for = connection.seat if connection.log_fogged else None
                log_start = self.master.log_resume(
                    game_id, connection.log_sent, connection.state_sent, fogged_for
                )
                message = self.master.state_message(
                    game_id,
                    connection.seat,
                    log_start,
                    present=self.present(game_id),
                    log_fogged=connection.log_fogged,
                )
            except Refusal:
                return  # the store failed while the game was out of memory: the driver resends it later
            if not self._still_holds(game_id, connection):
                await self._seat_lost(game_id, connection)
                return
            connection.log_sent = message["log_start"] + len(message["log"])
            connection.log_fogged = bool(message["view"]["fog"])
            connection.state_sent = message["state_id"]
            with contextlib.suppress(Exception):  # a closed socket is dropped by its own handler
                await connection.socket.send_json(message)

    def _still_holds(self, game_id: str, connection: Connection) -> bool:
        """Whether the connection's seat is still held by the token it said hello with (the host's ban
        opens a waiting game's seat again: another player may take it, and its view is theirs)."""
        if connection.holder is None:
            return True
        seats = self.master.live(game_id).published.record.seats
        return 0 <= connection.seat < len(seats) and seats[connection.seat].token_hash == connection.holder

    async def _seat_lost(self, game_id: str, connection: Connection) -> None:
        """Told, then closed (code 4403: the page does not reconnect on its own). The caller holds the
        connection's lock."""
        self.connections.get(game_id, set()).discard(connection)
        with contextlib.suppress(Exception):
            await connection.socket.send_json(
                {"type": "error", "code": "banned", "message": "The host removed you from this game."}
            )
            await connection.socket.close(code=4403, reason="the seat is no longer yours")

    async def load(self, game_id: str) -> None:
        """A game out of memory (not needed since the start, or forgotten) is read and replayed in a
        worker thread: the event loop, every other game's pages, never waits for a replay."""
        if self.master.loaded(game_id) is None:
            await run_in_threadpool(self.master.live, game_id)

    async def broadcast(self, game_id: str, force: bool = False) -> None:
        for connection in list(self.connections.get(game_id, ())):
            await self.send_state(game_id, connection, force=force)

    async def moved(self, game_id: str, force: bool = False) -> None:
        """A move (or a seat's change) was stored: every page of the game is shown it, and the game's
        driver looks again (a bot's or a clock's turn may have come)."""
        await self.broadcast(game_id, force=force)
        self.kick(game_id)

    async def refresh_seat(self, game_id: str, seat: int) -> None:
        """Send one seat's connections their view again: it changed without a new state (a blitz
        called off)."""
        for connection in list(self.connections.get(game_id, ())):
            if connection.seat == seat:
                await self.send_state(game_id, connection, force=True)

    def store_failed(self, game_id: str) -> None:
        """A change was refused because the store failed: the driver waits for the store to answer, then
        shows every connection the stored state (the move may have been stored, its answer lost)."""
        self.failed.add(game_id)
        self.kick(game_id)

    def kick(self, game_id: str) -> None:
        """Make the game's driver look again: a move was made, so what to wait for may have changed.
        A driver in the middle of a bot's move is never cancelled (its move would go unannounced): it
        is asked to look again when it finishes; one waiting for a defender's deadline is restarted."""
        task = self.drivers.get(game_id)
        if task is not None and not task.done():
            if game_id not in self.sleeping:
                self.again.add(game_id)
                return
            task.cancel()
        self.again.discard(game_id)
        self.drivers[game_id] = asyncio.get_running_loop().create_task(self._drive(game_id))

    async def _drive(self, game_id: str) -> None:
        try:
            await self._play(game_id)
        finally:
            self._retire(game_id)

    async def _play(self, game_id: str) -> None:
        master, peers = self.master, self.peers
        try:
            while True:
                # With several server processes, one drives a game at a time: the one with its lock.
                if peers is not None and not await peers.take_wheel(game_id):
                    return
                if game_id in self.failed:
                    # A move failed to be stored: the game is read from the store again (the move may
                    # have been stored, only its answer lost) and every connection is shown where it is.
                    await run_in_threadpool(master.live, game_id)
                    self.failed.discard(game_id)
                    await self.broadcast(game_id)
                await self.load(game_id)
                self.again.discard(game_id)
                turn = master.bot_turn(game_id)
                if turn is not None:
                    seat, state_id, decide = turn
                    # The game's delay at the pace of the slowest human watching (risk.server.seatprefs).
                    delay = master.turn_delay(game_id, self.present(game_id))
                    if delay > 0:
                        await asyncio.sleep(delay)
                    # Bots think and move in threads of their own, so a player's move never waits in a
                    # queue behind the bots of every other game (it still shares the CPU with them).
                    text = await to_thread.run_sync(decide, limiter=self.bot_threads())
                    try:
                        await to_thread.run_sync(
                            master.submit_as, game_id, seat, text, state_id, limiter=self.bot_threads()
                        )
                    except Refusal as refusal:
                        if refusal.code == "stale" or master.live(game_id).state_id != state_id:
                            # The game moved on meanwhile (another process): show it, decide again.
                            await self.broadcast(game_id)
                            continue
                        if refusal.code == "unavailable":  # the store is down: try again shortly
                            self.failed.add(game_id)
                            await asyncio.sleep(STORE_RETRY)
                            continue
                        log.error("game %s: bot in seat %d refused: %s", game_id, seat, refusal.message)
                        return
                    await self.broadcast(game_id)
                    continue
                live = master.live(game_id)
                if live.deadline is None:
                    if game_id in self.again:
                        continue
                    return
                state_id = live.state_id
                self.sleeping.add(game_id)
                try:
                    await asyncio.sleep(max(0.0, live.deadline - master.clock()))
                finally:
                    self.sleeping.discard(game_id)
                try:
                    played = await run_in_threadpool(run_out, master, game_id, state_id)
                except Refusal as refusal:
                    if refusal.code != "unavailable":
                        raise
                    await asyncio.sleep(STORE_RETRY)  # the store is down: the time is still up
                    continue
                if played is not None:
                    await self.broadcast(game_id)
        except asyncio.CancelledError:
            raise
        except Unloadable as refusal:
            log.error("%s", refusal.detail)  # this game only, and trying again would not help
        except Refusal as refusal:
            if refusal.code == "unavailable":
                # The store is down (the game could not be read): a new driver tries again shortly,
                # for as long as it takes; a store that failed never stops a game's bots for good.
                self.failed.add(game_id)
                asyncio.get_running_loop().call_later(STORE_RETRY, self.kick, game_id)
                return
            log.error("game %s: driver stopped: %s", game_id, refusal.message)
        except Exception:
            log.exception("game %s: driver failed", game_id)

    def _retire(self, game_id: str) -> None:
        """The driver has nothing left to wait for (or stopped): it leaves the table of drivers, and a
        finished game nobody watches leaves memory (bot games would otherwise pile up there for the
        server's life). With other processes, the game's lock is given back, and a game nobody here
        watches leaves memory too (another process may change it meanwhile)."""
        if self.drivers.get(game_id) is not asyncio.current_task():
            return  # a newer driver took over
        del self.drivers[game_id]
        if self.peers is not None:
            self.peers.let_go(game_id)
        live = self.master.loaded(game_id)
        if live is None or self.connections.get(game_id):
            return
        if self.peers is not None or live.game.is_over:
            self.master.forget(game_id)

    def present(self, game_id: str) -> set[int]:
        """The seats with a page open on this game (on this process or, with several, another)."""
        here = {c.seat for c in self.connections.get(game_id, ()) if c.seat != SPECTATOR}
        return here if self.peers is None else here | self.peers.present(game_id)

    def seats_changed(self, game_id: str) -> None:
        """A page came or went here: the other processes are told (their pages show who is connected)."""
        if self.peers is not None:
            self.peers.announce_presence(game_id)

    async def announce_presence(self, game_id: str, newcomer: Connection | None = None) -> None:
        """A seat came or went: every other page of the game gets its state again (``connected``)."""
        for connection in list(self.connections.get(game_id, ())):
            if connection is not newcomer:
                await self.send_state(game_id, connection, force=True)

    async def take_over(self, game_id: str, newcomer: Connection) -> None:
        """A seat opened on another device (or tab) plays there: the older pages of the seat are told
        and closed (code 4409; they do not reconnect on their own, they offer to play here again)."""
        for connection in list(self.connections.get(game_id, ())):
            if connection is newcomer or connection.seat != newcomer.seat or newcomer.seat == SPECTATOR:
                continue
            self.connections[game_id].discard(connection)
            async with connection.lock:
                with contextlib.suppress(Exception):
                    await connection.socket.send_json(
                        {
                            "type": "moved",
                            "message": "This seat was opened on another device or tab: play goes on there.",
                        }
                    )
                    await connection.socket.close(code=4409, reason="the seat was opened elsewhere")

    async def stop(self) -> None:
        await self.wakeups.stop()
        if self.peers is not None:
            await self.peers.stop()
        drivers = list(self.drivers.values())  # a stopped driver leaves the table as it ends
        for task in drivers:
            task.cancel()
        for task in drivers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
