"""The real web server under load, run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_server.py [--games 20] [--players 3] [--max-actions 2000]
        [--stores sqlite,postgresql] [--seconds 180] [--json] [--profile DIR]

For each store it starts `risk serve` in a process of its own on 127.0.0.1 (SQLite: a file in a
temporary folder; PostgreSQL: a throwaway cluster from tests/pg.py, fsync on), creates N games whose
seats are all ``human`` (one private token each), and plays them all at once to the end (or to the
cap of actions per game) with clients in this process: one websocket per seat, speaking docs/web.md's
protocol (hello, action with the state id, ack, state). The players are the quick bot: this process
created each game with a known seed, so it keeps one replica of each game, applies every acknowledged
action to it, and a seat acts when its own ``state`` message says it may (non-empty ``legal``) for the
replica's state id. The replica is checked against the server's view (whose turn, which phase, who
owns each territory).

Measured: accepted actions per second over the run (and "all-in": until the first game ended, while
every game was playing), the latency from sending an action to its ``ack``
(the action was checked, applied and committed), and errors (refusals, divergences, stalls: must be
0). Both processes share the machine: the clients' CPU time is shown beside the server's.

Bounded: a time cap (``--seconds``), a cap of actions per game, a cap of messages per connection, a
stall timeout; the server is stopped at the end, on Ctrl+C and on errors. ``--profile DIR`` attaches
py-spy to the server during the load (``pip install py-spy`` into the virtualenv, not a project
dependency) and prints where its time goes; figures are in docs/web.md, "Performance".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # for tests/pg.py

from pg import PgCluster, unavailable_reason
from risk.bots import make_bot
from risk.bots.base import Bot
from risk.play.simulate import bot_seed
from risk.rules.game import PHASE_NAMES, Game
from risk.rules.options import Rules
from risk.view import View

HOST = "127.0.0.1"  # loopback only
START_TIMEOUT = 60.0  # seconds for the server to answer
GREETING = 60.0  # seconds for every seat to connect and be shown the board
STALL = 30.0  # seconds without an acknowledged action in a game: the game is given up, an error
CLOCK_TICK = os.sysconf("SC_CLK_TCK")
LINE = re.compile(r":\d+\)$")


# -- the server process --------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far; 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK  # utime, stime


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process it started, and theirs (``risk serve --workers N``'s workers)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                queue.extend(int(child) for child in task.read_text().split())
            except OSError:
                continue  # the thread ended
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds of ``pid``'s process tree as it is now (a worker that died takes its seconds)."""
    return sum(process_cpu(member) for member in process_tree(pid))


@dataclass
class Server:
    port: int
    process: subprocess.Popen[bytes]
    pid: int


@contextlib.contextmanager
def running_server(
    url: str, stderr_path: Path, *options: str, env: dict[str, str] | None = None
) -> Iterator[Server]:
    """`risk serve [OPTIONS]` on a free loopback port; stopped (killed if it must be) on leaving.
    ``env``: its environment (by default this process's)."""
    port = free_port()
    command = [sys.executable, "-m", "risk", "serve", "--host", HOST, "--port", str(port)]
    command += ["--db", url, "--log-level", "warning", "--no-rate-limits"]  # one address plays every seat
    command += options
    with open(stderr_path, "wb") as stderr:
        # A session of its own: whatever it starts is stopped with it, as one group, by its id.
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
            env=env,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}/api/meta", timeout=2) as answer:
                    answer.read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"the server did not start: {stderr_path.read_text(errors='replace')[-2000:]}"
                    ) from None
                time.sleep(0.1)
        yield Server(port, process, process.pid)
    finally:
        stop(process, signal.SIGTERM)  # uvicorn shuts down cleanly on SIGTERM


@contextlib.contextmanager
def profiling(pid: int, output: Path | None, gil: bool) -> Iterator[None]:
    """py-spy attached to the running server for the duration of the load (not its start-up)."""
    if output is None:
        yield
        return
    spy = Path(sys.executable).parent / "py-spy"
    if not spy.is_file():
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    command = [str(spy), "record", "--pid", str(pid), "--format", "raw", "--nonblocking", "-o", str(output)]
    command += ["--gil"] if gil else []
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        time.sleep(1.0)  # attached before the load starts
        yield
    finally:
        stop(process, signal.SIGINT)  # py-spy writes its profile on SIGINT


