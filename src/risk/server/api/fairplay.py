"""Fair play over HTTP (docs/web.md, "Fair play"): an account's blocks, a seat's mutes, a chat line
reported to the host, the host's reports and bans. The rules are risk.server.fairplay."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from risk.server.api.accounts import AccountsDep, CsrfHeader, changing_session, session_of
from risk.server.api.deps import Authorization, FairPlayDep, MasterDep, SocialDep
from risk.server.auth import bearer
from risk.server.inputs import NUMBER_MAX, WholeNumber
from risk.server.master import GameMaster
from risk.server.refusals import refusals

router = APIRouter()
SeatPath = Path(ge=0, le=NUMBER_MAX, description="a seat of the game")


class BlockIn(BaseModel):
    name: str | None = Field(None, max_length=200, description="the account's name (look-alikes too)")
    game: str | None = Field(None, max_length=64, description="with seat: a game where you hold a seat")
    seat: WholeNumber | None = Field(None, description="with game: the seat whose account to block")


class MuteIn(BaseModel):
    seat: WholeNumber = Field(description="the seat whose chat you no longer read")


class ReportIn(BaseModel):
    reason: str | None = Field(None, max_length=2000, description="optional, at most 300 characters")


class BanIn(BaseModel):
    seat: WholeNumber | None = Field(None, description="the seat whose player is banned")
    name: str | None = Field(None, max_length=200, description="or an account's name")


# -- an account's blocks ---------------------------------------------------------------------------
@router.get("/api/account/blocks", summary="The players you blocked", responses=refusals(401, 503))
async def blocks(request: Request, accounts: AccountsDep, fair: FairPlayDep) -> dict[str, Any]:
    session = await session_of(request, accounts)
    return {"blocked": await run_in_threadpool(fair.blocked, session.account.id)}


@router.post(
    "/api/account/blocks",
    summary="Block a player (by name, or by seat in a game of yours)",
    responses=refusals(401, 403, 404, 503),
)
async def block(
    body: BlockIn, request: Request, accounts: AccountsDep, fair: FairPlayDep, csrf: CsrfHeader = None
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    answer = await run_in_threadpool(fair.block, session.account.id, body.name, body.game, body.seat)
    return {"blocked": answer}


@router.delete(
    "/api/account/blocks/{name}", summary="Unblock a player", responses=refusals(401, 403, 404, 503)
)
async def unblock(
    request: Request,
    accounts: AccountsDep,
    fair: FairPlayDep,
    name: str = Path(max_length=200),
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    session = await changing_session(request, accounts, csrf)
    return {"blocked": await run_in_threadpool(fair.unblock, session.account.id, name)}


# -- a seat's mutes, and reports ---------------------------------------------------------------------
async def _seat(master: GameMaster, game_id: str, authorization: str | None) -> int:
    seat: int = await run_in_threadpool(master.seat_of, game_id, bearer(authorization))
    return seat


@router.get(
    "/api/games/{game_id}/mutes", summary="The seats your seat muted", responses=refusals(403, 404, 503)
)
async def mutes(
    game_id: str, master: MasterDep, fair: FairPlayDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await _seat(master, game_id, authorization)
    return {"muted": await run_in_threadpool(fair.muted, game_id, seat)}


@router.post(
    "/api/games/{game_id}/mutes",
    summary="Mute a seat's chat (for your seat alone)",
    responses=refusals(403, 404, 429, 503),
)
async def mute(
    game_id: str, body: MuteIn, master: MasterDep, fair: FairPlayDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await _seat(master, game_id, authorization)
    return {"muted": await run_in_threadpool(fair.set_mute, game_id, seat, body.seat, True)}


@router.delete(
    "/api/games/{game_id}/mutes/{other}",
    summary="Read a muted seat's chat again",
    responses=refusals(403, 404, 429, 503),
)
async def unmute(
    game_id: str,
    master: MasterDep,
    fair: FairPlayDep,
    other: int = SeatPath,
    authorization: Authorization = None,
) -> dict[str, Any]:
    seat = await _seat(master, game_id, authorization)
    return {"muted": await run_in_threadpool(fair.set_mute, game_id, seat, other, False)}


@router.post(
    "/api/games/{game_id}/chat/{seq}/report",
    status_code=201,
    summary="Report a chat message to the game's host (once; who reported is never shown)",
    responses=refusals(403, 404, 409, 429, 503),
)
async def report(
    game_id: str,
    body: ReportIn,
    master: MasterDep,
    fair: FairPlayDep,
    seq: int = Path(ge=1, le=NUMBER_MAX, description="the message's seq"),
    authorization: Authorization = None,
) -> dict[str, Any]:
    seat = await _seat(master, game_id, authorization)
    await run_in_threadpool(fair.report, game_id, seat, seq, body.reason)
    return {"reported": seq}


# -- the host's ------------------------------------------------------------------------------------
@router.get(
    "/api/games/{game_id}/reports",
    summary="The host: the chat lines reported, and the game's bans",
    responses=refusals(403, 404, 503),
)
async def host_reports(
    game_id: str, fair: FairPlayDep, authorization: Authorization = None
) -> dict[str, Any]:
    return await run_in_threadpool(fair.host_view, game_id, bearer(authorization))


@router.post(
    "/api/games/{game_id}/bans",
    summary="The host bans a player (by seat or account name) from the game",
    responses=refusals(403, 404, 409, 429, 503),
)
async def ban(
    game_id: str, body: BanIn, fair: FairPlayDep, social: SocialDep, authorization: Authorization = None
) -> dict[str, Any]:
    note = await run_in_threadpool(fair.ban, game_id, bearer(authorization), body.seat, body.name)
    if note is not None:
        await social.note(game_id, note)
    return {"bans": await run_in_threadpool(fair.bans, game_id)}


@router.delete(
    "/api/games/{game_id}/bans/{ban_id}",
    summary="The host lifts a ban (while the game waits for players)",
    responses=refusals(403, 404, 409, 429, 503),
)
async def unban(
    game_id: str,
    fair: FairPlayDep,
    ban_id: int = Path(ge=1, le=NUMBER_MAX, description="the ban's id (GET .../reports lists them)"),
    authorization: Authorization = None,
) -> dict[str, Any]:
    return {"bans": await run_in_threadpool(fair.unban, game_id, bearer(authorization), ban_id)}
