"""The expert bot's decision times on both builds side by side: pure Python and compiled (docs/compiled.md).

    .venv/bin/python benchmarks/compare_expert.py --players 3 4 --games 2     # after `make compiled`

For each table size, ``bench_expert.py``'s decision times (CPU seconds of the expert's searched
decisions, those over 2 ms, against ``continental`` bots, at its default budget) once on pure Python
(``RISK_PURE=1``) and once compiled, in turn, each in its own process. The time cap is lifted
(``max_seconds`` infinite) so that both builds play the very same games: on a busy machine the
0.9 s cap, in wall time, would cut the slower build's searches short and its games would part from
the other's. Run by hand; the figures go in the notes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCHMARKS = Path(__file__).resolve().parent


def measure(players: int, games: int, pure: bool) -> dict[str, Any]:
    """One build's decision times, in a process of its own (a process runs one build)."""
    env = {**os.environ, "RISK_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(players), str(games)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return dict(json.loads(done.stdout))


def child(players: int, games: int) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    from bench_expert import decision_times
    from risk.build import running_build

    times = decision_times("expert", games, players, max_seconds=math.inf)
    print(json.dumps({"build": running_build(), "load": os.getloadavg()[0], **times}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4])
    parser.add_argument("--games", type=int, default=2, help="games per table size and build")
    parser.add_argument("--child", type=int, nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    print(f"{'players':>7} {'build':<28} {'searched':>8} {'mean ms':>8} {'p95 ms':>7} {'max ms':>7} load")
    for players in args.players:
        for pure in (True, False):
            row = measure(players, args.games, pure)
            if (row["build"] == "compiled (mypyc)") == pure:
                sys.exit(
                    f"compare_expert: ran {row['build']!r} for the {'pure' if pure else 'compiled'} "
                    "build (make compiled first)"
                )
            print(
                f"{players:>7} {row['build']:<28} {row['searched']:>8} {1000 * row['mean_s']:>8.0f} "
                f"{1000 * row['p95_s']:>7.0f} {1000 * row['max_s']:>7.0f} {row['load']:>5.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
