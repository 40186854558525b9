"""Chat, rematches and house rules over HTTP (docs/web.md). The chat's live side and the rules for
watchers are risk.server.social; saving and reading house rules, risk.server.houserules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from risk.server.api.deps import Authorization, MasterDep, SocialDep
from risk.server.auth import bearer
from risk.server.chat import chat_entry
from risk.server.errors import Refusal
from risk.server.houserules import get_ruleset, qr_svg, rematch, ruleset_answer, save_ruleset
from risk.server.inputs import NUMBER_MAX, OptionValue
from risk.server.master import GameMaster, GameSpec, SeatSpec
from risk.server.refusals import refusals
from risk.server.social import Social
from risk.server.timing import MAX_MISSED_TURNS
from risk.view import SPECTATOR

QR_SVG = {
    "description": "the QR code of the house rules' link, an SVG image",
    "content": {"image/svg+xml": {"schema": {"type": "string"}}},
}

router = APIRouter()


class ChatIn(BaseModel):
    text: str = Field(max_length=4000)
    channel: str = "all"


class RulesetSeatIn(BaseModel):
    kind: str = Field(description="human, open, bot or external")
    name: str = ""
    bot: str | None = None


class TableIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)  # a number is a number, never true or "3"
    bot_delay: float | None = None
    defend_timeout: float | None = None
    spectators: bool | None = None
    spectator_view: str | None = None  # fog of war: fogged or open
    public: bool | None = None
    turn_time: float | None = None
    missed_turns: int | None = Field(None, ge=0, le=MAX_MISSED_TURNS)
    stand_in: str | None = None
    time_bank: float | None = None
    vacation_days: float | None = None


class RulesetIn(BaseModel):
    name: str = Field(max_length=200, description="what the group calls these rules")
    edition: str = "2008"
    game: str = "world"
    options: dict[str, OptionValue] = Field(default_factory=dict)
    board: str = "classic"
    seats: list[RulesetSeatIn] | None = Field(None, max_length=8, description="who plays, if kept")
    table: TableIn | None = None


async def _reader(master: GameMaster, social: Social, game_id: str, authorization: str | None) -> int:
    """The seat of whoever may read the game's chat (SPECTATOR for a watcher the game allows)."""
    seat = await run_in_threadpool(master.seat_of, game_id, bearer(authorization))
    await run_in_threadpool(social.check_watcher, game_id, seat)
    return seat


@router.get(
    "/api/games/{game_id}/chat",
    summary="The chat the caller may read",
    responses=refusals(403, 404, 429, 503),
)
async def read_chat(
    game_id: str,
    master: MasterDep,
    social: SocialDep,
    after: int = Query(0, ge=0, le=NUMBER_MAX, description="only messages with a greater seq"),
    authorization: Authorization = None,
) -> dict[str, Any]:
    seat = await _reader(master, social, game_id, authorization)
    # Fair play: not the seats it muted, nor the accounts the reader's account blocked.
    messages = await run_in_threadpool(lambda: social.chat.read(game_id, seat, after, master.signed_in()))
    return {"messages": messages}


@router.post(
    "/api/games/{game_id}/chat",
    status_code=201,
    summary="Write in the chat",
    responses=refusals(403, 404, 409, 429, 503),
)
async def write_chat(
    game_id: str, body: ChatIn, master: MasterDep, social: SocialDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await _reader(master, social, game_id, authorization)
    stored = await social.write(game_id, seat, body.text, body.channel)
    return {"message": chat_entry(stored)}


@router.post(
    "/api/games/{game_id}/rematch",
    summary="The rematch of a finished game (its seats only)",
    responses={
        201: {"description": "the rematch, made now (200: made before, the same game)"},
        **refusals(403, 404, 409, 429, 503),
    },
)
async def ask_rematch(
    game_id: str, master: MasterDep, social: SocialDep, authorization: Authorization = None
) -> JSONResponse:
    token = bearer(authorization)
    seat = await run_in_threadpool(master.seat_of, game_id, token)
    if seat == SPECTATOR:
        raise Refusal("bad-token", "a rematch is for the game's players: open your seat's link")
    record, created = await run_in_threadpool(rematch, master, game_id)
    if created:  # its bots start as the master announces it
        name = master.live(game_id).record.seats[seat].name
        await social.note(
            game_id,
            f"{name} asked for a rematch: same seats and rules. Press Rematch to take your seat.",
        )
    return JSONResponse(
        {
            "id": record.id,
            "seat": seat,
            "created": created,
            "link": f"/game/{record.id}#token={token}",
        },
        status_code=201 if created else 200,
    )


@router.post(
    "/api/rulesets",
    status_code=201,
    summary="Save house rules under a name",
    responses=refusals(409, 429, 503),
)
async def create_ruleset(body: RulesetIn, master: MasterDep) -> dict[str, Any]:
    table = {} if body.table is None else body.table.model_dump(exclude_none=True)
    spec = GameSpec(
        **body.model_dump(include={"edition", "game", "board"}),
        **table,
        options={k: str(v) for k, v in body.options.items()},
        seats=[SeatSpec(**seat.model_dump()) for seat in body.seats or []],
    )
    record = await run_in_threadpool(save_ruleset, master, body.name, spec, table, body.seats is not None)
    return ruleset_answer(master, record)


@router.get("/api/rulesets/{ruleset_id}", summary="Saved house rules", responses=refusals(404, 503))
async def read_ruleset(ruleset_id: str, master: MasterDep) -> dict[str, Any]:
    return ruleset_answer(master, await run_in_threadpool(get_ruleset, master, ruleset_id))


@router.get(
    "/api/rulesets/{ruleset_id}/qr.svg",
    summary="A QR code of the house rules' link",
    response_class=Response,
    responses={200: QR_SVG, **refusals(404, 503)},
)
async def ruleset_qr(ruleset_id: str, request: Request, master: MasterDep) -> Response:
    record = await run_in_threadpool(get_ruleset, master, ruleset_id)
    url = f"{str(request.base_url).rstrip('/')}/#rules={record.id}"
    return Response(
        qr_svg(url), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"}
    )
