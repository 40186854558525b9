"""Games per second on the local process pool and on a local Ray, for the same games; run by hand:

    .venv/bin/python benchmarks/bench_backends.py [--games N] [--workers W] [--rounds R] [--max-turns T]
        [--bots A,B,C]

Plays the same batch (risk.play.batch: by default 3 quick bots, 2008 rules, the turns table collected, as
`risk simulate --out` does) on each backend with W parallel workers (default 2): in this process (one
worker, the baseline), on the local pool and on a local Ray started with W CPUs. Ray's
start-up is timed apart (it is paid once per run, or never when joining a running cluster), and each
backend plays the batch R times (default 3), the median and the best reported, the backends taking
turns so that a change in the machine's load falls on all of them (on a busy machine the best is the
steadier figure). The games are checked to be the same on every backend.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from risk.play.batch import SimulationJob, play_simulation, simulation_jobs
from risk.play.parallel import run_jobs
from risk.rules.options import Rules


def play_batch(jobs: list[SimulationJob], **where: object) -> tuple[float, list[tuple[int, int, int | None]]]:
    """Seconds to play the jobs, and each game's (turns, actions, winner) in game order."""
    started = time.perf_counter()
    games = {}
    for outcome in run_jobs(play_simulation, jobs, **where):  # type: ignore[arg-type]
        assert outcome.error is None, outcome.error
        report = outcome.result.report
        games[outcome.position] = (report.turns, report.actions, report.winner)
    return time.perf_counter() - started, [games[k] for k in sorted(games)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=300)
    parser.add_argument("--bots", default="quick,quick,quick", help="bots by seat (2008 rules)")
    options = parser.parse_args()
    bots = options.bots.split(",")
    jobs = simulation_jobs(
        Rules.preset("2008"),
        bots,
        options.games,
        seed=1,
        max_turns=options.max_turns,
        collect_turns=True,
    )

    import ray

    print(
        f"{options.games} games ({options.bots}, 2008, turns collected), {options.workers} workers, "
        f"{options.rounds} rounds; load average {os.getloadavg()[0]:.1f} at the start"
    )
    _, reference = play_batch(jobs, workers=1)
    started = time.perf_counter()
    ray.init(num_cpus=options.workers, include_dashboard=False, log_to_driver=False)
    ray_start = time.perf_counter() - started
    timings: dict[str, list[float]] = {"one process": [], "local pool": [], "ray": []}
    backends = (
        ("one process", {"workers": 1}),
        ("local pool", {"workers": options.workers}),
        ("ray", {"backend": "ray"}),
    )
    try:
        play_batch(jobs[: options.workers * 2], backend="ray")  # workers started and warm
        for _ in range(options.rounds):
            for name, where in backends:
                seconds, games = play_batch(jobs, **where)
                assert games == reference, f"{name} played other games"
                timings[name].append(seconds)
    finally:
        ray.shutdown()
    for name, runs in timings.items():
        median = statistics.median(runs)
        print(
            f"{name:<12} {options.games / median:8.1f} games/s (median of {len(runs)}; "
            f"best {options.games / min(runs):.1f})"
        )
    ratio = min(timings["ray"]) / min(timings["local pool"])
    print(
        f"ray start-up {ray_start:.1f} s (once per run); ray / local pool time (best): {ratio:.2f}; "
        f"load average {os.getloadavg()[0]:.1f} at the end"
    )


if __name__ == "__main__":
    main()
