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


def cookie_of(scope: Scope, cookie: str = COOKIE) -> str | None:
    """The cookie ``cookie`` (the session's) a request or a websocket's handshake carried (None: none, or
    unreadable)."""
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            try:
                jar = SimpleCookie(value.decode("latin-1"))
            except CookieError:
                return None
            morsel = jar.get(cookie)
            if morsel is not None:
                return morsel.value
    return None


class CookieMiddleware:
    """ASGI middleware: a cookie of each request and websocket (:meth:`taken`), in a context variable
    for the code it calls."""

    variable: ContextVar[str | None] = session_cookie

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    def taken(self, scope: Scope, send: Send) -> tuple[str | None, Send]:
        """The cookie's value, and what the answer is sent through (a subclass may set a cookie)."""
        return cookie_of(scope), send

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        value, send = self.taken(scope, send)
        reset = self.variable.set(value)
        try:
            await self.app(scope, receive, send)
        finally:
            self.variable.reset(reset)


class SessionCookieMiddleware(CookieMiddleware):
    """ASGI middleware: the session cookie of each request and websocket, for the code it calls."""
