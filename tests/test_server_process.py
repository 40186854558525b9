"""A real `risk serve` process: killed with SIGKILL mid-game, started again, and the game goes on
exactly as it would have, on SQLite and on PostgreSQL. Nothing acknowledged is lost."""

from __future__ import annotations

import json
import signal
import time
from typing import Any

import pytest
from websockets.sync.client import connect

from live_server import free_port, post, server
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.sql import SqlStorage
from risk.server.storage import MemoryStorage

SEATS = [("human", "Ann"), ("bot", "quick"), ("bot", "fortress")]
SEED = 424_242


def passive_choice(legal: list[dict[str, Any]]) -> str:
    """The human's deterministic play: end phases when it may, else the first action with its most."""
    texts = [g["text"] for g in legal]
    for ending in ("endattack", "endturn"):
        if ending in texts:
            return ending
    group = legal[0]
    return group["text"] if "max" not in group else f"{group['text']} {group['max']}"


def reference_actions() -> list[tuple[int, str]]:
    """The same game played in this process with nothing killed."""
    master = GameMaster(MemoryStorage())
    record, created = master.create_game(
        GameSpec(
            seats=[SeatSpec(k, n if k == "human" else "", n if k == "bot" else None) for k, n in SEATS],
            seed=SEED,
            bot_delay=0,
            defend_timeout=0,
        )
    )
    token = created[0].token
    live = master.live(record.id)
    while not live.game.is_over:
        turn = master.bot_turn(record.id)
        if turn is None:
            legal = master.state_message(record.id, 0)["legal"]
            master.submit(record.id, token, passive_choice(legal), live.state_id)
        else:
            master.submit_as(record.id, turn[0], turn[2](), turn[1])
    return [(a.seat, a.text) for a in master.storage.actions(record.id)]


def play_human(port: int, game_id: str, token: str, acked: list[int], stop_after: int | None) -> bool:
    """Play seat 0 over a websocket until the game ends (True) or ``stop_after`` acks (False)."""
    with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/ws", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            if message["type"] == "ack":
                acked.append(message["state_id"])
                if stop_after is not None and len(acked) >= stop_after:
                    return False
            elif message["type"] == "error":
                assert message["code"] == "stale", message  # a bot moved first: the next state follows
            elif message["type"] == "state":
                if message["status"] == "over":
                    return True
                if message["legal"]:
                    ws.send(
                        json.dumps(
                            {
                                "type": "action",
                                "action": passive_choice(message["legal"]),
                                "state_id": message["state_id"],
                                "ref": message["state_id"],
                            }
                        )
                    )
    raise AssertionError("the game did not finish in time")


@pytest.mark.parametrize("kills", [1, pytest.param(3, marks=pytest.mark.slow)])  # 3: in make test-all
def test_kill_9_mid_game_and_go_on(storage_url: str, kills: int) -> None:
    expected = reference_actions()
    port = free_port()
    acked: list[int] = []
    with server(storage_url, port) as process:
        created = post(
            port,
            "/api/games",
            {
                "seats": [
                    {"kind": k, "name": n} if k == "human" else {"kind": k, "bot": n} for k, n in SEATS
                ],
                "seed": SEED,
                "bot_delay": 0,
                "defend_timeout": 0,
            },
        )
        game_id, token = created["id"], created["seats"][0]["token"]
        finished = play_human(port, game_id, token, acked, stop_after=15)
        assert not finished
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    for round_number in range(kills):
        store = SqlStorage(storage_url)
        stored = store.actions(game_id)
        store.close()
        # Every acknowledged action is stored, in its place.
        assert acked and max(acked) <= len(stored)
        assert all(stored[seq - 1].seat == 0 for seq in acked)
        assert [(a.seat, a.text) for a in stored] == expected[: len(stored)]
        with server(storage_url, port) as process:
            last = round_number == kills - 1
            finished = play_human(port, game_id, token, acked, stop_after=None if last else len(acked) + 10)
            if not last:
                process.send_signal(signal.SIGKILL)
                process.wait(10)
    assert finished
    store = SqlStorage(storage_url)
    final = [(a.seat, a.text) for a in store.actions(game_id)]
    store.close()
    assert final == expected  # the same dice, the same cards, the same bot moves: exactly the same game
    assert len(final) > 100 and len(acked) > 25
