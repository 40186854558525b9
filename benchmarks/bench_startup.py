"""Wall-clock time of short `risk` commands, start to exit; run by hand:

    .venv/bin/python benchmarks/bench_startup.py [--runs N]

Each command runs N times in a fresh process, after one unmeasured warm-up run that puts the files
in the OS cache and lets Python write its bytecode cache, as on a user's machine (the runs clear
PYTHONDONTWRITEBYTECODE, which would make every start compile the project's sources again). The
table gives the median and fastest wall-clock time, and the median CPU time (user + system),
which a busy machine disturbs less. Most of a short command's time is Python importing modules:
`python -X importtime -c "import risk.cli.main"` says where it goes.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timings(command: list[str], runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of each of `runs` runs of `command` (a failure stops the benchmark)."""
    environment = {**os.environ, "COLUMNS": "100"}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    wall, cpu = [], []
    for run in range(runs + 1):
        cpu_before = children_cpu()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=environment)
        if run:  # the first run only warms the caches
            wall.append(time.perf_counter() - start)
            cpu.append(children_cpu() - cpu_before)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9, help="measured runs per command (default 9)")
    options = parser.parse_args()
    if options.runs < 1:
        parser.error("--runs must be at least 1")
    base = risk_command()
    header = f"{'command':<26} {'wall median':>12} {'fastest':>9} {'CPU median':>11}"
    print(f"{header}   ({options.runs} runs each)")
    for arguments in COMMANDS:
        wall, cpu = timings([*base, *arguments], options.runs)
        label = " ".join(["risk", *arguments])
        median_wall, median_cpu = statistics.median(wall), statistics.median(cpu)
        print(f"{label:<26} {median_wall:11.3f}s {min(wall):8.3f}s {median_cpu:10.3f}s")


if __name__ == "__main__":
    main()
