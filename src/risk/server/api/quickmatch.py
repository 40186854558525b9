"""Quick match (docs/web.md, "Quick match"): wait in a queue, see your entries (and, once matched, the
game's link with your seat's token), leave a queue. Signed in only; a change needs the session's CSRF
token, as every change to an account does. The rules are risk.server.quickmatch."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from risk.server.api.accounts import AccountsDep, CsrfHeader, changing_session, session_of
from risk.server.inputs import NUMBER_MAX, WholeNumber
from risk.server.quickmatch.service import QuickMatch
from risk.server.refusals import refusals

router = APIRouter()


async def _quick_match(connection: HTTPConnection) -> QuickMatch:
    quick: QuickMatch = connection.app.state.quick_match
    return quick


QuickMatchDep = Annotated[QuickMatch, Depends(_quick_match)]


class QueueIn(BaseModel):
    game: str = Field("world", max_length=32, description="world, secret-mission, capital, two-player, ...")
    players: WholeNumber = Field(2, description="the players of the game, you included")
    pace: str = Field("live", max_length=8, description="live (a sitting) or days (a day a turn)")


@router.get(
    "/api/quickmatch/queues",
    summary="What you may queue for (games, player counts, paces) and how many wait in each queue",
    responses=refusals(503),
)
async def queues(quick: QuickMatchDep) -> dict[str, Any]:
    return await run_in_threadpool(quick.offered)


@router.post(
    "/api/quickmatch",
    status_code=201,
    summary="Wait in a quick match queue (a game type, a player count, a pace)",
    responses=refusals(401, 403, 422, 503),
)
async def join_queue(
    body: QueueIn, request: Request, accounts: AccountsDep, quick: QuickMatchDep, csrf: CsrfHeader = None
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    queue = quick.queue_of(body.game, body.players, body.pace)
    return {"entry": await run_in_threadpool(quick.join, session.account.id, queue)}


@router.get(
    "/api/quickmatch",
    summary="Your quick match entries: waiting, and the games you were matched to (a day)",
    responses=refusals(401, 503),
)
async def my_entries(request: Request, accounts: AccountsDep, quick: QuickMatchDep) -> dict[str, Any]:
    session = await session_of(request, accounts)
    return {"entries": await run_in_threadpool(quick.entries, session.account.id)}


@router.delete(
    "/api/quickmatch/{entry}",
    summary="Leave a queue (an entry still waiting)",
    responses=refusals(401, 403, 404, 503),
)
async def leave_queue(
    entry: Annotated[int, Path(ge=0, le=NUMBER_MAX)],
    request: Request,
    accounts: AccountsDep,
    quick: QuickMatchDep,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    await run_in_threadpool(quick.leave, session.account.id, entry)
    return {"entries": await run_in_threadpool(quick.entries, session.account.id)}
