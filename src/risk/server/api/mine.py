""" "Your games": the seats a browser holds, in one request (docs/web.md, "Your games"). The rules are
risk.server.mine."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from risk.server.api.deps import MasterDep
from risk.server.inputs import WholeNumber
from risk.server.mine import MAX_SEATS, HeldSeat, your_games
from risk.server.refusals import refusals

router = APIRouter()


class HeldSeatIn(BaseModel):
    game: str = Field(max_length=64, description="the game's id")
    token: str = Field(max_length=128, description="the seat's token (the #token= of its link)")
    seen: WholeNumber | None = Field(
        None, description="the seat's log mark when this browser last looked (a previous answer's mark)"
    )


class MineIn(BaseModel):
    seats: list[HeldSeatIn] = Field(max_length=MAX_SEATS)


@router.post(
    "/api/mine",
    summary="Your games: each seat link's game, whose move, the time left, what happened since",
    responses=refusals(422, 429, 503),
)
async def mine(body: MineIn, master: MasterDep) -> dict[str, Any]:
    held = [HeldSeat(s.game, s.token, s.seen) for s in body.seats]
    return {"seats": await run_in_threadpool(your_games, master, held)}
