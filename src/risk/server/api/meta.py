"""Facts that hold for every game: the editions, games, rule options and bots; the boards; battle odds."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool

from risk.bots import BOTS, DEFAULT_LEVEL, LEVELS
from risk.maps import available_maps, load_drawing, load_map
from risk.odds import invasion
from risk.rules.options import GAMES, OPTIONS, PRESETS, format_option
from risk.rules.variants import game_goal
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


@router.get("/api/boards/{name}", summary="A board and its drawing", responses=refusals(404))
async def board(name: str) -> dict[str, Any]:
    if name not in available_maps():  # shipped boards only: never a path
        raise Refusal("not-found", f"no board {name!r}; boards: {', '.join(available_maps())}")
    board = load_map(name)
    data = board.to_json()
    for row, index in zip(data["territories"], range(len(board)), strict=True):
        row["slug"] = board.slug_of(index)
    return {"board": data, "drawing": load_drawing(board.name)}


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
