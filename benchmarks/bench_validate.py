"""The board validator and an upload's check: how their time grows with the board (issue 36, item 4).

    python benchmarks/bench_validate.py                       # 100, 400 and 1,000 territories
    python benchmarks/bench_validate.py --sizes 100,1000 --preview

For each size, two boards of label points on a grid (each territory linked to the ones beside it):
one valid, and one whose every neighbour name is misspelt (thousands of "no territory called ..."
problems, each once looked up with difflib against every name). Prints the CPU seconds of
``board_problems`` on each (the median of ``--repeat``), and with ``--preview`` those of the whole
check of ``POST /api/boards/check`` (risk.server.boards.checked_with_preview: the check and the
preview's drawing). Run by hand; never part of the test pass/fail.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

from risk.maps.validate import board_problems


def grid_board(territories: int, misspelt: bool = False) -> dict[str, Any]:
    columns = math.ceil(math.sqrt(territories))
    names = [f"Land {k}" for k in range(territories)]
    continents = max(1, territories // 10)
    rows = []
    for k, name in enumerate(names):
        row, column = divmod(k, columns)
        beside = [k - 1 if column else -1, k + 1 if column < columns - 1 else -1, k - columns, k + columns]
        rows.append(
            {
                "name": name,
                "continent": f"Part {k * continents // territories}",
                "card": ("infantry", "cavalry", "artillery")[k % 3],
                "label": [column * 80 + row % 2 * 20, row * 70],
                "neighbours": [names[j] + ("x" if misspelt else "") for j in beside if 0 <= j < territories],
            }
        )
    return {
        "format": 1,
        "name": f"grid-{territories}",
        "continents": [{"name": f"Part {c}", "bonus": 2} for c in range(continents)],
        "territories": rows,
    }


def cpu_seconds(work: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,400,1000", help="territory counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--preview", action="store_true", help="also the whole upload check")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        valid, misspelt = grid_board(size), grid_board(size, misspelt=True)
        row = {
            "territories": size,
            "valid_s": round(cpu_seconds(lambda b=valid: board_problems(b), args.repeat), 3),
            "misspelt_s": round(cpu_seconds(lambda b=misspelt: board_problems(b), args.repeat), 3),
            "problems": len(board_problems(misspelt)),
        }
        if args.preview:
            from risk.server.boards import checked_with_preview

            raw = json.dumps(valid).encode("utf-8")
            row["check_with_preview_s"] = round(cpu_seconds(lambda r=raw: checked_with_preview(r), 1), 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
