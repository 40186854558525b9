"""Notifications (docs/web.md, "Notifications"): a seat's e-mail address and a seat's Web Push
subscription given, read back (without the address) and taken away with the seat's token, the game's
webhook (its host's), and the unsubscribe link of every e-mail, which works without it. The sending is
risk.server.notify."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from risk.server.api.deps import Authorization, MasterDep
from risk.server.auth import bearer
from risk.server.errors import Refusal
from risk.server.master import GameMaster
from risk.server.notify.channels import MAX_ADDRESS, is_address
from risk.server.notify.events import GAME
from risk.server.notify.outbox import Outbox, OutboxError, Subscription
from risk.server.notify.push import PushSettings, check_subscription
from risk.server.notify.sender import Notifier
from risk.server.notify.webhook import MAX_WEBHOOK_URL, check_webhook_url
from risk.server.refusals import refusals
from risk.server.seats import check_host

router = APIRouter()
T = TypeVar("T")
DIGEST_S = 86_400.0  # a daily digest: at most one message a day


async def _outbox(connection: HTTPConnection) -> Outbox | None:
    return getattr(connection.app.state, "outbox", None)


async def _email_on(connection: HTTPConnection) -> bool:
    return bool(getattr(connection.app.state, "email_on", False))


async def _notifier(connection: HTTPConnection) -> Notifier:
    notifier: Notifier = connection.app.state.notifier
    return notifier


async def _push(connection: HTTPConnection) -> PushSettings | None:
    return getattr(connection.app.state, "push", None)


OutboxDep = Annotated[Outbox | None, Depends(_outbox)]
PushDep = Annotated[PushSettings | None, Depends(_push)]
NotifierDep = Annotated[Notifier, Depends(_notifier)]
EmailOnDep = Annotated[bool, Depends(_email_on)]


class EmailIn(BaseModel):
    """A seat's e-mail notifications: never shown to anyone, deleted when the game ends."""

    address: str = Field(max_length=MAX_ADDRESS, description="where to send them")
    pace: Literal["each", "digest"] = Field(
        "each", description="each: at most one message per every_minutes; digest: one a day"
    )
    every_minutes: int = Field(15, strict=True, ge=1, le=1440, description="pace 'each': the least gap")


def _push_shown(sub: Subscription | None) -> dict[str, Any] | None:
    """A seat's push subscription as the seat sees it: never the endpoint nor the keys."""
    return None if sub is None else {"paused": sub.paused, "failures": sub.failures}


def _shown(sub: Subscription | None) -> dict[str, Any] | None:
    """A subscription as its own seat sees it: not even the address is sent back."""
    if sub is None:
        return None
    digest = sub.every_s >= DIGEST_S
    return {
        "pace": "digest" if digest else "each",
        "every_minutes": round(sub.every_s / 60),
        "paused": sub.paused,
        "failures": sub.failures,
    }


def _seat(master: GameMaster, game_id: str, authorization: str | None) -> int:
    """The seat of the token (a person's seat, in a game not over), or a refusal."""
    seat = master.seat_of(game_id, bearer(authorization))
    live = master.live(game_id)
    if seat < 0:
        raise Refusal("bad-token", "notifications are for a seat: send its token")
    if live.published.game.is_over:
        raise Refusal("game-over", "the game is over: nothing more to tell")
    return seat


