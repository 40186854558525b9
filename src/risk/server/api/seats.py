"""A player's seat changing hands (docs/web.md, "Seats"): resigning, a stand-in bot for the seat and
taking it back, the host handing an absent player's seat to a bot. The rules are risk.server.seats."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from risk.server import seats as seat_desk
from risk.server import vacations
from risk.server.api.deps import Authorization, HubDep, MasterDep
from risk.server.auth import bearer
from risk.server.errors import Refusal
from risk.server.inputs import WholeNumber
from risk.server.refusals import MOVE_REFUSALS
from risk.server.timing import MAX_VACATION_DAYS

router = APIRouter()


class StandInIn(BaseModel):
    on: bool = Field(description="true: a bot plays your seat; false: you take it back")


class PlaceIn(BaseModel):
    territory: str = Field(max_length=80)
    count: int = Field(strict=True, ge=1, le=200, description="how many of your next setup placements")


class PrefsIn(BaseModel):
    defence: str | None = Field(
        None, description="most (always the most dice), matters (ask when fewer can be better), ask"
    )
    pace: str | None = Field(None, description="the bots' pace while you watch: watch, fast or skip")
    auto_setup: bool | None = Field(None, description="true: your setup is placed for you (the hard bot)")
    place: PlaceIn | None = Field(None, description="queue setup placements on one of your territories")
    clear_queue: bool = Field(False, description="drop the setup placements queued so far")


class VacationIn(BaseModel):
    days: float | None = Field(
        None, strict=True, gt=0, le=MAX_VACATION_DAYS, description="days of vacation to take from now"
    )
    back: bool = Field(False, description="true: come back early (the unused days are given back)")


class ReplaceIn(BaseModel):
    seat: WholeNumber
    bot: str | None = Field(None, description="the bot to play the seat (default: the game's stand-in)")


@router.post(
    "/api/games/{game_id}/resign",
    summary="Resign: leave the game (your armies stay, neutral)",
    responses=MOVE_REFUSALS,
)
async def resign(game_id: str, master: MasterDep, authorization: Authorization = None) -> dict[str, Any]:
    state_id = await run_in_threadpool(seat_desk.resign, master, game_id, bearer(authorization))
    return {"state_id": state_id}


@router.post(
    "/api/games/{game_id}/stand-in",
    summary="Hand your seat to a bot, or take it back",
    responses=MOVE_REFUSALS,
)
async def stand_in(
    game_id: str, body: StandInIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    token = bearer(authorization)
    answer = await run_in_threadpool(seat_desk.hand_over, master, game_id, token, body.on)
    return answer


@router.post(
    "/api/games/{game_id}/prefs",
    summary="Your seat's own settings: defence dice, the bots' pace, setup orders",
    responses=MOVE_REFUSALS,
)
async def prefs(
    game_id: str, body: PrefsIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    token = bearer(authorization)
    place = None if body.place is None else (body.place.territory, body.place.count)
    answer = await run_in_threadpool(
        lambda: seat_desk.set_prefs(
            master,
            game_id,
            token,
            defence=body.defence,
            pace=body.pace,
            auto_setup=body.auto_setup,
            place=place,
            clear_queue=body.clear_queue,
        )
    )
    return answer


@router.post(
    "/api/games/{game_id}/vacation",
    summary="Pause your own clock for some days (or come back early)",
    responses=MOVE_REFUSALS,
)
async def vacation(
    game_id: str, body: VacationIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    token = bearer(authorization)
    if body.back == (body.days is not None):
        raise Refusal("bad-request", 'give either "days" (to go on vacation) or "back": true (to come back)')
    if body.back:
        return await run_in_threadpool(vacations.come_back, master, game_id, token)
    days = body.days
    return await run_in_threadpool(vacations.take_vacation, master, game_id, token, days or 0.0)


@router.post(
    "/api/games/{game_id}/replace",
    summary="The host hands an absent player's seat to a bot",
    responses=MOVE_REFUSALS,
)
async def replace_absent(
    game_id: str, body: ReplaceIn, master: MasterDep, hub: HubDep, authorization: Authorization = None
) -> dict[str, Any]:
    token, present = bearer(authorization), hub.present(game_id)
    answer = await run_in_threadpool(
        seat_desk.replace_absent, master, game_id, token, body.seat, body.bot, present
    )
    return answer
