"""Facts that hold for every game: the editions, games, rule options and bots; the boards; battle odds."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, Field, StrictInt

from risk.bots import BOTS, DEFAULT_LEVEL, LEVELS
from risk.maps import available_maps, load_map
from risk.maps.generate import GeneratorUnavailableError, generate_board
from risk.maps.validate import MAX_BOARD_BYTES
from risk.odds import invasion
from risk.rules.options import GAMES, OPTIONS, PRESETS, format_option
from risk.rules.variants import game_goal
from risk.server.api.deps import BoardJobsDep
from risk.server.boards import DRAWINGS, board_answer, checked_with_preview, compact, preview_svg, summary
from risk.server.errors import Refusal
from risk.server.master import DEFAULT_BOT_DELAY, DEFAULT_DEFEND_TIMEOUT
from risk.server.refusals import refusals
from risk.server.timing import DEFAULT_MISSED_TURNS

router = APIRouter()


@router.get("/api/meta", summary="Editions, games, rule options and bots")
async def meta() -> dict[str, Any]:
    return {
        "editions": {
            name: {"players": list(rules.players), "options": rules.option_values()}
            for name, rules in PRESETS.items()
        },
        "games": {
            name: {"editions": list(editions), "goal": game_goal(name).to_dict()}
            for name, editions in GAMES.items()
        },
        "options": [
            {
                "name": info.name.replace("_", "-"),
                "choices": None
                if info.choices is None
                else [format_option(info.name, c) for c in info.choices],
                "description": info.description,
                "source": info.source,
                # Whole-number options: the smallest and largest values allowed (the lobby's number boxes).
                "bounds": list(info.bounds) if info.choices is None else None,
            }
            for info in OPTIONS.values()
            if info.name != "game"
        ],
        "levels": [
            {"name": level.name, "bot": level.bot_name, "description": level.description}
            for level in LEVELS.values()
        ],
        "bots": [{"name": name, "description": cls.description} for name, cls in BOTS.items()],
        # What a human seat of POST /api/games may set (risk.server.seatprefs).
        "seat_options": ["defence", "pace", "auto_setup"],
        "defaults": {
            "bot_delay": DEFAULT_BOT_DELAY,
            "defend_timeout": DEFAULT_DEFEND_TIMEOUT,
            "turn_time": 0,
            "missed_turns": DEFAULT_MISSED_TURNS,
            "stand_in": "quick",
            "level": DEFAULT_LEVEL,  # the lobby's choice for a new bot seat
        },
    }


@router.get("/api/boards", summary="The shipped boards")
async def boards() -> dict[str, Any]:
    return {
        "boards": [
            summary(load_map(name)) | {"preview": f"/api/boards/{name}/preview.svg"}
            for name in available_maps()
        ],
        "max_bytes": MAX_BOARD_BYTES,
    }


def _shipped(name: str) -> str:
    if name not in available_maps():  # shipped boards only: never a path
        raise Refusal("not-found", f"no board {name!r}; boards: {', '.join(available_maps())}")
    return name


@router.get("/api/boards/{name}", summary="A board and its drawing", responses=refusals(404))
async def board(name: str) -> dict[str, Any]:
    shipped = _shipped(name)
    drawing = await run_in_threadpool(DRAWINGS.get, shipped)
    return board_answer(load_map(shipped), drawing)


@router.get("/api/boards/{name}/preview.svg", summary="A small picture of a board", responses=refusals(404))
async def board_preview(name: str) -> Response:
    text = await run_in_threadpool(preview_svg, _shipped(name))
    return Response(text, media_type="image/svg+xml", headers={"Cache-Control": "max-age=3600"})


@router.post(
    "/api/boards/check",
    summary="Check an uploaded board file",
    responses=refusals(413, 422, 429, 503),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": f"the board file's text (docs/boards.md), at most {MAX_BOARD_BYTES} bytes",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def check_board(request: Request, jobs: BoardJobsDep) -> dict[str, Any]:
    """Answers ``valid``, every one of its ``problems`` (with its line, as ``risk board validate``
    gives them) and their ``count``; for a valid board, its JSON
    (``board``: send it as a new game's ``board``), a ``summary`` and a ``preview`` (SVG)."""
    limit = MAX_BOARD_BYTES // 1024
    too_large = Refusal("too-large", f"a board file is at most {limit} KB; this one is larger")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BOARD_BYTES:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BOARD_BYTES:
            raise too_large
    if not body.strip():
        raise Refusal("bad-request", "nothing was uploaded: send the board file's text as the request body")
    return await jobs.run(checked_with_preview, bytes(body))


class GenerateIn(BaseModel):
    territories: int = Field(42, ge=6, le=300, strict=True)
    continents: int = Field(6, ge=1, le=24, strict=True)
    seed: int = Field(1, ge=0, le=2**31 - 1, strict=True)
    players: tuple[StrictInt, StrictInt] | None = Field(
        None, description="the player counts it supports, low and high"
    )


@router.post("/api/boards/generate", summary="Generate a board", responses=refusals(422, 429, 503))
async def generate(body: GenerateIn, jobs: BoardJobsDep) -> dict[str, Any]:
    """A new board from a seed (risk board generate): its JSON (``board``), ``summary`` and ``preview``."""
    try:
        return await jobs.run(_generated, body.territories, body.continents, body.seed, body.players)
    except (ValueError, GeneratorUnavailableError) as error:
        raise Refusal("bad-request", str(error)) from None


def _generated(
    territories: int, continents: int, seed: int, players: tuple[int, int] | None
) -> dict[str, Any]:
    data = generate_board(territories, continents, seed, players)
    return checked_with_preview(compact(data).encode("utf-8"))


@router.get("/api/odds", summary="Exact odds of an invasion", responses=refusals(422))
async def odds(
    attackers: int = Query(ge=1, le=1000, description="fighting armies (not the one that stays behind)"),
    defenders: int = Query(ge=1, le=1000),
    stop: int = Query(
        0, ge=0, le=1000, description="call the invasion off at this many fighting armies or fewer"
    ),
) -> dict[str, Any]:
    result = await run_in_threadpool(lambda: invasion(attackers, defenders, stop_at=stop))
    return {
        "attackers": attackers,
        "defenders": defenders,
        "stop": stop,
        "win": float(result.attacker_wins),
        "expected_attacker_losses": float(result.expected_attacker_losses),
        "expected_defender_losses": float(result.expected_defender_losses),
    }
