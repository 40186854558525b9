"""The database goes away (issue 14, item 2): PostgreSQL is stopped mid-game under a real `risk serve`
(``pg_ctl stop -m fast``: open transactions rolled back, every connection cut) and started again a few
seconds later. Meanwhile players are told to try again (``unavailable``) and the API refuses what needs
the store with the same clear answer; nothing acknowledged is lost; and once the database is back the
same server process, never restarted, takes the moves again, its bots included, and every game ends
exactly as it would have (tests/crash_harness.py plays and checks the games)."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from crash_harness import Harness, ServerProcess, game_setups, outages, run
from pg import PgCluster
from risk.server.app import create_app
from risk.server.storage import (
    ActionRecord,
    Change,
    ChatRecord,
    GameFilter,
    GameRecord,
    MemoryStorage,
    Progress,
    StorageError,
)
from tiers import sizes

SEED = 14_002
# Two websocket players and a server bot in each game, but the first: three players, so that some
# player is always to move while the database is down (a game waiting on its bot asks no one).
KINDS = (
    ("2008", "capital", "hhh"),
    ("2008", "world", "hbh"),
    ("1993", "capital", "bhh"),
    ("2003", "world", "hhb"),
)
OUTAGE = 4.0  # seconds without a database


def refusal(server: ServerProcess, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str]]:
    """The status and error of a request that must be refused."""
    try:
        answer = server.request(method, path, body)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())["error"]
    raise AssertionError(f"{method} {path} answered {answer!r} while the database was down")


@pytest.mark.postgresql
# make test: the two capital games (the short ones); make test-all: every kind.
@pytest.mark.parametrize("kinds", sizes((KINDS[0::2],), (KINDS,)))
def test_database_stopped_mid_game_players_try_again_and_the_server_recovers(
    own_postgres_cluster: PgCluster, tmp_path: Path, kinds: tuple[tuple[str, str, str], ...]
) -> None:
    games = len(kinds)
    cluster = own_postgres_cluster
    seen: dict[str, Any] = {}

    async def meanwhile(harness: Harness) -> None:
        """What the API answers while the database is down: the same clear refusal."""
        seen["list"] = await asyncio.to_thread(refusal, harness.server, "GET", "/api/games")
        body = game_setups(1, SEED)[0].body()
        seen["create"] = await asyncio.to_thread(refusal, harness.server, "POST", "/api/games", body)
        seen["server alive"] = harness.server.process is not None and harness.server.process.poll() is None

    fault = outages(cluster, 1, SEED, OUTAGE, during=meanwhile)
    report = run(
        cluster.create_database("games"), "postgresql", tmp_path, game_setups(games, SEED, kinds), fault, SEED
    )

    assert report.problems == [], report.summary()
    # Told to try again, with a clear word, and by the API too; nothing was taken meanwhile but the
    # commits under way when it stopped (at most one a game).
    assert report.outages == 1 and report.try_again > 0
    for status, error in (seen["list"], seen["create"]):
        assert status == 503 and error["code"] == "unavailable" and "try again" in error["message"]
    assert report.acknowledged_in_outages <= games
    # ... and nothing about the database: that is for the server's log.
    for message in [*report.try_again_messages, seen["list"][1]["message"], seen["create"][1]["message"]]:
        assert "postgresql" not in message and str(cluster.port) not in message
    # The same process throughout: it recovered by itself.
    assert seen["server alive"] and report.server_starts == 1 and report.kills == 0
    assert report.finished == report.records_identical == games
    assert report.acknowledged_lost == 0 and report.ack_checks >= report.acknowledged > 100


# -- the same, in the process: a store that fails on demand ---------------------------------------
DOWN = "connection to server at 10.0.0.7, port 5432 failed: Connection refused"


class FailingStore(MemoryStorage):
    """Fails as a database that went away (``down``), or commits and then loses the answer
    (``lose_next_answer``: the connection dropped during COMMIT, so the server cannot know)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.lose_next_answer = False
        self.failures = 0

    def _reach(self) -> None:
        if self.down:
            self.failures += 1
            raise StorageError(DOWN)

    def get_game(self, game_id: str) -> GameRecord | None:
        self._reach()
        return super().get_game(game_id)

    def actions(self, game_id: str, after: int = 0) -> list[ActionRecord]:
        self._reach()
        return super().actions(game_id, after)

    def list_games(
        self,
        status: str | None = None,
        public_only: bool = True,
        limit: int = 100,
        where: GameFilter | None = None,
    ) -> list[GameRecord]:
        self._reach()
        return super().list_games(status, public_only, limit, where)

    def commit(
        self, game_id: str, actions: Sequence[ActionRecord], progress: Progress | None, change: Change
    ) -> list[ChatRecord]:
        self._reach()
        notes = super().commit(game_id, actions, progress, change)
        if self.lose_next_answer:
            self.lose_next_answer = False
            self.failures += 1
            raise StorageError("server closed the connection unexpectedly")
        return notes


