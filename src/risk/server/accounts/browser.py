"""The browser a request comes from (docs/web.md, "Fair play"): a long-lived random id in a cookie the
server sets on the first answer to a browser that has none (HttpOnly: no script reads it; SameSite=Lax;
Secure over HTTPS). The server keeps only its SHA-256, on the seats taken with it: one browser takes
one seat of a rated game, whatever the account, and a host's ban bars the browser as well as the
account. A program that sends no cookies gets a new id with every request: accounts still hold it to
one seat each."""

from __future__ import annotations

import re
import secrets
from collections.abc import MutableMapping
from contextvars import ContextVar
from typing import Any

from risk.server.accounts.current import CookieMiddleware, Scope, Send, cookie_of
from risk.server.auth import hash_token

COOKIE = "risk_browser"
MAX_AGE_S = 400 * 86_400  # the longest a browser keeps a cookie (Chrome's cap)
_ID = re.compile(r"[A-Za-z0-9_-]{32}")  # secrets.token_urlsafe(24): anything else is not one of ours

browser_cookie: ContextVar[str | None] = ContextVar("risk_browser_cookie", default=None)


def current_browser() -> str | None:
    """The SHA-256 of the browser id of the request being answered (None outside a request)."""
    browser_id = browser_cookie.get()
    return None if browser_id is None else hash_token(browser_id)


class BrowserCookieMiddleware(CookieMiddleware):
    """ASGI middleware: each request's browser id, for the code it calls; a new one set as a cookie on
    the answer to a browser that sent none (or one that is not an id)."""

    variable = browser_cookie

    def taken(self, scope: Scope, send: Send) -> tuple[str | None, Send]:
        given = cookie_of(scope, COOKIE)
        if given is not None and _ID.fullmatch(given):
            return given, send
        browser_id = secrets.token_urlsafe(24)
        if scope["type"] != "http":  # a websocket's handshake sets no cookie
            return browser_id, send
        return browser_id, _setting_cookie(send, browser_id, scope.get("scheme") == "https")


def _setting_cookie(send: Send, browser_id: str, secure: bool) -> Send:
    cookie = f"{COOKIE}={browser_id}; Max-Age={MAX_AGE_S}; Path=/; HttpOnly; SameSite=Lax"
    if secure:
        cookie += "; Secure"

    async def sending(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", ()), (b"set-cookie", cookie.encode("latin-1"))]
        await send(message)

    return sending
