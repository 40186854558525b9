"""A soak of the real web server: many games with bots and human-like clients, run by hand (never a test):

    .venv/bin/python benchmarks/bench_load.py [--games 200] [--humans 100] [--seconds 600]
        [--db sqlite|postgresql|postgresql+psycopg://USER:PASSWORD@127.0.0.1:PORT/NAME]
        [--bot-delay 0.2] [--every 10] [--workers 1]

It starts `risk serve` in a process of its own on 127.0.0.1 (benchmarks/bench_server.py's pieces;
SQLite: a file in a temporary folder; ``postgresql``: a throwaway cluster from tests/pg.py; a URL: a
database on this machine) and keeps ``--games`` games playing at once, each of three seats: in
``--humans`` of them seat 0 is a human-like websocket client and the two others are the quick bot,
in the rest all three seats are bots (``--bot-delay`` seconds before each bot move, as at a real
table). A game that ends is replaced by a new one of the same kind, so the count stays up.

A human-like client holds its seat's websocket and sees only what a browser sees: the ``state``
messages. When one says it may act (non-empty ``legal``), it thinks for 0.3 to 2 s, then sends one
of the legal entries at random (an entry with ``min``/``max`` with its ``max``: all armies, all
dice), with the state id, and waits for its ``ack``. A dropped connection is counted and opened
again.

Reported every ``--every`` seconds and at the end: actions per second (all, from the games' state
ids; and the humans'), the humans' latency from sending an action to its ``ack`` (p50/p95/p99), the
errors (every refusal but ``stale``, every dropped connection, every failed request), the server's
resident memory (VmRSS) over time with its slope in MB per minute (flat is the goal), and the load
average (the machine may be busy with other work: the figures are indicative). The final figures
are printed as JSON.

Bounded: loopback only (a database URL must name this machine), at most 500 games and 300 humans,
stopped at ``--seconds``; the server (and a throwaway cluster) is stopped at the end, on Ctrl+C and
on errors. ``--workers N`` runs ``risk serve --workers N`` (PostgreSQL only); memory and CPU are then
the whole process tree's. Figures are in docs/reliability.md, "Load".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bench_server import HOST, http_json, percentile, process_tree, running_server, tree_cpu
from pg import PgCluster, unavailable_reason  # on the path through bench_server

MAX_GAMES = 500
MAX_HUMANS = 300
THINK = (0.3, 2.0)  # seconds a human-like client thinks before each action
ACK_TIMEOUT = 30.0  # seconds to wait for an action's ack before the connection is given up
POLL = 5.0  # seconds between looks at each bot game (its state id, whether it ended)
RECONNECT = 1.0  # seconds before a dropped client connects again
SEATS = 3


# -- what is measured ------------------------------------------------------------------------------
@dataclass
class Tally:
    human_latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    stale: int = 0  # refused as stale: expected now and then, not an error
    games_ended: int = 0
    state_ids: dict[str, int] = field(default_factory=dict)  # game -> newest state id seen
    counted: int = 0  # actions of games no longer followed (ended and replaced)
    memory: list[tuple[float, float]] = field(default_factory=list)  # (seconds in, MB)
    held_over_time: list[tuple[float, int]] = field(default_factory=list)  # (seconds in, held actions)
    cpu: tuple[float, float] = (0.0, 0.0)  # CPU seconds of the server and of this process

    def held(self) -> int:
        """Actions of the games being played now: what the server must hold in memory for them."""
        return sum(self.state_ids.values())

    def actions(self) -> int:
        return self.counted + self.held()

    def retire(self, game_id: str) -> None:
        self.counted += self.state_ids.pop(game_id, 0)


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (x, y) points."""
    if len(points) < 2:
        return float("nan")
    mean_x = sum(x for x, _ in points) / len(points)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x, _ in points)
    if spread == 0:
        return float("nan")
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / spread


def unexplained_growth(
    seconds: list[float], held: list[float], megabytes: list[float]
) -> tuple[float, float]:
    """Memory fitted as ``base + per_action x held + drift x minutes`` (least squares): the KB per held
    action and the drift in MB per minute that the games being played do not explain (a leak would
    show here: games that ended leaving something behind)."""
    if len(seconds) < 3:
        return float("nan"), float("nan")
    columns = np.column_stack([np.ones(len(seconds)), np.array(held), np.array(seconds) / 60])
    fitted, *_ = np.linalg.lstsq(columns, np.array(megabytes), rcond=None)
    return float(fitted[1] * 1024), float(fitted[2])


