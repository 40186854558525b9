"""The chat of a game: who may write, who may read, and how much. A plain class, no HTTP.

Messages are stored with the game (``Storage.add_chat``) before anyone is sent them. The channel
"all" is read by everyone who may watch the game; "team" (Team RISK only) by the seats of the
writer's team, never by the other team nor by spectators. A message with ``seat=None`` is a
server note ("Ann resigned"), in the channel "all". Chat never touches the game: it cannot carry a
secret the game holds, and its text is sent as written (pages show it as text, never as HTML).
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from risk.server.errors import Refusal
from risk.server.master import GameMaster
from risk.server.storage import ChatRecord
from risk.view import SPECTATOR, View

MAX_CHAT = 500  # characters of one message
RATE_COUNT = 5  # messages a seat may send...
RATE_WINDOW = 10.0  # ...in this many seconds
CHANNELS = ("all", "team")
# Control characters, and the bidirectional overrides that would let a message disguise its text.
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


def chat_entry(record: ChatRecord) -> dict[str, Any]:
    """A stored message as clients receive it."""
    return {
        "seq": record.seq,
        "seat": record.seat,
        "name": record.name,
        "channel": record.channel,
        "text": record.text,
        "at": record.at,
        "note": record.seat is None,
    }


def may_read(record: ChatRecord, seat: int, teams: tuple[int, ...] | None) -> bool:
    """Whether ``seat`` (SPECTATOR for a watcher) may read ``record``, given each seat's team."""
    if record.channel != "team":
        return True
    if seat == SPECTATOR or teams is None or not 0 <= seat < len(teams):
        return False
    return record.team == teams[seat]


def one_line(text: str, limit: int, what: str) -> str:
    """``text`` on one line (no control characters nor direction overrides, spaces collapsed);
    refused if that leaves nothing, or more than ``limit`` characters."""
    line = " ".join(_INVISIBLE.sub(" ", text).split())
    if not line:
        raise Refusal("bad-request", f"{what} is empty")
    if len(line) > limit:
        raise Refusal("bad-request", f"{what} is {len(line)} characters long; the limit is {limit}")
    return line


def clean_text(text: Any) -> str:
    """The message as stored: one line, at most MAX_CHAT characters."""
    if not isinstance(text, str):
        raise Refusal("bad-request", "a chat message is {'type': 'chat', 'text': TEXT, 'channel': 'all'}")
    return one_line(text, MAX_CHAT, "the message")


class ChatFilter(Protocol):
    """Fair play's say in the chat (risk.server.fairplay.desk.FairPlay)."""

    def hidden_seats(self, game_id: str, seat: int, account: str | None) -> set[int]:
        """The seats whose lines are not sent to ``seat`` read by ``account``: muted, blocked."""

    def check_writer(self, game_id: str, seat: int) -> None:
        """A Refusal if ``seat`` may not write (its player was banned)."""


class ChatDesk:
    """Writes and reads the chat of the master's games, with a rate limit per seat."""

    def __init__(self, master: GameMaster, clock: Callable[[], float] = time.monotonic) -> None:
        self.master = master
        self.clock = clock  # for the rate limit only (tests may set it)
        self._sent: dict[tuple[str, int], deque[float]] = {}
        self._lock = threading.Lock()
        self.filter: ChatFilter | None = None  # the app's fair play: mutes, blocks, bans

    def hidden(self, game_id: str, seat: int, account: str | None) -> set[int]:
        """The seats whose lines ``seat`` (read by ``account``) is not sent."""
        return set() if self.filter is None else self.filter.hidden_seats(game_id, seat, account)

    def teams(self, game_id: str) -> tuple[int, ...] | None:
        """Each seat's team (Team RISK), or None: public, from the game's view."""
        live = self.master.live(game_id)
        with live.lock:
            return View(live.game, SPECTATOR).team

    def write(self, game_id: str, seat: int, text: Any, channel: Any = "all") -> ChatRecord:
        """A seat's message, stored. Refused (nothing stored) if the seat may not send it now."""
        live = self.master.live(game_id)
        if seat == SPECTATOR:
            raise Refusal(
                "bad-token", "spectators read the chat but cannot write: open your seat's private link"
            )
        if live.game.is_over:  # the server's own notes (a rematch asked) still go in
            raise Refusal("game-over", "the game is over: its chat is closed")
        if self.filter is not None:
            self.filter.check_writer(game_id, seat)
        channel = "all" if channel is None else channel
        if channel not in CHANNELS:
            raise Refusal("bad-request", f"no chat channel {channel!r}; channels: {', '.join(CHANNELS)}")
        line = clean_text(text)
        team = None
        if channel == "team":
            teams = self.teams(game_id)
            if teams is None:
                raise Refusal("bad-request", "there is no team channel: this is not Team RISK")
            team = teams[seat]
        with self._lock:
            now = self.clock()
            sent = self._sent.setdefault((game_id, seat), deque())
            while sent and sent[0] <= now - RATE_WINDOW:
                sent.popleft()
            if len(sent) >= RATE_COUNT:
                wait = max(1, round(sent[0] + RATE_WINDOW - now))
                raise Refusal(
                    "rate-limited",
                    f"slow down: at most {RATE_COUNT} messages in {RATE_WINDOW:.0f} seconds; "
                    f"try again in {wait} s",
                )
            sent.append(now)
        name = live.record.seats[seat].name
        message = ChatRecord(0, seat, channel, team, name, line, self.master.clock())
        try:
            return self.master.store(lambda: self.master.storage.add_chat(game_id, message))
        except Refusal:
            with self._lock:
                sent.remove(now)  # not stored: it does not count
            raise

    def note(self, game_id: str, text: str) -> ChatRecord:
        """A server note, for everyone (shown as a system line)."""
        message = ChatRecord(0, None, "all", None, "", text, self.master.clock())
        return self.master.store(lambda: self.master.storage.add_chat(game_id, message))

    def read(
        self, game_id: str, seat: int, after: int = 0, account: str | None = None
    ) -> list[dict[str, Any]]:
        """The messages ``seat`` (read by ``account``) may read, with ``seq > after``."""
        return self.history(game_id, seat, after, account)[0]

    def history(
        self, game_id: str, seat: int, after: int = 0, account: str | None = None
    ) -> tuple[list[dict[str, Any]], int]:
        """The messages ``seat`` may read with ``seq > after`` (none of the seats it muted, nor of the
        accounts ``account`` blocked), and the newest seq stored (or ``after``)."""
        teams = self.teams(game_id)
        records = self.master.store(lambda: self.master.storage.chat(game_id, after))
        last = records[-1].seq if records else after
        hidden = self.hidden(game_id, seat, account) if records else set()
        return [
            chat_entry(r)
            for r in records
            if may_read(r, seat, teams) and (r.seat is None or r.seat not in hidden)
        ], last
