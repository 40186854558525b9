"""Live play: one websocket connection per page (docs/web.md, "The websocket").

A connection says ``hello`` once, with its seat's token (or none: a spectator), and is sent its seat's
view of the game; then the view again after every accepted move, the chat it may read, and an answer
to each message it sends: an ``ack`` or an ``error`` (with the message's ``ref``). Moves go to the
game master exactly as over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from risk.server.api.deps import GuardDep, HubDep, MasterDep, SocialDep
from risk.server.auth import hash_token
from risk.server.connection import Connection
from risk.server.errors import Refusal, Unloadable
from risk.server.hub import Hub
from risk.server.inputs import move_text, state_id_of, whole_number
from risk.server.limits import Gate
from risk.server.master import GameMaster
from risk.server.social import Social
from risk.view import SPECTATOR

MAX_MESSAGE = 16_384  # bytes of one websocket message; an action is a short line
HELLO_TIMEOUT = 10.0
FAST_PLAY_MESSAGES = ("blitz", "blitz-stop", "undo")

router = APIRouter()


@router.websocket("/api/games/{game_id}/ws")
async def play(
    socket: WebSocket, game_id: str, master: MasterDep, hub: HubDep, social: SocialDep, guard: GuardDep
) -> None:
    # A page from another site must not drive a player's seat with the player's browser: browsers
    # always send Origin on websockets, and it must name this server.
    origin = socket.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != socket.headers.get("host", ""):
        await socket.close(code=4403, reason="cross-origin websocket refused")
        return
    await socket.accept()
    gate = guard.gate(socket.client.host if socket.client else "unknown")
    await Page(master, hub, social, game_id, socket, gate).run()


class Hello(NamedTuple):
    """What an accepted hello says: the seat (SPECTATOR: a watcher), the newest chat seq the page
    holds, the account signed in, and the seat's token hash (None for a watcher)."""

    seat: int
    chat_after: int | None
    account: str | None
    holder: str | None


