"""A tournament killed with SIGKILL (as a time limit does) leaves none of its worker processes running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

# Generous bounds: the workers exit at once (death signal) or within half a second (the watch);
# these only keep a broken build from hanging the test run.
START_WAIT = 120.0
EXIT_WAIT = 30.0


def parent_of(pid: int) -> int | None:
    """The parent pid of a running process, or None if it has gone (an unreaped zombie counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, ppid = stat.rpartition(")")[2].split()[:2]  # the name in brackets may hold spaces
    return None if state in ("Z", "X") else int(ppid)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and parent_of(int(entry.name)) == pid:
            found.append(int(entry.name))
    return found


def wait_for(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def kill_and_check_children_exit(parent: subprocess.Popen[bytes], count: int) -> None:
    assert wait_for(lambda: len(children_of(parent.pid)) >= count, START_WAIT), "the workers never started"
    workers = children_of(parent.pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    try:
        assert wait_for(lambda: all(parent_of(pid) is None for pid in workers), EXIT_WAIT), (
            f"workers still running after the parent was killed: {[w for w in workers if parent_of(w)]}"
        )
    finally:
        for pid in workers:  # never leave them behind, even when the test fails
            if parent_of(pid) is not None:
                os.kill(pid, signal.SIGKILL)


def test_killed_tournament_leaves_no_worker(tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "risk",
        "tournament",
        "--bots",
        "continental,continental,continental",
        "--games",
        "400",
        "--workers",
        "2",
        "--out",
        str(tmp_path / "out"),
    ]
    parent = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kill_and_check_children_exit(parent, 2)
    assert not list((tmp_path / "out").glob("results.json"))  # it really was stopped part way


def test_the_watch_alone_ends_an_orphaned_worker() -> None:
    """The portable fallback, without the Linux death signal: a child watching its parent exits."""
    program = textwrap.dedent(
        """
        import multiprocessing, os, time
        from risk.play.parallel import watch_parent

        def worker(parent_pid):
            watch_parent(parent_pid)
            time.sleep(600)

        if __name__ == "__main__":
            child = multiprocessing.get_context("fork").Process(target=worker, args=(os.getpid(),))
            child.start()
            time.sleep(600)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", program])
    kill_and_check_children_exit(parent, 1)
