"""More than one server process on one PostgreSQL database (issue 14, item 6; docs/web.md "Several
server processes").

* Two `risk serve` processes on one database; in every game the two human seats play on different
  processes (websocket clients, tests/crash_harness.py) and the bots are driven by whichever process
  holds the game's lock. A client sees the other's moves only if its own process learnt of them
  (PostgreSQL NOTIFY). The processes are SIGKILLed in turn and started again: every record equals the
  same game played on one process without a kill, nothing acknowledged is lost, nothing stored twice.
* `risk serve --workers 2`: two worker processes behind one port, the pages spread over them by the
  kernel; workers SIGKILLed at random moments are replaced by uvicorn and the games go on, exactly.
* `--workers 2` on SQLite is refused with the reason.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crash_harness import KINDS, SHORT_KINDS, Fault, Harness, game_setups, kills, random_moments, run
from pg import PgCluster
from tiers import sizes

SEED = 14_601


@pytest.fixture
def database(postgres_cluster: PgCluster, request: pytest.FixtureRequest) -> str:
    name = f"processes_{os.getpid()}_{abs(hash(request.node.name)) % 10**8}"
    url = postgres_cluster.create_database(name)
    request.addfinalizer(lambda: postgres_cluster.drop_database(name))
    return url


@pytest.mark.postgresql
def test_two_processes_without_a_kill_play_as_one(database: str, tmp_path: Path) -> None:
    """The moves of a page on one process reach the page on the other (no kill, no reconnection)."""
    setups = game_setups(2, SEED + 50, SHORT_KINDS)
    report = run(database, "postgresql", tmp_path, setups, None, SEED + 50, processes=2)
    assert report.problems == [], report.summary()
    assert report.finished == report.records_identical == 2
    assert report.reconnections == 0 and report.server_errors == 0


@pytest.mark.postgresql
@pytest.mark.parametrize(("games", "killed", "kinds"), sizes((2, 2, SHORT_KINDS), (4, 4, KINDS)))
def test_two_processes_killed_in_turn_nothing_lost_or_doubled(
    database: str, tmp_path: Path, games: int, killed: int, kinds: tuple[tuple[str, str, str], ...]
) -> None:
    setups = game_setups(games, SEED, kinds)
    report = run(database, "postgresql", tmp_path, setups, kills(killed, SEED), SEED, processes=2)
    assert report.problems == [], report.summary()
    assert report.kills == killed and report.server_starts == 2 + killed
    # Identical records: every action stored once, in its place (the store's key refuses a second).
    assert report.finished == report.records_identical == games
    assert report.acknowledged_lost == 0
    assert report.acknowledged > 125 * games and report.ack_checks > report.acknowledged
    assert report.reconnections > 0


# -- risk serve --workers 2 ---------------------------------------------------------------------------
def worker_pids(supervisor: int) -> list[int]:
    """The worker processes of uvicorn's supervisor (Linux /proc): its children running spawn_main."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == supervisor and b"spawn_main" in command:
            found.append(int(entry.name))
    return sorted(found)


def wait_for_workers(supervisor: int, count: int, timeout: float = 60.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = worker_pids(supervisor)
        if len(workers) == count:
            return workers
        time.sleep(0.1)
    raise AssertionError(f"uvicorn's supervisor has workers {worker_pids(supervisor)}, not {count}")


def worker_kills(count: int, seed: int) -> Fault:
    """SIGKILL one of the workers (not the supervisor) at seeded random moments; uvicorn starts another
    and the clients of the dead one reconnect (to either worker)."""

    async def fault(harness: Harness) -> None:
        rng = random.Random(seed)
        supervisor = harness.server.pid
        assert supervisor is not None
        # In the first half of the run: the games go on in the other worker while the killed one is
        # replaced, and a busy machine's restart could otherwise outlast the games (CI met it).
        for point in random_moments(harness, count, rng, within=0.5):
            await harness.progress_reaches(point)
            if harness.finished:
                return
            workers = await asyncio.to_thread(wait_for_workers, supervisor, 2)
            os.kill(rng.choice(workers), signal.SIGKILL)
            harness.report.kills += 1
            await asyncio.to_thread(harness.check_acknowledged)
            await asyncio.to_thread(wait_for_workers, supervisor, 2)  # the dead one was replaced

    return fault


@pytest.mark.postgresql
@pytest.mark.parametrize(("games", "killed", "kinds"), sizes((2, 2, SHORT_KINDS), (4, 3, KINDS)))
def test_workers_option_two_processes_one_port_worker_killed(
    database: str, tmp_path: Path, games: int, killed: int, kinds: tuple[tuple[str, str, str], ...]
) -> None:
    setups = game_setups(games, SEED + 100, kinds)
    options = ["--workers", "2"]
    fault = worker_kills(killed, SEED)
    report = run(database, "postgresql", tmp_path, setups, fault, SEED + 100, options=options)
    assert report.problems == [], report.summary()
    assert report.kills == killed
    assert report.finished == report.records_identical == games
    assert report.acknowledged_lost == 0
    assert report.reconnections > 0


def test_workers_need_postgresql(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "risk", "serve", "--workers", "2", "--db", str(tmp_path / "games.sqlite3")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--workers 2 needs a PostgreSQL database" in result.stderr