def slope_per_minute(points: list[tuple[float, float]]) -> float:
    """Of (seconds, MB) points: MB per minute."""
    return 60 * slope(points)


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children (the workers of ``--workers N``), in MB."""
    total_kb = 0
    for member in process_tree(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue  # gone since it was listed
        resident = [line for line in status.splitlines() if line.startswith("VmRSS:")]
        total_kb += int(resident[0].split()[1]) if resident else 0
    return total_kb / 1024


# -- games -------------------------------------------------------------------------------------------
def legal_text(entry: dict[str, Any]) -> str:
    """A ``legal`` entry of a state message as the action sent: one with ``min``/``max`` at its
    ``max`` (all armies, all dice)."""
    return str(entry["text"]) if "max" not in entry else f"{entry['text']} {entry['max']}"


def game_body(args: argparse.Namespace, human: bool, seed: int) -> dict[str, Any]:
    seats = [{"kind": "bot", "name": f"Bot {seat}", "bot": "quick"} for seat in range(SEATS)]
    if human:
        seats[0] = {"kind": "human", "name": "Human"}
    return {"edition": "2008", "seats": seats, "public": False, "seed": seed, "bot_delay": args.bot_delay}


async def reply_to(socket_: Any, ref: int, timeout: float) -> dict[str, Any]:
    """The ack (or refusal) of the action sent with ``ref``, read within ``timeout`` seconds; the state
    messages before it are of other seats' moves and are superseded by the one after the ack."""
    async with asyncio.timeout(timeout):
        while True:
            message: dict[str, Any] = json.loads(await socket_.recv())
            if message.get("ref") == ref and message.get("type") in ("ack", "error"):
                return message


class Load:
    def __init__(self, port: int, args: argparse.Namespace, tally: Tally, deadline: float) -> None:
        self.port = port
        self.args = args
        self.tally = tally
        self.deadline = deadline
        self.seeds = iter(range(args.seed, args.seed + 10_000_000))

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        return await asyncio.to_thread(http_json, self.port, method, path, body)

    async def new_game(self, human: bool) -> tuple[str, str | None]:
        created = await self.request("POST", "/api/games", game_body(self.args, human, next(self.seeds)))
        self.tally.state_ids[created["id"]] = 0
        return created["id"], created["seats"][0]["token"]

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def bot_table(self) -> None:
        """One all-bot game after another: looks at the game every few seconds, replaces it when over."""
        game_id, _ = await self.new_game(human=False)
        while self.left() > 0:
            await asyncio.sleep(min(POLL * random.uniform(0.8, 1.2), max(0.0, self.left())))
            try:
                summary = await self.request("GET", f"/api/games/{game_id}")
            except OSError as error:
                self.tally.errors[f"request: {type(error).__name__}"] += 1
                continue
            self.tally.state_ids[game_id] = summary["state_id"]
            if summary["status"] != "playing" and self.left() > 0:
                self.tally.games_ended += 1
                self.tally.retire(game_id)
                game_id, _ = await self.new_game(human=False)

    async def human(self) -> None:
        """A human-like client at one seat; a new game when its game ends; reconnects if dropped."""
        game_id, token = await self.new_game(human=True)
        while self.left() > 0:
            try:
                over = await self.play_seat(game_id, token)
            except (ConnectionClosed, OSError, TimeoutError) as error:
                self.tally.errors[f"disconnect: {type(error).__name__}"] += 1
                await asyncio.sleep(RECONNECT)
                continue
            if over and self.left() > 0:
                self.tally.games_ended += 1
                self.tally.retire(game_id)
                game_id, token = await self.new_game(human=True)

    async def play_seat(self, game_id: str, token: str | None) -> bool:
        """Plays the seat until the game is over (True) or the time is up (False)."""
        uri = f"ws://{HOST}:{self.port}/api/games/{game_id}/ws"
        async with connect(uri, max_size=2**24, open_timeout=30) as socket_:
            await socket_.send(json.dumps({"type": "hello", "token": token}))
            acted_at = -1  # the state id this seat last acted at
            ref = 0
            while self.left() > 0:
                try:
                    raw = await asyncio.wait_for(socket_.recv(), max(0.1, self.left()))
                except TimeoutError:
                    return False
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "error":
                    self.tally.errors[f"refused: {message.get('code')}"] += 1
                    continue
                if kind == "moved":
                    self.tally.errors["moved"] += 1
                    return False
                if kind != "state":
                    continue
                state_id = message["state_id"]
                self.tally.state_ids[game_id] = max(self.tally.state_ids.get(game_id, 0), state_id)
                if message["status"] != "playing":
                    return True
                if not message["legal"] or state_id <= acted_at:
                    continue
                await asyncio.sleep(random.uniform(*THINK))
                if self.left() <= 0:
                    return False
                ref += 1
                acted_at = state_id
                text = legal_text(random.choice(message["legal"]))
                sent = time.perf_counter()
                await socket_.send(
                    json.dumps({"type": "action", "action": text, "state_id": state_id, "ref": ref})
                )
                await self.await_ack(socket_, ref, sent)
        return False

    async def await_ack(self, socket_: Any, ref: int, sent: float) -> None:
        message = await reply_to(socket_, ref, ACK_TIMEOUT)
        if message["type"] == "ack":
            self.tally.human_latencies.append(time.perf_counter() - sent)
        elif message.get("code") == "stale":
            self.tally.stale += 1
        else:
            self.tally.errors[f"refused: {message.get('code')}: {message.get('message')}"] += 1