def stop(process: subprocess.Popen[bytes], first: signal.Signals) -> None:
    """Ask a process we started to stop, wait, then kill its group (ours: start_new_session)."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(first)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(30)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(10)


def http_json(port: int, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://{HOST}:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method=method,
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


# -- the players ---------------------------------------------------------------------------------
@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    finished: int = 0  # games played to the end
    capped: int = 0  # games stopped at the action cap or the time cap
    first_end: tuple[float, int] | None = None  # when the first game ended, and the actions by then

    def ended(self) -> None:
        if self.first_end is None:
            self.first_end = (time.perf_counter(), len(self.latencies))


class Table:
    """One game: its replica, its seats' connections, the action in flight."""

    def __init__(
        self, game_id: str, replica: Game, tokens: list[str], seed: int, cap: int, totals: Totals
    ) -> None:
        self.id = game_id
        self.replica = replica
        self.tokens = tokens
        self.bots: list[Bot] = [make_bot("quick", bot_seed(seed, seat)) for seat in range(len(tokens))]
        self.cap = cap
        self.totals = totals
        self.state_id = 0
        self.actions = 0
        self.sockets: dict[int, ClientConnection] = {}
        self.seen: dict[int, tuple[int, bool]] = {}  # seat -> (state id, may act) of its newest state
        self.flight: tuple[int, int, str, float] | None = None  # seat, ref, text, sent at
        self.ref = 0
        self.started = False
        self.done = asyncio.Event()
        self.greeted = asyncio.Event()
        self.progress = time.monotonic()

    def error(self, kind: str) -> None:
        self.totals.errors[kind] += 1
        self.done.set()

    async def act(self) -> None:
        """If the seat to act has been told so for the replica's state, it chooses and sends."""
        if not self.started or self.flight is not None or self.done.is_set():
            return
        seat = self.replica.to_act
        if self.seen.get(seat) != (self.state_id, True):
            return  # its state message has not come yet (it follows the ack on another socket)
        view = View(self.replica, seat)
        text = view.action_text(self.bots[seat].choose(view))
        self.ref += 1
        self.flight = (seat, self.ref, text, time.perf_counter())
        message = {"type": "action", "action": text, "state_id": self.state_id, "ref": self.ref}
        await self.sockets[seat].send(json.dumps(message))

    async def on_message(self, seat: int, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "state":
            state_id = message["state_id"]
            self.seen[seat] = (state_id, bool(message["legal"]))
            if state_id == self.state_id:
                view = message["view"]
                replica = self.replica
                if (
                    view["to_act"] != replica.to_act
                    or view["phase"] != PHASE_NAMES[replica.phase]
                    or [t["owner"] for t in view["territories"]] != replica.owner
                ):
                    self.error("diverged")  # the replica and the server disagree
                    return
            if len(self.seen) == len(self.tokens):
                self.greeted.set()
            await self.act()
        elif kind == "ack":
            if self.flight is None or message.get("ref") != self.flight[1] or self.flight[0] != seat:
                self.error("unexpected ack")
                return
            _, _, text, sent = self.flight
            self.totals.latencies.append(time.perf_counter() - sent)
            if message["state_id"] != self.state_id + 1:
                self.error("ack state id")
                return
            self.replica.apply(text)
            self.state_id += 1
            self.actions += 1
            self.flight = None
            self.progress = time.monotonic()
            if self.replica.is_over:
                self.totals.finished += 1
                self.totals.ended()
                self.done.set()
            elif self.actions >= self.cap:
                self.totals.capped += 1
                self.totals.ended()
                self.done.set()
            else:
                await self.act()
        elif kind == "error":
            self.error(f"refused: {message.get('code')}")
        else:
            self.error(f"message {kind!r}")

    async def listen(self, port: int, seat: int, compression: str | None, deadline: float) -> None:
        """One seat's connection: hello, then every message until the game is done."""
        uri = f"ws://{HOST}:{port}/api/games/{self.id}/ws"
        async with connect(uri, compression=compression, max_size=2**24, open_timeout=30) as socket_:
            self.sockets[seat] = socket_
            await socket_.send(json.dumps({"type": "hello", "token": self.tokens[seat]}))
            for _ in range(3 * self.cap + 100):  # one state per action on every seat, one ack on one
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.done.is_set():
                    return
                try:
                    raw = await asyncio.wait_for(socket_.recv(), min(remaining, STALL))
                except TimeoutError:
                    continue  # the watchdog decides whether the game is stalled
                await self.on_message(seat, json.loads(raw))


async def watch(table: Table, deadline: float) -> None:
    """Ends the game's wait at the time cap, or when nothing has been acknowledged for too long."""
    while not table.done.is_set():
        now = time.monotonic()
        if now >= deadline:
            if table.started:
                table.totals.capped += 1
            table.done.set()
            return
        if table.started and now - table.progress > STALL:
            table.error("stalled")
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.done.wait(), min(1.0, deadline - now))


