"""Print the digests of the golden games (tests/golden_games.py) for tests/test_golden_records.py.

    .venv/bin/python tools/golden_records.py           # the GOLDEN table, to paste into the test
    .venv/bin/python tools/golden_records.py --check   # compare with the test's table, list changes

The table in the test was made at the commit before the speed work (7da55b5): a later run that
prints a different digest means some game changed. Regenerate it only for a change of play that
is meant and measured (a tournament against the old version), and say so in the commit.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent / "tests"
sys.path.insert(0, str(TESTS))

from golden_games import golden_digest, golden_keys  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with tests/test_golden_records.py")
    args = parser.parse_args()
    expected: dict[str, str] = {}
    if args.check:
        from test_golden_records import GOLDEN

        expected = GOLDEN
    changed = 0
    print("GOLDEN = {")
    for case, seed in golden_keys():
        started = time.perf_counter()
        digest = golden_digest(case, seed)
        key = f"{case.label}/{seed}"
        note = ""
        if args.check and expected.get(key) != digest:
            changed += 1
            note = f"  # CHANGED (was {expected.get(key)})"
        print(f'    "{key}": "{digest}",{note}')
        print(f"{key}: {time.perf_counter() - started:.2f} s", file=sys.stderr)
    print("}")
    if args.check:
        print(f"{changed} of {len(golden_keys())} games changed", file=sys.stderr)
        sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
