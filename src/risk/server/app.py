"""The web app: HTTP and websocket API over the game master, the lobby and the board pages.

The master decides; this module only carries messages. Each websocket connection gets its own
seat's view after every accepted action. Bots and timed-out defenders are played by one driver task
per game; a bot's thinking runs in a worker thread, so no game blocks another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from anyio import CapacityLimiter, to_thread
from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from risk.bots import BOTS, DEFAULT_LEVEL, LEVELS
from risk.maps import available_maps, load_map
from risk.rules.options import GAMES, OPTIONS, PRESETS, format_option
from risk.rules.variants import game_goal
from risk.server import clock as turn_clock
from risk.server import seats as seat_desk
from risk.server.gcpace import CollectorPacer
from risk.server.hosts import AllowedHosts, HostCheckMiddleware
from risk.server.inputs import (
    NUMBER_MAX,
    MoveText,
    OptionValue,
    Seed,
    WholeNumber,
    move_text,
    state_id_of,
    whole_number,
)
from risk.server.limits import Gate, Guard, Limits, RateLimitMiddleware
from risk.server.master import (
    DEFAULT_BOT_DELAY,
    DEFAULT_DEFEND_TIMEOUT,
    GameMaster,
    GameSpec,
    Refusal,
    SeatSpec,
    Unloadable,
)
from risk.server.peers import Peers
from risk.server.refusals import refusals
from risk.server.social import Social
from risk.server.storage import Storage
from risk.server.wakeups import Wakeups
from risk.view import SPECTATOR

log = logging.getLogger("risk.server")

WEB_DIR = Path(str(resources.files("risk").joinpath("web")))
MAX_MESSAGE = 16_384  # bytes of one websocket message; an action is a short line
HELLO_TIMEOUT = 10.0
STORE_RETRY = 1.0  # seconds before a bot tries again when the store failed
BOT_THREADS = 4  # worker threads for the bots of every game together (players' moves have their own)
PEERS_START = 10.0  # seconds a starting server waits to hear the other processes before serving

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


# -- request bodies (they make the OpenAPI schema) ---------------------------------------------------
class SeatIn(BaseModel):
    kind: str = Field(description="human, open, bot or external")
    name: str = ""
    bot: str | None = Field(
        None,
        description="a level (easy, normal, hard, expert), a bot (risk bots), or an external bot's command",
    )


class GameIn(BaseModel):
    edition: str = "2008"
    game: str = "world"
    options: dict[str, OptionValue] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(min_length=1, max_length=8)
    public: bool = True
    seed: Seed | None = None
    bot_delay: float = DEFAULT_BOT_DELAY
    defend_timeout: float = Field(DEFAULT_DEFEND_TIMEOUT, description="seconds for a defender's dice")
    turn_time: float = Field(0, description="seconds per turn; 0: no turn clock")
    missed_turns: int = Field(
        turn_clock.DEFAULT_MISSED_TURNS,
        strict=True,
        ge=0,
        le=turn_clock.MAX_MISSED_TURNS,
        description="timed-out turns before a bot",
    )
    stand_in: str = Field("quick", description="the bot or level that plays for away players")
    spectators: bool = Field(True, description="anyone with the watch link may watch")
    board: str = "classic"


class StandInIn(BaseModel):
    on: bool = Field(description="true: a bot plays your seat; false: you take it back")


class ReplaceIn(BaseModel):
    seat: WholeNumber
    bot: str | None = Field(None, description="the bot to play the seat (default: the game's stand-in)")


class JoinIn(BaseModel):
    seat: WholeNumber
    name: str


STATE_ID = "the state_id of the state the move was chosen at: a move from an older state is refused (stale)"


class ActionIn(BaseModel):
    action: MoveText = Field(max_length=200)
    state_id: WholeNumber = Field(description=STATE_ID)


class BlitzIn(BaseModel):
    source: MoveText = Field(alias="from", max_length=100, description="the attacking territory")
    to: MoveText = Field(max_length=100, description="the territory attacked")
    until: int = Field(
        1,
        strict=True,
        ge=1,
        le=NUMBER_MAX,
        description="stop once the attacking territory holds this many armies",
    )
    state_id: WholeNumber = Field(description=STATE_ID)


class UndoIn(BaseModel):
    state_id: WholeNumber = Field(description=STATE_ID)
    to: WholeNumber | None = Field(
        None, description="take back every move from this stored one (default: the last)"
    )


def _bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("bad-token", "the Authorization header must be 'Bearer TOKEN'")
    return token.strip()


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    seat: int
    log_sent: int = 0
    state_sent: int = -1  # the newest state id this connection has been sent
    chat_seen: int | None = None  # the newest chat seq this connection has had (None: no history yet)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


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
                if not force and self.master.live(game_id).state_id <= connection.state_sent:
                    return  # already sent (a broadcast and a hello can cross): never the same state twice
                # An undo since the last state sent cuts the log back: resend it from there.
                log_start = self.master.log_resume(game_id, connection.log_sent, connection.state_sent)
                message = self.master.state_message(
                    game_id, connection.seat, log_start, present=self.present(game_id)
                )
            except Refusal:
                return  # the store failed while the game was out of memory: the driver resends it later
            connection.log_sent = message["log_start"] + len(message["log"])
            connection.state_sent = message["state_id"]
            with contextlib.suppress(Exception):  # a closed socket is dropped by its own handler
                await connection.socket.send_json(message)

    async def load(self, game_id: str) -> None:
        """A game out of memory (not needed since the start, or forgotten) is read and replayed in a
        worker thread: the event loop, every other game's pages, never waits for a replay."""
        if self.master.loaded(game_id) is None:
            await run_in_threadpool(self.master.live, game_id)

    async def broadcast(self, game_id: str, force: bool = False) -> None:
        for connection in list(self.connections.get(game_id, ())):
            await self.send_state(game_id, connection, force=force)

    async def refresh_seat(self, game_id: str, seat: int) -> None:
        """Send one seat's connections their view again: it changed without a new state (a blitz
        called off)."""
        for connection in list(self.connections.get(game_id, ())):
            if connection.seat == seat:
                await self.send_state(game_id, connection, force=True)

    def store_failed(self, game_id: str, refusal: Refusal) -> None:
        """A move was refused because the store failed: the driver waits for the store to answer, then
        shows every connection the stored state (the move may have been stored, its answer lost)."""
        if refusal.code == "unavailable":
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
                    delay = float(master.live(game_id).record.settings.get("bot_delay", DEFAULT_BOT_DELAY))
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
                    played = await run_in_threadpool(turn_clock.run_out, master, game_id, state_id)
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
            log.error("%s", refusal.message)  # this game only, and trying again would not help
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


