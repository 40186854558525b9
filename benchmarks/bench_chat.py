"""The chat of a real web server, run by hand (never part of the tests):

    .venv/bin/python benchmarks/bench_chat.py [--games 10] [--watchers 2] [--messages 5] [--burst] [--json]

Starts `risk serve` on 127.0.0.1 over SQLite (a file in a temporary folder), creates N games of four
human seats, connects one websocket per seat and W spectators per game (docs/web.md: hello with
``chat_after``), and has every seat write M messages, one every 2.2 seconds (the server allows 5 in
10 seconds per seat), half to everyone and, in Team RISK games, half to the team. Seats start at
random moments within the first 2.2 seconds, or all at once with ``--burst`` (the worst case).
Measured: the time from sending a message to its echo on the writer's own connection (stored, then
sent), and to the last of the connections that may read it (fan-out); and errors (a refusal, a
message reaching a connection that may not read it, one missing): must be 0.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from live_server import free_port, post, server

SPACING = 2.2  # seconds between one seat's messages: under the limit of 5 in 10 seconds


class Reader:
    """One connection: what it received, and when."""

    def __init__(self, seat: int | None, team: int | None) -> None:
        self.seat, self.team = seat, team
        self.heard: dict[str, float] = {}
        self.errors: list[str] = []


async def listen(socket: Any, reader: Reader, until: asyncio.Event) -> None:
    while not until.is_set():
        try:
            raw = await asyncio.wait_for(socket.recv(), 0.5)
        except TimeoutError:
            continue
        message = json.loads(raw)
        if message["type"] == "chat":
            for entry in message["messages"]:
                reader.heard[entry["text"]] = time.perf_counter()
        elif message["type"] == "error":
            reader.errors.append(message["message"])


async def run(port: int, games: int, watchers: int, messages: int, burst: bool) -> dict[str, Any]:
    url = f"ws://127.0.0.1:{port}/api/games/%s/ws"
    sent: list[tuple[str, str, int | None, int | None, float]] = []  # text, game, seat, team, at
    readers: dict[str, list[Reader]] = {}
    sockets: list[Any] = []
    done = asyncio.Event()
    listeners = []
    writers = []
    for g in range(games):
        team_game = g % 2 == 1
        created = post(
            port,
            "/api/games",
            {
                "edition": "2003",
                "game": "team" if team_game else "world",
                "seats": [{"kind": "human", "name": f"P{g}-{i}"} for i in range(4)],
                "seed": 100 + g,
            },
        )
        game_id = created["id"]
        readers[game_id] = []
        for seat in [*range(4), *([None] * watchers)]:
            socket = await connect(url % game_id)
            token = created["seats"][seat]["token"] if seat is not None else None
            await socket.send(json.dumps({"type": "hello", "token": token, "chat_after": 0}))
            state = json.loads(await socket.recv())
            teams = [p["team"] for p in state["view"]["players"]]
            reader = Reader(seat, None if seat is None else teams[seat])
            readers[game_id].append(reader)
            sockets.append(socket)
            listeners.append(asyncio.create_task(listen(socket, reader, done)))
            if seat is not None:
                writers.append((socket, game_id, reader, team_game))

    async def write(socket: Any, game_id: str, reader: Reader, team_game: bool, start: float) -> None:
        await asyncio.sleep(start)
        for n in range(messages):
            channel = "team" if team_game and n % 2 else "all"
            text = f"{game_id} seat {reader.seat} message {n} {channel}"
            sent.append(
                (text, game_id, reader.seat, reader.team if channel == "team" else None, time.perf_counter())
            )
            await socket.send(json.dumps({"type": "chat", "text": text, "channel": channel}))
            await asyncio.sleep(SPACING)

    started = time.perf_counter()
    # Each seat starts at its own moment (seeded), or all at once with --burst: the worst case.
    starts = random.Random(1)
    await asyncio.gather(*(write(*w, 0.0 if burst else starts.uniform(0, SPACING)) for w in writers))
    await asyncio.sleep(2)  # the last messages arrive
    done.set()
    await asyncio.gather(*listeners)
    for socket in sockets:
        await socket.close()
    echo, fanout, errors = [], [], 0
    for text, game_id, seat, team, at in sent:
        may = [r for r in readers[game_id] if team is None or (r.seat is not None and r.team == team)]
        never = [r for r in readers[game_id] if r not in may]
        errors += sum(text not in r.heard for r in may) + sum(text in r.heard for r in never)
        writer = next(r for r in readers[game_id] if r.seat == seat)
        if text in writer.heard:
            echo.append(writer.heard[text] - at)
        arrivals = [r.heard[text] for r in may if text in r.heard]
        if arrivals:
            fanout.append(max(arrivals) - at)
    refusals = [e for rs in readers.values() for r in rs for e in r.errors]
    errors += len(refusals)

    def ms(values: list[float], q: float) -> float:
        values = sorted(values)
        return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1)

    return {
        "games": games,
        "connections": len(sockets),
        "messages": len(sent),
        "seconds": round(time.perf_counter() - started, 1),
        "echo_ms": {"p50": ms(echo, 0.5), "p95": ms(echo, 0.95), "max": ms(echo, 1.0)},
        "fanout_ms": {"p50": ms(fanout, 0.5), "p95": ms(fanout, 0.95), "max": ms(fanout, 1.0)},
        "mean_ms": round(1000 * statistics.mean(echo), 1),
        "errors": errors,
        "refusals": sorted(set(refusals))[:5],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--watchers", type=int, default=2, help="spectators per game")
    parser.add_argument("--messages", type=int, default=5, help="per seat")
    parser.add_argument("--burst", action="store_true", help="every seat writes at the same moments")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        with server(f"sqlite:///{folder}/games.sqlite3", port):
            result = asyncio.run(run(port, args.games, args.watchers, args.messages, args.burst))
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['messages']} messages in {result['games']} games ({result['connections']} connections), "
        f"{result['seconds']} s, errors {result['errors']}\n"
        f"to the writer:  p50 {result['echo_ms']['p50']} ms, p95 {result['echo_ms']['p95']} ms, "
        f"max {result['echo_ms']['max']} ms\n"
        f"to every reader: p50 {result['fanout_ms']['p50']} ms, p95 {result['fanout_ms']['p95']} ms, "
        f"max {result['fanout_ms']['max']} ms"
    )
    for refusal in result["refusals"]:
        print(f"refused: {refusal}")


if __name__ == "__main__":
    main()
