"""Accounts (docs/web.md, "Accounts"): sign up, sign in and out, the account's own data (export,
a new password, deletion). The rules are risk.server.accounts.

The session is a cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
it), Secure where the page came over HTTPS (and on this machine's own address, where browsers take
it). A change made with it needs the session's CSRF token in the ``X-CSRF-Token`` header (given at
sign-in and by ``GET /api/account``), and a request whose ``Origin`` is another site is refused.
"""

from __future__ import annotations

import json
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from risk.server.accounts.current import COOKIE
from risk.server.accounts.seats import MAX_BOUND, bind_all, bound_seats, release_all
from risk.server.accounts.service import MAX_PASSWORD, Accounts, SignedIn
from risk.server.accounts.store import SESSION_IDLE_S, Session
from risk.server.api.deps import MasterDep
from risk.server.errors import Refusal
from risk.server.limits import client_address
from risk.server.refusals import refusals

router = APIRouter()
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


async def _accounts(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


AccountsDep = Annotated[Accounts, Depends(_accounts)]
CsrfHeader = Annotated[str | None, Header(alias="X-CSRF-Token")]


class SignUpIn(BaseModel):
    name: str = Field(max_length=200, description="3 to 24 letters and digits (unique, look-alikes too)")
    password: str = Field(max_length=MAX_PASSWORD, description="8 to 256 characters")
    email: str | None = Field(None, max_length=300, description="optional: for notifications and resets")


class SignInIn(BaseModel):
    name: str = Field(max_length=200)
    password: str = Field(max_length=MAX_PASSWORD)


class PasswordIn(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, description="the account's password, given again")


class NewPasswordIn(PasswordIn):
    new_password: str = Field(max_length=MAX_PASSWORD, description="8 to 256 characters")


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or (request.url.hostname or "") in LOOPBACK


def _answer(request: Request, response: Response, signed_in: SignedIn) -> dict[str, Any]:
    response.set_cookie(
        COOKIE,
        signed_in.token,
        max_age=int(SESSION_IDLE_S),
        path="/",
        secure=_secure(request),
        httponly=True,
        samesite="strict",
    )
    return {"account": signed_in.account.shown(), "csrf": signed_in.csrf}


def _site(request: Request) -> str:
    """The server's address as this browser reached it (kept at sign-in: where a reset link points)."""
    return f"{request.url.scheme}://{request.url.netloc}"


def _same_site(request: Request) -> None:
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Refusal("csrf", "a change to an account is made from this site's own pages")


async def session_of(request: Request, accounts: Accounts) -> Session:
    session = await run_in_threadpool(accounts.session, request.cookies.get(COOKIE))
    if session is None:
        raise Refusal("signed-out", "sign in first (no session, or it has ended)")
    return session


async def changing_session(request: Request, accounts: Accounts, csrf: str | None) -> Session:
    """The session of a request that changes something: same site, with the session's CSRF token."""
    _same_site(request)
    session = await session_of(request, accounts)
    if csrf is None or not secrets.compare_digest(csrf.encode(), session.csrf.encode()):
        raise Refusal("csrf", "this change needs the X-CSRF-Token header the sign-in gave")
    return session


@router.post(
    "/api/account/signup", summary="Make an account and sign in", responses=refusals(403, 409, 429, 503)
)
async def sign_up(
    body: SignUpIn, request: Request, response: Response, accounts: AccountsDep
) -> dict[str, Any]:
    _same_site(request)
    address = client_address(request.scope)
    signed_in = await run_in_threadpool(
        accounts.sign_up, body.name, body.password, body.email, address, _site(request)
    )
    return _answer(request, response, signed_in)


@router.post("/api/account/signin", summary="Sign in", responses=refusals(401, 403, 429, 503))
async def sign_in(
    body: SignInIn, request: Request, response: Response, accounts: AccountsDep
) -> dict[str, Any]:
    _same_site(request)
    address = client_address(request.scope)
    signed_in = await run_in_threadpool(accounts.sign_in, body.name, body.password, address, _site(request))
    # A session cookie sent along (another account's, or a planted one) ends: no fixation.
    old = request.cookies.get(COOKIE)
    if old:
        session = await run_in_threadpool(accounts.session, old)
        if session is not None:
            await run_in_threadpool(accounts.sign_out, session)
    return _answer(request, response, signed_in)


@router.post("/api/account/signout", summary="Sign out (this browser)", responses=refusals(401, 403, 503))
async def sign_out(
    request: Request, response: Response, accounts: AccountsDep, csrf: CsrfHeader = None
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    await run_in_threadpool(accounts.sign_out, session)
    response.delete_cookie(COOKIE, path="/", secure=_secure(request), httponly=True, samesite="strict")
    return {"account": None}


@router.get("/api/account", summary="Who is signed in here (null: no one)", responses=refusals(503))
async def who(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    session = await run_in_threadpool(accounts.session, request.cookies.get(COOKIE))
    if session is None:
        return {"account": None}
    return {"account": session.account.shown(), "csrf": session.csrf}


@router.get(
    "/api/account/export", summary="Everything stored about your account", responses=refusals(401, 503)
)
async def export(request: Request, accounts: AccountsDep, master: MasterDep) -> Response:
    session = await session_of(request, accounts)
    data = await run_in_threadpool(accounts.export, session)
    data["seats"] = await run_in_threadpool(bound_seats, master, session.account.id)
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False),
        media_type="application/json",
        headers={
            "Content-Disposition": 'attachment; filename="risk-account.json"',
            "Cache-Control": "no-store",
        },
    )


@router.post(
    "/api/account/password",
    summary="A new password (signs out your other sessions)",
    responses=refusals(401, 403, 503),
)
async def new_password(
    body: NewPasswordIn, request: Request, accounts: AccountsDep, csrf: CsrfHeader = None
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    await run_in_threadpool(accounts.change_password, session, body.password, body.new_password)
    return {"account": session.account.shown()}


@router.post(
    "/api/account/delete", summary="Delete your account (your games stay)", responses=refusals(401, 403, 503)
)
async def delete(
    body: PasswordIn,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    master: MasterDep,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    await run_in_threadpool(accounts.check_own_password, session, body.password)
    await run_in_threadpool(release_all, master, session.account.id)
    await run_in_threadpool(accounts.delete, session)
    response.delete_cookie(COOKIE, path="/", secure=_secure(request), httponly=True, samesite="strict")
    return {"account": None}


class HeldSeatIn(BaseModel):
    game: str = Field(max_length=64, description="the game's id")
    token: str = Field(max_length=128, description="the seat's token (the #token= of its link)")


class BindIn(BaseModel):
    seats: list[HeldSeatIn] = Field(max_length=MAX_BOUND)


@router.post(
    "/api/account/seats",
    summary="Bind the seats this browser holds to your account (their links then need it)",
    responses=refusals(401, 403, 503),
)
async def bind_seats(
    body: BindIn, request: Request, accounts: AccountsDep, master: MasterDep, csrf: CsrfHeader = None
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    held = [(s.game, s.token) for s in body.seats]
    return {"seats": await run_in_threadpool(bind_all, master, session.account.id, held)}


@router.get(
    "/api/account/seats", summary="Your account's seats, newest game first", responses=refusals(401, 503)
)
async def account_seats(request: Request, accounts: AccountsDep, master: MasterDep) -> dict[str, Any]:
    session = await session_of(request, accounts)
    return {"seats": await run_in_threadpool(bound_seats, master, session.account.id)}


class ResetIn(BaseModel):
    name: str = Field(max_length=200, description="the account's name")


class ResetFinishIn(BaseModel):
    token: str = Field(max_length=200, description="the #reset= of the e-mail's link")
    new_password: str = Field(max_length=MAX_PASSWORD, description="8 to 256 characters")


@router.post(
    "/api/account/reset",
    summary="A forgotten password: a link by e-mail, if the account has an address",
    responses=refusals(403, 409, 429, 503),
)
async def ask_reset(body: ResetIn, request: Request, accounts: AccountsDep) -> dict[str, Any]:
    _same_site(request)
    await run_in_threadpool(accounts.ask_reset, body.name, client_address(request.scope))
    return {
        "message": "If that account has an e-mail address, a link to choose a new password is on its way "
        "(it works once, within the hour)."
    }


@router.post(
    "/api/account/reset/finish",
    summary="A new password through the e-mail's link (signs in; other sessions end)",
    responses=refusals(403, 503),
)
async def finish_reset(
    body: ResetFinishIn, request: Request, response: Response, accounts: AccountsDep
) -> dict[str, Any]:
    _same_site(request)
    signed_in = await run_in_threadpool(accounts.finish_reset, body.token, body.new_password)
    return _answer(request, response, signed_in)
