"""Crash, any moment, the long run (issue 14, item 1), run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_crash.py [--games 50] [--kills 20] [--stores sqlite,postgresql]
        [--outages 0] [--outage-seconds 5] [--baseline] [--seed 14014] [--json]

For each store, ``--games`` games are played at once on a real `risk serve` process to the end, the
human seats by websocket clients and the bot seats by the server (tests/crash_harness.py says how),
while the server is SIGKILLed ``--kills`` times at seeded random moments and started again on the same
store. SQLite is a file in /var/tmp (a disk, where fsync means something; /tmp may be tmpfs),
PostgreSQL a throwaway cluster from tests/pg.py, fsync on. ``--outages N`` then plays the same games
again on PostgreSQL with the database server stopped N times (``pg_ctl stop -m fast``) for
``--outage-seconds`` each and the app server left alone. ``--baseline`` first plays them once on
SQLite with nothing killed, for the time it takes.

Every game must end with the record of the same game played without a fault, every acknowledged action
must be in the store (checked after every kill and at the end): ``acknowledged lost`` must be 0, and
``problems`` empty. The figures are in docs/reliability.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the harness, tests/pg.py

from crash_harness import Fault, Report, game_setups, kills, outages, run
from pg import PgCluster, unavailable_reason


def play(store: str, folder: Path, args: argparse.Namespace, fault: Fault | None, label: str) -> Report:
    setups = game_setups(args.games, args.seed)
    if store == "sqlite":
        url = f"sqlite:///{folder / f'{label}.sqlite3'}"
        return run(url, store, folder, setups, fault, args.seed, stall=args.stall, time_cap=args.seconds)
    with PgCluster() as cluster:
        if fault is None and label == "outages":
            fault = outages(cluster, args.outages, args.seed, args.outage_seconds)
        url = cluster.create_database("bench")
        return run(url, store, folder, setups, fault, args.seed, stall=args.stall, time_cap=args.seconds)


def row(label: str, report: Report) -> dict[str, Any]:
    return {"run": label} | report.summary()


COLUMNS = (  # title, the summary's key
    ("games", "games"),
    ("ended", "finished"),
    ("same", "records_identical"),
    ("actions", "actions"),
    ("acked", "acknowledged"),
    ("lost", "acknowledged_lost"),
    ("kills", "kills"),
    ("outages", "outages"),
    ("restart s", "restart_seconds_median"),
    ("resent", "resent"),
    ("taken", "resent_taken"),
    ("stored", "resent_stored"),
    ("try again", "try_again"),
    ("seconds", "seconds"),
)


def print_rows(rows: list[dict[str, Any]]) -> None:
    print(f"{'run':<20} " + " ".join(title for title, _ in COLUMNS) + " problems")
    for r in rows:
        cells = ["-" if r[key] is None else str(r[key]) for _, key in COLUMNS]
        print(
            f"{r['run']:<20} " + " ".join(f"{c:>{len(t)}}" for c, (t, _) in zip(cells, COLUMNS, strict=True)),
            end="",
        )
        print(f" {len(r['problems']):>8}")
    for r in rows:
        for problem in r["problems"][:10]:
            print(f"{r['run']}: {problem}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    parser.add_argument("--kills", type=int, default=20, help="SIGKILLs of the server per store (default 20)")
    parser.add_argument("--stores", default="sqlite,postgresql", help="sqlite, postgresql or both (default)")
    parser.add_argument("--outages", type=int, default=0, help="PostgreSQL stops in a run of their own")
    parser.add_argument("--outage-seconds", type=float, default=5.0, help="how long each lasts (default 5)")
    parser.add_argument("--baseline", action="store_true", help="first play on SQLite with no fault")
    parser.add_argument("--seed", type=int, default=14_014, help="the first game's seed and the kills' seed")
    parser.add_argument("--stall", type=float, default=120.0, help="seconds without a move: a problem")
    parser.add_argument("--seconds", type=float, default=3600.0, help="time cap of one run (default 3600)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    args.games = max(1, min(args.games, 500))
    args.kills = max(0, min(args.kills, 1000))
    stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    for store in stores:
        if store not in ("sqlite", "postgresql"):
            parser.error(f"no store {store!r}: sqlite, postgresql")
    no_postgres = unavailable_reason()

    rows: list[dict[str, Any]] = []
    on_disk = "/var/tmp" if Path("/var/tmp").is_dir() else None
    with tempfile.TemporaryDirectory(prefix="risk-bench-crash-", dir=on_disk) as name:
        folder = Path(name)
        if args.baseline:
            rows.append(row("sqlite, no fault", play("sqlite", folder, args, None, "baseline")))
        for store in stores:
            if store == "postgresql" and no_postgres:
                print(f"postgresql: not measured, {no_postgres}", file=sys.stderr)
                continue
            report = play(store, folder, args, kills(args.kills, args.seed), "kills")
            rows.append(row(f"{store}, {args.kills} kills", report))
        if args.outages and not no_postgres:
            report = play("postgresql", folder, args, None, "outages")
            rows.append(row(f"postgresql, {args.outages} stops", report))

    if args.json:
        machine = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}
        print(json.dumps({"settings": vars(args), "machine": machine, "runs": rows}, indent=2))
    else:
        print(
            f"{args.games} games at once (2 websocket players and 1 server bot each), seed {args.seed}; "
            f"Python {platform.python_version()}, {os.cpu_count()} CPUs"
        )
        print_rows(rows)
    if any(r["problems"] or r["acknowledged_lost"] for r in rows):
        sys.exit(1)


if __name__ == "__main__":
    main()
