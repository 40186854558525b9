"""Wall-clock time of short `risk` commands, start to exit; run by hand:

    .venv/bin/python benchmarks/bench_startup.py [--runs N]

Each command runs N times in a fresh process (after one unmeasured warm-up run, so the files are
in the OS cache); the table gives the median and the fastest run. Most of a short command's time
is Python importing modules, so `python -X importtime -c "import risk.cli"` says where it goes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("simulate", "--games", "1"),
    ("--help",),
    ("odds", "10", "10"),
)


def risk_command() -> list[str]:
    """The installed `risk` script next to this Python, else `python -m risk`."""
    script = Path(sys.executable).with_name("risk")
    return [str(script)] if script.exists() else [sys.executable, "-m", "risk"]


def wall_times(command: list[str], runs: int) -> list[float]:
    """Seconds for each of `runs` runs of `command` (stdout discarded; a failure stops the benchmark)."""
    environment = {**os.environ, "COLUMNS": "100"}
    times = []
    for run in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
        if run:  # the first run only warms the OS file cache
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="measured runs per command (default 9)")
    runs = parser.parse_args().runs
    if runs < 1:
        parser.error("--runs must be at least 1")
    base = risk_command()
    print(f"{'command':<32} {'median':>9} {'fastest':>9}   ({runs} runs each)")
    for arguments in COMMANDS:
        times = wall_times([*base, *arguments], runs)
        label = " ".join(["risk", *arguments])
        print(f"{label:<32} {statistics.median(times):8.3f}s {min(times):8.3f}s")


if __name__ == "__main__":
    main()
