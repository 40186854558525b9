"""Append rate and latency of the game stores; run by hand: .venv/bin/python benchmarks/bench_storage.py

Each store gets a fresh database and one game; ``append_action`` is timed one call at a time (the
server's commit point: an action is acknowledged when it returns). Then four threads append to four
games at once, for the total rate. SQLite runs from a file in the temporary folder (on disk, not
tmpfs, where it matters); PostgreSQL from a throwaway cluster started like the tests' (tests/pg.py),
fsync on, if its binaries are installed.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # for tests/pg.py

from pg import PgCluster, unavailable_reason
from risk.server.sql import SqlStorage
from risk.server.storage import (
    ActionRecord,
    GameRecord,
    MemoryStorage,
    Progress,
    SeatRecord,
    Storage,
)

PROGRESS = Progress(status="playing", winner=None, turn=1)


def new_game(storage: Storage, game_id: str) -> None:
    seats = (SeatRecord(0, "Ann", "human", None, "a" * 64), SeatRecord(1, "Bot", "bot", "continental"))
    storage.create_game(GameRecord(id=game_id, rules="2008", board="world", seed=1, seats=seats))


def append_latencies(storage: Storage, game_id: str, count: int) -> list[float]:
    """Seconds per append_action, ``count`` of them in a row."""
    latencies = []
    for seq in range(1, count + 1):
        action = ActionRecord(seq=seq, seat=seq % 2, text=f"attack kamchatka alaska 3 #{seq}", at=time.time())
        start = time.perf_counter()
        storage.append_action(game_id, action, PROGRESS)
        latencies.append(time.perf_counter() - start)
    return latencies


def threaded_rate(storage: Storage, threads: int, count: int) -> float:
    """Appends per second with ``threads`` writers, each on its own game, ``count`` appends in all."""
    ids = [f"t{n}" for n in range(threads)]
    for game_id in ids:
        new_game(storage, game_id)
    each = count // threads
    workers = [threading.Thread(target=append_latencies, args=(storage, game_id, each)) for game_id in ids]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return each * threads / (time.perf_counter() - start)


def measure(label: str, open_store: Callable[[], Storage], count: int) -> None:
    storage = open_store()
    try:
        new_game(storage, "g")
        append_latencies(storage, "g", min(50, count))  # warm the pool and the caches
        new_game(storage, "timed")
        latencies = append_latencies(storage, "timed", count)
        rate = threaded_rate(storage, 4, count)
    finally:
        storage.close()
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(f"{label:<34} {count / sum(latencies):>10.0f} {p50 * 1000:>9.2f} {p99 * 1000:>9.2f} {rate:>12.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000, help="appends per store (default 2000)")
    count = max(10, min(parser.parse_args().count, 100_000))
    print(f"{count} appends one at a time, then {count} by 4 threads on 4 games")
    print(f"{'store':<34} {'appends/s':>10} {'p50 ms':>9} {'p99 ms':>9} {'4 threads/s':>12}")
    measure("memory", MemoryStorage, count)
    on_disk = "/var/tmp" if Path("/var/tmp").is_dir() else None  # /tmp may be tmpfs, where fsync is free
    with tempfile.TemporaryDirectory(prefix="risk-bench-", dir=on_disk) as folder:
        for synchronous in ("FULL", "NORMAL"):
            url = f"sqlite:///{folder}/{synchronous}.sqlite3"
            measure(
                f"SQLite WAL synchronous={synchronous}",
                functools.partial(SqlStorage, url, sqlite_synchronous=synchronous),
                count,
            )
    reason = unavailable_reason()
    if reason is not None:
        print(f"PostgreSQL: not measured, {reason}")
        return
    with PgCluster() as cluster:
        url = cluster.create_database("bench")
        measure("PostgreSQL (127.0.0.1, fsync on)", lambda: SqlStorage(url), count)


if __name__ == "__main__":
    main()
