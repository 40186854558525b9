"""Faster play over HTTP (docs/web.md, "Faster play"): a blitz, calling one off, and taking moves back.
The websocket takes the same moves (risk.server.api.websocket)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from risk.server.api.deps import Authorization, MasterDep
from risk.server.auth import bearer
from risk.server.errors import Refusal
from risk.server.inputs import NUMBER_MAX, STATE_ID, MoveText, WholeNumber
from risk.server.master import GameMaster
from risk.server.refusals import MOVE_REFUSALS, refusals
from risk.view import SPECTATOR

router = APIRouter()


class BlitzIn(BaseModel):
    source: MoveText = Field(alias="from", max_length=100, description="the attacking territory")
    to: MoveText = Field(max_length=100, description="the territory attacked")
    until: int = Field(
        1,
        strict=True,
        ge=1,
        le=NUMBER_MAX,
        description="stop once the attacking territory holds this many armies",
    )
    state_id: WholeNumber = Field(description=STATE_ID)


class UndoIn(BaseModel):
    state_id: WholeNumber = Field(description=STATE_ID)
    to: WholeNumber | None = Field(
        None, description="take back every move from this stored one (default: the last)"
    )


async def _player(master: GameMaster, game_id: str, authorization: str | None) -> int:
    seat = await run_in_threadpool(master.seat_of, game_id, bearer(authorization))
    if seat == SPECTATOR:
        raise Refusal("bad-token", "spectators cannot act: open your seat's private link to play")
    return seat


@router.post(
    "/api/games/{game_id}/blitz",
    summary="Attack again and again in one request (blitz)",
    responses=MOVE_REFUSALS,
)
async def blitz(
    game_id: str, body: BlitzIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await _player(master, game_id, authorization)
    state_id, run = await run_in_threadpool(
        master.blitz, game_id, seat, body.source, body.to, body.until, body.state_id
    )
    return {"state_id": state_id, "blitz": run.to_dict()}


@router.post(
    "/api/games/{game_id}/blitz/stop",
    summary="Call off a blitz that waits for a defender",
    responses=refusals(403, 404, 429, 503),
)
async def stop_blitz(game_id: str, master: MasterDep, authorization: Authorization = None) -> dict[str, Any]:
    seat = await _player(master, game_id, authorization)
    stopped = await run_in_threadpool(master.stop_blitz, game_id, seat)
    return {"stopped": stopped}


@router.post(
    "/api/games/{game_id}/undo",
    summary="Take back moves that revealed nothing new",
    responses=MOVE_REFUSALS,
)
async def undo(
    game_id: str, body: UndoIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await _player(master, game_id, authorization)
    state_id = await run_in_threadpool(master.undo, game_id, seat, body.state_id, body.to)
    return {"state_id": state_id}
