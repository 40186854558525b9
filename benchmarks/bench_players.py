"""Players at scale (issue 39): accounts sign up, wait in quick match, are matched and play their games
against each other, on several `risk serve` processes sharing one PostgreSQL database. Run by hand:

    .venv/bin/python benchmarks/bench_players.py [--players 2000] [--processes 4] [--game world]
        [--seats 4] [--play-seconds 120] [--rounds 0] [--think 0.3,2.0] [--poll 2.0]
        [--db postgresql|postgresql+psycopg://USER:PASSWORD@127.0.0.1:PORT/NAME] [--json]

It starts ``--processes`` separate `risk serve` processes (each on a loopback port of its own, each
with ``--no-rate-limits``: every player comes from this one address) on one database: by default a
throwaway PostgreSQL cluster (tests/pg.py), or a database on this machine. Each simulated player is
pinned to one process (player i to process i mod N), as behind a proxy that spreads browsers over the
processes: its every request and its websocket go there, so the four players of a game are on
different processes and see each other's moves through the database. A player is what a browser is:
its cookies (the session, the browser id) kept from the answers it was given, the CSRF token from
its sign-up sent with each change.

The phases, one after the other, each timed:

1. **sign-up**: every player signs up (POST /api/account/signup), at most two at a time per process
   (the server hashes at most two argon2id passwords at once, 64 MiB each, which is what this phase
   costs: it is reported apart and its time is in none of the figures below; no option makes argon2
   cheaper for a benchmark, on purpose).
2. **queue**: every player asks at once to wait in the quick match queue of ``--game`` for
   ``--seats`` players at the live pace (POST /api/quickmatch); the requests' latency.
3. **matching**: from the first join to the last player placed in a game: matches formed per second
   and each player's wait, from the queue's own rows (``queued`` to ``updated`` of each placed entry,
   the server's clock); and when the last player saw it, polling GET /api/quickmatch every ``--poll``
   seconds as the lobby page does (jittered).
4. **play**: a player who sees its entry placed opens its game's websocket (its session cookie beside
   the seat's token) and plays, as bench_load.py's human-like clients do: when a ``state`` message
   lists ``legal`` entries it thinks ``--think`` seconds (uniform between the two), sends one at
   random (an entry with ``min``/``max`` at its ``max``) with the state id, and times the ``ack``. The
   play phase runs ``--play-seconds`` from the moment every player is placed (or a game's
   ``--rounds``, or its end, whichever comes first); games placed earlier start playing at once,
   and their actions before every player was placed are reported apart ("during matching").

Reported: each phase's time, the players' request and action latencies (p50/p95/p99/max: a request is
timed from when it has a connection, at most 32 at once to each process, so the server's backlog shows
in its phase's length, not in each request's time), actions per second, errors by kind (any refusal
but ``stale``, a dropped connection, a failed request (a GET that met a kept-alive connection the
server had just closed is sent again once, as a browser does, and counted apart), a player never
placed, an ``ERROR`` line in a server's log), the CPU seconds of the servers, of PostgreSQL (a
throwaway cluster's) and of this client in each phase, and the machine: CPU model, cores, memory, load
average before, after each phase and at the end. This process plays every player: on a small machine
it competes with the servers for the CPU, which is why its share is shown.

Bounded: loopback only, at most 4,000 players and 8 processes, each phase capped in time; the servers
and the throwaway cluster are stopped at the end, on Ctrl+C and on errors. Figures are in
docs/reliability.md, "Players at scale".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import secrets
import string
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench_load import gathered, legal_text, loopback, reply_to
from bench_server import CLOCK_TICK, HOST, percentile, running_server, tree_cpu
from pg import PgCluster, unavailable_reason  # on the path through bench_server

MAX_PLAYERS = 4000
MAX_PROCESSES = 8
HASHING_PER_PROCESS = 2  # risk.server.accounts.service.HASHING_AT_ONCE: more at once only wait there
POOL_PER_PROCESS = 32  # HTTP connections this client keeps to each process
# An idle connection is dropped by this client before uvicorn's 5 s keep-alive closes it: a request
# sent on a connection the server is closing fails (httpx does not retry it, a browser would).
KEEP_ALIVE = 3.0
REQUEST_TIMEOUT = 120.0  # seconds for one HTTP request (a sign-up waits its turn to hash)
ACK_TIMEOUT = 60.0  # seconds to wait for an action's ack before the connection is given up
RECONNECT = 1.0  # seconds before a dropped player connects again
PACE = "live"
SIGN_UP_CAP = 1800.0  # seconds the sign-up phase may take
QUEUE_CAP = 300.0


# -- what is measured ------------------------------------------------------------------------------
@dataclass
class Tally:
    errors: Counter[str] = field(default_factory=Counter)
    stale: int = 0  # refused as stale: another seat's move came first; not an error
    retried: Counter[str] = field(default_factory=Counter)  # GETs sent again on a closed connection
    requests: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds each
    actions: list[tuple[float, float]] = field(default_factory=list)  # (sent, monotonic; seconds to ack)
    signed_up: int = 0
    queued: int = 0
    placed: int = 0
    playing: int = 0
    finished: int = 0  # players whose play is over (deadline, rounds, game over)
    games_over: set[str] = field(default_factory=set)
    rounds: dict[str, int] = field(default_factory=dict)  # game -> newest round seen

    def took(self, kind: str, seconds: float) -> None:
        self.requests.setdefault(kind, []).append(seconds)


@dataclass
class Phase:
    name: str
    started: float  # monotonic
    ended: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)  # servers / postgresql / client: CPU seconds
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def seconds(self) -> float:
        return self.ended - self.started


def latencies_ms(seconds: list[float]) -> dict[str, float | int]:
    ordered = sorted(seconds)
    shares = (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
    return {"count": len(ordered)} | {n: round(percentile(ordered, s) * 1000, 1) for n, s in shares}


# -- the machine -----------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    """What the figures were measured on: the CPU, its cores, the memory, the load before the run."""
    model = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory_gb = float("nan")
    with contextlib.suppress(OSError, ValueError, IndexError):
        total = next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal"))
        memory_gb = round(int(total.split()[1]) / 1024**2, 1)
    return {
        "cpu": model,
        "cores": os.cpu_count(),
        "memory_gb": memory_gb,
        "python": platform.python_version(),
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }


# -- a player --------------------------------------------------------------------------------------
class Process:
    """One `risk serve` process as its players reach it: its port, and a pool of HTTP connections to it
    with no cookie jar (each player sends its own cookies)."""

    def __init__(self, port: int, pid: int) -> None:
        self.port, self.pid = port, pid
        limits = httpx.Limits(
            max_connections=POOL_PER_PROCESS,
            max_keepalive_connections=POOL_PER_PROCESS,
            keepalive_expiry=KEEP_ALIVE,
        )
        self.transport = httpx.AsyncHTTPTransport(limits=limits)
        self.timeouts = httpx.Timeout(REQUEST_TIMEOUT).as_dict()
        # A request waits here for a connection of the pool, untimed: its time is the server's answer
        # on a connection of its own, as a browser's is (the wait shows in its phase's length).
        self.gate = asyncio.Semaphore(POOL_PER_PROCESS)

    async def call(
        self, method: str, path: str, headers: dict[str, str], body: dict[str, Any] | None = None
    ) -> tuple[int, Any, list[str], float]:
        """The status, the JSON answer, the Set-Cookie headers and the seconds of one request."""
        request = httpx.Request(
            method,
            f"http://{HOST}:{self.port}{path}",
            json=body,
            headers=headers,
            extensions={"timeout": self.timeouts},
        )
        async with self.gate:
            sent = time.perf_counter()
            response = await self.transport.handle_async_request(request)
            try:
                content = await response.aread()
            finally:
                await response.aclose()
            took = time.perf_counter() - sent
        answer = json.loads(content) if content else None
        return response.status_code, answer, response.headers.get_list("set-cookie"), took


@dataclass
class Placed:
    game_id: str
    seat: int
    token: str


class Player:
    """One simulated person: an account, its browser's cookies, its quick match entry, its seat."""

    def __init__(self, index: int, name: str, password: str, process: Process, bench: Bench) -> None:
        self.index, self.name, self.password = index, name, password
        self.process = process
        self.bench = bench
        self.tally = bench.tally
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.entry: int | None = None
        self.placed: Placed | None = None
        self.rng = random.Random(bench.args.seed * 1_000_003 + index)

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def request(
        self, kind: str, method: str, path: str, body: dict[str, Any] | None = None, expect: int = 200
    ) -> Any:
        """A request as this player's browser makes it (its cookies, its CSRF token on a change),
        timed under ``kind``; None (and an error counted) if it failed."""
        headers = {"Cookie": self.cookie_header()} if self.cookies else {}
        if self.csrf and method != "GET":
            headers["X-CSRF-Token"] = self.csrf
        try:
            try:
                status, answer, set_cookies, took = await self.process.call(method, path, headers, body)
            except (httpx.RemoteProtocolError, httpx.ReadError):
                if method != "GET":
                    raise
                # A kept-alive connection closed by the server as it was reused: a browser sends such
                # a GET again at once, and so does this player (counted apart, not an error).
                self.tally.retried[kind] += 1
                status, answer, set_cookies, took = await self.process.call(method, path, headers, body)
        except (httpx.HTTPError, OSError, ValueError) as error:
            self.tally.errors[f"{kind}: {type(error).__name__}"] += 1
            return None
        self.tally.took(kind, took)
        for header in set_cookies:
            jar: SimpleCookie = SimpleCookie()
            jar.load(header)
            self.cookies.update({name: morsel.value for name, morsel in jar.items() if morsel.value})
        if status != expect:
            code = answer.get("error", {}).get("code") if isinstance(answer, dict) else None
            self.tally.errors[f"{kind}: HTTP {status} {code or ''}".rstrip()] += 1
            return None
        return answer

    async def sign_up(self) -> bool:
        answer = await self.request(
            "sign-up", "POST", "/api/account/signup", {"name": self.name, "password": self.password}
        )
        if answer is None:
            return False
        self.csrf = answer["csrf"]
        self.tally.signed_up += 1
        return True

    async def join(self) -> None:
        args = self.bench.args
        body = {"game": args.game, "players": args.seats, "pace": PACE}
        answer = await self.request("join", "POST", "/api/quickmatch", body, expect=201)
        if answer is not None:
            self.entry = int(answer["entry"]["id"])
            self.tally.queued += 1

    async def wait_placed(self) -> bool:
        """Polls its entries as the lobby page does until its entry is placed in a game."""
        poll = self.bench.args.poll
        await asyncio.sleep(self.rng.uniform(0, poll))  # pages do not poll in step
        while self.bench.matching_left() > 0:
            answer = await self.request("poll", "GET", "/api/quickmatch")
            for entry in (answer or {}).get("entries", []):
                if entry["id"] == self.entry and entry["status"] == "placed" and "token" in entry:
                    self.placed = Placed(entry["game_id"], entry["seat"], entry["token"])
                    self.tally.placed += 1
                    self.bench.seen_placed()
                    return True
            await asyncio.sleep(min(poll, max(0.0, self.bench.matching_left())))
        self.tally.errors["not placed before --match-seconds"] += 1
        return False

    async def play(self) -> None:
        """Plays its seat until the play phase is over, the game has ended or reached ``--rounds``."""
        self.tally.playing += 1
        try:
            while self.bench.play_left() > 0:
                try:
                    if await self.play_connected():
                        return
                except (ConnectionClosed, OSError, TimeoutError) as error:
                    self.tally.errors[f"disconnect: {type(error).__name__}"] += 1
                    await asyncio.sleep(RECONNECT)
        finally:
            self.tally.playing -= 1
            self.tally.finished += 1

    async def play_connected(self) -> bool:
        """One websocket connection's play: True once there is no more to play, False at the deadline."""
        assert self.placed is not None
        game_id, rounds = self.placed.game_id, self.bench.args.rounds
        uri = f"ws://{HOST}:{self.process.port}/api/games/{game_id}/ws"
        headers = {"Cookie": self.cookie_header()}
        async with connect(uri, additional_headers=headers, max_size=2**24, open_timeout=60) as socket_:
            await socket_.send(json.dumps({"type": "hello", "token": self.placed.token}))
            acted_at, ref = -1, 0  # the state id this seat last acted at, the last action's ref
            while (left := self.bench.play_left()) > 0:
                try:
                    message = json.loads(await asyncio.wait_for(socket_.recv(), max(0.1, left)))
                except TimeoutError:
                    return False
                kind = message.get("type")
                if kind == "error":
                    self.tally.errors[f"refused: {message.get('code')}"] += 1
                    continue
                if kind != "state":
                    continue
                self.tally.rounds[game_id] = max(self.tally.rounds.get(game_id, 0), message["round"])
                if message["status"] != "playing":
                    self.tally.games_over.add(game_id)
                    return True
                if rounds and message["round"] > rounds:
                    return True
                state_id = message["state_id"]
                if not message["legal"] or state_id <= acted_at:
                    continue
                await asyncio.sleep(self.rng.uniform(*self.bench.think))
                if self.bench.play_left() <= 0:
                    return False
                ref, acted_at = ref + 1, state_id
                text = legal_text(self.rng.choice(message["legal"]))
                sent = time.perf_counter()
                action = {"type": "action", "action": text, "state_id": state_id, "ref": ref}
                await socket_.send(json.dumps(action))
                await self.await_ack(socket_, ref, sent)
        return False

    async def await_ack(self, socket_: ClientConnection, ref: int, sent: float) -> None:
        reply = await reply_to(socket_, ref, ACK_TIMEOUT)
        if reply["type"] == "ack":
            self.tally.actions.append((time.monotonic(), time.perf_counter() - sent))
        elif reply.get("code") == "stale":
            self.tally.stale += 1
        else:
            self.tally.errors[f"refused: {reply.get('code')}"] += 1

    async def matched_and_play(self) -> None:
        if self.entry is not None and await self.wait_placed():
            await self.play()


