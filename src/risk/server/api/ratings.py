"""Ratings (docs/web.md, "Ratings"): the leaderboard of a game family and pace, and a player's profile
(their ratings, each change with its game, and their games). The rules are risk.server.ratings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from risk.server.accounts.names import name_key
from risk.server.accounts.seats import bound_seats
from risk.server.api.deps import MasterDep
from risk.server.errors import Refusal
from risk.server.ratings.store import RatingStore, RatingStoreError
from risk.server.refusals import refusals

router = APIRouter()
MAX_BOARD = 100


async def _ratings(connection: HTTPConnection) -> RatingStore:
    store: RatingStore = connection.app.state.ratings
    return store


RatingsDep = Annotated[RatingStore, Depends(_ratings)]


def _read(operation: Any, *args: Any) -> Any:
    try:
        return operation(*args)
    except RatingStoreError:
        raise Refusal("unavailable", "the ratings cannot be read now: try again") from None


@router.get("/api/ratings", summary="The leaderboard of a game family and pace", responses=refusals(503))
async def leaderboard(
    store: RatingsDep,
    family: Annotated[
        str, Query(max_length=32, description="world, two-player, secret-mission, ...")
    ] = "world",
    pace: Annotated[Literal["live", "days"], Query()] = "live",
) -> dict[str, Any]:
    rows = await run_in_threadpool(_read, store.leaderboard, family, pace, MAX_BOARD)
    return {"family": family, "pace": pace, "players": rows}


@router.get(
    "/api/players/{name}",
    summary="A player's profile: ratings, their history, games",
    responses=refusals(404, 503),
)
async def profile(name: str, store: RatingsDep, master: MasterDep) -> dict[str, Any]:
    found = await run_in_threadpool(_read, store.account_named, name_key(name[:200]))
    if found is None:
        raise Refusal("not-found", "no player has that name")
    account, shown_name = found
    shown = await run_in_threadpool(_read, store.profile, account)
    # Only the games anyone may see: a private game's id is its watch link, and some allow no watcher.
    games = [g for g in await run_in_threadpool(bound_seats, master, account) if g.pop("listed")]
    return {"name": shown_name, **shown, "games": games}