async def play(port: int, args: argparse.Namespace) -> dict[str, Any]:
    totals = Totals()
    tables: list[Table] = []
    for number in range(args.games):
        seed = args.seed + number
        seats = [{"kind": "human", "name": f"Player {seat + 1}"} for seat in range(args.players)]
        body = {"edition": args.edition, "seats": seats, "public": False, "seed": seed}
        created = await asyncio.to_thread(http_json, port, "POST", "/api/games", body)
        summary = await asyncio.to_thread(http_json, port, "GET", f"/api/games/{created['id']}")
        names = [s["name"] for s in summary["seats"]]
        replica = Game(Rules.from_description(summary["rules"]), names, seed=seed, board=summary["board"])
        tokens = [s["token"] for s in created["seats"]]
        tables.append(Table(created["id"], replica, tokens, seed, args.max_actions, totals))

    compression = None if args.compression == "none" else "deflate"
    closing = time.monotonic() + GREETING + args.seconds + 5  # the listeners' own time cap
    listeners = [
        asyncio.create_task(table.listen(port, seat, compression, closing))
        for table in tables
        for seat in range(len(table.tokens))
    ]
    try:
        # Everyone connected and shown the board before the clock starts.
        greeted = asyncio.gather(*(table.greeted.wait() for table in tables))
        await asyncio.wait_for(greeted, GREETING)
        cpu_client = time.process_time()
        started = time.perf_counter()
        deadline = time.monotonic() + args.seconds
        for table in tables:
            table.started = True
            table.progress = time.monotonic()
            await table.act()
        await asyncio.gather(*(watch(table, deadline) for table in tables))
        elapsed = time.perf_counter() - started
        cpu_client = time.process_time() - cpu_client
        first_end = totals.first_end or (time.perf_counter(), len(totals.latencies))
    finally:
        for task in listeners:
            task.cancel()
        for outcome in await asyncio.gather(*listeners, return_exceptions=True):
            if isinstance(outcome, BaseException) and not isinstance(outcome, asyncio.CancelledError):
                totals.errors[f"connection: {type(outcome).__name__}"] += 1
    return {
        "elapsed": elapsed,
        "actions": sum(table.actions for table in tables),
        "all_playing": (first_end[0] - started, first_end[1]),
        "latencies": totals.latencies,
        "errors": dict(totals.errors),
        "finished": totals.finished,
        "capped": totals.capped,
        "client_cpu": cpu_client,
    }


# -- figures -------------------------------------------------------------------------------------
def percentile(ordered: list[float], share: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def figures(
    store: str, result: dict[str, Any], server_cpu: float, args: argparse.Namespace
) -> dict[str, Any]:
    ordered = sorted(result["latencies"])
    elapsed = result["elapsed"]
    together, by_then = result["all_playing"]
    return {
        "store": store,
        "games": args.games,
        "players": args.players,
        "actions": result["actions"],
        "seconds": round(elapsed, 2),
        "actions_per_second": round(result["actions"] / elapsed, 1) if elapsed > 0 else 0.0,
        # Until the first game ended, every game had an action in flight or about to be.
        "actions_per_second_all_playing": round(by_then / together, 1) if together > 0 else 0.0,
        "latency_ms": {
            "p50": round(percentile(ordered, 0.50) * 1000, 2),
            "p95": round(percentile(ordered, 0.95) * 1000, 2),
            "p99": round(percentile(ordered, 0.99) * 1000, 2),
            "max": round(ordered[-1] * 1000, 2) if ordered else float("nan"),
        },
        "errors": sum(result["errors"].values()),
        "error_kinds": result["errors"],
        "games_finished": result["finished"],
        "games_capped": result["capped"],
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1) if elapsed > 0 else 0.0,
        "client_cpu_percent": round(100 * result["client_cpu"] / elapsed, 1) if elapsed > 0 else 0.0,
    }


def print_table(rows: list[dict[str, Any]]) -> None:
    header = (
        f"{'store':<11} {'actions':>8} {'s':>7} {'actions/s':>10} {'all-in/s':>9} {'p50 ms':>7} "
        f"{'p95 ms':>7} {'p99 ms':>7} {'max ms':>8} {'errors':>6} {'ended':>6} {'capped':>6} "
        f"{'server cpu':>10} {'client cpu':>10}"
    )
    print(header)
    for row in rows:
        lat = row["latency_ms"]
        rate = row["actions_per_second"]
        print(
            f"{row['store']:<11} {row['actions']:>8} {row['seconds']:>7.1f} {rate:>10.0f} "
            f"{row['actions_per_second_all_playing']:>9.0f} "
            f"{lat['p50']:>7.2f} {lat['p95']:>7.2f} {lat['p99']:>7.2f} {lat['max']:>8.1f} {row['errors']:>6} "
            f"{row['games_finished']:>6} {row['games_capped']:>6} {row['server_cpu_percent']:>9.0f}% "
            f"{row['client_cpu_percent']:>9.0f}%"
        )
        if row["error_kinds"]:
            print(f"{'':<11} errors: {row['error_kinds']}")


