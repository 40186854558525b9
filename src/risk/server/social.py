"""The social side of the web app: chat, spectators, house rules and rematches (docs/web.md).

``Social`` adds its HTTP routes to the app and gives the websocket handler its hooks: whether a
watcher may watch, the chat history on ``hello``, a ``chat`` message, and the number of watchers
for the lobby's list. The decisions are in ``risk.server.chat`` and ``risk.server.houserules``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from risk.server.chat import ChatDesk, chat_entry, may_read
from risk.server.clock import MAX_MISSED_TURNS
from risk.server.houserules import get_ruleset, qr_svg, rematch, ruleset_answer, save_ruleset
from risk.server.inputs import NUMBER_MAX, OptionValue
from risk.server.master import GameMaster, GameSpec, Refusal, SeatSpec
from risk.server.refusals import refusals
from risk.server.storage import ChatRecord
from risk.view import SPECTATOR

if TYPE_CHECKING:
    from risk.server.app import Connection, Hub
    from risk.server.peers import Peers


class ChatIn(BaseModel):
    text: str = Field(max_length=4000)
    channel: str = "all"


class RulesetSeatIn(BaseModel):
    kind: str = Field(description="human, open, bot or external")
    name: str = ""
    bot: str | None = None


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # a number is a number, never true or "3"
    bot_delay: float | None = None
    defend_timeout: float | None = None
    spectators: bool | None = None
    public: bool | None = None
    turn_time: float | None = None
    missed_turns: int | None = Field(None, ge=0, le=MAX_MISSED_TURNS)
    stand_in: str | None = None


class RulesetIn(BaseModel):
    name: str = Field(max_length=200, description="what the group calls these rules")
    edition: str = "2008"
    game: str = "world"
    options: dict[str, OptionValue] = Field(default_factory=dict)
    board: str = "classic"
    seats: list[RulesetSeatIn] | None = Field(None, max_length=8, description="who plays, if kept")
    table: TableIn | None = None


def _bearer(authorization: str | None) -> str | None:
    from risk.server.app import _bearer as bearer

    return bearer(authorization)


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
            messages, last = await run_in_threadpool(self.chat.history, game_id, connection.seat, after)
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
                messages, last = await run_in_threadpool(self.chat.history, game_id, connection.seat, seen)
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
        for connection in list(self.hub.connections.get(game_id, ())):
            if connection.chat_seen is None or not may_read(stored, connection.seat, teams):
                continue  # no history yet (it will hold this message), or not for this seat
            async with connection.lock:
                if stored.seq <= connection.chat_seen:
                    continue
                connection.chat_seen = stored.seq
                with contextlib.suppress(Exception):
                    await connection.socket.send_json(entry)

    # -- HTTP routes -----------------------------------------------------------------------------
    def install(self, app: FastAPI) -> None:
        master = self.master

        async def seat_for(game_id: str, authorization: str | None) -> int:
            seat = await run_in_threadpool(master.seat_of, game_id, _bearer(authorization))
            await run_in_threadpool(self.check_watcher, game_id, seat)
            return seat

        @app.get(
            "/api/games/{game_id}/chat",
            summary="The chat the caller may read",
            responses=refusals(403, 404, 429, 503),
        )
        async def read_chat(
            game_id: str,
            after: int = Query(0, ge=0, le=NUMBER_MAX, description="only messages with a greater seq"),
            authorization: str | None = Header(None),
        ) -> dict[str, Any]:
            seat = await seat_for(game_id, authorization)
            return {"messages": await run_in_threadpool(self.chat.read, game_id, seat, after)}

        @app.post(
            "/api/games/{game_id}/chat",
            status_code=201,
            summary="Write in the chat",
            responses=refusals(403, 404, 409, 429, 503),
        )
        async def write_chat(
            game_id: str, body: ChatIn, authorization: str | None = Header(None)
        ) -> dict[str, Any]:
            seat = await seat_for(game_id, authorization)
            stored = await self.write(game_id, seat, body.text, body.channel)
            return {"message": chat_entry(stored)}

        @app.post(
            "/api/games/{game_id}/rematch",
            summary="The rematch of a finished game (its seats only)",
            responses={
                201: {"description": "the rematch, made now (200: made before, the same game)"},
                **refusals(403, 404, 409, 429, 503),
            },
        )
        async def ask_rematch(game_id: str, authorization: str | None = Header(None)) -> JSONResponse:
            token = _bearer(authorization)
            seat = await run_in_threadpool(master.seat_of, game_id, token)
            if seat == SPECTATOR:
                raise Refusal("bad-token", "a rematch is for the game's players: open your seat's link")
            record, created = await run_in_threadpool(rematch, master, game_id)
            if created:
                self.hub.kick(record.id)
                name = master.live(game_id).record.seats[seat].name
                await self.note(
                    game_id,
                    f"{name} asked for a rematch: same seats and rules. Press Rematch to take your seat.",
                )
            return JSONResponse(
                {
                    "id": record.id,
                    "seat": seat,
                    "created": created,
                    "link": f"/game/{record.id}#token={token}",
                },
                status_code=201 if created else 200,
            )

        @app.post(
            "/api/rulesets",
            status_code=201,
            summary="Save house rules under a name",
            responses=refusals(409, 429, 503),
        )
        async def create_ruleset(body: RulesetIn) -> dict[str, Any]:
            table = {} if body.table is None else body.table.model_dump(exclude_none=True)
            spec = GameSpec(
                **body.model_dump(include={"edition", "game", "board"}),
                **table,
                options={k: str(v) for k, v in body.options.items()},
                seats=[SeatSpec(**seat.model_dump()) for seat in body.seats or []],
            )
            record = await run_in_threadpool(
                save_ruleset, master, body.name, spec, table, body.seats is not None
            )
            return ruleset_answer(master, record)

        @app.get("/api/rulesets/{ruleset_id}", summary="Saved house rules", responses=refusals(404, 503))
        async def read_ruleset(ruleset_id: str) -> dict[str, Any]:
            return ruleset_answer(master, await run_in_threadpool(get_ruleset, master, ruleset_id))

        @app.get(
            "/api/rulesets/{ruleset_id}/qr.svg",
            summary="A QR code of the house rules' link",
            response_class=Response,
            responses={200: QR_SVG, **refusals(404, 503)},
        )
        async def ruleset_qr(ruleset_id: str, request: Request) -> Response:
            record = await run_in_threadpool(get_ruleset, master, ruleset_id)
            url = f"{str(request.base_url).rstrip('/')}/#rules={record.id}"
            return Response(
                qr_svg(url), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
            )


QR_SVG = {
    "description": "the QR code of the house rules' link, an SVG image",
    "content": {"image/svg+xml": {"schema": {"type": "string"}}},
}