class Page:
    """One page's connection to one game, from its hello to its end."""

    def __init__(
        self, master: GameMaster, hub: Hub, social: Social, game_id: str, socket: WebSocket, gate: Gate
    ) -> None:
        self.master, self.hub, self.social = master, hub, social
        self.game_id, self.socket, self.gate = game_id, socket, gate
        self.connection: Connection | None = None  # once the hello is accepted

    async def run(self) -> None:
        try:
            hello = await self._hello()
            if hello is None:
                return
            connection = await self._join(hello)
            while True:
                await self._answer(connection)
        except WebSocketDisconnect:
            return  # the client left: the normal end of a connection (the clean-up follows)
        except Refusal as refusal:
            # Past the hello, only the store can refuse (it is down, or the game cannot be loaded):
            # one error and a close frame, never a dropped connection.
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                await _refuse_connection(self.socket, refusal)
        finally:
            if self.connection is not None:
                await self._leave(self.connection)

    async def _hello(self) -> Hello | None:
        """The hello's seat and ``chat_after``; None if the connection was refused and closed."""
        socket, game_id = self.socket, self.game_id
        try:
            hello = await asyncio.wait_for(_receive(socket, self.gate), HELLO_TIMEOUT)
            if hello.get("type") != "hello":
                raise Refusal("bad-request", "the first message must be {'type': 'hello', 'token': ...}")
            token, chat_after = hello.get("token"), hello.get("chat_after")
            if token is not None and not isinstance(token, str):
                raise Refusal("bad-token", "the token must be a string or null")
            if chat_after is not None:
                whole_number(chat_after, "'chat_after' (the newest chat seq the client holds)")
            seat = await run_in_threadpool(self.master.seat_of, game_id, token)
            await run_in_threadpool(self.social.check_watcher, game_id, seat)
            account = await run_in_threadpool(self.master.signed_in)  # whose blocks apply (fair play)
        except TimeoutError:
            await socket.close(code=4408, reason="no hello")
            return None
        except Refusal as refusal:
            await _refuse_connection(socket, refusal)
            return None
        holder = None if seat == SPECTATOR or token is None else hash_token(token)
        return Hello(seat, chat_after, account, holder)

    async def _join(self, hello: Hello) -> Connection:
        """The accepted connection among the game's pages: the seat's older pages closed, its state and
        chat sent, the other pages told a seat came."""
        hub, game_id, seat, chat_after = self.hub, self.game_id, hello.seat, hello.chat_after
        connection = Connection(self.socket, seat, account=hello.account, holder=hello.holder)
        self.connection = connection
        hub.connections.setdefault(game_id, set()).add(connection)
        await hub.take_over(game_id, connection)
        await hub.send_state(game_id, connection, force=True)
        if seat != SPECTATOR:
            await hub.announce_presence(game_id, connection)
            hub.seats_changed(game_id)
        await self.social.send_history(game_id, connection, chat_after)
        return connection

    async def _answer(self, connection: Connection) -> None:
        """Read one message and answer it."""
        try:
            message = await _receive(self.socket, self.gate)
            kind, ref = message.get("type"), message.get("ref")
            self.gate.request(kind, ref)
        except Refusal as refusal:
            await _send_error(connection, getattr(refusal, "ref", None), refusal)
            return
        if kind == "ping":
            async with connection.lock:
                await self.socket.send_json({"type": "pong"})
        elif kind == "action":
            await self._act(connection, message, ref)
        elif kind in FAST_PLAY_MESSAGES:
            await self._fast_play(connection, kind, message, ref)
        elif kind == "hello":  # a connection's seat is for its life (docs/web.md)
            again = Refusal(
                "bad-request",
                "this connection already said hello: to watch or play as someone else, open a new connection",
            )
            await _send_error(connection, ref, again)
        elif kind == "chat":
            try:
                await self.social.on_chat(self.game_id, connection, message)
            except Refusal as refusal:
                await _send_error(connection, ref, refusal)
        else:
            types = ", ".join(("hello", "action", "chat", "ping", *FAST_PLAY_MESSAGES))
            await _send_error(
                connection, ref, Refusal("bad-request", f"unknown message type {kind!r}; types: {types}")
            )

    async def _act(self, connection: Connection, message: dict[str, Any], ref: Any) -> None:
        game_id = self.game_id
        if connection.seat == SPECTATOR:
            await _send_error(connection, ref, Refusal("bad-token", "spectators cannot act"))
            return
        text = message.get("action")
        # The connection's own answer comes before the state its move made: the master announces the
        # move to the hub as it is committed, and the hub's state waits for the connection's lock.
        async with connection.lock:
            try:
                if not isinstance(text, str):
                    raise Refusal(
                        "bad-request",
                        "an action message is {'type': 'action', 'action': TEXT, 'state_id': N}",
                    )
                move_text(text, "the action")
                state_id = state_id_of(message)
                new_id = await run_in_threadpool(
                    self.master.submit_player, game_id, connection.seat, text, state_id
                )
            except Refusal as refusal:
                await _send(connection, {"type": "error", "ref": ref, **refusal.to_dict()})
                return
            await _send(connection, {"type": "ack", "ref": ref, "state_id": new_id})

    async def _fast_play(self, connection: Connection, kind: str, message: dict[str, Any], ref: Any) -> None:
        """blitz, blitz-stop and undo (docs/web.md, "Faster play")."""
        async with connection.lock:  # the answer before the state the move made (as ``_act``)
            try:
                answer = await self._fast_move(connection.seat, kind, message)
            except Refusal as refusal:
                await _send(connection, {"type": "error", "ref": ref, **refusal.to_dict()})
                return
            await _send(connection, {"type": "ack", "ref": ref, **answer})

    async def _fast_move(self, seat: int, kind: str, message: dict[str, Any]) -> dict[str, Any]:
        """One fast-play move, by the master: the ack's fields (the new state id, and what was done)."""
        master, game_id = self.master, self.game_id
        if seat == SPECTATOR:
            raise Refusal("bad-token", "spectators cannot act")
        if kind == "blitz":
            new_id, run = await run_in_threadpool(master.blitz, game_id, seat, *_blitz_of(message))
            return {"state_id": new_id, "blitz": run.to_dict()}
        if kind == "undo":
            to = message.get("to")
            if to is not None:
                whole_number(to, "'to' (the stored number of the first move to take back)")
            new_id = await run_in_threadpool(master.undo, game_id, seat, state_id_of(message), to)
            return {"state_id": new_id}
        # blitz-stop: no new state, only this seat's view of its blitz changes
        if "state_id" in message:  # not needed, but never taken unchecked
            state_id_of(message)
        stopped = await run_in_threadpool(master.stop_blitz, game_id, seat)
        return {"state_id": master.published_state(game_id), "stopped": stopped}

    async def _leave(self, connection: Connection) -> None:
        """The connection ended: the game's other pages are told its seat left; a finished game nobody
        watches leaves memory (it reloads from the store if asked)."""
        hub, game_id = self.hub, self.game_id
        watchers = hub.connections.get(game_id, set())
        gone = connection in watchers
        watchers.discard(connection)
        if gone and connection.seat != SPECTATOR:
            hub.seats_changed(game_id)
            if watchers:
                await hub.announce_presence(game_id)
        if not watchers:
            hub.connections.pop(game_id, None)
            with contextlib.suppress(Refusal):
                if self.master.live(game_id).game.is_over:
                    self.master.forget(game_id)