# -- reports ---------------------------------------------------------------------------------------
@dataclass
class Window:
    at: float  # seconds in
    actions: int
    human_actions: int


def report_line(tally: Tally, previous: Window, now: Window, recent: list[float]) -> str:
    span = max(1e-9, now.at - previous.at)
    ordered = sorted(recent)
    memory = tally.memory[-1][1] if tally.memory else float("nan")
    load = os.getloadavg()[0]
    return (
        f"{now.at:6.0f}s  actions/s {(now.actions - previous.actions) / span:7.1f}  "
        f"human/s {(now.human_actions - previous.human_actions) / span:5.1f}  "
        f"ack p50/p95/p99 {percentile(ordered, 0.5) * 1000:6.1f} {percentile(ordered, 0.95) * 1000:6.1f} "
        f"{percentile(ordered, 0.99) * 1000:6.1f} ms  errors {sum(tally.errors.values()):3}  "
        f"stale {tally.stale:3}  ended {tally.games_ended:3}  held {tally.held():6}  RSS {memory:6.1f} MB  "
        f"load {load:4.1f}"
    )


async def monitor(pid: int, tally: Tally, started: float, deadline: float, every: float) -> None:
    """Samples the server's memory each second, prints a line every ``every`` seconds."""
    previous = Window(0.0, tally.actions(), 0)
    next_report = started + every
    while time.monotonic() < deadline:
        await asyncio.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        now = time.monotonic()
        tally.memory.append((now - started, rss_mb(pid)))
        tally.held_over_time.append((now - started, tally.held()))
        if now >= next_report or now >= deadline:
            window = Window(now - started, tally.actions(), len(tally.human_latencies))
            print(report_line(tally, previous, window, tally.human_latencies[previous.human_actions :]))
            sys.stdout.flush()
            previous = window
            next_report += every


async def gathered(tasks: list[asyncio.Task[Any]], cap: float, errors: Counter[str], who: str) -> None:
    """Waits for every task (at most ``cap`` seconds: then each is cancelled); each that failed is an
    error, counted under ``who``."""
    try:
        async with asyncio.timeout(cap):
            outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for task in tasks:
            task.cancel()
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            errors[f"{who} failed: {type(outcome).__name__}: {outcome}"] += 1


async def soak(port: int, pid: int, args: argparse.Namespace) -> tuple[Tally, float]:
    tally = Tally()
    started = time.monotonic()
    deadline = started + args.seconds
    load = Load(port, args, tally, deadline)
    cpu_before, client_before = tree_cpu(pid), time.process_time()
    tasks = [asyncio.create_task(load.human()) for _ in range(args.humans)]
    tasks += [asyncio.create_task(load.bot_table()) for _ in range(args.games - args.humans)]
    tasks.append(asyncio.create_task(monitor(pid, tally, started, deadline, args.every)))
    await gathered(tasks, args.seconds + 60, tally.errors, "client")
    elapsed = time.monotonic() - started
    tally.cpu = (tree_cpu(pid) - cpu_before, time.process_time() - client_before)
    return tally, elapsed


