"""The game master's own cost, run by hand: no network, no database, one process.

    .venv/bin/python benchmarks/bench_master.py [--games N] [--players P] [--turn-time S]

Plays whole games whose seats are all human (a quick bot decides for each, as the server benchmark's
clients do) through ``GameMaster.submit_as`` on the in-memory store, and after every action builds
and JSON-encodes the state message of every seat, as the web app sends them. Reports microseconds per
accepted action and per action's state messages: what the master adds to each action before the
store and the websockets (benchmarks/bench_server.py measures the whole server). ``--turn-time``
runs the games with a turn clock (the clock is followed after every action; nothing runs out).
"""

from __future__ import annotations

import argparse
import json
import platform
import time

from risk import View
from risk.bots import make_bot
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.storage import MemoryStorage


def play(seed: int, players: int, turn_time: float, cap: int) -> tuple[int, float, float]:
    """One game: (actions, seconds in submit_as, seconds building and encoding state messages)."""
    master = GameMaster(MemoryStorage())
    spec = GameSpec(seats=[SeatSpec("human", f"P{i}") for i in range(players)], seed=seed, bot_delay=0)
    if turn_time:
        spec.turn_time = turn_time
    record, _ = master.create_game(spec)
    live = master.live(record.id)
    bots = [make_bot("quick", seat) for seat in range(players)]
    submitting = messaging = 0.0
    actions = 0
    while not live.game.is_over and actions < cap:
        seat = live.game.to_act
        view = View(live.game, seat)
        text = view.action_text(bots[seat].choose(view))
        log_start = len(live.log)
        started = time.perf_counter()
        master.submit_as(record.id, seat, text, live.state_id)
        submitted = time.perf_counter()
        for watcher in range(players):
            json.dumps(master.state_message(record.id, watcher, log_start))
        messaging += time.perf_counter() - submitted
        submitting += submitted - started
        actions += 1
    return actions, submitting, messaging


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="games played one after another (default 5)")
    parser.add_argument("--players", type=int, default=3, help="human seats per game (default 3)")
    parser.add_argument("--turn-time", type=float, default=0, help="seconds per turn (default 0: no clock)")
    parser.add_argument(
        "--max-actions", type=int, default=1500, help="actions per game at most (default 1500)"
    )
    args = parser.parse_args()
    actions = 0
    submitting = messaging = 0.0
    for seed in range(args.games):
        count, spent_submitting, spent_messaging = play(seed, args.players, args.turn_time, args.max_actions)
        actions += count
        submitting += spent_submitting
        messaging += spent_messaging
    print(
        f"{actions} actions, {args.games} games x {args.players} human seats, turn clock "
        f"{args.turn_time or 'off'} (Python {platform.python_version()}, {platform.machine()})"
    )
    print(f"submit_as: {submitting / actions * 1e6:.0f} us per action")
    print(
        f"state messages ({args.players} seats, built and JSON-encoded): "
        f"{messaging / actions * 1e6:.0f} us per action"
    )


if __name__ == "__main__":
    main()