def hot_spots(profile: Path, top: int = 25) -> list[dict[str, Any]]:
    """py-spy's raw output (one 'frame;frame;... count' line per stack) as shares of the server's
    sampled CPU time: by function itself ("self") and with what it calls ("total")."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in profile.read_text(errors="replace").splitlines()[:1_000_000]:
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [LINE.sub(")", frame.strip()) for frame in stack.split(";")]  # a function, not a line
        samples += count
        own[frames[-1]] += count
        for frame in set(frames):
            total[frame] += count
    if samples == 0:
        return []
    rows = [
        {"function": name, "self": round(100 * own[name] / samples, 1), "total": round(100 * n / samples, 1)}
        for name, n in total.most_common(top)
    ]
    rows += [
        {
            "function": name,
            "self": round(100 * n / samples, 1),
            "total": round(100 * total[name] / samples, 1),
        }
        for name, n in own.most_common(top)
        if name not in {row["function"] for row in rows}
    ]
    return rows


def print_hot_spots(store: str, rows: list[dict[str, Any]], what: str) -> None:
    print(f"\n{store}: server samples (py-spy, {what}), % of all samples")
    print(f"{'total %':>8} {'self %':>7}  function")
    for row in sorted(rows, key=lambda r: -r["total"]):
        print(f"{row['total']:>8.1f} {row['self']:>7.1f}  {row['function'][:150]}")


# -- main ----------------------------------------------------------------------------------------
def run_store(store: str, url: str, folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    profile = None if args.profile is None else args.profile / f"{store}.raw.txt"
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(running_server(url, folder / f"{store}.stderr"))
        stack.enter_context(profiling(server.pid, profile, gil=args.profile_what == "gil"))
        cpu_before = process_cpu(server.pid)
        result = asyncio.run(asyncio.wait_for(play(server.port, args), args.seconds + 180))
        server_cpu = process_cpu(server.pid) - cpu_before
    row = figures(store, result, server_cpu, args)
    if profile is not None and profile.exists():
        row["hot_spots"] = hot_spots(profile)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games played at once (default 20)")
    parser.add_argument("--players", type=int, default=3, help="human seats per game (default 3)")
    parser.add_argument("--edition", default="2008", help="rules preset (default 2008)")
    parser.add_argument(
        "--max-actions", type=int, default=2000, help="cap of actions per game (default 2000)"
    )
    parser.add_argument("--stores", default="sqlite,postgresql", help="sqlite, postgresql or both (default)")
    parser.add_argument("--seconds", type=float, default=180.0, help="time cap per store (default 180)")
    parser.add_argument("--seed", type=int, default=20_240_601, help="the first game's seed")
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="websocket compression (browsers: deflate)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", type=Path, help="run the server under py-spy, profiles in this folder")
    parser.add_argument(
        "--profile-what",
        choices=("gil", "active"),
        default="gil",
        help="gil: samples of the thread holding the GIL (where the Python time goes, default); "
        "active: every thread that is not idle",
    )
    args = parser.parse_args()
    args.games = max(1, min(args.games, 500))
    args.players = max(2, min(args.players, 8))
    args.max_actions = max(1, min(args.max_actions, 100_000))
    args.seconds = max(1.0, min(args.seconds, 3600.0))
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    for store in stores:
        if store not in ("sqlite", "postgresql"):
            parser.error(f"no store {store!r}: sqlite, postgresql")
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)

    rows: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    on_disk = "/var/tmp" if Path("/var/tmp").is_dir() else None  # /tmp may be tmpfs, where fsync is free
    with tempfile.TemporaryDirectory(prefix="risk-bench-server-", dir=on_disk) as name:
        folder = Path(name)
        for store in stores:
            if store == "sqlite":
                rows.append(run_store(store, f"sqlite:///{folder / 'games.sqlite3'}", folder, args))
            else:
                reason = unavailable_reason()
                if reason is not None:
                    skipped[store] = reason
                    continue
                with PgCluster() as cluster:
                    rows.append(run_store(store, cluster.create_database("bench"), folder, args))

    if args.json:
        machine = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}
        settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
        print(
            json.dumps(
                {"settings": settings, "machine": machine, "stores": rows, "skipped": skipped}, indent=2
            )
        )
        return
    print(
        f"{args.games} games x {args.players} human seats (quick bot clients, one websocket per seat), "
        f"cap {args.max_actions} actions per game, {args.seconds:.0f} s; "
        f"Python {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print_table(rows)
    for store, reason in skipped.items():
        print(f"{store}: not measured, {reason}")
    for row in rows:
        if row.get("hot_spots"):
            print_hot_spots(row["store"], row["hot_spots"], args.profile_what)


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:  # the server, the cluster and the folder are gone already
        print("interrupted", file=sys.stderr)
        sys.exit(130)