def summary(tally: Tally, elapsed: float, args: argparse.Namespace) -> dict[str, Any]:
    ordered = sorted(tally.human_latencies)
    settled = [(t, m) for t, m in tally.memory if t >= min(60.0, elapsed / 5)]  # after the warm-up
    held = [float(count) for _, count in tally.held_over_time]
    megabytes = [m for _, m in tally.memory]
    per_action, drift = unexplained_growth([t for t, _ in tally.memory], held, megabytes)
    return {
        "db": args.store,
        "workers": args.workers,
        "games": args.games,
        "humans": args.humans,
        "bot_delay": args.bot_delay,
        "seconds": round(elapsed, 1),
        "actions": tally.actions(),
        "actions_per_second": round(tally.actions() / elapsed, 1),
        "human_actions": len(ordered),
        "human_actions_per_second": round(len(ordered) / elapsed, 2),
        "human_ack_ms": {
            name: round(percentile(ordered, share) * 1000, 1)
            for name, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99), ("max", 1.0))
        },
        "errors": sum(tally.errors.values()),
        "error_kinds": dict(tally.errors),
        "stale": tally.stale,
        "games_ended": tally.games_ended,
        "rss_mb": {
            "start": round(tally.memory[0][1], 1) if tally.memory else None,
            "end": round(tally.memory[-1][1], 1) if tally.memory else None,
            "max": round(max(m for _, m in tally.memory), 1) if tally.memory else None,
            "slope_mb_per_minute": round(slope_per_minute(settled), 2),
            "slope_second_half": round(slope_per_minute([p for p in tally.memory if p[0] >= elapsed / 2]), 2),
            # Memory against the actions the live games hold (they grow as they are played): a slope
            # of KB per held action that explains the growth means the growth is the games, not a leak.
            "kb_per_held_action": round(1024 * slope(list(zip(held, megabytes, strict=True))), 2),
            # Both at once: what each held action costs, and the drift left when that is taken out.
            "fit_kb_per_held_action": round(per_action, 2),
            "fit_drift_mb_per_minute": round(drift, 3),
        },
        "held_actions": {"start": held[0] if held else None, "end": held[-1] if held else None},
        "server_cpu_percent": round(100 * tally.cpu[0] / elapsed, 1),
        "client_cpu_percent": round(100 * tally.cpu[1] / elapsed, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


# -- main ------------------------------------------------------------------------------------------
def loopback(host: str | None) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


@contextlib.contextmanager
def database(store: str, folder: Path) -> Iterator[str]:
    if store == "sqlite":
        yield f"sqlite:///{folder / 'games.sqlite3'}"
    elif store == "postgresql":
        reason = unavailable_reason()
        if reason is not None:
            raise SystemExit(f"no PostgreSQL: {reason}")
        with PgCluster() as cluster:
            yield cluster.create_database("load")
    else:
        yield store


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=200, help=f"games at once (default 200, at most {MAX_GAMES})"
    )
    parser.add_argument(
        "--humans",
        type=int,
        default=100,
        help=f"human-like clients, one game each (default 100, at most {MAX_HUMANS})",
    )
    parser.add_argument("--seconds", type=float, default=600.0, help="how long (default 600, at most 3600)")
    parser.add_argument(
        "--db", default="sqlite", help="sqlite (default), postgresql (a throwaway cluster) or a loopback URL"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.2, help="seconds before each bot move (default 0.2)"
    )
    parser.add_argument("--every", type=float, default=10.0, help="seconds between reports (default 10)")
    parser.add_argument("--seed", type=int, default=20_261_125, help="the first game's seed")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (risk serve --workers; above 1: PostgreSQL)"
    )
    args = parser.parse_args()
    if not 1 <= args.workers <= 8:
        parser.error("--workers is from 1 to 8")
    if args.workers > 1 and args.db == "sqlite":
        parser.error("--workers above 1 needs --db postgresql (SQLite is one process's store)")
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games is from 1 to {MAX_GAMES}")
    if not 0 <= args.humans <= min(MAX_HUMANS, args.games):
        parser.error(f"--humans is from 0 to {min(MAX_HUMANS, args.games)} (one game each, at most --games)")
    if not 1 <= args.seconds <= 3600:
        parser.error("--seconds is from 1 to 3600")
    if not 0 < args.bot_delay <= 10:
        parser.error("--bot-delay is more than 0 and at most 10 seconds (a table, not a flood)")
    args.every = max(1.0, args.every)
    if args.db in ("sqlite", "postgresql"):
        args.store = args.db
    else:
        parts = urlsplit(args.db)
        if not parts.scheme.startswith("postgresql") or not loopback(parts.hostname):
            parser.error(
                "--db is sqlite, postgresql or a postgresql URL whose host is this machine (loopback)"
            )
        args.store = f"postgresql at {parts.hostname}:{parts.port}"

    on_disk = "/var/tmp" if Path("/var/tmp").is_dir() else None  # /tmp may be tmpfs, where fsync is free
    with tempfile.TemporaryDirectory(prefix="risk-bench-load-", dir=on_disk) as name:
        folder = Path(name)
        with (
            database(args.db, folder) as url,
            running_server(url, folder / "server.stderr", "--workers", str(args.workers)) as server,
        ):
            print(
                f"{args.games} games ({args.humans} with a human-like client), bot delay {args.bot_delay} s, "
                f"{args.seconds:.0f} s, {args.store}, {args.workers} server process(es); "
                f"server pid {server.pid} on {HOST}:{server.port}; "
                f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
            )
            tally, elapsed = asyncio.run(soak(server.port, server.pid, args))
            stderr = (folder / "server.stderr").read_text(errors="replace")
        figures = summary(tally, elapsed, args)
        logged = [line for line in stderr.splitlines() if "ERROR" in line or "Traceback" in line]
        figures["server_log_errors"] = len(logged)
    print(json.dumps(figures, indent=2))
    if logged:
        print("server log errors (first 10):", *logged[:10], sep="\n  ")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the server, the cluster and the folder are gone already
        sys.exit("interrupted")
