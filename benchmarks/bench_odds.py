"""Timings for risk.odds; run by hand: .venv/bin/python benchmarks/bench_odds.py

Every run clears the result cache first, so the figures are for real computations.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from risk.odds import chain, clear_cache, invasion


def best_time(work: Callable[[], object], repeats: int) -> float:
    """Best wall-clock time of `repeats` cold runs, in seconds."""
    timings = []
    for _ in range(repeats):
        clear_cache()
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return min(timings)


def report(label: str, seconds: float, note: str) -> None:
    print(f"{label:<42} {seconds * 1000:9.2f} ms   {note}")


def main() -> None:
    cases: list[tuple[str, Callable[[], object], int, Callable[[], str]]] = [
        (
            "invasion(1000, 1000)",
            lambda: invasion(1000, 1000),
            9,
            lambda: f"attacker_wins = {invasion(1000, 1000).attacker_wins:.6f}",
        ),
        (
            "invasion(100, 100, exact=True)",
            lambda: invasion(100, 100, exact=True),
            5,
            lambda: f"attacker_wins = {float(invasion(100, 100, exact=True).attacker_wins):.6f}",
        ),
        (
            "invasion(300, 300, exact=True)",
            lambda: invasion(300, 300, exact=True),
            3,
            lambda: f"attacker_wins = {float(invasion(300, 300, exact=True).attacker_wins):.6f}",
        ),
        (
            "chain(1000, [140] * 8)",
            lambda: chain(1000, [140] * 8),
            5,
            lambda: f"takes_all = {chain(1000, [140] * 8).takes_all:.6f}",
        ),
        (
            "chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True)",
            lambda: chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True),
            5,
            lambda: f"takes_all = {float(chain(25, [3, 2, 5, 1, 4, 2, 3], exact=True).takes_all):.6f}",
        ),
    ]
    print(f"{'case (best of N cold runs)':<42} {'time':>12}")
    for label, work, repeats, describe in cases:
        report(label, best_time(work, repeats), describe())


if __name__ == "__main__":
    main()
