"""Vector environments on RISK: steps per second, one process against several (issue 40 item 4).

    .venv/bin/python benchmarks/bench_vector.py                       # risk/Crossroads-v0 and risk/Classic-v0
    .venv/bin/python benchmarks/bench_vector.py --envs 1 2 4 --batched 8 16 --workers 2 --seconds 20
    .venv/bin/python benchmarks/bench_vector.py --vectors batched --batched 16 --json out.json

For each set-up and each number of environments N: Gymnasium's ``SyncVectorEnv`` (the N
environments stepped one after the other in this process) and ``AsyncVectorEnv`` (one process per
environment), N from ``--envs``; and :class:`risk.env.RiskVectorEnv` ("batched": the N environments
split over ``--workers`` processes, each stepping its share in a batch), N from ``--batched``. Each
steps random legal actions (read from ``infos["action_mask"]``) for ``--seconds`` of wall time
after a warm-up; games that end are reset by the vector (its autoreset). Prints agent steps per
second (all environments together) and the speed-up over one environment in one process. The
machine's cores and load average are printed: on a machine with C free cores, a vector of processes
can scale to about C times one environment, no further.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import risk.env  # registers the risk/... ids

# The vectors compared; "batched" is risk.env.RiskVectorEnv (made with --workers in main).
VECTORS: dict[str, Any] = {
    "sync": gymnasium.vector.SyncVectorEnv,
    "async": gymnasium.vector.AsyncVectorEnv,
    "batched": risk.env.RiskVectorEnv,
}


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One legal action per row of ``masks``, uniformly at random, in one pass over the masks (a
    row with none, a game that ended, gets 0: the vector resets that game and ignores the action)."""
    # The legal actions row by row (a flat search of booleans: NumPy's 2-D nonzero of int8 is 20x slower).
    rows, columns = np.divmod(np.flatnonzero(masks != 0), masks.shape[1])
    if not len(columns):
        return np.zeros(len(masks), dtype=np.int64)
    counts = np.bincount(rows, minlength=len(masks))
    starts = np.cumsum(counts) - counts
    chosen = starts + (rng.random(len(masks)) * counts).astype(np.int64)
    return np.where(counts > 0, columns[np.minimum(chosen, len(columns) - 1)], 0)


def rate(vectoriser: Any, env_id: str, envs: int, seconds: float) -> float:
    """Agent steps per second of ``envs`` environments stepped by ``vectoriser``."""
    vector = vectoriser([lambda: gymnasium.make(env_id) for _ in range(envs)])
    try:
        rng = np.random.default_rng(0)
        _, infos = vector.reset(seed=0)

        def step_once() -> None:
            nonlocal infos
            masks = infos["action_mask"]
            actions = random_legal(masks, rng)
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
    parser.add_argument("--vectors", nargs="+", choices=VECTORS, default=list(VECTORS))
    parser.add_argument("--envs", nargs="+", type=int, default=[1, 2, 4], help="N for sync and async")
    parser.add_argument("--batched", nargs="+", type=int, default=[8, 16], help="N for the batched vector")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="the batched vector's processes"
    )
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}")
    rows: list[dict[str, Any]] = []
    for env_id in args.env_id:
        single = rate(gymnasium.vector.SyncVectorEnv, env_id, 1, args.seconds)
        print(f"{env_id}: one environment, one process: {single:,.0f} steps/s")
        for name in args.vectors:
            for envs in args.batched if name == "batched" else args.envs:
                workers = min(args.workers, envs)
                if name == "batched":
                    label = f"batched, {envs} envs over {workers} workers"
                    vectoriser: Any = partial(risk.env.RiskVectorEnv, workers=workers)
                else:
                    label = f"{name}, {envs} envs"
                    vectoriser = VECTORS[name]
                steps = (
                    single if (name, envs) == ("sync", 1) else rate(vectoriser, env_id, envs, args.seconds)
                )
                load = os.getloadavg()[0]
                rows.append(
                    {
                        "env_id": env_id,
                        "vector": name,
                        "envs": envs,
                        "workers": workers if name == "batched" else (envs if name == "async" else 0),
                        "steps_per_s": steps,
                        "speedup": steps / single,
                        "load": load,
                    }
                )
                print(f"  {label:34} {steps:8,.0f} steps/s ({steps / single:.2f}x)  load {load:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