def _stored(operation: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    try:
        return operation(*args, **kwargs)
    except OutboxError:
        raise Refusal("unavailable", "the server cannot store that now: try again") from None


def _need(outbox: Outbox | None, email_on: bool) -> Outbox:
    if outbox is None or not email_on:
        raise Refusal("unavailable", "this server sends no e-mail (its host has not set risk serve --smtp)")
    return outbox


@router.get(
    "/api/games/{game_id}/notify",
    summary="Your seat's notifications (paused after failures: say so to the player)",
    responses=refusals(403, 404, 409, 503),
)
async def notify_settings(
    game_id: str,
    master: MasterDep,
    outbox: OutboxDep,
    email_on: EmailOnDep,
    push: PushDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    def read() -> tuple[Subscription | None, Subscription | None]:
        seat = _seat(master, game_id, authorization)
        if outbox is None:
            return None, None
        return _stored(outbox.subscription, game_id, seat, "email"), _stored(
            outbox.subscription, game_id, seat, "push"
        )

    email, pushed = await run_in_threadpool(read)
    return {
        "email_available": email_on,
        "email": _shown(email),
        "push_available": push is not None and outbox is not None,
        "push": _push_shown(pushed),
        "vapid_public_key": None if push is None else push.public_key,
    }


@router.put(
    "/api/games/{game_id}/notify/email",
    summary="E-mail me about this seat (my move, my defence, attacks, the end)",
    responses=refusals(403, 404, 409, 503),
)
async def notify_by_email(
    game_id: str,
    body: EmailIn,
    request: Request,
    master: MasterDep,
    outbox: OutboxDep,
    email_on: EmailOnDep,
    notifier: NotifierDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    if not is_address(body.address):
        raise Refusal("bad-request", "address: not an e-mail address (name@example.org)")
    store = _need(outbox, email_on)
    every_s = DIGEST_S if body.pace == "digest" else body.every_minutes * 60.0
    sub = await _seat_subscribes(
        game_id, "email", body.address, every_s, request, master, store, notifier, authorization
    )
    return {"email_available": True, "email": _shown(sub)}


async def _seat_subscribes(
    game_id: str,
    channel: str,
    address: str,
    every_s: float,
    request: Request,
    master: GameMaster,
    store: Outbox,
    notifier: Notifier,
    authorization: str | None,
) -> Subscription:
    """The seat of the token subscribes to ``channel`` (replacing its address there, if any)."""
    site = str(request.base_url)  # the host name is one the server answers to (risk.server.hosts)

    def subscribe() -> Subscription:
        seat = _seat(master, game_id, authorization)
        token = notifier.seal.close(bearer(authorization) or "")  # kept sealed (risk.server.notify.seal)
        return _stored(
            store.subscribe, game_id, seat, channel, address=address, seat_token=token, site=site,
            every_s=every_s, now=time.time(),
        )  # fmt: skip

    sub = await run_in_threadpool(subscribe)
    # What the seat waits for now is told too (unless its page is still open when it is sent).
    shown = master.live(game_id).published
    notifier.heard(shown.record, shown.game)
    return sub


class PushIn(BaseModel):
    """A seat's Web Push subscription: the browser's PushSubscription, as its toJSON() gives it."""

    subscription: dict[str, Any] = Field(
        description='{"endpoint": "https://...", "keys": {"p256dh", "auth"}}'
    )


@router.put(
    "/api/games/{game_id}/notify/push",
    summary="Notify this browser about this seat by Web Push (one browser per seat: a new one replaces it)",
    responses=refusals(403, 404, 409, 503),
)
async def notify_by_push(
    game_id: str,
    body: PushIn,
    request: Request,
    master: MasterDep,
    outbox: OutboxDep,
    push: PushDep,
    notifier: NotifierDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    try:  # the request checked first, as the e-mail's: a bad one is refused whatever the server
        address = check_subscription(body.subscription, local=push is not None and push.local_endpoints)
    except ValueError as exc:
        raise Refusal("bad-request", str(exc)) from None
    if push is None or outbox is None:
        raise Refusal("unavailable", "this server sends no Web Push notifications")
    sub = await _seat_subscribes(
        game_id, "push", address, 0.0, request, master, outbox, notifier, authorization
    )
    return {"push_available": True, "push": _push_shown(sub)}


@router.delete(
    "/api/games/{game_id}/notify/push",
    summary="No more Web Push for this seat: the subscription is deleted",
    responses=refusals(403, 404, 409, 503),
)
async def stop_push(
    game_id: str, master: MasterDep, outbox: OutboxDep, authorization: Authorization = None
) -> dict[str, Any]:
    return {"deleted": await run_in_threadpool(_seat_stops, master, outbox, game_id, "push", authorization)}


def _seat_stops(
    master: GameMaster, outbox: Outbox | None, game_id: str, channel: str, authorization: str | None
) -> bool:
    """The seat of the token's subscription to ``channel`` deleted (the game may be over)."""
    seat = master.seat_of(game_id, bearer(authorization))
    if seat < 0:
        raise Refusal("bad-token", "notifications are for a seat: send its token")
    return outbox is not None and bool(_stored(outbox.unsubscribe, game_id, seat, channel))


class WebhookIn(BaseModel):
    """The game's webhook (its host's): a JSON POST for each turn and for the end."""

    url: str = Field(max_length=MAX_WEBHOOK_URL, description="https://... (Discord, Slack, ntfy, your own)")


def _webhook_shown(sub: Subscription | None) -> dict[str, Any] | None:
    """The game's webhook as its host sees it: never the URL (a chat's webhook URL is its password)."""
    if sub is None:
        return None
    return {"set": True, "paused": sub.paused, "failures": sub.failures}


def _host(master: GameMaster, game_id: str, authorization: str | None, *, running: bool = True) -> None:
    live = master.live(game_id)
    check_host(live, bearer(authorization))
    if running and live.published.game.is_over:
        raise Refusal("game-over", "the game is over: nothing more to tell")


@router.get(
    "/api/games/{game_id}/notify/webhook",
    summary="The game's webhook, for its host (never its URL)",
    responses=refusals(403, 404, 503),
)
async def webhook_settings(
    game_id: str, master: MasterDep, outbox: OutboxDep, authorization: Authorization = None
) -> dict[str, Any]:
    def read() -> Subscription | None:
        _host(master, game_id, authorization, running=False)
        return None if outbox is None else _stored(outbox.subscription, game_id, GAME, "webhook")

    return {"webhook": _webhook_shown(await run_in_threadpool(read))}


@router.put(
    "/api/games/{game_id}/notify/webhook",
    summary="The host sets the game's webhook: a JSON POST for each turn and for the end",
    responses=refusals(403, 404, 409, 503),
)
async def set_webhook(
    game_id: str,
    body: WebhookIn,
    request: Request,
    master: MasterDep,
    outbox: OutboxDep,
    notifier: NotifierDep,
    authorization: Authorization = None,
) -> dict[str, Any]:
    own = {request.headers.get("host", "").lower(), request.url.netloc.lower()}
    try:
        url = check_webhook_url(body.url, own)
    except ValueError as exc:
        raise Refusal("bad-request", str(exc)) from None
    if outbox is None:
        raise Refusal("unavailable", "this server keeps no notifications")
    store = outbox
    site = str(request.base_url)

    def subscribe() -> Subscription:
        _host(master, game_id, authorization)
        return _stored(
            store.subscribe, game_id, GAME, "webhook", address=url, seat_token="", site=site,
            every_s=0.0, now=time.time(),
        )  # fmt: skip

    sub = await run_in_threadpool(subscribe)
    shown = master.live(game_id).published
    notifier.heard(shown.record, shown.game)  # whose move it is now goes out at once
    return {"webhook": _webhook_shown(sub)}


@router.delete(
    "/api/games/{game_id}/notify/webhook",
    summary="The host takes the game's webhook away",
    responses=refusals(403, 404, 503),
)
async def stop_webhook(
    game_id: str, master: MasterDep, outbox: OutboxDep, authorization: Authorization = None
) -> dict[str, Any]:
    def delete() -> bool:
        _host(master, game_id, authorization, running=False)
        return outbox is not None and bool(_stored(outbox.unsubscribe, game_id, GAME, "webhook"))

    return {"deleted": await run_in_threadpool(delete)}


@router.delete(
    "/api/games/{game_id}/notify/email",
    summary="No more e-mail for this seat: the address is deleted",
    responses=refusals(403, 404, 409, 503),
)
async def stop_email(
    game_id: str, master: MasterDep, outbox: OutboxDep, authorization: Authorization = None
) -> dict[str, Any]:
    return {"deleted": await run_in_threadpool(_seat_stops, master, outbox, game_id, "email", authorization)}


PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RISK: e-mail</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/css/app.css"></head><body>{body}</body></html>"""


@router.get(
    "/notify/unsubscribe/{subscription_id}",
    summary="The unsubscribe link of a message: a page with one button",
    response_class=HTMLResponse,
    include_in_schema=False,  # a page, as the game's pages
)
async def unsubscribe_page(subscription_id: str) -> HTMLResponse:
    # A link opened (or fetched by a mail scanner) changes nothing: the button posts.
    body = (
        "<h1>No more e-mail from this game?</h1>"
        '<form method="post"><button type="submit">Unsubscribe</button></form>'
    )
    return HTMLResponse(PAGE.format(body=body))


@router.post(
    "/notify/unsubscribe/{subscription_id}",
    summary="Unsubscribe (RFC 8058 one-click): the address is deleted, nothing more is sent",
    response_class=HTMLResponse,
    include_in_schema=False,
)
async def unsubscribe(subscription_id: str, outbox: OutboxDep) -> HTMLResponse:
    if outbox is not None and len(subscription_id) <= 64:
        await run_in_threadpool(_stored, outbox.unsubscribe_by_id, subscription_id)
    # The same answer whether it was there or not: the link tells nothing to whoever guesses one.
    return HTMLResponse(PAGE.format(body="<h1>Unsubscribed</h1><p>No more e-mail from this game.</p>"))