# -- the run ---------------------------------------------------------------------------------------
class Bench:
    def __init__(
        self, args: argparse.Namespace, processes: list[Process], server_pids: list[int], pg_pid: int | None
    ) -> None:
        self.args = args
        self.processes = processes
        self.server_pids = server_pids
        self.pg_pid = pg_pid
        self.tally = Tally()
        self.think: tuple[float, float] = args.think
        self.phases: list[Phase] = []
        self.match_deadline = float("inf")
        self.play_deadline = float("inf")
        self.all_placed_at: float | None = None  # monotonic, when the last player saw its placement
        self.first_join_wall = 0.0  # time.time() of the first join sent (the queue's clock)
        tag = "".join(random.Random(args.seed).choices(string.ascii_lowercase, k=5))
        tag = f"{tag}{secrets.token_hex(2)}"  # a database reused by --db: new names each run
        password = secrets.token_urlsafe(12)
        self.players = [
            Player(i, f"Bench {tag} {i}", password, processes[i % len(processes)], self)
            for i in range(args.players)
        ]

    def matching_left(self) -> float:
        return self.match_deadline - time.monotonic()

    def play_left(self) -> float:
        return self.play_deadline - time.monotonic()

    def seen_placed(self) -> None:
        if self.tally.placed == self.tally.queued and self.all_placed_at is None:
            self.all_placed_at = time.monotonic()
            self.play_deadline = self.all_placed_at + self.args.play_seconds

    def cpu(self) -> dict[str, float]:
        return {
            "servers": sum(tree_cpu(pid) for pid in self.server_pids),
            "postgresql": postgresql_cpu(self.pg_pid) if self.pg_pid else float("nan"),
            "client": time.process_time(),
        }

    @contextlib.contextmanager
    def phase(self, name: str) -> Iterator[Phase]:
        before = self.cpu()
        phase = Phase(name, time.monotonic())
        self.phases.append(phase)
        try:
            yield phase
        finally:
            phase.ended = time.monotonic()
            after = self.cpu()
            phase.cpu = {k: round(after[k] - before[k], 1) for k in after}
            phase.load_after = os.getloadavg()
            say(f"{name}: {phase.seconds:.1f} s, load average {phase.load_after[0]:.1f}")

    async def run(self) -> None:
        monitor = asyncio.create_task(self.monitor())
        try:
            await self.sign_up()
            await self.queue_match_and_play()
        finally:
            monitor.cancel()
            for process in self.processes:
                await process.transport.aclose()

    async def sign_up(self) -> None:
        gate = asyncio.Semaphore(HASHING_PER_PROCESS * len(self.processes))

        async def one(player: Player) -> None:
            async with gate:
                await player.sign_up()

        with self.phase("sign-up"):
            async with asyncio.timeout(SIGN_UP_CAP):
                await asyncio.gather(*(one(p) for p in self.players))

    async def queue_match_and_play(self) -> None:
        ready = [p for p in self.players if p.csrf]
        self.first_join_wall = time.time()
        with self.phase("queue"):
            async with asyncio.timeout(QUEUE_CAP):
                await asyncio.gather(*(p.join() for p in ready))
        # The servers match from the first join on; this phase is what is left after the last join,
        # until every player has seen its game (the matching figures span both, from the queue's rows).
        self.match_deadline = time.monotonic() + self.args.match_seconds
        players = [asyncio.create_task(p.matched_and_play()) for p in ready]
        with self.phase("matching"):
            while self.all_placed_at is None and self.matching_left() > 0:
                if all(task.done() for task in players):
                    break
                await asyncio.sleep(0.05)
        if self.all_placed_at is None:  # some never were: the others play all the same
            self.play_deadline = time.monotonic() + self.args.play_seconds
        with self.phase("play"):
            await gathered(players, self.args.play_seconds + ACK_TIMEOUT + 30, self.tally.errors, "player")

    async def monitor(self) -> None:
        started, done = time.monotonic(), 0
        while True:
            await asyncio.sleep(self.args.every)
            t = self.tally
            recent = [seconds for _, seconds in t.actions[done:]]
            done = len(t.actions)
            say(
                f"{time.monotonic() - started:6.0f}s  signed up {t.signed_up}  queued {t.queued}  "
                f"placed {t.placed}  playing {t.playing}  actions/s {len(recent) / self.args.every:6.1f}  "
                f"ack p50/p99 {percentile(sorted(recent), 0.5) * 1000:6.1f} "
                f"{percentile(sorted(recent), 0.99) * 1000:7.1f} ms  errors {sum(t.errors.values())}  "
                f"stale {t.stale}  load {os.getloadavg()[0]:.1f}"
            )


