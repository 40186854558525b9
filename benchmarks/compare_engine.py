"""Two versions of the engine side by side: bench_engine.py run alternately on each, medians compared.

    .venv/bin/python benchmarks/compare_engine.py --old /path/to/old/src [--new src] [--rounds 3]
        [--only quick continental search] [--scale 1]
    .venv/bin/python benchmarks/compare_engine.py --builds [--rounds 3] ...   # after `make compiled`

``--builds`` compares the two builds of one ``src``: pure Python (``RISK_PURE=1``) as "old", the
compiled rules core (docs/compiled.md) as "new"; each run checks that it ran the build it names.

On a shared machine the load changes from minute to minute, so the two versions take turns: each
round runs ``bench_engine.py --repeats 1`` once with each ``src`` first on the path, and every figure
is the median over the rounds. The load average seen during the runs is printed with the table.
Run by hand; the figures go in the notes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent / "bench_engine.py"


def run_bench(src: Path, only: list[str], scale: float, pure: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "figures.json"
        command = [sys.executable, str(BENCH), "--repeats", "1", "--scale", str(scale), "--json", str(out)]
        if only:
            command += ["--only", *only]
        env = {**os.environ, "PYTHONPATH": str(src.resolve()), "RISK_PURE": "1" if pure else "0"}
        subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def rows(figures: dict[str, Any]) -> dict[str, float]:
    """The figures of one run, flattened: ``quick-3 games/s``, ``search-4 mean ms`` ..."""
    flat: dict[str, float] = {}
    for key, row in figures.get("games", {}).items():
        flat[f"{key} games/s"] = row["games_per_s"]
        flat[f"{key} games/CPU s"] = row["games_per_cpu_s"]
        flat[f"{key} actions/s"] = row["actions_per_s"]
    for key, value in figures.get("engine_actions", {}).items():
        flat[f"engine {key}"] = value
    for key, row in figures.get("search", {}).items():
        flat[f"{key} mean ms"] = row["mean_searched_ms"]
        flat[f"{key} p95 ms"] = row["p95_searched_ms"]
    return flat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", type=Path, help="the old version's src folder")
    parser.add_argument("--builds", action="store_true", help="pure Python (old) against compiled (new)")
    parser.add_argument("--new", type=Path, default=Path("src"), help="the new version's src folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="+", default=[])
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    if (args.old is not None) == args.builds:
        parser.error("give either --old or --builds")
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    loads = []
    for number in range(args.rounds):
        for label, src in (("old", args.old or args.new), ("new", args.new)):
            figures = run_bench(src, args.only, args.scale, pure=args.builds and label == "old")
            if args.builds and (figures["build"] == "compiled (mypyc)") != (label == "new"):
                sys.exit(f"compare_engine: the {label} run ran {figures['build']!r} (make compiled first)")
            loads += [figures["load_before"][0], figures["load_after"][0]]
            runs[label].append(rows(figures))
            print(f"round {number + 1}: {label} done (load {figures['load_after'][0]:.2f})", file=sys.stderr)
    print(f"medians of {args.rounds} alternating rounds; 1-minute load {min(loads):.2f} to {max(loads):.2f}")
    print(f"{'figure':<36} {'old':>12} {'new':>12} {'new/old':>8}")
    for key in runs["new"][0]:
        old = statistics.median(r[key] for r in runs["old"])
        new = statistics.median(r[key] for r in runs["new"])
        print(f"{key:<36} {old:12.1f} {new:12.1f} {new / old:8.2f}")


if __name__ == "__main__":
    main()
