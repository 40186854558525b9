"""The social side of the web app: chat, spectators, house rules and rematches (docs/web.md).

``Social`` gives the routes (risk.server.api.social) and the websocket handler what they share: whether
a watcher may watch, the chat history on ``hello``, a ``chat`` message stored and sent to every page
that may read it, server notes, and the number of watchers for the lobby's list. The decisions are in
``risk.server.chat`` and ``risk.server.houserules``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi.concurrency import run_in_threadpool

from risk.server.chat import ChatDesk, chat_entry, may_read
from risk.server.connection import Connection
from risk.server.errors import Refusal
from risk.server.hub import Hub
from risk.server.master import GameMaster
from risk.server.peers import Peers
from risk.server.storage import ChatRecord
from risk.view import SPECTATOR


class Social:
    def __init__(self, master: GameMaster, hub: Hub) -> None:
        self.master = master
        self.hub = hub
        self.chat = ChatDesk(master)
        self.locks: dict[str, asyncio.Lock] = {}  # per game: chat stored and sent one message at a time

    # -- spectators ------------------------------------------------------------------------------
    def check_watcher(self, game_id: str, seat: int) -> None:
        """A spectator of a game that does not allow spectators is refused, with the reason."""
        if seat != SPECTATOR:
            return
        if not self.master.live(game_id).record.settings.get("spectators", True):
            raise Refusal(
                "no-spectators",
                "this game does not allow spectators: only its players can open it (with their private link)",
            )

    def watchers(self, game_id: str) -> int:
        return sum(1 for c in self.hub.connections.get(game_id, ()) if c.seat == SPECTATOR)

    def with_watchers(self, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The lobby's list: each game with how many spectators watch it now."""
        return [g | {"watchers": self.watchers(g["id"])} for g in games]

    # -- chat over the websocket -----------------------------------------------------------------
    #
    # Per game, storing a message and sending it out, and reading a connection's history, happen one at
    # a time (a lock per game): every connection gets each message it may read exactly once, in order.
    # A connection gets new messages only once it has its history (``chat_seen`` is None until then).

    def _lock(self, game_id: str) -> asyncio.Lock:
        return self.locks.setdefault(game_id, asyncio.Lock())

    async def send_history(self, game_id: str, connection: Connection, after: int | None) -> None:
        """On ``hello`` with ``chat_after`` (checked by the caller): the messages after that seq this
        connection may read."""
        if after is None:  # a client that shows no chat history: new messages only
            if connection.chat_seen is None:
                connection.chat_seen = 0
            return
        async with self._lock(game_id), connection.lock:
            messages, last = await run_in_threadpool(
                self.chat.history, game_id, connection.seat, after, connection.account
            )
            connection.chat_seen = last
            with contextlib.suppress(Exception):
                await connection.socket.send_json({"type": "chat", "after": after, "messages": messages})

    async def on_chat(self, game_id: str, connection: Connection, message: dict[str, Any]) -> None:
        """A ``chat`` message from a connection: stored, then sent to everyone who may read it."""
        await self.write(game_id, connection.seat, message.get("text"), message.get("channel"))

    async def write(self, game_id: str, seat: int, text: Any, channel: Any) -> ChatRecord:
        async with self._lock(game_id):
            stored = await run_in_threadpool(self.chat.write, game_id, seat, text, channel)
            await self._send(game_id, stored)
            return stored

    async def note(self, game_id: str, text: str) -> None:
        """A server note in a game's chat (seat None): stored, and sent to everyone watching the game."""
        async with self._lock(game_id):
            await self._send(game_id, await run_in_threadpool(self.chat.note, game_id, text))

    def listen_to(self, peers: Peers | None) -> None:
        """With several server processes: chat stored by another reaches the pages of this one."""
        if peers is not None:
            peers.on_chat = self.remote_chat

    async def remote_chat(self, game_id: str) -> None:
        """Another process stored chat: each page here gets the messages it may read and has not had."""
        async with self._lock(game_id):
            for connection in list(self.hub.connections.get(game_id, ())):
                if connection.chat_seen is None:
                    continue  # its history is on the way, and holds the new messages
                seen = connection.chat_seen
                messages, last = await run_in_threadpool(
                    self.chat.history, game_id, connection.seat, seen, connection.account
                )
                async with connection.lock:
                    if last <= connection.chat_seen:
                        continue
                    connection.chat_seen = last
                    if messages:
                        with contextlib.suppress(Exception):
                            await connection.socket.send_json({"type": "chat", "messages": messages})

    async def _send(self, game_id: str, stored: ChatRecord) -> None:
        teams = await run_in_threadpool(self.chat.teams, game_id)
        entry = {"type": "chat", "messages": [chat_entry(stored)]}
        readers = list(self.hub.connections.get(game_id, ()))
        # Fair play: the connections that muted the writer's seat, or whose account blocked its account.
        hiding = (
            set()
            if stored.seat is None
            else await run_in_threadpool(
                lambda: {c for c in readers if stored.seat in self.chat.hidden(game_id, c.seat, c.account)}
            )
        )
        for connection in readers:
            if connection.chat_seen is None or not may_read(stored, connection.seat, teams):
                continue  # no history yet (it will hold this message), or not for this seat
            if connection in hiding:
                continue
            async with connection.lock:
                if stored.seq <= connection.chat_seen:
                    continue
                connection.chat_seen = stored.seq
                with contextlib.suppress(Exception):
                    await connection.socket.send_json(entry)