def _blitz_of(message: dict[str, Any]) -> tuple[str, str, int, int]:
    """A blitz message's source, target, ``until`` and state id, checked."""
    source, target, until = message.get("from"), message.get("to"), message.get("until", 1)
    if not isinstance(source, str) or not isinstance(target, str):
        raise Refusal(
            "bad-request",
            "a blitz message is {'type': 'blitz', 'from': TERRITORY, 'to': TERRITORY, "
            "'until': ARMIES, 'state_id': N}",
        )
    move_text(source, "'from'")
    move_text(target, "'to'")
    until = whole_number(until, "'until' (the armies to keep in the attacking territory)", 1)
    return source, target, until, state_id_of(message)


async def _receive(socket: WebSocket, gate: Gate) -> dict[str, Any]:
    """One JSON object from the socket; anything else is refused with a message saying why. Every
    frame counts against the connection's rate limit; one over it is refused whatever it holds."""
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    throttled = gate.frame()
    text = message.get("text")
    if text is None:
        raise throttled or Refusal("bad-request", "send text frames holding JSON, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise throttled or Refusal("too-large", f"the message is longer than {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise throttled or Refusal("bad-request", "the message is not JSON") from None
    except RecursionError:  # [[[[...]]]]: Python's decoder gives up past ~1,000 levels
        raise throttled or Refusal("bad-request", "the message is nested too deeply") from None
    if not isinstance(data, dict):
        raise throttled or Refusal("bad-request", "the message must be a JSON object")
    if throttled is not None:
        throttled.ref = data.get("ref")
        raise throttled
    return data


def _close_code(refusal: Refusal) -> int:
    """The websocket close code for a refused connection (docs/web.md): the page stops reconnecting on
    4403 and 4404, and tries again later on 1013 (the store is down) and 1011 (a game that cannot be
    loaded: the server's fault, not the player's)."""
    if refusal.code in ("bad-token", "no-spectators"):
        return 4403
    if refusal.code == "not-found":
        return 4404
    if isinstance(refusal, Unloadable):
        return 1011
    if refusal.code == "unavailable":
        return 1013
    return 4400


async def _refuse_connection(socket: WebSocket, refusal: Refusal) -> None:
    await socket.send_json({"type": "error", "ref": None, **refusal.to_dict()})
    await socket.close(code=_close_code(refusal))


async def _send_error(connection: Connection, ref: Any, refusal: Refusal) -> None:
    await _send_ack(connection, {"type": "error", "ref": ref, **refusal.to_dict()})


async def _send_ack(connection: Connection, message: dict[str, Any]) -> None:
    """An answer to the connection's own message."""
    async with connection.lock:
        await _send(connection, message)


async def _send(connection: Connection, message: dict[str, Any]) -> None:
    """Send, the connection's lock held (a closed socket is dropped by its own handler)."""
    with contextlib.suppress(Exception):
        await connection.socket.send_json(message)
