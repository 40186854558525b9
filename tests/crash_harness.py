"""Crash, any moment: real `risk serve` processes, real websocket players, faults injected at random.

Used by ``tests/test_server_crash.py`` and ``tests/test_server_db_down.py`` (CI-sized runs) and by
``benchmarks/bench_crash.py`` (the long run whose figures are in docs/reliability.md).

What it does, in order:

1. **References.** Each game (:class:`GameSetup`: edition, game, seats, seed) is first played in this
   process by a game master on a memory store, with nothing killed: its actions and its record are
   what the real run must end with, exactly.
2. **The real run.** ``risk serve`` is started in a process of its own (SQLite file or PostgreSQL URL),
   every game is created over HTTP with its seed, and each human seat is played by a client of its own
   over the websocket, speaking docs/web.md's protocol as the browser does (``hello``, ``action`` with
   the state id and a ``ref``, ``ack``, ``state``, ``error``). Bot seats are the server's own bots.
   A client decides with ``risk.bots`` (the quick bot) from ``View(replica, seat)``, where the replica
   is the game rebuilt from what the server told the clients: their own acknowledged actions, and for
   the server's bots the reference's move, checked against the next ``state`` message. Before each
   decision the replica's view is checked equal, field by field, to the ``view`` the server sent:
   the bot decides from exactly what the player sees. A decision depends only on the game's seed, the
   seat and the state id, so a game played twice is the same game.
3. **Faults.** A fault is a coroutine run beside the players (``fault(harness)``). :func:`kills`
   SIGKILLs the server at seeded random moments (after a random number of actions over all games,
   plus a random few milliseconds), checks straight in the store that every action a client saw
   acknowledged is there, and starts the server again on the same store and port. The clients notice
   the dropped connection, reconnect with back-off, say hello again, and resend the action that was
   never answered, with its state id, as ``src/risk/web/js/api.js`` does: the server takes it if the
   crash came before its commit, and refuses it (stale, illegal, not-your-turn) if it had been stored.
   A store that fails answers ``unavailable``, "try again": the client tries again a moment later, as
   a player would.
4. **Verdict.** Every game must end; its record (``GET /api/games/ID/record``) must be the reference's,
   character for character; the stored actions must be the reference's; every acknowledged action
   must be in the store (counted: ``acknowledged_lost`` must be 0); the server's log must hold no
   traceback. Anything else is a ``problem``, with the game and state it happened at.

Everything is bounded: a stall timeout (no game moves for ``stall`` seconds), an overall time cap,
and the server (ours: a session of its own) is stopped on the way out, whatever happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from live_server import free_port, request
from risk.bots import make_bot
from risk.play.simulate import bot_seed
from risk.rules.game import Game
from risk.rules.options import Rules
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage
from risk.view import View

HOST = "127.0.0.1"
CLIENT_BOT = "quick"  # plays the human seats, in the clients
SERVER_BOT = "quick"  # plays the bot seats, in the server
START_TIMEOUT = 60.0  # seconds for a server to answer after it was started
RETRY_AFTER_UNAVAILABLE = 0.3  # seconds before a player tries again after "try again"
ALREADY_STORED = ("stale", "illegal", "not-your-turn", "game-over")  # a resent action that was stored


# -- the games ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSetup:
    """One game: ``seats`` is a string, ``h`` a human seat (a websocket client), ``b`` a server bot."""

    edition: str
    game: str
    seats: str
    seed: int

    def names(self) -> list[str]:
        return [f"{'Player' if kind == 'h' else 'Bot'} {seat + 1}" for seat, kind in enumerate(self.seats)]

    def seat_specs(self) -> list[SeatSpec]:
        return [
            SeatSpec("human", name) if kind == "h" else SeatSpec("bot", name, SERVER_BOT)
            for kind, name in zip(self.seats, self.names(), strict=True)
        ]

    def body(self) -> dict[str, Any]:
        """The ``POST /api/games`` body. No bot delay and no defend time limit: nothing is decided by a
        clock, so the game is the same however fast it is played."""
        return {
            "edition": self.edition,
            "game": self.game,
            "seats": [{"kind": s.kind, "name": s.name, "bot": s.bot} for s in self.seat_specs()],
            "public": False,
            "seed": self.seed,
            "bot_delay": 0,
            "defend_timeout": 0,
        }


# Short games first: capital RISK with three players ends in about 350 actions with the quick bot,
# world domination in about 750. Each has one server bot and two human seats.
KINDS: tuple[tuple[str, str, str], ...] = (
    ("2008", "capital", "hhb"),
    ("2008", "world", "hbh"),
    ("1993", "capital", "bhh"),
    ("2003", "world", "hhb"),
)


# What `make test` plays (tests/tiers.py): the short kinds alone, capital RISK (about 350 actions), so
# that a quick case costs a third less; `make test-all`'s full sizes cycle through every kind above.
SHORT_KINDS: tuple[tuple[str, str, str], ...] = tuple(kind for kind in KINDS if kind[1] == "capital")


def game_setups(count: int, seed: int, kinds: Sequence[tuple[str, str, str]] = KINDS) -> list[GameSetup]:
    """``count`` games cycling through ``kinds``, seeds ``seed``, ``seed + 1``, ..."""
    return [GameSetup(*kinds[i % len(kinds)], seed=seed + i) for i in range(count)]


def client_choice(game_seed: int, seat: int, state_id: int, view: View) -> str:
    """What a human seat's client plays: the quick bot, seeded by the game, the seat and the state id."""
    bot = make_bot(CLIENT_BOT, (bot_seed(game_seed, seat) * 7_368_787 + state_id) % 2**63)
    return view.action_text(bot.choose(view))