def postgresql_cpu(postmaster: int) -> float:
    """CPU seconds of a PostgreSQL server: its processes now, and the backends that have exited (their
    seconds are the postmaster's children's, counted once it has waited for them)."""
    try:
        fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return tree_cpu(postmaster) + (int(fields[13]) + int(fields[14])) / CLOCK_TICK  # cutime, cstime


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


# -- the queue's own record -------------------------------------------------------------------------
def placements(url: str, since: float) -> list[tuple[str, float, float]]:
    """(game id, queued, placed) of every entry placed, of this run's queue (joined since ``since``)."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        rows = conn.execute(
            "SELECT game_id, queued, updated FROM quick_match WHERE status = 'placed' AND queued >= %s",
            (since,),
        ).fetchall()
    return [(str(game), float(queued), float(updated)) for game, queued, updated in rows]


def pg_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "?"


# -- the figures -----------------------------------------------------------------------------------
def figures(bench: Bench, placed: list[tuple[str, float, float]], context: dict[str, Any]) -> dict[str, Any]:
    args, tally = bench.args, bench.tally
    phases = {p.name: p for p in bench.phases}
    games = {game for game, _, _ in placed}
    last_placed = max((when for _, _, when in placed), default=bench.first_join_wall)
    matching_s = max(1e-9, last_placed - bench.first_join_wall)
    waits = [when - queued for _, queued, when in placed]
    play = phases.get("play")
    split = bench.all_placed_at if bench.all_placed_at is not None else (play.started if play else 0.0)
    during = [seconds for sent, seconds in tally.actions if sent < split]
    after = [seconds for sent, seconds in tally.actions if sent >= split]
    play_s = max(1e-9, play.seconds) if play else float("nan")
    rounds = sorted(tally.rounds.values())
    return context | {
        "players": args.players,
        "processes": args.processes,
        "game": args.game,
        "seats": args.seats,
        "pace": PACE,
        "think_s": list(bench.think),
        "poll_s": args.poll,
        "phases": {
            p.name: {
                "seconds": round(p.seconds, 1),
                "cpu_s": p.cpu,
                "load_after": [round(x, 2) for x in p.load_after],
            }
            for p in bench.phases
        },
        "sign_up": {
            "accounts": tally.signed_up,
            "per_second": round(tally.signed_up / max(1e-9, phases["sign-up"].seconds), 1),
            "ms": latencies_ms(tally.requests.get("sign-up", [])),
        },
        "queue": {"joined": tally.queued, "ms": latencies_ms(tally.requests.get("join", []))},
        "matching": {
            "games": len(games),
            "players_placed": len(placed),
            "seconds": round(matching_s, 2),
            "matches_per_second": round(len(games) / matching_s, 1),
            "wait_ms": latencies_ms(waits),
            "all_seen_placed_s": None
            if bench.all_placed_at is None
            else round(bench.all_placed_at - phases["queue"].started, 2),
            "poll_ms": latencies_ms(tally.requests.get("poll", [])),
        },
        "play": {
            "seconds": round(play_s, 1),
            "actions": len(after),
            "actions_per_second": round(len(after) / play_s, 1),
            "ack_ms": latencies_ms(after),
            "during_matching": {"actions": len(during), "ack_ms": latencies_ms(during)},
            "stale": tally.stale,
            "games_ended": len(tally.games_over),
            "rounds_reached": {
                "median": rounds[len(rounds) // 2] if rounds else 0,
                "max": rounds[-1] if rounds else 0,
            },
        },
        "retried": dict(tally.retried),
        "errors": sum(tally.errors.values()),
        "error_kinds": dict(tally.errors),
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def report(result: dict[str, Any]) -> str:
    m, s, q, g, p = (result[k] for k in ("machine", "sign_up", "queue", "matching", "play"))
    phases = result["phases"]

    def ms(figures: dict[str, Any], counted: bool = False) -> str:
        shown = " / ".join(f"{name} {figures[name]}" for name in ("p50", "p95", "p99", "max"))
        return f"{figures['count']}: {shown} ms" if counted else f"{shown} ms"

    lines = [
        f"{result['players']} players, {result['processes']} server processes, {result['game']} "
        f"for {result['seats']} ({result['pace']}), {result['db']}, PostgreSQL {result['postgresql']}; "
        f"think {result['think_s'][0]}-{result['think_s'][1]} s, poll every {result['poll_s']} s",
        f"machine: {m['cores']} cores ({m['cpu']}), {m['memory_gb']} GB; load average before "
        f"{' '.join(map(str, m['load_before']))}, after {' '.join(map(str, result['load_after']))}",
        f"sign-up: {s['accounts']} accounts in {phases['sign-up']['seconds']} s ({s['per_second']}/s), "
        f"{ms(s['ms'])}; excluded from the figures below",
        f"queue: {q['joined']} joined in {phases['queue']['seconds']} s, {ms(q['ms'])}",
        f"matching: {g['games']} games, {g['players_placed']} players placed, the last "
        f"{g['seconds']} s after the first join: {g['matches_per_second']} matches/s; each player's "
        f"wait {ms(g['wait_ms'])}",
        f"  every player saw its game {g['all_seen_placed_s']} s after the first join "
        f"(polls {ms(g['poll_ms'], counted=True)})",
        f"play: {p['actions']} actions in {p['seconds']} s ({p['actions_per_second']}/s), ack "
        f"{ms(p['ack_ms'])}; stale {p['stale']}; {p['games_ended']} games ended; rounds reached median "
        f"{p['rounds_reached']['median']}, max {p['rounds_reached']['max']}",
        f"  before every player was placed: {p['during_matching']['actions']} actions, ack "
        f"{ms(p['during_matching']['ack_ms'])}",
        f"GETs sent again on a connection the server had closed (as a browser does): {result['retried']}",
        f"errors: {result['errors']}" + "".join(f"\n  {n}: {c}" for n, c in result["error_kinds"].items()),
        "each phase's seconds, CPU seconds (servers / postgresql / this client), load average after:",
    ]
    for name, phase in phases.items():
        cpu = phase["cpu_s"]
        lines.append(
            f"  {name:9} {phase['seconds']:7.1f} s  {cpu['servers']:7.1f} / {cpu['postgresql']:6.1f} / "
            f"{cpu['client']:6.1f}  load {' '.join(map(str, phase['load_after']))}"
        )
    return "\n".join(lines)


# -- main ------------------------------------------------------------------------------------------
@contextlib.contextmanager
def database(db: str) -> Iterator[tuple[str, int | None]]:
    """The database's URL, and the throwaway cluster's postmaster pid (None for a given URL)."""
    if db != "postgresql":
        yield db, None
        return
    reason = unavailable_reason()
    if reason is not None:
        raise SystemExit(f"no PostgreSQL: {reason}")
    with PgCluster() as cluster:
        url = cluster.create_database("players")
        assert cluster.folder is not None
        pid = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        yield url, pid


def think_range(text: str) -> tuple[float, float]:
    try:
        low, high = (float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError("--think is LOW,HIGH in seconds, e.g. 0.3,2.0") from None
    if not 0 <= low <= high <= 60:
        raise argparse.ArgumentTypeError("--think is LOW,HIGH with 0 <= LOW <= HIGH <= 60")
    return low, high


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2000, help="accounts playing (default 2000)")
    parser.add_argument("--processes", type=int, default=4, help="risk serve processes (default 4)")
    parser.add_argument("--game", default="world", help="the quick match game (default world)")
    parser.add_argument("--seats", type=int, default=4, help="players a game (default 4)")
    parser.add_argument(
        "--play-seconds", type=float, default=120.0, help="play once all are placed (default 120)"
    )
    parser.add_argument("--rounds", type=int, default=0, help="stop a game after this round (0: no limit)")
    parser.add_argument(
        "--think", type=think_range, default=(0.3, 2.0), help="seconds before each action (default 0.3,2.0)"
    )
    parser.add_argument(
        "--poll", type=float, default=2.0, help="seconds between a player's looks (default 2)"
    )
    parser.add_argument(
        "--match-seconds",
        type=float,
        default=600.0,
        help="most seconds to wait for every match (default 600)",
    )
    parser.add_argument(
        "--db", default="postgresql", help="postgresql (a throwaway cluster) or a loopback URL"
    )
    parser.add_argument("--every", type=float, default=10.0, help="seconds between progress lines")
    parser.add_argument("--seed", type=int, default=39, help="the players' choices")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.processes <= MAX_PROCESSES:
        parser.error(f"--processes is from 1 to {MAX_PROCESSES}")
    if not 2 <= args.seats <= 10:
        parser.error("--seats is from 2 to 10")
    if not args.seats <= args.players <= MAX_PLAYERS or args.players % args.seats:
        parser.error(f"--players is a multiple of --seats ({args.seats}), at most {MAX_PLAYERS}")
    if not 1 <= args.play_seconds <= 3600 or not 1 <= args.match_seconds <= 3600:
        parser.error("--play-seconds and --match-seconds are from 1 to 3600")
    if args.rounds < 0 or not 0.1 <= args.poll <= 60 or not 0.5 <= args.every <= 600:
        parser.error("--rounds is 0 or more, --poll from 0.1 to 60 s, --every from 0.5 to 600 s")
    if args.db == "postgresql":
        args.store = "a throwaway PostgreSQL cluster"
    else:
        parts = urlsplit(args.db)
        if not parts.scheme.startswith("postgresql") or not loopback(parts.hostname):
            parser.error("--db is postgresql or a postgresql URL whose host is this machine (loopback)")
        args.store = f"PostgreSQL at {parts.hostname}:{parts.port}"
    return args


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse(argv)
    except SystemExit as refused:  # argparse said what was wrong
        return int(refused.code or 0)
    context: dict[str, Any] = {"machine": machine(), "db": args.store}
    on_disk = "/var/tmp" if Path("/var/tmp").is_dir() else None  # /tmp may be tmpfs, where fsync is free
    with tempfile.TemporaryDirectory(prefix="risk-bench-players-", dir=on_disk) as name:
        folder = Path(name)
        # The servers' data folder (their shared key, which seals the seats' tokens) is the run's own.
        env = os.environ | {"XDG_DATA_HOME": str(folder / "data")}
        with database(args.db) as (url, pg_pid), contextlib.ExitStack() as servers:
            started = time.monotonic()
            running = [
                servers.enter_context(running_server(url, folder / f"server{i}.stderr", env=env))
                for i in range(args.processes)
            ]
            context["start_s"] = round(time.monotonic() - started, 1)
            context["postgresql"] = pg_version(url)
            say(f"{args.processes} servers answering after {context['start_s']} s; {args.players} players")
            processes = [Process(server.port, server.pid) for server in running]
            bench = Bench(args, processes, [server.pid for server in running], pg_pid)
            asyncio.run(bench.run())
            placed = placements(url, bench.first_join_wall - 1)
        logged = [
            line
            for i in range(args.processes)
            for line in (folder / f"server{i}.stderr").read_text(errors="replace").splitlines()
            if "ERROR" in line or "Traceback" in line
        ]
    result = figures(bench, placed, context)
    if logged:
        result["errors"] += len(logged)
        result["error_kinds"]["server log: ERROR"] = len(logged)
        result["server_log_first"] = logged[:10]
    result["command"] = " ".join(
        ["benchmarks/bench_players.py", *(argv if argv is not None else sys.argv[1:])]
    )
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the servers, the cluster and the folder are gone already
        sys.exit("interrupted")
