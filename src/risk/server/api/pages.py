"""The pages: the lobby, a game's board, a finished game's summary and the replay of an uploaded record.
Static files (scripts, styles, images) are served under ``/static`` (``create_app`` mounts them); the
service worker of Web Push at ``/sw.js``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

WEB_DIR = Path(str(resources.files("risk").joinpath("web")))

router = APIRouter()


@router.get("/", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html")


@router.get("/game/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "game.html")


@router.get("/game/{game_id}/summary", include_in_schema=False)
async def summary_page(game_id: str) -> FileResponse:
    return FileResponse(WEB_DIR / "summary.html")


@router.get("/players", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(WEB_DIR / "players.html")


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB_DIR / "players.html")


@router.get("/replay", include_in_schema=False)
async def replay_page() -> FileResponse:
    return FileResponse(WEB_DIR / "summary.html")


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    # From the root, so that its scope is the whole site (/game/...); checked for a new version at
    # each registration rather than kept from a cache.
    return FileResponse(
        WEB_DIR / "js" / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )
