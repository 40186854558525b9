"""One page's websocket connection: its seat, and what it has been sent."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from fastapi import WebSocket


@dataclass(eq=False)
class Connection:
    socket: WebSocket
    seat: int
    log_sent: int = 0
    log_fogged: bool | None = None  # the log sent was the seat's own lines (fog of war); None: none yet
    state_sent: int = -1  # the newest state id this connection has been sent
    chat_seen: int | None = None  # the newest chat seq this connection has had (None: no history yet)
    # Fair play: the account signed in at hello (whose blocks apply to the chat it is sent), and the
    # token hash of its seat then: a seat opened again by the host's ban is no longer this page's.
    account: str | None = None
    holder: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
