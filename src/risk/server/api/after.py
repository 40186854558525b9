"""After the game: a finished game's record (its players only) and its charts, luck meter and
timelapse (risk.history); the same for an uploaded record."""

from __future__ import annotations

import gzip
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse, Response

from risk.errors import RecordError
from risk.history import replay_upload, summarize
from risk.maps import shipped_board
from risk.server.api.deps import Authorization, HubDep, MasterDep, SocialDep, SummariesDep
from risk.server.auth import bearer
from risk.server.boards import DRAWINGS, board_answer
from risk.server.errors import Refusal
from risk.server.refusals import refusals

MAX_RECORD = 1 << 20  # bytes of an uploaded record: a long game (9,000 actions) is 250 KB
SUMMARIES_KEPT = 8
RECORD_TEXT = {
    "description": "the record (docs/notation.md)",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}

router = APIRouter()


@router.get(
    "/api/games/{game_id}/record",
    summary="A finished game's record (players only)",
    response_class=Response,  # plain text, as documented below; refusals stay JSON
    responses={200: RECORD_TEXT, **refusals(403, 404, 409, 503)},
)
async def record(game_id: str, master: MasterDep, authorization: Authorization = None) -> PlainTextResponse:
    text = await run_in_threadpool(master.record_text, game_id, bearer(authorization))
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="risk-{game_id}.txt"'}
    )


@router.get(
    "/api/games/{game_id}/summary",
    summary="A finished game's charts, luck meter and timelapse",
    responses=refusals(403, 404, 409, 422, 503),
)
async def after_game(
    game_id: str,
    request: Request,
    master: MasterDep,
    hub: HubDep,
    social: SocialDep,
    summaries: SummariesDep,
    authorization: Authorization = None,
) -> Response:
    # A game that does not allow spectators shows its summary to its players only.
    seat = await run_in_threadpool(master.seat_of, game_id, bearer(authorization))
    await run_in_threadpool(social.check_watcher, game_id, seat)
    body = summaries.pop(game_id, None)
    if body is None:
        body = _json_bytes(await run_in_threadpool(master.after_game, game_id))
        if not hub.connections.get(game_id):
            master.forget(game_id)  # loaded only for this: it leaves memory again
    summaries[game_id] = body
    while len(summaries) > SUMMARIES_KEPT:
        summaries.pop(next(iter(summaries)))
    return _json_answer(request, body)


@router.post(
    "/api/replay",
    summary="The charts, luck meter and timelapse of an uploaded record",
    responses=refusals(413, 422, 429, 503),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": f"the record file's text (docs/notation.md), at most {MAX_RECORD} bytes",
            "content": {"text/plain": {"schema": {"type": "string"}}},
        }
    },
)
async def replay(request: Request) -> Response:
    text = await _read_record(request)
    data, verified = await run_in_threadpool(_summarize_upload, text)
    return _json_answer(request, _json_bytes(data | {"verified": verified}))


async def _read_record(request: Request) -> str:
    """The uploaded record's text, read no further than the size limit."""
    too_large = Refusal("too-large", f"a record file is at most {MAX_RECORD // 1024} KB; this one is larger")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_RECORD:
        raise too_large
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD:
            raise too_large
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Refusal("bad-record", "the file is not a record: a record is plain UTF-8 text") from None
    if not text.strip():
        raise Refusal("bad-record", "nothing was uploaded: send the record file's text as the request body")
    return text


def _summarize_upload(text: str) -> tuple[dict[str, Any], bool]:
    try:
        replay = replay_upload(text)
        data = summarize(replay.game)
    except RecordError as error:
        raise Refusal("bad-record", f"the record does not replay: {error}") from None
    board = replay.game.board
    if not shipped_board(board):  # a board the record carries: the page cannot ask for it by name
        drawing = DRAWINGS.get(board.canonical_json)
        data["board_data"] = board_answer(board, drawing) | {"sha256": board.digest}
    return data, replay.verified


def _json_bytes(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def _json_answer(request: Request, body: bytes) -> Response:
    """JSON, gzipped for a client that takes it (a summary's frames shrink tenfold)."""
    headers = {"Vary": "Accept-Encoding"}
    if len(body) > 1024 and "gzip" in request.headers.get("accept-encoding", "").lower():
        body = gzip.compress(body, 6)
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type="application/json", headers=headers)
