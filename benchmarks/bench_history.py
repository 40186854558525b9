"""Timings and sizes of risk.history (the summary of a game); run by hand:

    .venv/bin/python benchmarks/bench_history.py

For bot games of a few sizes: the best of 5 runs of `summarize` (a finished game, as the server does)
and of `summarize_record` (an uploaded record: parsing and checking it against its seed too), and the
size of the answer as JSON, plain and gzipped (as the server sends it).
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable

from risk.history import summarize, summarize_record
from risk.play.simulate import play_game
from risk.record import write_record
from risk.rules.options import Rules

EXPERTS = Rules.preset("1993").with_options(attack_advantage="on", commanders="on")
ACTIVE_NEUTRALS = Rules.preset("2003").for_game("two-player").with_options(neutral_mode="active")
GAMES = [
    ("2008 world, 3 bots", Rules.preset("2008"), ["quick", "continental", "fortress"], 42),
    ("1993 world, experts' dice, 3 bots", EXPERTS, ["quick", "quick", "quick"], 5),
    ("2003 2-player, active neutrals", ACTIVE_NEUTRALS, ["quick", "quick"], 5),
]


def best(work: Callable[[], object], repeats: int = 5) -> float:
    timings = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> None:
    columns = ("actions", "record", "summarize", "from record", "JSON", "gzip")
    print(f"{'game':<36}", *(f"{c:>{w}}" for c, w in zip(columns, (8, 9, 10, 12, 9, 8), strict=True)))
    for label, rules, bots, seed in GAMES:
        game, report = play_game(rules, bots, seed=seed)
        text = write_record(game)
        body = json.dumps(summarize(game), separators=(",", ":")).encode()
        print(
            f"{label:<36} {report.actions:>8} {len(text) / 1024:>7.0f}KB"
            f" {best(lambda g=game: summarize(g)) * 1000:>8.0f}ms"
            f" {best(lambda t=text: summarize_record(t)) * 1000:>10.0f}ms"
            f" {len(body) / 1024:>7.0f}KB {len(gzip.compress(body, 6)) / 1024:>6.0f}KB"
        )


if __name__ == "__main__":
    main()