@dataclass(frozen=True)
class Reference:
    actions: list[tuple[int, str]]  # (seat, text) of every stored action, in order
    record: str  # the finished game's record file


def play_reference(setup: GameSetup) -> Reference:
    """The game played in this process by a game master on a memory store, nothing killed."""
    master = GameMaster(MemoryStorage())
    record, created = master.create_game(
        GameSpec(
            edition=setup.edition,
            game=setup.game,
            seats=setup.seat_specs(),
            seed=setup.seed,
            bot_delay=0,
            defend_timeout=0,
        )
    )
    live = master.live(record.id)
    while not live.game.is_over:
        turn = master.bot_turn(record.id)
        if turn is not None:
            seat, state_id, decide = turn
            master.submit_as(record.id, seat, decide(), state_id)
            continue
        seat = live.game.to_act
        text = client_choice(setup.seed, seat, live.state_id, View(live.game.copy(), seat))
        master.submit_as(record.id, seat, text, live.state_id)
    token = next(s.token for s in created if s.token is not None)
    actions = [(a.seat, a.text) for a in master.storage.actions(record.id)]
    return Reference(actions, master.record_text(record.id, token))


# -- the server process ---------------------------------------------------------------------------
class ServerProcess:
    """`risk serve --db URL` on a fixed loopback port, started again after each kill. Its stderr goes
    to ``log`` (appended), so a chatty server never blocks on a full pipe."""

    def __init__(self, url: str, log: Path, port: int | None = None, options: Sequence[str] = ()) -> None:
        self.url = url
        self.options = list(options)  # more `risk serve` options (e.g. --workers 2)
        self.log = log
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    async def start(self) -> float:
        """Start it and wait until it answers; the seconds that took."""
        began = time.monotonic()
        command = [sys.executable, "-m", "risk", "serve", "--host", HOST, "--port", str(self.port)]
        # --no-rate-limits: one address plays every seat of every game, far faster than a person.
        command += ["--db", self.url, "--log-level", "warning", "--no-rate-limits", *self.options]
        with open(self.log, "ab") as stderr:
            # A session of its own: a Ctrl+C in the terminal reaches us, not it; we stop it by its id.
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        self.starts += 1
        while True:
            if await asyncio.to_thread(self._answers):
                return time.monotonic() - began
            if self.process.poll() is not None or time.monotonic() - began > START_TIMEOUT:
                tail = self.log.read_text(errors="replace")[-3000:]
                raise RuntimeError(f"the server did not start (exit {self.process.poll()}):\n{tail}")
            await asyncio.sleep(0.05)

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{self.port}/api/meta", timeout=2) as answer:
                answer.read()
            return True
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flushing, no goodbye to the clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(30)

    def stop(self) -> None:
        """SIGTERM (uvicorn shuts down cleanly), then SIGKILL if it lingers."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(20)
        self.kill()

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """JSON (or a record's text) from the server over HTTP."""
        return request(self.port, method, path, body, token)


# -- what the players saw -------------------------------------------------------------------------
@dataclass
class Report:
    store: str
    games: int = 0
    finished: int = 0
    actions: int = 0  # stored actions over all games at the end
    human_actions: int = 0
    acknowledged: int = 0  # acks the clients received
    acknowledged_lost: int = 0  # acks whose action is not in the store: must be 0
    ack_checks: int = 0  # acks checked against the store (after every kill, and at the end)
    kills: int = 0
    server_starts: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    reconnections: int = 0
    resent: int = 0  # actions sent again after a reconnection, never answered before
    resent_taken: int = 0  # ... taken on resending: the crash came before their commit
    resent_stored: int = 0  # ... refused as already stored: the crash ate the ack, not the action
    outages: int = 0  # times the database was stopped and started again
    outage_seconds: float = 0.0
    acknowledged_in_outages: int = 0  # acks received while the database was down (commits under way)
    try_again: int = 0  # "unavailable" refusals (the store failed), tried again
    try_again_messages: Counter[str] = field(default_factory=Counter)
    records_identical: int = 0
    server_errors: int = 0  # ERROR lines in the server's log (a failing store logs; a traceback is a problem)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        restarts = sorted(self.restart_seconds)
        return {
            "store": self.store,
            "games": self.games,
            "finished": self.finished,
            "records_identical": self.records_identical,
            "actions": self.actions,
            "human_actions": self.human_actions,
            "acknowledged": self.acknowledged,
            "ack_checks": self.ack_checks,
            "acknowledged_lost": self.acknowledged_lost,
            "kills": self.kills,
            "server_starts": self.server_starts,
            "restart_seconds_median": round(restarts[len(restarts) // 2], 2) if restarts else None,
            "reconnections": self.reconnections,
            "resent": self.resent,
            "resent_taken": self.resent_taken,
            "resent_stored": self.resent_stored,
            "outages": self.outages,
            "outage_seconds": round(self.outage_seconds, 1),
            "acknowledged_in_outages": self.acknowledged_in_outages,
            "try_again": self.try_again,
            "server_errors": self.server_errors,
            "seconds": round(self.seconds, 1),
            "problems": self.problems,
        }


@dataclass
class Pending:
    """An action sent and not yet answered (the browser's ``pending``)."""

    ref: str
    text: str
    state_id: int
    lost: bool = False  # the connection dropped before an answer: resend after the next hello
    resent: bool = False
    again: bool = False  # tried again after "unavailable"


class SeatClient:
    """One human seat's websocket, reconnecting as the browser does."""

    def __init__(
        self, table: Table, seat: int, token: str, rng: random.Random, server: ServerProcess
    ) -> None:
        self.table = table
        self.server = server  # the process this seat's page is on (several: each human on another)
        self.seat = seat
        self.token = token
        self.rng = rng
        self.socket: ClientConnection | None = None
        self.greeted = False  # this connection has had its first state
        self.floor = 0  # the state the clients had been shown when this connection said hello
        self.pending: Pending | None = None
        self.refs = 0
        self.closed_for_good = False

    async def run(self) -> None:
        table, attempt = self.table, 0
        uri = f"ws://{HOST}:{self.server.port}/api/games/{table.game_id}/ws"
        while not table.done.is_set() and not self.closed_for_good:
            try:
                async with connect(uri, open_timeout=10, close_timeout=1, max_size=2**24) as socket_:
                    self.socket, self.greeted = socket_, False
                    if attempt:
                        table.harness.report.reconnections += 1
                    # The store holds at least what the clients were shown before this hello.
                    self.floor = table.state_id
                    await socket_.send(json.dumps({"type": "hello", "token": self.token}))
                    async for raw in socket_:
                        attempt = 0
                        await self.on_message(json.loads(raw))
                        if table.done.is_set():
                            return
                    if socket_.close_code in (4403, 4404):
                        table.problem(f"seat {self.seat}: connection refused for good ({socket_.close_code})")
                        self.closed_for_good = True
            except (OSError, WebSocketException, TimeoutError, EOFError):
                pass  # the server is down or restarting: try again below
            finally:
                self.socket, self.greeted = None, False
                if self.pending is not None:
                    self.pending.lost = True
            attempt += 1
            # The browser's back-off, shortened (it starts at 0.4 s): 50 ms doubling to 1 s, +-25%.
            await asyncio.sleep(min(1.0, 0.05 * 2 ** min(attempt - 1, 5)) * (0.75 + self.rng.random() / 2))

    async def send_action(self, text: str, state_id: int, again: bool = False) -> None:
        self.refs += 1
        self.pending = Pending(f"s{self.seat}-{self.refs}", text, state_id, again=again)
        await self._send(self.pending)

    async def _send(self, pending: Pending) -> None:
        message = {"type": "action", "action": pending.text, "state_id": pending.state_id, "ref": pending.ref}
        if self.socket is None:
            pending.lost = True
            return
        try:
            await self.socket.send(json.dumps(message))
        except (OSError, WebSocketException):
            pending.lost = True  # sent again after the reconnection

    async def on_message(self, message: dict[str, Any]) -> None:
        kind, table = message.get("type"), self.table
        if kind == "state":
            first = not self.greeted
            self.greeted = True
            table.on_state(self.seat, message, self.floor if first else None)
            if first and self.pending is not None and self.pending.lost:
                # Sent before the connection dropped, never answered: again, with the same state id.
                self.pending.lost, self.pending.resent = False, True
                table.harness.report.resent += 1
                await self._send(self.pending)
            await table.act()
        elif kind == "ack":
            pending = self.pending
            if pending is None or message.get("ref") != pending.ref:
                table.problem(f"seat {self.seat}: an ack for no action in flight: {message}")
                return
            self.pending = None
            if pending.resent:
                table.harness.report.resent_taken += 1
            table.on_ack(self.seat, pending, message["state_id"])
            await table.act()
        elif kind == "error":
            pending = self.pending
            if pending is None or message.get("ref") != pending.ref:
                if message.get("code") != "unavailable":  # a hello the store could not answer: reconnect
                    table.problem(f"seat {self.seat}: refused: {message}")
                return
            self.pending = None
            await table.on_refusal(self.seat, pending, message["code"], message.get("message", ""))
        elif kind != "pong":
            table.problem(f"seat {self.seat}: unknown message {kind!r}")


class Table:
    """One game on the real server: its seats' clients, the replica they decide from, what was sent."""

    def __init__(
        self, harness: Harness, setup: GameSetup, reference: Reference, created: dict[str, Any]
    ) -> None:
        self.harness = harness
        self.setup = setup
        self.reference = reference
        self.game_id: str = created["id"]
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        self.replica = Game(Rules.preset(setup.edition).for_game(setup.game), setup.names(), seed=setup.seed)
        self.state_id = 0
        self.applied: list[tuple[int, str]] = []  # what the replica has played, (seat, text)
        self.sent: dict[int, tuple[int, str]] = {}  # state id -> (seat, text) a client sent at it
        self.views: dict[int, dict[str, Any]] = {}  # seat -> the view of its newest state message
        self.seen: dict[int, tuple[int, bool]] = {}  # seat -> (state id, may act) of its newest state
        servers = harness.servers
        self.clients = {
            s: SeatClient(self, s, token, harness.client_rng(), servers[i % len(servers)])
            for i, (s, token) in enumerate(sorted(self.tokens.items()))
        }
        self.done = asyncio.Event()
        self.retry: set[int] = set()  # states whose action was refused with "try again": send it again

    def problem(self, text: str) -> None:
        self.harness.report.problems.append(
            f"game {self.game_id} ({self.setup.seed}) at {self.state_id}: {text}"
        )
        self.done.set()

    def _apply(self, seat: int, text: str) -> None:
        if self.replica.to_act != seat:
            self.problem(f"seat {seat} played {text!r}, but seat {self.replica.to_act} was to act")
            return
        self.replica.apply(text)
        self.applied.append((seat, text))
        self.state_id += 1
        self.harness.progress += 1
        if self.replica.is_over:
            self.harness.report.finished += 1
            self.done.set()

    def catch_up(self, server_state: int) -> None:
        """The server is ahead of the replica: play what happened in between. A human seat's step is
        the action its client sent at that state (stored, its answer lost or still on its way); a server
        bot's is the reference's, which the next views check."""
        while self.state_id < server_state and not self.done.is_set():
            seat = self.replica.to_act
            if self.setup.seats[seat] == "b":
                self._apply(seat, self.reference.actions[self.state_id][1])
            elif self.state_id in self.sent and self.sent[self.state_id][0] == seat:
                self._apply(*self.sent[self.state_id])
            else:
                self.problem(f"the server is at state {server_state}: seat {seat} moved without its client")

    def on_state(self, seat: int, message: dict[str, Any], floor: int | None) -> None:
        """A state message; ``floor`` for the first of a connection: what the clients had been shown
        when it said hello (acknowledged, or shown as stored), which the store must still hold."""
        state_id = message["state_id"]
        if floor is not None and state_id < floor:
            self.problem(f"a new connection shows state {state_id}, after {floor} was shown: it went back")
            return
        self.catch_up(state_id)
        self.seen[seat] = (state_id, bool(message["legal"]))
        if state_id == self.state_id:
            self.views[seat] = message["view"]

    def on_ack(self, seat: int, pending: Pending, state_id: int) -> None:
        self.harness.acks.append((self.game_id, state_id, seat, pending.text))
        self.harness.report.acknowledged += 1
        if state_id == self.state_id + 1 and pending.state_id == self.state_id:
            self._apply(seat, pending.text)
        elif state_id > self.state_id or self.applied[state_id - 1] != (seat, pending.text):
            self.problem(f"ack of {pending.text!r} (sent at {pending.state_id}) as state {state_id}")

    async def on_refusal(self, seat: int, pending: Pending, code: str, message: str) -> None:
        report = self.harness.report
        if code == "unavailable":  # the store failed: nothing was taken, try again in a moment
            report.try_again += 1
            report.try_again_messages[message] += 1
            if "try again" not in message:
                self.problem(f"an 'unavailable' refusal that does not say to try again: {message!r}")
            # Kept in ``sent``: if the store took it after all (its answer lost), the next state says so.
            self.retry.add(pending.state_id)
            self.harness.later(RETRY_AFTER_UNAVAILABLE, self.act)
        elif code in ALREADY_STORED and (pending.resent or pending.again):
            # Sent again after a reconnection (or tried again after "unavailable") and refused: it had
            # been stored. The state that shows it is here already, or on its way (then catch_up
            # plays it from ``sent``); if it never comes, the game stalls and that is reported.
            if self.state_id > pending.state_id and self.applied[pending.state_id] != (seat, pending.text):
                self.problem(f"{pending.text!r} refused ({code}: {message}), and something else was stored")
            elif pending.resent:
                report.resent_stored += 1
            await self.act()  # the seat may be to act again already: it waited for this answer
        else:
            self.problem(f"{pending.text!r} at state {pending.state_id} refused: {code}: {message}")

    async def act(self) -> None:
        """If the seat to act has been told so for the replica's state, its client decides and sends."""
        if self.done.is_set() or (self.state_id in self.sent and self.state_id not in self.retry):
            return
        seat = self.replica.to_act
        client = self.clients.get(seat)
        if client is None or client.pending is not None or client.socket is None or not client.greeted:
            return
        if self.seen.get(seat) != (self.state_id, True):
            return  # its state message has not come yet (it follows the ack on another socket)
        view = View(self.replica, seat)
        if json.loads(json.dumps(view.to_dict())) != self.views.get(seat):
            self.problem(f"seat {seat}'s view differs from the replica's: the game diverged")
            return
        text = client_choice(self.setup.seed, seat, self.state_id, view)
        if self.sent.setdefault(self.state_id, (seat, text)) != (seat, text):
            self.problem(f"seat {seat} chose {text!r} on trying again, {self.sent[self.state_id]} before")
            return
        again = self.state_id in self.retry
        if again:
            self.retry.discard(self.state_id)
        else:
            self.harness.report.human_actions += 1
        await client.send_action(text, self.state_id, again)


Fault = Callable[["Harness"], Awaitable[None]]


class Harness:
    """The server, the games and their clients; a fault runs beside them (see the module's doc)."""

    def __init__(
        self,
        url: str,
        store: str,
        folder: Path,
        setups: Sequence[GameSetup],
        seed: int,
        processes: int = 1,
        options: Sequence[str] = (),
    ) -> None:
        self.url = url
        self.setups = list(setups)
        # With several processes on one database, each human seat of a game plays on another one.
        self.servers = [
            ServerProcess(url, folder / f"server-{store}{'' if i == 0 else f'-{i}'}.log", options=options)
            for i in range(processes)
        ]
        self.server = self.servers[0]
        self.report = Report(store=store, games=len(self.setups))
        self.rng = random.Random(seed)
        self.progress = 0  # actions played over all games, as the clients know them
        self.acks: list[tuple[str, int, int, str]] = []  # (game, state id, seat, text) of every ack
        self.tables: list[Table] = []
        self.store: SqlStorage | None = None
        self.expected_actions = 0  # the references' actions over all games
        self._later: set[asyncio.Task[None]] = set()

    def client_rng(self) -> random.Random:
        """A client's own generator (its reconnection back-off), drawn from the run's seed."""
        return random.Random(self.rng.getrandbits(64))

    def later(self, delay: float, action: Callable[[], Awaitable[None]]) -> None:
        """Run ``action`` in ``delay`` seconds, beside the players (kept until it ran)."""

        async def wait_then_act() -> None:
            await asyncio.sleep(delay)
            await action()

        task = asyncio.create_task(wait_then_act())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    @property
    def finished(self) -> bool:
        return all(t.done.is_set() for t in self.tables)

    async def progress_reaches(self, actions: int) -> None:
        """Until the clients have seen ``actions`` actions over all games (or every game is done)."""
        while self.progress < actions and not self.finished:
            await asyncio.sleep(0.002)

    async def kill_and_restart(self, check: bool = True) -> None:
        """SIGKILL the server (with several, each in turn), check that every acknowledged action is
        stored, start it again."""
        server = self.servers[self.report.kills % len(self.servers)]
        server.kill()
        self.report.kills += 1
        if check:
            await asyncio.to_thread(self.check_acknowledged)
        self.report.restart_seconds.append(await server.start())

    def check_acknowledged(self) -> int:
        """Every action a client saw acknowledged is in the store, at its place. Answers how many are
        missing (also added to the report)."""
        assert self.store is not None
        stored: dict[str, list[tuple[int, str]]] = {}
        missing = 0
        for game_id, state_id, seat, text in list(self.acks):
            if game_id not in stored:
                stored[game_id] = [(a.seat, a.text) for a in self.store.actions(game_id)]
            actions = stored[game_id]
            if state_id > len(actions) or actions[state_id - 1] != (seat, text):
                missing += 1
                self.report.problems.append(
                    f"game {game_id}: acknowledged action {state_id} {text!r} is lost"
                )
        self.report.ack_checks += len(self.acks)
        self.report.acknowledged_lost += missing
        return missing

    async def run(self, fault: Fault | None, *, stall: float = 60.0, time_cap: float = 1800.0) -> Report:
        began = time.monotonic()
        references = await asyncio.to_thread(lambda: [play_reference(s) for s in self.setups])
        self.expected_actions = sum(len(r.actions) for r in references)
        self.store = await asyncio.to_thread(SqlStorage, self.url)  # the schema, before the server opens it
        try:
            for server in self.servers:
                await server.start()
            for setup, reference in zip(self.setups, references, strict=True):
                created = await asyncio.to_thread(self.server.request, "POST", "/api/games", setup.body())
                self.tables.append(Table(self, setup, reference, created))
            players = [asyncio.create_task(c.run()) for t in self.tables for c in t.clients.values()]
            faults = asyncio.create_task(fault(self)) if fault is not None else None
            try:
                await self._watch(stall, began + time_cap)
                if faults is not None:
                    await asyncio.wait_for(faults, START_TIMEOUT + 30)
            finally:
                tasks = [*players, *self._later, *([faults] if faults else [])]
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            if not self.report.problems:
                await asyncio.to_thread(self._compare_records)
            self._check_store(references)
        finally:
            for server in self.servers:
                server.stop()
            self.store.close()
        self.report.server_starts = sum(server.starts for server in self.servers)
        self._read_log()
        self.report.seconds = time.monotonic() - began
        return self.report

    async def _watch(self, stall: float, deadline: float) -> None:
        """Until every game is done; a game that does not move for ``stall`` seconds is a problem."""
        last, moved = -1, time.monotonic()
        while not self.finished:
            now = time.monotonic()
            if self.progress != last:
                last, moved = self.progress, now
            if now - moved > stall or now > deadline:
                for table in self.tables:
                    if not table.done.is_set():
                        clients = {
                            s: (c.pending, c.socket is not None, c.greeted) for s, c in table.clients.items()
                        }
                        seat = table.replica.to_act
                        table.problem(f"stalled: seat {seat} to act, seen {table.seen}, clients {clients}")
                return
            await asyncio.sleep(0.05)

    def _compare_records(self) -> None:
        for table in self.tables:
            token = next(iter(table.tokens.values()))
            record = self.server.request("GET", f"/api/games/{table.game_id}/record", token=token)
            if record == table.reference.record:
                self.report.records_identical += 1
            else:
                table.problem("its record differs from the same game played without a fault")

    def _check_store(self, references: list[Reference]) -> None:
        assert self.store is not None
        self.check_acknowledged()
        for table, reference in zip(self.tables, references, strict=True):
            stored = [(a.seat, a.text) for a in self.store.actions(table.game_id)]
            self.report.actions += len(stored)
            if stored != reference.actions:
                same = next(
                    (i for i, (a, b) in enumerate(zip(stored, reference.actions, strict=False)) if a != b),
                    None,
                )
                table.problem(
                    f"stored {len(stored)} actions, the reference {len(reference.actions)}; first difference "
                    f"at {same if same is not None else min(len(stored), len(reference.actions))}"
                )

    def _read_log(self) -> None:
        text = "".join(s.log.read_text(errors="replace") for s in self.servers if s.log.exists())
        self.report.server_errors = sum(1 for line in text.splitlines() if line.startswith("ERROR"))
        if "Traceback" in text:
            start = text.index("Traceback")
            self.report.problems.append(f"the server's log has a traceback:\n{text[start : start + 3000]}")


# -- faults ---------------------------------------------------------------------------------------
def random_moments(harness: Harness, count: int, rng: random.Random, within: float = 1.0) -> list[int]:
    """``count`` distinct points of the run, in actions seen over all games, drawn below the total (or
    below that part of it, ``within``)."""
    total = max(2, int(harness.expected_actions * within))
    return sorted(rng.sample(range(1, total), min(count, total - 1)))


def kills(count: int, seed: int, jitter: float = 0.03) -> Fault:
    """SIGKILL the server ``count`` times at seeded random moments: when the clients have seen a random
    number of actions over all games, plus up to ``jitter`` seconds."""

    async def fault(harness: Harness) -> None:
        rng = random.Random(seed)
        for point in random_moments(harness, count, rng):
            delay = rng.uniform(0, jitter)
            await harness.progress_reaches(point)
            if harness.finished:
                return  # only after a problem ended every game early
            await asyncio.sleep(delay)
            await harness.kill_and_restart()

    return fault


class Database(Protocol):
    """What :func:`outages` needs of a database server: tests/pg.py's PgCluster."""

    def stop_server(self, mode: str = "fast") -> None: ...

    def start_server(self) -> None: ...


def outages(
    database: Database,
    count: int,
    seed: int,
    seconds: float,
    during: Fault | None = None,
) -> Fault:
    """Stop the database server (``pg_ctl stop -m fast``) ``count`` times at seeded random moments, for
    ``seconds`` each, then start it again; the app server is left alone, to recover by itself.
    ``during(harness)`` runs at the start of each outage (checks of what the app answers meanwhile)."""

    async def fault(harness: Harness) -> None:
        rng = random.Random(seed)
        for point in random_moments(harness, count, rng):
            await harness.progress_reaches(point)
            if harness.finished:
                return
            await asyncio.to_thread(database.stop_server, "fast")
            began = time.monotonic()
            acknowledged = harness.report.acknowledged
            if during is not None:
                await during(harness)
            await asyncio.sleep(max(0.0, seconds - (time.monotonic() - began)))
            harness.report.acknowledged_in_outages += harness.report.acknowledged - acknowledged
            await asyncio.to_thread(database.start_server)
            harness.report.outages += 1
            harness.report.outage_seconds += time.monotonic() - began

    return fault


def run(
    url: str,
    store: str,
    folder: Path,
    setups: Sequence[GameSetup],
    fault: Fault | None,
    seed: int,
    processes: int = 1,
    options: Sequence[str] = (),
    **limits: float,
) -> Report:
    """Play ``setups`` on real servers over ``url`` with ``fault`` beside them (see the module's doc);
    ``processes`` servers on the same database, each human seat of a game on another."""
    os.makedirs(folder, exist_ok=True)
    return asyncio.run(Harness(url, store, folder, setups, seed, processes, options).run(fault, **limits))