def until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


@pytest.mark.timeout(60)
def test_an_action_stored_whose_answer_was_lost_is_shown_when_the_store_answers() -> None:
    """The one case where "try again" cannot say whether the move was taken: the server believes the
    store, not its memory, and every connection is shown the stored state."""
    store = FailingStore()
    with TestClient(create_app(store)) as client:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
        game = client.post("/api/games", json={"seats": seats, "seed": 3, "bot_delay": 0}).json()
        first = client.get(f"/api/games/{game['id']}/view").json()["view"]["to_act"]
        with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
            ws.send_json({"type": "hello", "token": game["seats"][first]["token"]})
            state = ws.receive_json()
            action = state["legal"][0]["text"]
            store.lose_next_answer = True
            ws.send_json({"type": "action", "action": action, "state_id": 0, "ref": 1})
            refused = ws.receive_json()
            assert refused["code"] == "unavailable" and "try again" in refused["message"]
            assert "connection" not in refused["message"]  # the store's words go to the log
            shown = ws.receive_json()  # the stored state, without anyone acting
            assert shown["type"] == "state" and shown["state_id"] == 1
            ws.send_json({"type": "action", "action": action, "state_id": 0, "ref": 2})
            assert ws.receive_json()["code"] in ("stale", "illegal", "not-your-turn")
        assert [a.text for a in store.actions(game["id"])] == [action]


@pytest.mark.timeout(60)
def test_bots_wait_for_the_store_and_go_on_by_themselves() -> None:
    store = FailingStore()
    with TestClient(create_app(store)) as client:
        seats = [{"kind": "bot", "bot": "quick"}] * 3
        game = client.post("/api/games", json={"seats": seats, "seed": 4, "bot_delay": 0.5}).json()
        with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
            ws.send_json({"type": "hello", "token": None})
            assert ws.receive_json()["type"] == "state"
            store.down = True  # before the first bot's move (it waits bot_delay)
            until(lambda: store.failures >= 3)  # its move failed, and its tries to read the game again
            assert client.get("/api/games").status_code == 503
            store.down = False
            state = ws.receive_json()
            while state["state_id"] < 3:
                state = ws.receive_json()


class ChatFailingStore(MemoryStorage):
    """A store that fails to read the chat after seq 0: loading a game (its server notes, none yet)
    works, the hello's chat history (``chat_after`` 1) is the read that fails."""

    def chat(self, game_id: str, after: int = 0) -> Any:
        if after > 0:
            raise StorageError(DOWN)
        return super().chat(game_id, after)


@pytest.mark.timeout(60)
def test_a_store_failure_during_the_hello_is_answered_and_the_connection_closed() -> None:
    # Past the hello's own checks only the store can refuse: the client gets one error and a close
    # frame (1013: try again later, as the page does), never a connection dropped without one.
    store = ChatFailingStore()
    with TestClient(create_app(store)) as client:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
        game = client.post("/api/games", json={"seats": seats, "seed": 3, "bot_delay": 0}).json()
        with client.websocket_connect(f"/api/games/{game['id']}/ws") as ws:
            ws.send_json({"type": "hello", "token": game["seats"][0]["token"], "chat_after": 1})
            assert ws.receive_json()["type"] == "state"
            refused = ws.receive_json()
            assert refused["type"] == "error" and refused["code"] == "unavailable"
            assert "try again" in refused["message"] and DOWN not in refused["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013


@pytest.mark.timeout(60)
def test_a_hello_to_a_game_that_cannot_be_loaded_is_answered_and_closed() -> None:
    played = MemoryStorage()
    with TestClient(create_app(played)) as client:
        seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cy")]
        game = client.post("/api/games", json={"seats": seats, "seed": 3, "bot_delay": 0}).json()
    record = played.get_game(game["id"])
    assert record is not None
    edited = MemoryStorage()
    edited.create_game(replace(record, rules="no-such-edition"))
    url = f"/api/games/{game['id']}/ws"
    with TestClient(create_app(edited)) as client, client.websocket_connect(url) as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        refused = ws.receive_json()
        assert refused["code"] == "unavailable" and "cannot be loaded" in refused["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1011
