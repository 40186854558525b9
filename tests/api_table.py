"""A game of three humans on the web app in-process, stored in SQLite, with its HTTP client and its
websocket connections: for the tests of what enters the server (the fuzzer, the input checks)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any

from fastapi.testclient import TestClient

from played import human_game, play_moves
from risk import View
from risk.record import write_record
from risk.server.app import create_app
from risk.server.limits import Limits
from risk.server.master import GameMaster
from risk.server.sql import SqlStorage

SEED = 4_417_902_113


@dataclass
class Table:
    client: TestClient
    master: GameMaster
    game_id: str
    tokens: list[str]
    sockets: ExitStack  # the connections, closed before the client

    @property
    def state_id(self) -> int:
        return self.master.live(self.game_id).state_id

    @property
    def to_act(self) -> int:
        return self.master.live(self.game_id).game.to_act

    def legal_move(self) -> str:
        """An action the seat to act may take now."""
        game = self.master.live(self.game_id).game
        group = View(game.copy(), game.to_act).legal_groups()[0]
        return group["text"] if "max" not in group else f"{group['text']} {group['min']}"

    def snapshot(self) -> tuple[Any, ...]:
        """Everything a refused message or request must leave as it was: the game (its stored
        actions, record, log and seat to act), the games stored, the chat."""
        live = self.master.live(self.game_id)
        storage = self.master.storage
        stored = [(a.seq, a.seat, a.text) for a in storage.actions(self.game_id)]
        games = [g.id for g in storage.list_games(public_only=False)]
        chat = len(storage.chat(self.game_id))
        return live.state_id, stored, write_record(live.game), len(live.log), live.game.to_act, games, chat

    def auth(self, seat: int | None = None) -> dict[str, str]:
        """The Authorization header of a seat (by default the seat to act)."""
        return {"Authorization": f"Bearer {self.tokens[self.to_act if seat is None else seat]}"}

    def connect(self, seat: int | None, **hello: Any) -> Any:
        """A websocket connection of the seat (None: a spectator), past its first state."""
        socket = self.sockets.enter_context(self.client.websocket_connect(f"/api/games/{self.game_id}/ws"))
        socket.send_json({"type": "hello", "token": None if seat is None else self.tokens[seat], **hello})
        state = socket.receive_json()
        assert state["type"] == "state" and state["seat"] == seat, state
        return socket


def reply(socket: Any, state: bool = False) -> dict[str, Any]:
    """The answer to what was just sent, past the states and chat pushed meanwhile (a seat's page
    connecting makes the server send every other page its state again: the seat is shown present)."""
    while True:
        message = socket.receive_json()
        if message["type"] == "chat" or (message["type"] == "state" and not state):
            continue
        return message


def make_table(
    limits: Limits | None = None, url: str | None = None, moves: int = 45, seed: int = SEED
) -> Iterator[Table]:
    """The table, after ``moves`` moves (45: past the claims, placing armies); stored at ``url``
    (by default a SQLite file of its own, removed afterwards)."""
    folder = tempfile.TemporaryDirectory()
    store = SqlStorage(url or f"sqlite:///{folder.name}/games.sqlite3", sqlite_synchronous="NORMAL")
    app = create_app(store, limits=limits)
    with folder, TestClient(app) as client, ExitStack() as sockets:
        master: GameMaster = app.state.master
        game_id, tokens = human_game(master, ["Ann", "Bob", "Cy"], seed=seed)
        play_moves(master, game_id, moves)
        yield Table(client, master, game_id, tokens, sockets)
