"""A blitz against the same attacks sent one by one, on the game master with a SQLite store; run by hand:

    .venv/bin/python benchmarks/bench_blitz.py [--games 12] [--json]

For each game (seats: a human played by the quick bot, two quick bots; seeds from --seed on), the human
plays until it has an attack of some rolls against a bot (the source above 3 armies, the target with
2 or more), and the invasion is settled twice from the same position, each in a store of its own (a
SQLite file, WAL, synchronous=FULL, as `risk serve` keeps games): once as one blitz, once as single
`attack FROM TO max` actions with the bot's defences, each committed before the next is sent, as a
client without blitz would. Both must store the same actions (checked). Measured: the wall time of
each, the rolls, and the commits.
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from risk import View
from risk.bots import make_bot
from risk.rules.game import Phase
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.sql import SqlStorage
from risk.server.storage import Progress, Storage


def attack_position(master: GameMaster, game_id: str) -> tuple[str, str] | None:
    """Play until the human (seat 0) has an attack of some rolls against a bot; its slugs."""
    human = make_bot("quick", 100)
    live = master.live(game_id)
    for _ in range(20_000):
        game = live.game
        if game.is_over:
            return None
        if game.to_act == 0 and game.phase == Phase.ATTACK:
            for group in View(game, 0).legal_groups():
                words = group["text"].split()
                if words[0] != "attack":
                    continue
                source, target = game.board.territory(words[1]), game.board.territory(words[2])
                if game.armies[source] > 3 and game.armies[target] >= 2:
                    return words[1], words[2]
        turn = master.bot_turn(game_id)
        if turn is not None:
            master.submit_as(game_id, turn[0], turn[2](), turn[1])
        else:
            view = View(game.copy(), 0)
            master.submit_as(game_id, 0, view.action_text(human.choose(view)), None)
    return None


def copy_game(source: Storage, target: Storage, game_id: str) -> None:
    record = source.get_game(game_id)
    assert record is not None
    target.create_game(replace(record, state_id=0))
    entries = source.actions(game_id)
    target.append_actions(game_id, entries, Progress(record.status, record.winner, record.turn))


def one_by_one(master: GameMaster, game_id: str, source: str, target: str) -> int:
    live = master.live(game_id)
    commits = 0
    while True:
        game = live.game
        if game.phase != Phase.ATTACK or game.to_act != 0:
            return commits
        groups = {g["text"]: g for g in View(game, 0).legal_groups()}
        group = groups.get(f"attack {source} {target}")
        if group is None or game.armies[game.board.territory(source)] <= 1:
            return commits
        master.submit_as(game_id, 0, f"attack {source} {target} {group['max']}", live.state_id)
        commits += 1
        while live.game.phase == Phase.DEFEND:
            seat, state_id, decide = master.bot_turn(game_id)  # type: ignore[misc]
            master.submit_as(game_id, seat, decide(), state_id)
            commits += 1
        battle = live.game.last_battle
        if battle is not None and battle.conquered:
            return commits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-blitz-"))
    stores = {name: SqlStorage(f"sqlite:///{folder / name}.sqlite3") for name in ("setup", "blitz", "single")}
    setup = GameMaster(stores["setup"])
    totals = {"rolls": 0, "actions": 0, "blitz_s": 0.0, "single_s": 0.0, "single_commits": 0, "invasions": 0}
    for number in range(args.games):
        seats = [SeatSpec("human", "Ann"), SeatSpec("bot", bot="quick"), SeatSpec("bot", bot="quick")]
        record, _ = setup.create_game(GameSpec(seats=seats, seed=args.seed + number, defend_timeout=0))
        found = attack_position(setup, record.id)
        if found is None:
            continue
        copy_game(stores["setup"], stores["blitz"], record.id)
        copy_game(stores["setup"], stores["single"], record.id)
        blitzing, single = GameMaster(stores["blitz"]), GameMaster(stores["single"])
        blitzing.live(record.id), single.live(record.id)  # loaded before the clock starts
        start = time.perf_counter()
        _, run = blitzing.blitz(record.id, 0, *found, 1, None)
        middle = time.perf_counter()
        commits = one_by_one(single, record.id, *found)
        end = time.perf_counter()
        same = [(a.seat, a.text) for a in stores["blitz"].actions(record.id)] == [
            (a.seat, a.text) for a in stores["single"].actions(record.id)
        ]
        assert same, f"game {number}: the blitz and the single attacks stored different actions"
        totals["rolls"] += run.rolls
        totals["actions"] += len(run.steps)
        totals["blitz_s"] += middle - start
        totals["single_s"] += end - middle
        totals["single_commits"] += commits
        totals["invasions"] += 1
    for store in stores.values():
        store.close()
    figures = {
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        **totals,
        "blitz_ms_per_invasion": 1000 * totals["blitz_s"] / max(1, totals["invasions"]),
        "single_ms_per_invasion": 1000 * totals["single_s"] / max(1, totals["invasions"]),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(
        f"{figures['invasions']} invasions, {figures['rolls']} rolls, {figures['actions']} actions stored "
        f"({figures['machine']}, SQLite WAL synchronous=FULL)\n"
        f"  one blitz each:        {figures['blitz_ms_per_invasion']:7.1f} ms per invasion, 1 commit\n"
        f"  attacks one by one:    {figures['single_ms_per_invasion']:7.1f} ms per invasion, "
        f"{figures['single_commits'] / max(1, figures['invasions']):.1f} commits"
    )


if __name__ == "__main__":
    main()
