"""Timings for risk.odds; run by hand: .venv/bin/python benchmarks/bench_odds.py [--runs N]

Every run clears the result cache first, so the figures are for real computations ("cold"). NumPy,
which the float engine imports on its first long battle, is imported before the timings.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from risk.odds import chain, clear_cache, invasion


@dataclass(frozen=True)
class Case:
    label: str
    work: Callable[[], object]
    runs: int  # measured runs at --runs 1 (scaled up by --runs)
    describe: Callable[[], str]


def table(size: int) -> list[float]:
    """P(attacker wins) for every battle of 1..size attackers against 1..size defenders."""
    return [invasion(a, d).attacker_wins for a in range(1, size + 1) for d in range(1, size + 1)]


CASES = (
    Case(
        "invasion(1000, 1000)",
        lambda: invasion(1000, 1000),
        15,
        lambda: f"attacker_wins = {invasion(1000, 1000).attacker_wins:.6f}",
    ),
    Case("10x10 table (100 invasions)", lambda: table(10), 15, lambda: f"sum = {sum(table(10)):.6f}"),
    Case("60x60 table (3600 invasions)", lambda: table(60), 3, lambda: f"sum = {sum(table(60)):.6f}"),
    Case(
        "invasion(10000, 10000)",
        lambda: invasion(10_000, 10_000),
        2,
        lambda: f"attacker_wins = {invasion(10_000, 10_000).attacker_wins:.6f}",
    ),
    Case(
        "chain(1000, [140] * 8)",
        lambda: chain(1000, [140] * 8),
        5,
        lambda: f"takes_all = {chain(1000, [140] * 8).takes_all:.6f}",
    ),
    Case(
        "chain(25, [3, 2, 5, 1, 4, 2, 3])",
        lambda: chain(25, [3, 2, 5, 1, 4, 2, 3]),
        15,
        lambda: f"takes_all = {chain(25, [3, 2, 5, 1, 4, 2, 3]).takes_all:.6f}",
    ),
    Case(
        "invasion(100, 100, exact=True)",
        lambda: invasion(100, 100, exact=True),
        5,
        lambda: f"attacker_wins = {float(invasion(100, 100, exact=True).attacker_wins):.6f}",
    ),
    Case(
        "invasion(300, 300, exact=True)",
        lambda: invasion(300, 300, exact=True),
        3,
        lambda: f"attacker_wins = {float(invasion(300, 300, exact=True).attacker_wins):.6f}",
    ),
    Case(
        "chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True)",
        lambda: chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True),
        5,
        lambda: f"takes_all = {float(chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True).takes_all):.6f}",
    ),
)


def cold_times(work: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of `runs` runs of `work`, each after clearing the cache."""
    timings = []
    for _ in range(runs):
        clear_cache()
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="multiply every case's runs by this (default 1)")
    scale = parser.parse_args().runs
    if scale < 1:
        parser.error("--runs must be at least 1")
    invasion(200, 200)  # the first long battle imports NumPy: not part of any timing below
    print(f"{'case (cold cache)':<46} {'fastest':>10} {'median':>10} {'runs':>5}")
    for case in CASES:
        timings = cold_times(case.work, case.runs * scale)
        fastest, median = min(timings) * 1000, statistics.median(timings) * 1000
        print(f"{case.label:<46} {fastest:7.2f} ms {median:7.2f} ms {len(timings):5}   {case.describe()}")


if __name__ == "__main__":
    main()