def create_app(
    storage: Storage,
    *,
    allow_external_bots: bool = False,
    limits: Limits | None = None,
    pace_gc: bool = False,
    allowed_hosts: AllowedHosts | None = None,
) -> FastAPI:
    """The app; ``limits`` are the rate limits (risk.server.limits; None: no limit, as in tests);
    ``pace_gc``: short garbage-collector pauses (risk.server.gcpace), for `risk serve`'s process;
    ``allowed_hosts``: the host names it answers to (risk.server.hosts; None: any, as in tests)."""
    master = GameMaster(storage, allow_external_bots=allow_external_bots)
    hub = Hub(master)
    social = Social(master, hub)
    guard = Guard(limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        pacer = CollectorPacer(asyncio.get_running_loop()) if pace_gc else None
        if pacer is not None:
            pacer.install()
        await hub.start_peers()
        social.listen_to(hub.peers)
        # Games that were being played when the server stopped go on, but none is loaded before the
        # server answers: each is loaded when first asked for, or woken in the background when a bot
        # of the server's is to move or its clock runs out (risk.server.wakeups).
        hub.wakeups.start()
        yield
        await hub.stop()
        storage.close()
        if pacer is not None:
            pacer.uninstall()

    app = FastAPI(
        title="risk",
        summary="RISK in the browser: the lobby, the games, live play over a websocket",
        version="1",
        lifespan=lifespan,
        # No Swagger UI or ReDoc page: they run a CDN's scripts, inline, on the origin whose storage
        # holds the players' seat tokens. The schema itself is at /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    app.state.master = master
    app.state.hub = hub
    app.state.social = social
    app.state.guard = guard

    @app.exception_handler(Refusal)
    async def refusal_handler(request: Request, refusal: Refusal) -> JSONResponse:
        game_id = request.path_params.get("game_id")
        if request.method == "POST" and game_id:  # a move over HTTP: as over the websocket
            hub.store_failed(game_id, refusal)
        return JSONResponse({"error": refusal.to_dict()}, status_code=refusal.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error_handler(request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Starlette's own refusals in the app's shape: no such path, a method the path does not take,
        # and anything else (a body that cannot be read) as the malformed request it is.
        status, allowed = error.status_code, (error.headers or {}).get("Allow", "")
        if status == 404:
            code, message = "not-found", "no such page or API path"
        elif status == 405:
            code, message = "not-allowed", f"{request.method} is not allowed here; allowed: {allowed}"
        else:
            code, status, message = "bad-request", 422, str(error.detail)
        return JSONResponse({"error": {"code": code, "message": message}}, status, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_handler(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg', 'invalid')}"
            for e in error.errors()
        )
        return JSONResponse({"error": {"code": "bad-request", "message": problems}}, status_code=422)

    app.add_middleware(RateLimitMiddleware, guard=guard)  # inside security_headers: a 429 gets them too

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        if request.url.path == "/" or request.url.path.startswith("/game/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    if allowed_hosts is not None:  # outermost: a rebinding page's request goes no further
        app.add_middleware(HostCheckMiddleware, allowed=allowed_hosts)

    # -- pages ---------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "game.html")

    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    # -- facts ---------------------------------------------------------------------------------
    @app.get("/api/meta", summary="Editions, games, rule options and bots")
    async def meta() -> dict[str, Any]:
        return {
            "editions": {
                name: {"players": list(rules.players), "options": rules.option_values()}
                for name, rules in PRESETS.items()
            },
            "games": {
                name: {"editions": list(editions), "goal": game_goal(name).to_dict()}
                for name, editions in GAMES.items()
            },
            "options": [
                {
                    "name": info.name.replace("_", "-"),
                    "choices": None
                    if info.choices is None
                    else [format_option(info.name, c) for c in info.choices],
                    "description": info.description,
                    "source": info.source,
                }
                for info in OPTIONS.values()
                if info.name != "game"
            ],
            "levels": [
                {"name": level.name, "bot": level.bot_name, "description": level.description}
                for level in LEVELS.values()
            ],
            "bots": [{"name": name, "description": cls.description} for name, cls in BOTS.items()],
            "defaults": {
                "bot_delay": DEFAULT_BOT_DELAY,
                "defend_timeout": DEFAULT_DEFEND_TIMEOUT,
                "turn_time": 0,
                "missed_turns": turn_clock.DEFAULT_MISSED_TURNS,
                "stand_in": "quick",
                "level": DEFAULT_LEVEL,  # the lobby's choice for a new bot seat
            },
        }

    @app.get("/api/boards/{name}", summary="A board and its drawing", responses=refusals(404))
    async def board(name: str) -> dict[str, Any]:
        if name not in available_maps():  # shipped boards only: never a path
            raise Refusal("not-found", f"no board {name!r}; boards: {', '.join(available_maps())}")
        board = load_map(name)
        data = board.to_json()
        for row, index in zip(data["territories"], range(len(board)), strict=True):
            row["slug"] = board.slug_of(index)
        from risk import maps

        drawing = maps.load_drawing(board.name) if hasattr(maps, "load_drawing") else None
        return {"board": data, "drawing": drawing}

    @app.get("/api/odds", summary="Exact odds of an invasion", responses=refusals(422))
    async def odds(
        attackers: int = Query(ge=1, le=1000, description="fighting armies (not the one that stays behind)"),
        defenders: int = Query(ge=1, le=1000),
        stop: int = Query(
            0, ge=0, le=1000, description="call the invasion off at this many fighting armies or fewer"
        ),
    ) -> dict[str, Any]:
        from risk.odds import invasion

        result = await run_in_threadpool(lambda: invasion(attackers, defenders, stop_at=stop))
        return {
            "attackers": attackers,
            "defenders": defenders,
            "stop": stop,
            "win": float(result.attacker_wins),
            "expected_attacker_losses": float(result.expected_attacker_losses),
            "expected_defender_losses": float(result.expected_defender_losses),
        }

    # -- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, summary="Create a game", responses=refusals(422, 429, 503))
    async def create_game(body: GameIn) -> dict[str, Any]:
        spec = GameSpec(
            edition=body.edition,
            game=body.game,
            options={k: str(v) for k, v in body.options.items()},
            seats=[SeatSpec(kind=s.kind, name=s.name, bot=s.bot) for s in body.seats],
            public=body.public,
            seed=body.seed,
            bot_delay=body.bot_delay,
            defend_timeout=body.defend_timeout,
            turn_time=body.turn_time,
            missed_turns=body.missed_turns,
            stand_in=body.stand_in,
            spectators=body.spectators,
            board=body.board,
        )
        host_token = seat_desk.new_host(spec)
        record, seats = await run_in_threadpool(master.create_game, spec)
        hub.kick(record.id)
        return {
            "host_token": host_token,
            "id": record.id,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "token": s.token,
                    "link": None if s.token is None else f"/game/{record.id}#token={s.token}",
                }
                for s in seats
            ],
            "spectate": f"/game/{record.id}",
        }

    @app.get("/api/games", summary="Public games", responses=refusals(422, 503))
    async def list_games(status: str | None = None) -> dict[str, Any]:
        return {"games": social.with_watchers(await run_in_threadpool(master.list_games, status))}

    @app.get("/api/games/{game_id}", summary="A game's public summary", responses=refusals(404, 503))
    async def get_game(game_id: str) -> dict[str, Any]:
        return await run_in_threadpool(master.summary, game_id)

    @app.post(
        "/api/games/{game_id}/join",
        summary="Take an open seat",
        responses=refusals(404, 409, 422, 429, 503),
    )
    async def join(game_id: str, body: JoinIn) -> dict[str, Any]:
        token = await run_in_threadpool(master.join, game_id, body.seat, body.name)
        await hub.broadcast(game_id)
        hub.kick(game_id)
        return {"seat": body.seat, "token": token, "link": f"/game/{game_id}#token={token}"}

    @app.get(
        "/api/games/{game_id}/view",
        summary="The caller's view of the game",
        responses=refusals(403, 404, 503),
    )
    async def view(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        seat = await run_in_threadpool(master.seat_of, game_id, _bearer(authorization))
        await run_in_threadpool(social.check_watcher, game_id, seat)
        return await run_in_threadpool(master.state_message, game_id, seat, 0, hub.present(game_id))

    @app.post("/api/games/{game_id}/actions", summary="Submit an action", responses=MOVE_REFUSALS)
    async def act(game_id: str, body: ActionIn, authorization: str | None = Header(None)) -> dict[str, Any]:
        state_id = await run_in_threadpool(
            master.submit, game_id, _bearer(authorization), body.action, body.state_id
        )
        await hub.broadcast(game_id)
        hub.kick(game_id)
        return {"state_id": state_id}

    @app.post(
        "/api/games/{game_id}/resign",
        summary="Resign: leave the game (your armies stay, neutral)",
        responses=MOVE_REFUSALS,
    )
    async def resign(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        state_id = await run_in_threadpool(seat_desk.resign, master, game_id, _bearer(authorization))
        await hub.broadcast(game_id)
        hub.kick(game_id)
        return {"state_id": state_id}

    @app.post(
        "/api/games/{game_id}/stand-in",
        summary="Hand your seat to a bot, or take it back",
        responses=MOVE_REFUSALS,
    )
    async def stand_in(
        game_id: str, body: StandInIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        token = _bearer(authorization)
        answer = await run_in_threadpool(seat_desk.hand_over, master, game_id, token, body.on)
        await hub.broadcast(game_id, force=True)
        hub.kick(game_id)
        return answer

    @app.post(
        "/api/games/{game_id}/replace",
        summary="The host hands an absent player's seat to a bot",
        responses=MOVE_REFUSALS,
    )
    async def replace_absent(
        game_id: str, body: ReplaceIn, authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        token, present = _bearer(authorization), hub.present(game_id)
        answer = await run_in_threadpool(
            seat_desk.replace_absent, master, game_id, token, body.seat, body.bot, present
        )
        await hub.broadcast(game_id, force=True)
        hub.kick(game_id)
        return answer

    @app.get(
        "/api/games/{game_id}/record",
        summary="A finished game's record (players only)",
        response_class=Response,  # plain text, as documented below; refusals stay JSON
        responses={200: RECORD_TEXT, **refusals(403, 404, 409, 503)},
    )
    async def record(game_id: str, authorization: str | None = Header(None)) -> PlainTextResponse:
        text = await run_in_threadpool(master.record_text, game_id, _bearer(authorization))
        return PlainTextResponse(
            text, headers={"Content-Disposition": f'attachment; filename="risk-{game_id}.txt"'}
        )

    # -- after the game: charts, luck meter, timelapse (risk.history) --------------------------------
    summaries: dict[str, bytes] = {}  # finished games' summaries as JSON, newest last: they never change

    @app.get("/game/{game_id}/summary", include_in_schema=False)
    async def summary_page(game_id: str) -> FileResponse:
        return FileResponse(WEB_DIR / "summary.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return FileResponse(WEB_DIR / "summary.html")

    @app.get(
        "/api/games/{game_id}/summary",
        summary="A finished game's charts, luck meter and timelapse",
        responses=refusals(403, 404, 409, 422, 503),
    )
    async def after_game(
        game_id: str, request: Request, authorization: str | None = Header(None)
    ) -> Response:
        # A game that does not allow spectators shows its summary to its players only.
        seat = await run_in_threadpool(master.seat_of, game_id, _bearer(authorization))
        await run_in_threadpool(social.check_watcher, game_id, seat)
        body = summaries.pop(game_id, None)
        if body is None:
            body = _json_bytes(await run_in_threadpool(master.after_game, game_id))
            if not hub.connections.get(game_id):
                master.forget(game_id)  # loaded only for this: it leaves memory again
        summaries[game_id] = body
        while len(summaries) > SUMMARIES_KEPT:
            summaries.pop(next(iter(summaries)))
        return _json_answer(request, body)

    @app.post(
        "/api/replay",
        summary="The charts, luck meter and timelapse of an uploaded record",
        responses=refusals(413, 422, 429, 503),
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": f"the record file's text (docs/notation.md), at most {MAX_RECORD} bytes",
                "content": {"text/plain": {"schema": {"type": "string"}}},
            }
        },
    )
    async def replay(request: Request) -> Response:
        text = await _read_record(request)
        data, verified = await run_in_threadpool(_summarize_upload, text)
        return _json_answer(request, _json_bytes(data | {"verified": verified}))

    # -- live play -----------------------------------------------------------------------------
    @app.websocket("/api/games/{game_id}/ws")
    async def play(socket: WebSocket, game_id: str) -> None:
        # A page from another site must not drive a player's seat with the player's browser: browsers
        # always send Origin on websockets, and it must name this server.
        origin = socket.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != socket.headers.get("host", ""):
            await socket.close(code=4403, reason="cross-origin websocket refused")
            return
        await socket.accept()
        connection: Connection | None = None
        gate = guard.gate(socket.client.host if socket.client else "unknown")
        try:
            try:
                hello = await asyncio.wait_for(_receive(socket, gate), HELLO_TIMEOUT)
                if hello.get("type") != "hello":
                    raise Refusal("bad-request", "the first message must be {'type': 'hello', 'token': ...}")
                token, chat_after = hello.get("token"), hello.get("chat_after")
                if token is not None and not isinstance(token, str):
                    raise Refusal("bad-token", "the token must be a string or null")
                if chat_after is not None:
                    whole_number(chat_after, "'chat_after' (the newest chat seq the client holds)")
                seat = await run_in_threadpool(master.seat_of, game_id, token)
                await run_in_threadpool(social.check_watcher, game_id, seat)
            except TimeoutError:
                await socket.close(code=4408, reason="no hello")
                return
            except Refusal as refusal:
                await _refuse_connection(socket, refusal)
                return
            connection = Connection(socket, seat)
            hub.connections.setdefault(game_id, set()).add(connection)
            await hub.take_over(game_id, connection)
            await hub.send_state(game_id, connection, force=True)
            if seat != SPECTATOR:
                await hub.announce_presence(game_id, connection)
                hub.seats_changed(game_id)
            await social.send_history(game_id, connection, chat_after)
            while True:
                try:
                    message = await _receive(socket, gate)
                    kind, ref = message.get("type"), message.get("ref")
                    gate.request(kind, ref)
                except Refusal as refusal:
                    await _send_error(connection, getattr(refusal, "ref", None), refusal)
                    continue
                if kind == "ping":
                    async with connection.lock:
                        await socket.send_json({"type": "pong"})
                elif kind == "action":
                    await _act(connection, game_id, message, ref)
                elif kind in FAST_PLAY_MESSAGES:
                    await _fast_play(connection, game_id, kind, message, ref)
                elif kind == "hello":  # a connection's seat is for its life (docs/web.md)
                    await _send_error(
                        connection,
                        ref,
                        Refusal(
                            "bad-request",
                            "this connection already said hello: to watch or play as someone else, "
                            "open a new connection",
                        ),
                    )
                elif kind == "chat":
                    try:
                        await social.on_chat(game_id, connection, message)
                    except Refusal as refusal:
                        await _send_error(connection, ref, refusal)
                else:
                    await _send_error(
                        connection,
                        ref,
                        Refusal(
                            "bad-request",
                            f"unknown message type {kind!r}; types: hello, action, chat, ping, "
                            + ", ".join(FAST_PLAY_MESSAGES),
                        ),
                    )
        except WebSocketDisconnect:
            return  # the client left: the normal end of a connection (the clean-up follows)
        except Refusal as refusal:
            # Past the hello, only the store can refuse (it is down, or the game cannot be loaded):
            # one error and a close frame, never a dropped connection.
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await _refuse_connection(socket, refusal)
        finally:
            if connection is not None:
                watchers = hub.connections.get(game_id, set())
                gone = connection in watchers
                watchers.discard(connection)
                if gone and connection.seat != SPECTATOR:
                    hub.seats_changed(game_id)
                    if watchers:
                        await hub.announce_presence(game_id)
                if not watchers:
                    hub.connections.pop(game_id, None)
                    # A finished game nobody watches leaves memory (it reloads from the store if asked).
                    with contextlib.suppress(Refusal):
                        if master.live(game_id).game.is_over:
                            master.forget(game_id)

    async def _act(connection: Connection, game_id: str, message: dict[str, Any], ref: Any) -> None:
        if connection.seat == SPECTATOR:
            await _send_error(connection, ref, Refusal("bad-token", "spectators cannot act"))
            return
        text = message.get("action")
        try:
            if not isinstance(text, str):
                raise Refusal(
                    "bad-request", "an action message is {'type': 'action', 'action': TEXT, 'state_id': N}"
                )
            move_text(text, "the action")
            state_id = state_id_of(message)
            new_id = await run_in_threadpool(
                seat_desk.player_submit, master, game_id, connection.seat, text, state_id
            )
        except Refusal as refusal:
            await _send_error(connection, ref, refusal)
            hub.store_failed(game_id, refusal)
            return
        async with connection.lock:
            with contextlib.suppress(Exception):
                await connection.socket.send_json({"type": "ack", "ref": ref, "state_id": new_id})
        await hub.broadcast(game_id)
        hub.kick(game_id)

    # -- fast play: blitz and undo (docs/web.md "Faster play") ----------------------------------------
    async def _player(game_id: str, authorization: str | None) -> int:
        seat = await run_in_threadpool(master.seat_of, game_id, _bearer(authorization))
        if seat == SPECTATOR:
            raise Refusal("bad-token", "spectators cannot act: open your seat's private link to play")
        return seat

    @app.post(
        "/api/games/{game_id}/blitz",
        summary="Attack again and again in one request (blitz)",
        responses=MOVE_REFUSALS,
    )
    async def blitz(game_id: str, body: BlitzIn, authorization: str | None = Header(None)) -> dict[str, Any]:
        seat = await _player(game_id, authorization)
        state_id, run = await run_in_threadpool(
            master.blitz, game_id, seat, body.source, body.to, body.until, body.state_id
        )
        await hub.broadcast(game_id)
        hub.kick(game_id)
        return {"state_id": state_id, "blitz": run.to_dict()}

    @app.post(
        "/api/games/{game_id}/blitz/stop",
        summary="Call off a blitz that waits for a defender",
        responses=refusals(403, 404, 429, 503),
    )
    async def stop_blitz(game_id: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        seat = await _player(game_id, authorization)
        stopped = await run_in_threadpool(master.stop_blitz, game_id, seat)
        await hub.refresh_seat(game_id, seat)
        return {"stopped": stopped}

    @app.post(
        "/api/games/{game_id}/undo",
        summary="Take back moves that revealed nothing new",
        responses=MOVE_REFUSALS,
    )
    async def undo(game_id: str, body: UndoIn, authorization: str | None = Header(None)) -> dict[str, Any]:
        seat = await _player(game_id, authorization)
        state_id = await run_in_threadpool(master.undo, game_id, seat, body.state_id, body.to)
        await hub.broadcast(game_id)
        hub.kick(game_id)
        return {"state_id": state_id}

    async def _fast_play(
        connection: Connection, game_id: str, kind: str, message: dict[str, Any], ref: Any
    ) -> None:
        seat = connection.seat
        extra: dict[str, Any] = {}
        try:
            if seat == SPECTATOR:
                raise Refusal("bad-token", "spectators cannot act")
            if kind == "blitz":
                source, target, until = message.get("from"), message.get("to"), message.get("until", 1)
                if not isinstance(source, str) or not isinstance(target, str):
                    raise Refusal(
                        "bad-request",
                        "a blitz message is {'type': 'blitz', 'from': TERRITORY, 'to': TERRITORY, "
                        "'until': ARMIES, 'state_id': N}",
                    )
                move_text(source, "'from'")
                move_text(target, "'to'")
                until = whole_number(until, "'until' (the armies to keep in the attacking territory)", 1)
                new_id, run = await run_in_threadpool(
                    master.blitz, game_id, seat, source, target, until, state_id_of(message)
                )
                extra["blitz"] = run.to_dict()
            elif kind == "undo":
                to = message.get("to")
                if to is not None:
                    whole_number(to, "'to' (the stored number of the first move to take back)")
                new_id = await run_in_threadpool(master.undo, game_id, seat, state_id_of(message), to)
            else:  # blitz-stop: no new state, only this seat's view of its blitz changes
                if "state_id" in message:  # not needed, but never taken unchecked
                    state_id_of(message)
                extra["stopped"] = await run_in_threadpool(master.stop_blitz, game_id, seat)
                new_id = master.live(game_id).state_id
        except Refusal as refusal:
            await _send_error(connection, ref, refusal)
            hub.store_failed(game_id, refusal)
            return
        async with connection.lock:
            with contextlib.suppress(Exception):
                await connection.socket.send_json({"type": "ack", "ref": ref, "state_id": new_id, **extra})
        if kind == "blitz-stop":
            await hub.refresh_seat(game_id, seat)
            return
        await hub.broadcast(game_id)
        hub.kick(game_id)

    social.install(app)
    return app


FAST_PLAY_MESSAGES = ("blitz", "blitz-stop", "undo")
MOVE_REFUSALS = refusals(403, 404, 409, 422, 429, 503)
RECORD_TEXT = {
    "description": "the record (docs/notation.md)",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}


async def _receive(socket: WebSocket, gate: Gate) -> dict[str, Any]:
    """One JSON object from the socket; anything else is refused with a message saying why. Every
    frame counts against the connection's rate limit; one over it is refused whatever it holds."""
    import json

    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    throttled = gate.frame()
    text = message.get("text")
    if text is None:
        raise throttled or Refusal("bad-request", "send text frames holding JSON, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise throttled or Refusal("too-large", f"the message is longer than {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise throttled or Refusal("bad-request", "the message is not JSON") from None
    except RecursionError:  # [[[[...]]]]: Python's decoder gives up past ~1,000 levels
        raise throttled or Refusal("bad-request", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise throttled or Refusal("bad-request", "the message must be a JSON object")
    if throttled is not None:
        throttled.ref = data.get("ref")
        raise throttled
    return data


def _close_code(refusal: Refusal) -> int:
    """The websocket close code for a refused connection (docs/web.md): the page stops reconnecting on
    4403 and 4404, and tries again later on 1013 (the store is down) and 1011 (a game that cannot be
    loaded: the server's fault, not the player's)."""
    if refusal.code in ("bad-token", "no-spectators"):
        return 4403
    if refusal.code == "not-found":
        return 4404
    if isinstance(refusal, Unloadable):
        return 1011
    if refusal.code == "unavailable":
        return 1013
    return 4400


async def _refuse_connection(socket: WebSocket, refusal: Refusal) -> None:
    await socket.send_json({"type": "error", "ref": None, **refusal.to_dict()})
    await socket.close(code=_close_code(refusal))


async def _send_error(connection: Connection, ref: Any, refusal: Refusal) -> None:
    async with connection.lock:
        with contextlib.suppress(Exception):
            await connection.socket.send_json({"type": "error", "ref": ref, **refusal.to_dict()})


# -- after the game -------------------------------------------------------------------------------
MAX_RECORD = 1 << 20  # bytes of an uploaded record: a long game (9,000 actions) is 250 KB
SUMMARIES_KEPT = 8


async def _read_record(request: Request) -> str:
    """The uploaded record's text, read no further than the size limit."""
    too_large = Refusal("too-large", f"a record file is at most {MAX_RECORD // 1024} KB; this one is larger")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_RECORD:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD:
            raise too_large
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refusal("bad-record", "the file is not a record: a record is plain UTF-8 text") from None
    if not text.strip():
        raise Refusal("bad-record", "nothing was uploaded: send the record file's text as the request body")
    return text


def _summarize_upload(text: str) -> tuple[dict[str, Any], bool]:
    from risk.errors import RecordError
    from risk.history import summarize_record

    try:
        return summarize_record(text)
    except RecordError as error:
        raise Refusal("bad-record", f"the record does not replay: {error}") from None


def _json_bytes(data: dict[str, Any]) -> bytes:
    import json

    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def _json_answer(request: Request, body: bytes) -> Response:
    """JSON, gzipped for a client that takes it (a summary's frames shrink tenfold)."""
    import gzip

    headers = {"Vary": "Accept-Encoding"}
    if len(body) > 1024 and "gzip" in request.headers.get("accept-encoding", "").lower():
        body = gzip.compress(body, 6)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)


__all__ = ["create_app"]
