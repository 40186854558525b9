"""A server restarting with N unfinished games in its store (issue 21, item 5), run by hand:

    .venv/bin/python benchmarks/bench_restart.py [--games 0,10,100,1000] [--db sqlite|postgresql]
        [--base SRC] [--stores DIR] [--json]

For each N, a store of N unfinished games is made (200 to 800 actions played in each, so replaying a
game costs something). One game in 20 is of three quick bots, which play on and on; the others have
one to three human seats (those of three, with a week-long turn clock that does not run out during a
run) and wait for a player, but for every fourth game with a bot, stopped at a bot's move (its bots
move until a player's turn comes): a quarter of the games are at a bot's move. A real `risk serve`
process is started on a copy of the store and measured from the moment the process starts:

- ``lobby s``: until the lobby page (``/``) answers, and ``api s``: until ``/api/games`` answers right
  after it;
- ``summary ms`` and ``view ms``: the first ``/api/games/{id}`` and ``/api/games/{id}/view`` (with the
  token of the player to move) of five games where a player is to move, asked for one after the other
  as soon as the lobby answers (median / slowest);
- ``bots s``: until every game whose next move was a bot's has moved again, nobody asking for it.

``--base SRC`` measures another release too, in the same run: SRC is the ``src`` folder of its
checkout (e.g. ``git archive <commit> | tar -x -C /tmp/risk-base``), run with PYTHONPATH=SRC, on a
store made by that release; and then this tree on a copy of that store ("upgraded": the first start
after an upgrade, where the rows do not yet say who is to act). SQLite stores are kept in ``--stores``
(made once per release and size, then reused: a run works on a copy); PostgreSQL ones live in a
throwaway cluster (tests/pg.py) for the run. The figures are in docs/reliability.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/pg.py, tests/live_server.py

from live_server import free_port  # noqa: E402

PATTERNS = ["hbb"] * 7 + ["hhb"] * 6 + ["hhh"] * 6 + ["bbb"]  # seats: h human, b quick bot
TIMED = "hhh"  # games of three players with a week-long turn clock (it never runs out in a run)
WEEK = 7 * 24 * 3600.0
ACTIONS = (200, 800)
BOT_DELAY = 0.5
SAMPLES = 5  # games whose first pages are timed
QUIET = ("--log-level", "warning")
BOTS_CAP = 240.0  # seconds a run waits for every bot game to move again


# -- making a store (run with the measured release's PYTHONPATH) -------------------------------------
def make_store(url: str, games: int, seed: int, plan_path: Path) -> None:
    """N unfinished games played in memory by quick bots (the humans' moves through their tokens), then
    stored in one transaction each; the plan (ids, tokens, who is to move) is written as JSON."""
    from risk.bots import make_bot
    from risk.server.master import GameMaster, GameSpec, SeatSpec
    from risk.server.sql import SqlStorage
    from risk.server.storage import MemoryStorage, Progress
    from risk.view import View

    memory = MemoryStorage()
    master = GameMaster(memory)
    store = SqlStorage(url, sqlite_synchronous="NORMAL") if url.startswith("sqlite") else SqlStorage(url)
    rng = random.Random(seed)
    plan: list[dict[str, Any]] = []
    game_seed = seed * 1_000_000
    while len(plan) < games:
        kinds = PATTERNS[len(plan) % len(PATTERNS)]
        game_seed += 1
        spec = GameSpec(
            seats=[
                SeatSpec("human", f"P{i + 1}") if kind == "h" else SeatSpec("bot", bot="quick")
                for i, kind in enumerate(kinds)
            ],
            seed=game_seed,
            bot_delay=BOT_DELAY,
            defend_timeout=0,
            turn_time=WEEK if kinds == TIMED else 0,
        )
        record, created = master.create_game(spec)
        tokens = [seat.token for seat in created]
        target = rng.randint(*ACTIONS)
        live = master.live(record.id)
        # Most games with players stop at a player's move (bots move in a second, players take longer);
        # every fourth of those with a bot, and the games of bots alone, at a bot's.
        at_bot = kinds == "bbb" or ("b" in kinds and len(plan) % 4 == 0)
        while not live.game.is_over and (
            live.state_id < target or (tokens[live.game.to_act] is None) != at_bot
        ):
            seat, state_id = live.game.to_act, live.state_id
            view = View(live.game.copy(), seat)
            text = view.action_text(make_bot("quick", game_seed + state_id).choose(view))
            if tokens[seat] is None:
                master.submit_as(record.id, seat, text, state_id)
            else:
                master.submit(record.id, tokens[seat], text, state_id)
        if live.game.is_over:
            continue  # a short game: another takes its place
        final = memory.get_game(record.id)
        assert final is not None
        store.create_game(replace(final, state_id=0))
        progress = Progress(**{f.name: getattr(final, f.name) for f in fields(Progress)})
        store.append_actions(record.id, memory.actions(record.id), progress)
        to_act = live.game.to_act
        plan.append(
            {
                "id": record.id,
                "bot": master.bot_turn(record.id) is not None,
                "state_id": live.state_id,
                "token": tokens[to_act],
            }
        )
        master.forget(record.id)
    store.close()
    plan_path.write_text(json.dumps(plan))


# -- stores, kept or throwaway ---------------------------------------------------------------------
class Stores:
    """Where each release's stores are: SQLite files kept in a folder, or a throwaway PostgreSQL."""

    def __init__(self, kind: str, folder: Path) -> None:
        self.kind, self.folder = kind, folder
        self.cluster: Any = None
        self.made: set[str] = set()
        folder.mkdir(parents=True, exist_ok=True)
        if kind == "postgresql":
            from pg import PgCluster

            self.cluster = PgCluster()
            self.cluster.start()

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()

    def pristine(self, src: str, label: str, games: int) -> tuple[str, list[dict[str, Any]]]:
        """The URL of the store of ``games`` games made by the release in ``src`` (made if missing)."""
        name = f"{label}_{games}"
        plan_path = self.folder / f"{self.kind}-{name}.json"
        if self.kind == "sqlite":
            url = f"sqlite:///{self.folder / f'{name}.sqlite3'}"
            fresh = not plan_path.exists()
            if fresh:
                (self.folder / f"{name}.sqlite3").unlink(missing_ok=True)
        else:
            url = self.cluster.url(name)
            fresh = name not in self.made
            if fresh:
                self.cluster.create_database(name)
                self.made.add(name)
        if fresh:
            started = time.monotonic()
            subprocess.run(
                [sys.executable, __file__, "--make", url, "--games", str(games), "--plan", str(plan_path)],
                env=os.environ | {"PYTHONPATH": src},
                check=True,
            )
            print(f"  made {name} ({self.kind}) in {time.monotonic() - started:.0f} s", file=sys.stderr)
        return url, json.loads(plan_path.read_text())

    def copy(self, url: str, games: int) -> str:
        """A copy of a pristine store for one run (a run changes it: its bots move)."""
        if self.kind == "sqlite":
            source = Path(url.removeprefix("sqlite:///"))
            target = self.folder / f"run-{games}.sqlite3"
            for suffix in ("-wal", "-shm", ""):
                Path(f"{target}{suffix}").unlink(missing_ok=True)
                if Path(f"{source}{suffix}").exists():
                    shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
            return f"sqlite:///{target}"
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(plain(self.cluster.url("postgres")), autocommit=True) as conn:
            conn.execute('DROP DATABASE IF EXISTS "run" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "run" TEMPLATE "{name}"')  # type: ignore[arg-type]
        return self.cluster.url("run")


def plain(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq takes it."""
    return url.replace("postgresql+psycopg://", "postgresql://")


def state_ids(url: str) -> dict[str, int]:
    """Every game's stored state id, read beside the server (never through risk: no schema upgrade)."""
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as conn:
            return dict(conn.execute("SELECT id, state_id FROM games").fetchall())
    import psycopg

    with psycopg.connect(plain(url)) as conn:
        return dict(conn.execute("SELECT id, state_id FROM games").fetchall())  # type: ignore[arg-type]


# -- one run -------------------------------------------------------------------------------------------
def get(port: int, path: str, token: str | None = None) -> float:
    """Milliseconds for one GET that must answer 200."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    started = time.perf_counter()
    with urllib.request.urlopen(
        urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers), timeout=60
    ) as answer:
        answer.read()
        assert answer.status == 200, (path, answer.status)
    return (time.perf_counter() - started) * 1000


def measure(src: str, url: str, plan: list[dict[str, Any]], log: Path) -> dict[str, Any]:
    port = free_port()
    bots = {g["id"]: g["state_id"] for g in plan if g["bot"]}
    waiting = [g for g in plan if not g["bot"]]
    samples = [waiting[i * len(waiting) // SAMPLES] for i in range(min(SAMPLES, len(waiting)))]
    with log.open("wb") as out:
        started = time.monotonic()
        process = subprocess.Popen(
            [sys.executable, "-m", "risk", "serve", "--port", str(port), "--db", url, *QUIET],
            env=os.environ | {"PYTHONPATH": src},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            while True:
                try:
                    get(port, "/")
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() - started > 120:
                        raise RuntimeError(f"the server did not start: see {log}") from None
                    time.sleep(0.01)
            lobby = time.monotonic() - started
            get(port, "/api/games")
            api = time.monotonic() - started
            summaries, views = [], []
            for game in samples:
                summaries.append(get(port, f"/api/games/{game['id']}"))
                views.append(get(port, f"/api/games/{game['id']}/view", game["token"]))
            moving = None
            while time.monotonic() - started < BOTS_CAP:
                now = state_ids(url)
                if all(now[game_id] > state_id for game_id, state_id in bots.items()):
                    moving = time.monotonic() - started
                    break
                time.sleep(0.1)
        finally:
            process.kill()
            process.wait(10)
    return {
        "games": len(plan),
        "bot_games": len(bots),
        "lobby_s": round(lobby, 2),
        "api_s": round(api, 2),
        "summary_ms": [round(statistics.median(summaries)), round(max(summaries))] if summaries else None,
        "view_ms": [round(statistics.median(views)), round(max(views))] if views else None,
        "bots_s": None if moving is None else round(moving, 1),
    }


def _pair(values: list[int] | None) -> str:
    return "-" if values is None else f"{values[0]} / {values[1]}"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| release | games | bot games | lobby s | api s | summary ms | view ms | bots s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        bots = row["bots_s"] if row["bots_s"] is not None else f"> {BOTS_CAP:.0f}"
        bots = bots if row["bot_games"] else "-"
        lines.append(
            f"| {row['release']} | {row['games']:,} | {row['bot_games']} | {row['lobby_s']} | {row['api_s']} "
            f"| {_pair(row['summary_ms'])} | {_pair(row['view_ms'])} | {bots} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="0,10,100,1000", help="store sizes, comma-separated")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--base", help="the src folder of another release, measured too")
    parser.add_argument("--stores", type=Path, default=Path("/var/tmp/risk-bench-restart"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seed", type=int, default=21_005)
    parser.add_argument("--make", help=argparse.SUPPRESS)  # internal: make one store (this release)
    parser.add_argument("--plan", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:
        make_store(args.make, int(args.games), args.seed, args.plan)
        return
    sources = {"this": str(ROOT / "src")}
    releases = [("this", "this", "this")]  # (row, the release that runs, the release that made the store)
    if args.base:
        sources["base"] = str(Path(args.base).resolve())
        releases = [("base", "base", "base"), ("this", "this", "this"), ("upgraded", "this", "base")]
    stores = Stores(args.db, args.stores)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as logs:
            for games in [int(n) for n in args.games.split(",")]:
                for name, runs, made_by in releases:
                    pristine, plan = stores.pristine(sources[made_by], made_by, games)
                    url = stores.copy(pristine, games)
                    log = Path(logs) / f"{name}-{games}.log"
                    row = {"release": name} | measure(sources[runs], url, plan, log)
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr)
    finally:
        stores.close()
    print(json.dumps(rows, indent=1) if args.json else table(rows))


if __name__ == "__main__":
    main()
