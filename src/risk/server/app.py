"""The web app: HTTP and websocket API over the game master, the lobby and the board pages.

The master decides; the app only carries messages. ``create_app`` makes the app's parts once (the
game master, the hub of live connections and game drivers, the social side, the rate limits), keeps
them in ``app.state``, where the routes get them through ``Depends`` (risk.server.api.deps), and
includes the routers of risk.server.api. Refusals, wherever they are raised, are answered in one
shape by the handlers below.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from argon2 import PasswordHasher
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from risk.server.accounts.browser import BrowserCookieMiddleware, current_browser
from risk.server.accounts.current import SessionCookieMiddleware
from risk.server.accounts.service import Accounts
from risk.server.accounts.store import AccountStore
from risk.server.accounts.store import memory_engine as accounts_memory_engine
from risk.server.api import (
    accounts,
    after,
    fairplay,
    fastplay,
    games,
    meta,
    mine,
    notify,
    pages,
    quickmatch,
    ratings,
    seats,
    social,
    websocket,
)
from risk.server.api.pages import WEB_DIR
from risk.server.boards import BoardJobs
from risk.server.errors import Refusal
from risk.server.fairplay.desk import FairPlay
from risk.server.fairplay.store import FairPlayStore
from risk.server.gcpace import CollectorPacer
from risk.server.hosts import AllowedHosts, HostCheckMiddleware
from risk.server.hub import Hub
from risk.server.limits import SIGN_IN_RATE, BodyLimitMiddleware, Guard, Limits, Rate, RateLimitMiddleware
from risk.server.master import GameMaster
from risk.server.notify.channels import Channel, EmailChannel, SmtpSettings
from risk.server.notify.outbox import Outbox, memory_engine
from risk.server.notify.push import PushChannel, PushSettings
from risk.server.notify.seal import Seal
from risk.server.notify.sender import RETRY_S, Notifier
from risk.server.notify.webhook import WebhookChannel
from risk.server.quickmatch.mail import mail_days_games
from risk.server.quickmatch.service import QuickMatch
from risk.server.quickmatch.store import QuickMatchStore
from risk.server.ratings.hooks import RatingHooks
from risk.server.ratings.store import RatingStore
from risk.server.social import Social
from risk.server.sql import SqlStorage
from risk.server.storage import Storage

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
# In this order: the OpenAPI schema lists the paths as the routers add them.
ROUTERS = (
    pages,
    meta,
    games,
    seats,
    mine,
    after,
    websocket,
    fastplay,
    social,
    notify,
    accounts,
    ratings,
    quickmatch,
    fairplay,
)


def create_app(
    storage: Storage,
    *,
    allow_external_bots: bool = False,
    limits: Limits | None = None,
    pace_gc: bool = False,
    allowed_hosts: AllowedHosts | None = None,
    smtp: str | None = None,
    push: PushSettings | None = None,
    notify_retry_s: float = RETRY_S,
    seal: Seal | None = None,
    clock: Callable[[], float] = time.time,
    password_hasher: PasswordHasher | None = None,
    sign_in_rate: Rate | None = SIGN_IN_RATE,
) -> FastAPI:
    """The app; ``limits`` are the rate limits (risk.server.limits; None: no limit, as in tests);
    ``pace_gc``: short garbage-collector pauses (risk.server.gcpace), for `risk serve`'s process;
    ``allowed_hosts``: the host names it answers to (risk.server.hosts; None: any, as in tests);
    ``smtp``: the SMTP server e-mail notifications go through (risk.server.notify; None: no e-mail),
    ``push``: the VAPID key Web Push notifications are signed with (None: no Web Push; `risk serve`
    has one), ``notify_retry_s`` the first wait after a notification failed; ``seal``: what the seat
    tokens of notifications are kept sealed with (None: a key of this app's own); ``clock``: the time
    (tests of games that last days set it); ``password_hasher``: the accounts' argon2id parameters
    (None: RFC 9106's low-memory profile; tests use a cheaper one), ``sign_in_rate``: sign-ins and
    sign-ups per client address (None: no limit; the lockout per name is always on)."""
    app = FastAPI(
        title="risk",
        summary="RISK in the browser: the lobby, the games, live play over a websocket",
        version="1",
        lifespan=_lifespan,
        # No Swagger UI or ReDoc page: they run a CDN's scripts, inline, on the origin whose storage
        # holds the players' seat tokens. The schema itself is at /openapi.json.
        docs_url=None,
        redoc_url=None,
    )
    master = GameMaster(storage, clock=clock, allow_external_bots=allow_external_bots)
    hub = Hub(master)
    guard = Guard(limits)
    app.state.master, app.state.hub, app.state.guard = master, hub, guard
    app.state.social = Social(master, hub)
    app.state.board_jobs = BoardJobs()
    app.state.summaries = {}  # risk.server.api.after
    app.state.pace_gc = pace_gc
    app.state.outbox = outbox = Outbox(storage.engine if isinstance(storage, SqlStorage) else memory_engine())
    app.state.email_on = smtp is not None
    mail = None if smtp is None else EmailChannel(SmtpSettings.parse(smtp))
    # The sign-in rate: risk serve's limits (off with --no-rate-limits); else the parameter's (tests).
    account_rate = sign_in_rate if limits is None else limits.accounts
    _accounts_and_ratings(app, master, storage, Accounts.Settings(password_hasher, clock, account_rate, mail))
    channels: list[Channel] = [WebhookChannel()]  # a game's webhook needs nothing of the host
    if mail is not None:
        channels.append(mail)
    app.state.push = push
    if push is not None:
        channels.append(PushChannel(push))
    app.state.notifier = Notifier(
        outbox, storage, channels, hub.present, retry_s=notify_retry_s, clock=clock, seal=seal
    )
    app.state.notifier.listen_to(master)
    _quick_match(app, master, storage, outbox, clock)

    app.exception_handler(Refusal)(_refusal_handler)
    app.exception_handler(StarletteHTTPException)(_http_error_handler)
    app.exception_handler(RequestValidationError)(_validation_handler)
    app.add_middleware(BodyLimitMiddleware)  # inside the rate limits: a refused request is not read
    app.add_middleware(SessionCookieMiddleware)  # the session cookie, for a seat bound to an account
    app.add_middleware(BrowserCookieMiddleware)  # the browser's id cookie (fair play), set if missing
    app.add_middleware(RateLimitMiddleware, guard=guard)  # inside security_headers: a 429 gets them too
    app.middleware("http")(_security_headers)
    if allowed_hosts is not None:  # outermost: a rebinding page's request goes no further
        app.add_middleware(HostCheckMiddleware, allowed=allowed_hosts)

    for part in ROUTERS:
        app.include_router(part.router)
    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def _accounts_and_ratings(
    app: FastAPI, master: GameMaster, storage: Storage, settings: Accounts.Settings
) -> None:
    """Accounts and ratings, in the game database (or in memory beside a memory store): a seat bound to
    an account acts only for it (``master.signed_in``); a rated game is rated once its end is committed."""
    engine = storage.engine if isinstance(storage, SqlStorage) else accounts_memory_engine()
    app.state.accounts = Accounts(AccountStore(engine), *settings)
    master.signed_in = app.state.accounts.current_account
    # Fair play: one browser a seat of a rated game, bans and blocks as seats are taken, the chat's filter.
    master.browser = current_browser
    app.state.fairplay = FairPlay(master, app.state.accounts.store, FairPlayStore(engine))
    master.may_sit = app.state.fairplay.may_sit
    app.state.social.chat.filter = app.state.fairplay
    app.state.ratings = RatingStore(engine)
    rating_hooks = RatingHooks(app.state.ratings, settings.clock)
    master.hooks = (*master.hooks, rating_hooks)
    rating_hooks.listen_to(master)


def _quick_match(
    app: FastAPI, master: GameMaster, storage: Storage, outbox: Outbox, clock: Callable[[], float]
) -> None:
    """Quick match, its queue beside the accounts; a game it makes at the days pace subscribes its
    players' e-mail addresses (when the server sends e-mail)."""
    store = QuickMatchStore(app.state.accounts.store.engine)
    notifier: Notifier = app.state.notifier
    mail = mail_days_games(store, outbox, notifier, master, clock) if app.state.email_on else None
    app.state.quick_match = QuickMatch(store, master, notifier.seal, clock, on_placed=mail)


@contextlib.asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    hub: Hub = app.state.hub
    pacer = CollectorPacer(asyncio.get_running_loop()) if app.state.pace_gc else None
    if pacer is not None:
        pacer.install()
    await hub.start()  # the master's announcements, the other server processes
    app.state.social.listen_to(hub.peers)
    # Games that were being played when the server stopped go on, but none is loaded before the
    # server answers: each is loaded when first asked for, or woken in the background when a bot
    # of the server's is to move or its clock runs out (risk.server.wakeups).
    hub.wakeups.start()
    app.state.notifier.start()  # what was queued before a restart goes out too
    app.state.quick_match.start()  # and the queue, as it was
    yield
    await app.state.quick_match.stop()
    await app.state.notifier.stop()
    await hub.stop()
    hub.master.storage.close()
    if pacer is not None:
        pacer.uninstall()


# -- one shape for every refusal: {"error": {"code": CODE, "message": TEXT}} --------------------------
async def _refusal_handler(request: Request, refusal: Refusal) -> JSONResponse:
    return JSONResponse({"error": refusal.to_dict()}, status_code=refusal.status)


async def _http_error_handler(request: Request, error: StarletteHTTPException) -> JSONResponse:
    # Starlette's own refusals in the app's shape: no such path, a method the path does not take,
    # and anything else (a body that cannot be read) as the malformed request it is.
    status, allowed = error.status_code, (error.headers or {}).get("Allow", "")
    if status == 404:
        code, message = "not-found", "no such page or API path"
    elif status == 405:
        code, message = "not-allowed", f"{request.method} is not allowed here; allowed: {allowed}"
    else:
        code, status, message = "bad-request", 422, str(error.detail)
    return JSONResponse({"error": {"code": code, "message": message}}, status, headers=error.headers)


async def _validation_handler(request: Request, error: RequestValidationError) -> JSONResponse:
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ())[1:]) or 'body'}: {e.get('msg', 'invalid')}"
        for e in error.errors()
    )
    return JSONResponse({"error": {"code": "bad-request", "message": problems}}, status_code=422)


async def _security_headers(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    response = await call_next(request)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.url.path == "/" or request.url.path.startswith("/game/"):
        response.headers["Cache-Control"] = "no-store"
    return response


__all__ = ["WEB_DIR", "create_app"]
