"""Gymnasium's vector environments on RISK: steps per second, one process against several (issue 40 item 4).

    .venv/bin/python benchmarks/bench_vector.py                       # risk/Crossroads-v0 and risk/Classic-v0
    .venv/bin/python benchmarks/bench_vector.py --envs 1 2 4 --seconds 20
    .venv/bin/python benchmarks/bench_vector.py --env-id risk/TwoPlayer-v0 --json out.json

For each set-up and each number of environments N: ``SyncVectorEnv`` (the N environments stepped one
after the other in this process) and ``AsyncVectorEnv`` (one process per environment), each stepping
random legal actions (read from ``infos["action_mask"]``) for ``--seconds`` of wall time after a
warm-up; games that end are reset by the vector (its autoreset). Prints agent steps per second
(all environments together) and the speed-up over one environment in one process. The machine's
cores and load average are printed: on a machine with C free cores, the asynchronous vector can
scale to about C times one environment, no further.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import risk.env  # noqa: F401  (registers the risk/... ids)


def rate(vectoriser: Any, env_id: str, envs: int, seconds: float) -> float:
    """Agent steps per second of ``envs`` environments stepped by ``vectoriser``."""
    vector = vectoriser([lambda: gymnasium.make(env_id) for _ in range(envs)])
    try:
        rng = np.random.default_rng(0)
        _, infos = vector.reset(seed=0)

        def step_once() -> None:
            nonlocal infos
            masks = infos["action_mask"]
            actions = np.array([rng.choice(np.flatnonzero(mask)) if mask.any() else 0 for mask in masks])
            _, _, _, _, infos = vector.step(actions)

        for _ in range(50):  # warm-up: processes started, boards loaded
            step_once()
        steps, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            step_once()
            steps += envs
        return steps / (time.perf_counter() - started)
    finally:
        vector.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env-id", nargs="+", default=["risk/Crossroads-v0", "risk/Classic-v0"])
    parser.add_argument("--envs", nargs="+", type=int, default=[1, 2, 4])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}")
    rows: list[dict[str, Any]] = []
    for env_id in args.env_id:
        single = rate(gymnasium.vector.SyncVectorEnv, env_id, 1, args.seconds)
        print(f"{env_id}: one environment, one process: {single:,.0f} steps/s")
        for envs in args.envs:
            for name, vectoriser in (
                ("sync", gymnasium.vector.SyncVectorEnv),
                ("async", gymnasium.vector.AsyncVectorEnv),
            ):
                steps = (
                    single if (name, envs) == ("sync", 1) else rate(vectoriser, env_id, envs, args.seconds)
                )
                rows.append(
                    {
                        "env_id": env_id,
                        "vector": name,
                        "envs": envs,
                        "steps_per_s": steps,
                        "speedup": steps / single,
                    }
                )
                print(f"  {name:5} x{envs}: {steps:8,.0f} steps/s ({steps / single:.2f}x)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
