"""The Ray backend (risk.play.ray_backend): the same games and results as the local backend for the same seed,
failed games reported, clear errors, and no Ray process left behind.

One local Ray with 2 CPUs serves the module's tests (starting Ray takes seconds); its workers find the
crashing test bot through a setup hook. One test runs the command itself, which starts and stops a Ray
of its own, and checks that none of that Ray's processes outlive it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import ray
from typer.testing import CliRunner

import crashing_bot
from risk.bots import BOTS
from risk.cli.main import app
from risk.play.batch import simulate_to_parquet, turns_path
from risk.play.tournament import TournamentError, run_tournament
from risk.rules.options import Rules

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src"


def worker_path() -> str:
    """The workers import this checkout's risk and the tests' helpers (the crashing bot)."""
    return os.pathsep.join(p for p in (str(TESTS), str(SRC), os.environ.get("PYTHONPATH", "")) if p)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        runtime_env={
            "worker_process_setup_hook": "crashing_bot.register",
            "env_vars": {"PYTHONPATH": worker_path()},
        },
    )
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture
def crasher(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(BOTS, crashing_bot.NAME, crashing_bot.CrashingBot)  # the local backend's name for it
    return crashing_bot.NAME


def played(results: list[Any]) -> list[dict[str, Any]]:
    return [result.to_json() | {"seconds": 0} for result in results]


def test_a_ray_tournament_is_the_local_one(local_ray: Any, crasher: str) -> None:
    bots = [crasher, "quick", "random"]
    local = run_tournament(bots, Rules.preset("2003"), 6, seed=1, workers=2, max_turns=60)
    on_ray = run_tournament(bots, Rules.preset("2003"), 6, seed=1, backend="ray", max_turns=60)
    assert played(on_ray.results) == played(local.results)
    assert [s.to_json() for s in on_ray.standings] == [s.to_json() for s in local.standings]
    # The crasher's one failed game is reported, and the other five were played.
    assert [r.error for r in on_ray.results].count("RuntimeError: crashed on purpose") == 1
    assert on_ray.failed == 1 and sum(r.winner_seat is not None for r in on_ray.results) >= 1
    assert ray.is_initialized()  # a Ray the caller started is left to the caller


def test_ray_batch_files_are_the_local_ones(local_ray: Any, crasher: str, tmp_path: Path) -> None:
    rules = Rules.preset("2008").for_game("capital")
    local, on_ray = tmp_path / "local.parquet", tmp_path / "ray.parquet"
    simulate_to_parquet(local, rules, [crasher, "quick", "quick"], 5, seed=0, max_turns=40, workers=2)
    simulate_to_parquet(on_ray, rules, [crasher, "quick", "quick"], 5, seed=0, max_turns=40, backend="ray")
    assert local.read_bytes() == on_ray.read_bytes()
    assert turns_path(local).read_bytes() == turns_path(on_ray).read_bytes()
    errors = pq.read_table(on_ray, columns=["error"]).column("error").to_pylist()
    assert errors == [None, None, "RuntimeError: crashed on purpose", None, None]


def test_the_tournament_command_on_ray(local_ray: Any, tmp_path: Path) -> None:
    args = ["tournament", "--bots", "quick,random,quick", "--games", "3", "--max-turns", "40", "--json"]
    runs = {}
    for backend in ("local", "ray"):
        result = CliRunner().invoke(app, [*args, "--backend", backend, "--out", str(tmp_path / backend)])
        assert result.exit_code == 0, result.stderr
        runs[backend] = json.loads(result.stdout)
    for run in runs.values():
        for game in run["results"]:
            game["seconds"] = 0
            game["record"] = Path(game["record"]).name
    assert runs["ray"]["results"] == runs["local"]["results"] and runs["ray"]["bots"] == runs["local"]["bots"]
    records = [sorted(p.read_text() for p in (tmp_path / b).glob("*.risk")) for b in ("local", "ray")]
    assert records[0] == records[1] and len(records[0]) == 3


def test_an_address_nothing_answers_at_is_a_clear_error() -> None:
    with socket.socket() as probe:  # a port just freed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(TournamentError, match=rf"^cannot reach a Ray cluster at 127.0.0.1:{port}: "):
        run_tournament(["quick"] * 3, Rules.preset("2008"), 1, backend="ray", address=f"127.0.0.1:{port}")
    assert time.monotonic() - started < 10


def processes_with(marker: str) -> list[int]:
    """Processes whose environment carries ``marker`` (inherited from the command and all it started)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:  # gone, or not ours to read
                continue
    return found


def test_the_command_on_its_own_ray_leaves_nothing_behind(tmp_path: Path) -> None:
    marker = f"RISK_RAY_TEST={uuid.uuid4().hex}"
    env = {**os.environ, "PYTHONPATH": worker_path(), marker.split("=")[0]: marker.split("=")[1]}
    env.pop("RAY_ADDRESS", None)
    args = ["simulate", "--games", "4", "--seed", "3", "--max-turns", "30", "--json"]
    command = [sys.executable, "-m", "risk", *args]
    on_ray = subprocess.run(
        [*command, "--backend", "ray", "--out", str(tmp_path / "r.parquet")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert on_ray.returncode == 0, on_ray.stderr
    assert on_ray.stderr == ""  # Ray's own logging is kept off the user's terminal
    local = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert json.loads(on_ray.stdout)["games"] == json.loads(local.stdout)["games"]
    deadline = time.monotonic() + 20
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = processes_with(marker)
    for pid in left:  # never leave them, even when the test fails
        os.kill(pid, 9)
    assert left == [], "Ray processes outlived the command"
