"""Rate limits (docs/reliability.md, "Bad input and security").

Three limits, each a token bucket ("at most N in any S seconds": N at once, then refilled evenly):

- **games**, per client address: creating a game and replaying an uploaded record (both cost the
  server real work: a game's bots play on it, a record replays for up to seconds);
- **actions**, per client address: every request that asks a game to change, over HTTP
  (``POST /api/games/{id}/...``: actions, joins, blitzes, undos) and over the websocket (every
  message but ``hello`` and ``ping``);
- **messages**, per websocket connection: every frame, garbage included.

Over a limit, nothing is read further: HTTP answers ``429`` with ``Retry-After`` and the app's error
shape (code ``rate-limited``); the websocket answers an ``error`` message with the same code and
the refused message's ``ref``. ``risk serve`` sets the defaults below; ``create_app`` without
``limits`` has none (tests and benchmarks that play thousands of moves from one address).

- **boards**, per client address: checking and generating a board (``POST /api/boards/check``,
  ``/api/boards/generate``): seconds of work each on a large board.

And one limit that is always on, whatever the rates: the size of a request's body
(:class:`BodyLimitMiddleware`). Every HTTP request's body is read here, up to its path's cap
(:data:`MAX_BODY`, more for the few paths of :data:`LARGE_BODIES`), chunked or not, before any route
parses it: over the cap it is answered ``413`` (code ``too-large``) and nothing is parsed.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from risk.server.errors import Refusal

Clock = Callable[[], float]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

MAX_ADDRESSES = 10_000  # buckets kept before the idle (full) ones are dropped

KB = 1024
MAX_BODY = 64 * KB  # a move, a chat message, house rules: a few hundred bytes
# The paths that take more: a game made on a board given as JSON (at most 1 MiB as stored, more as
# sent: indented, its letters escaped), an uploaded board or record (their routes refuse past 1 MiB
# with their own words; this is the backstop). "Your games": up to 200 seats whose game id and token
# are at their longest with every letter escaped (12 bytes a letter outside the BMP) is about 470 KB.
LARGE_BODIES = {
    "/api/games": 4 * KB * KB,
    "/api/boards/check": 2 * KB * KB,
    "/api/replay": 2 * KB * KB,
    "/api/mine": 1 * KB * KB,
    "/api/account/seats": 1 * KB * KB,  # as many seats as "Your games", bound in one request
}


@dataclass(frozen=True)
class Rate:
    """At most ``count`` in any ``seconds``."""

    count: int
    seconds: float

    def __post_init__(self) -> None:
        if self.count < 1 or not self.seconds > 0:
            raise ValueError(f"a rate is 1 or more per a time above 0, not {self.count}/{self.seconds}")

    @classmethod
    def parse(cls, text: str) -> Rate | None:
        """``"20/600"`` (20 in any 600 seconds), or ``"off"`` (None: no limit)."""
        text = text.strip().lower()
        if text in ("off", "none", "0"):
            return None
        count, slash, seconds = text.partition("/")
        try:
            if not slash:
                raise ValueError
            return cls(int(count), float(seconds))
        except ValueError:
            raise ValueError(f"{text!r}: a rate is COUNT/SECONDS (e.g. 20/600) or 'off'") from None

    def describe(self) -> str:
        seconds = self.seconds
        if seconds % 60 == 0 and seconds >= 120:
            return f"{self.count} per {seconds / 60:g} minutes"
        return f"{self.count} per {seconds:g} second{'s' if seconds != 1 else ''}"

    @property
    def per_second(self) -> float:
        return self.count / self.seconds


SIGN_IN_RATE = Rate(10, 60)  # per client address, on even when create_app is given no other limit


@dataclass(frozen=True)
class Limits:
    """What ``risk serve`` allows; None for a limit turns it off."""

    games: Rate | None = Rate(20, 600)
    actions: Rate | None = Rate(600, 60)
    messages: Rate | None = Rate(100, 10)
    boards: Rate | None = Rate(30, 600)
    accounts: Rate | None = SIGN_IN_RATE  # sign-ins, sign-ups and reset links (risk.server.accounts)

    @classmethod
    def off(cls) -> Limits:
        return cls(games=None, actions=None, messages=None, boards=None, accounts=None)


@dataclass
class Bucket:
    """A token bucket: full at first, one token per allowed event, refilled at the rate's pace."""

    rate: Rate
    tokens: float = -1.0
    updated: float = 0.0

    def take(self, now: float) -> float:
        """Spend a token: 0.0 if there was one, else the seconds until there is (nothing spent)."""
        if self.tokens < 0:
            self.tokens, self.updated = float(self.rate.count), now
        self.tokens = min(float(self.rate.count), self.tokens + (now - self.updated) * self.rate.per_second)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate.per_second

    def full(self, now: float) -> bool:
        return self.tokens + (now - self.updated) * self.rate.per_second >= self.rate.count


class RateLimited(Refusal):
    """A refusal for going over a limit: says which, how much is allowed, and when to try again."""

    def __init__(self, what: str, rate: Rate, wait: float, ref: Any = None) -> None:
        self.retry_after = max(1, round(wait + 0.5))
        super().__init__(
            "rate-limited",
            f"too many {what}: at most {rate.describe()}; nothing was done, "
            f"try again in {self.retry_after} s",
        )
        self.ref = ref


