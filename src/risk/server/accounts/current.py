"""Who is signed in on the request being answered: the session cookie of each HTTP request and
websocket connection, kept in a context variable by :class:`SessionCookieMiddleware`, and turned into
an account only when something asks (a seat bound to an account: risk.server.master's
``check_bound``), so requests about other seats cost nothing more."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from contextvars import ContextVar
from http.cookies import CookieError, SimpleCookie
from typing import Any

COOKIE = "risk_session"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

session_cookie: ContextVar[str | None] = ContextVar("risk_session_cookie", default=None)


def cookie_of(scope: Scope) -> str | None:
    """The session cookie a request or a websocket's handshake carried (None: none, or unreadable)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            try:
                jar = SimpleCookie(value.decode("latin-1"))
            except CookieError:
                return None
            morsel = jar.get(COOKIE)
            if morsel is not None:
                return morsel.value
    return None


class SessionCookieMiddleware:
    """ASGI middleware: the session cookie of each request and websocket, for the code it calls."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reset = session_cookie.set(cookie_of(scope))
        try:
            await self.app(scope, receive, send)
        finally:
            session_cookie.reset(reset)