@dataclass
class AddressLimiter:
    """One bucket per client address."""

    rate: Rate
    what: str
    clock: Clock = time.monotonic
    buckets: dict[str, Bucket] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self, address: str) -> None:
        """Count one event from ``address``; raises :class:`RateLimited` over the limit."""
        now = self.clock()
        with self.lock:
            bucket = self.buckets.get(address)
            if bucket is None:
                if len(self.buckets) >= MAX_ADDRESSES:
                    # Forget the addresses that have been quiet long enough to be full again.
                    self.buckets = {a: b for a, b in self.buckets.items() if not b.full(now)}
                bucket = self.buckets[address] = Bucket(self.rate)
            wait = bucket.take(now)
        if wait:
            raise RateLimited(self.what, self.rate, wait)


class Guard:
    """The limits of one app: the address buckets, and a gate for each websocket connection."""

    def __init__(self, limits: Limits | None, clock: Clock = time.monotonic) -> None:
        self.limits = limits or Limits.off()
        self.clock = clock
        self.games = self._limiter(self.limits.games, "new games and record uploads from your address")
        self.actions = self._limiter(self.limits.actions, "moves and requests from your address")
        self.boards = self._limiter(self.limits.boards, "board checks and generated boards from your address")

    def _limiter(self, rate: Rate | None, what: str) -> AddressLimiter | None:
        return None if rate is None else AddressLimiter(rate, what, self.now)

    def now(self) -> float:
        return self.clock()

    def limiter_for(self, method: str, path: str) -> AddressLimiter | None:
        """Which address limit an HTTP request counts against, if any."""
        if method != "POST":
            return None
        if path in ("/api/games", "/api/replay"):
            return self.games
        if path in BOARD_PATHS:
            return self.boards
        if path.startswith("/api/games/") or path == "/api/mine":  # "Your games": every seat held, read
            return self.actions
        return None

    def gate(self, address: str) -> Gate:
        rate = self.limits.messages
        return Gate(self, address, None if rate is None else Bucket(rate))


@dataclass
class Gate:
    """One websocket connection's limits: its own message bucket, and its address's action bucket."""

    guard: Guard
    address: str
    messages: Bucket | None

    def frame(self) -> RateLimited | None:
        """Count one received frame; the refusal if the connection sends too fast."""
        if self.messages is None:
            return None
        wait = self.messages.take(self.guard.now())
        if not wait:
            return None
        return RateLimited("messages on this connection", self.messages.rate, wait)

    def request(self, kind: Any, ref: Any) -> None:
        """Count a message that asks for a change (all but hello and ping) against the address."""
        if kind in ("hello", "ping") or self.guard.actions is None:
            return
        try:
            self.guard.actions.check(self.address)
        except RateLimited as refusal:
            refusal.ref = ref
            raise


BOARD_PATHS = ("/api/boards/check", "/api/boards/generate")


def client_address(scope: Scope) -> str:
    """The client's address (uvicorn puts a trusted proxy's X-Forwarded-For here)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimitMiddleware:
    """ASGI middleware: HTTP requests over their address's limit get 429 in the app's error shape."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            limiter = self.guard.limiter_for(scope["method"], scope["path"])
            if limiter is not None:
                try:
                    limiter.check(client_address(scope))
                except RateLimited as refusal:
                    await _refuse(send, refusal)
                    return
        await self.app(scope, receive, send)


class BodyLimitMiddleware:
    """ASGI middleware: every HTTP request's body read whole, up to its path's cap, before the app
    sees it; a body over the cap (said by its Content-Length, or found while reading a chunked one)
    is answered 413 in the app's error shape, and the app never runs."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = body_cap(scope["path"])
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > cap:
            await _refuse(send, too_large(cap))
            return
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the app hears it as it would
                await self.app(scope, _replay([message], receive), send)
                return
            body += message.get("body", b"")
            if len(body) > cap:
                await _refuse(send, too_large(cap))
                return
            if not message.get("more_body", False):
                break
        whole = {"type": "http.request", "body": bytes(body), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def body_cap(path: str) -> int:
    """The most bytes a request's body may hold on ``path``."""
    return LARGE_BODIES.get(path, MAX_BODY)


def too_large(cap: int) -> Refusal:
    return Refusal(
        "too-large",
        f"the request's body is larger than {cap // KB} KB, the most this path takes; nothing was done",
    )


def _replay(messages: list[MutableMapping[str, Any]], receive: Receive) -> Receive:
    """A receive that gives ``messages`` first, then what the client sends next (its disconnect)."""
    waiting = list(messages)

    async def replayed() -> MutableMapping[str, Any]:
        return waiting.pop(0) if waiting else await receive()

    return replayed


async def _refuse(send: Send, refusal: Refusal) -> None:
    body = json.dumps({"error": refusal.to_dict()}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if isinstance(refusal, RateLimited):
        headers.append((b"retry-after", str(refusal.retry_after).encode()))
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


__all__ = [
    "LARGE_BODIES",
    "MAX_BODY",
    "BodyLimitMiddleware",
    "Guard",
    "Limits",
    "Rate",
    "RateLimitMiddleware",
    "RateLimited",
    "body_cap",
]
