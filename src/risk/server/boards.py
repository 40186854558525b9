"""The boards of the web app: a shipped board by name, or a board given as JSON (uploaded in the
lobby, or generated), stored with its game; their drawings and previews; checking an upload.

A game stores a shipped board's name, or (a board given as JSON) the board's canonical JSON with its
digest (``GameRecord.board_json``, ``board_sha256``; risk.server.master): :func:`game_board_text`
gives this module either text, a name or the JSON (it starts with ``{``), and the game replays after a
restart from what is stored, whatever the server ships. Every board given as JSON is checked by the validator
(:func:`risk.maps.validate.board_problems`, the checks of ``risk board validate``) and is at most
:data:`~risk.maps.validate.MAX_BOARD_BYTES` (1 MiB) as stored.

Drawings (``risk.maps.cells.board_drawing``: outlines, computed cells, or a layout) take a few
seconds on a large board (placing the names): each is made once and kept (the last few boards).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from fastapi.concurrency import run_in_threadpool

from risk.maps import Board, MapError, available_maps, board_from_json, load_drawing, load_map
from risk.maps.armies import is_classic_board
from risk.maps.cells import board_drawing
from risk.maps.validate import MAX_BOARD_BYTES, parse_board_text, text_problems
from risk.rules.missions import ranked_missions
from risk.server.errors import Refusal
from risk.server.storage import GameRecord

DRAWINGS_KEPT = 16
BOARD_JOBS = 1  # board checks and generations at once (each takes a worker thread, and seconds)
BOARD_JOBS_WAITING = 4  # more waiting than this are refused: try again

Result = TypeVar("Result")
log = logging.getLogger("risk.server")


def game_board_text(record: GameRecord) -> str:
    """A game's board as this module reads it: the board's JSON stored with the game (a board given as
    JSON, kept by its digest: migration 0005), else the shipped board's name. Raises
    :class:`MapError` when the game has a digest and its board is missing from the store."""
    if record.board_sha256 is None:
        return record.board
    if record.board_json is None:
        raise MapError(f"the game's board (sha256 {record.board_sha256[:12]}...) is missing from the store")
    return record.board_json


def board_of_game(record: GameRecord) -> Board:
    """A stored game's board: the one stored with it (checked against its digest), or the shipped
    board it names. The one way a game's board is read (risk.server.master replays games on it)."""
    return stored_board(game_board_text(record), record.board_sha256)


def is_stored_board(stored: str) -> bool:
    """Whether a game's ``board`` holds a board's JSON (else a shipped board's name)."""
    return stored.lstrip().startswith("{")


def compact(data: dict[str, Any]) -> str:
    """A board's JSON as a game stores it: compact, UTF-8."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def stored_board(stored: str, digest: str | None = None) -> Board:
    """The board of a stored text: a shipped board's name, or a board's JSON (checked by the
    validator, and against ``digest`` when given)."""
    if not is_stored_board(stored):
        return load_map(stored)
    return _board_of_text(stored, digest)


@functools.lru_cache(maxsize=DRAWINGS_KEPT)
def _board_of_text(text: str, digest: str | None) -> Board:
    """A board kept with a game, loaded once for all the games played on it."""
    board = board_from_json(text, "the game's stored board")
    if digest is not None and board.digest != digest:
        raise MapError(f"the game's stored board is not the one it was made on (sha256 {digest[:12]}...)")
    return board


def board_data(stored: str) -> dict[str, Any]:
    """The board's JSON as its file gives it (the drawing reads its coordinates)."""
    if is_stored_board(stored):
        data, _ = parse_board_text(stored)
        return dict(data)
    name = next(m for m in available_maps() if m == stored)
    text = resources.files("risk.maps").joinpath(f"{name}.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def board_json(board: Board) -> dict[str, Any]:
    """The board as a board file, the ``risk board show --json`` shape (:meth:`Board.to_json`): it
    validates and uploads back as the same board; each territory has its notation ``slug``."""
    return board.to_json()


def board_answer(board: Board, drawing: dict[str, Any] | None) -> dict[str, Any]:
    """A board as the API gives it: the board file (``board``), its ``drawing`` and its Mission RISK
    cards (``mission_cards``, made from the board: the page shows a card's words, the view gives only
    its key)."""
    return {
        "board": board_json(board),
        "drawing": drawing,
        "mission_cards": [
            {"key": card.key, "rank": card.rank, "timing": card.timing, "text": card.text}
            for card in ranked_missions(board)
        ],
    }


class Drawings:
    """Drawings made once per board (by the digest of its JSON) and kept, the last few."""

    def __init__(self, kept: int = DRAWINGS_KEPT) -> None:
        self.kept = kept
        self._made: OrderedDict[tuple[str, bool], dict[str, Any] | None] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[str, bool], threading.Lock] = {}

    def get(self, stored: str, names: bool = True) -> dict[str, Any] | None:
        """The drawing of a game's board (``names=False``: a preview, without names)."""
        if not is_stored_board(stored):
            shipped = load_drawing(stored)  # the classic board's, made from maps
            if shipped is not None:
                return shipped
        key = (hashlib.sha256(stored.encode("utf-8")).hexdigest(), names)
        return self._once(key, lambda: _drawing_or_none(stored, names))

    def _once(
        self, key: tuple[str, bool], make: Callable[[], dict[str, Any] | None]
    ) -> dict[str, Any] | None:
        with self._lock:
            if key in self._made:
                self._made.move_to_end(key)
                return self._made[key]
            lock = self._making.setdefault(key, threading.Lock())
        with lock:  # two first requests for one board make it once
            with self._lock:
                if key in self._made:
                    return self._made[key]
            drawing = make()
            with self._lock:
                self._made[key] = drawing
                self._making.pop(key, None)
                while len(self._made) > self.kept:
                    self._made.popitem(last=False)
            return drawing


DRAWINGS = Drawings()


def _drawing_or_none(stored: str, names: bool) -> dict[str, Any] | None:
    """The board's drawing; None (kept too: the page draws round nodes) if drawing it fails, so that
    a board the drawing cannot handle costs its seconds once, never an answer 500 at each asking."""
    try:
        return board_drawing(board_data(stored), names=names)
    except Exception:
        log.exception("drawing a board failed; its pages draw it as round nodes")
        return None


def check_upload(raw: bytes) -> dict[str, Any]:
    """An uploaded board file's check, for the lobby: ``valid``, its ``problems`` (each ``where``,
    ``line``, ``message``: all of them, as ``risk board validate`` gives them), their ``count``; a
    valid board's JSON (``board``, to send back with the game) and ``summary`` (name, title,
    territories, continents, players)."""
    if len(raw) > MAX_BOARD_BYTES:
        return _refused(
            f"the file is larger than {MAX_BOARD_BYTES // 1024} KB: a board file is at most 1 MiB"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _refused("the file is not UTF-8 text: a board file is JSON, saved as UTF-8")
    if not text.strip():
        return _refused("the file is empty: a board file is JSON (docs/boards.md)")
    data, problems = text_problems(text)
    if problems:  # all of them, as `risk board validate` lists them (the lobby's list scrolls)
        shown = [{"where": p.where, "line": p.line, "message": p.message} for p in problems]
        return {"valid": False, "problems": shown, "count": len(problems)}
    board = Board(data)
    return {"valid": True, "problems": [], "count": 0, "board": data, "summary": summary(board)}


def checked_with_preview(raw: bytes) -> dict[str, Any]:
    """An upload's check (:func:`check_upload`) and, for a valid board, its ``preview`` (SVG)."""
    checked = check_upload(raw)
    if checked["valid"]:
        checked["preview"] = preview_svg(compact(checked["board"]))
    return checked


class BoardJobs:
    """Board checks and generations, off the event loop and a few at once: each may take seconds
    of CPU on a large board, and the games being played share that CPU."""

    def __init__(self, running: int = BOARD_JOBS, waiting: int = BOARD_JOBS_WAITING) -> None:
        self.most = running + waiting
        self.pending = 0  # only touched in the event loop
        self.slots = asyncio.Semaphore(running)

    async def run(self, work: Callable[..., Result], *args: Any) -> Result:
        if self.pending >= self.most:
            raise Refusal("unavailable", "the server is busy with other boards: try again in a moment")
        self.pending += 1
        try:
            async with self.slots:
                return await run_in_threadpool(work, *args)
        finally:
            self.pending -= 1


def _refused(message: str) -> dict[str, Any]:
    return {"valid": False, "problems": [{"where": "", "line": None, "message": message}], "count": 1}


def summary(board: Board) -> dict[str, Any]:
    """A board in one line's worth of facts (the lobby's choice)."""
    return {
        "name": board.name,
        "title": board.title,
        "territories": len(board),
        "continents": len(board.continents),
        "players": list(board.players) if board.players else None,
        # The rulebooks' board (the classic one): each edition keeps its own player counts there
        # (Rules.player_range); on another board that declares its counts, every edition plays them.
        "rulebooks": is_classic_board(board),
    }


__all__ = [
    "DRAWINGS",
    "BoardJobs",
    "board_answer",
    "board_data",
    "board_json",
    "board_of_game",
    "check_upload",
    "checked_with_preview",
    "compact",
    "game_board_text",
    "is_stored_board",
    "preview_svg",
    "stored_board",
    "summary",
]


# The continents' tints, in the board's order: board.js's CONTINENT_TINTS.
TINTS = (
    "#f0c24b",
    "#e7774f",
    "#6fa8f5",
    "#b98a5e",
    "#63c27a",
    "#c583f5",
    "#4fd1c5",
    "#f28cb1",
    "#a3c75a",
    "#e0a36f",
    "#8f9cf0",
    "#d9d36a",
)


def preview_svg(stored: str) -> str:
    """A small picture of a board (the lobby's choice): its shapes tinted by continent, sea lines
    dashed; round nodes where it has no drawing."""
    board = stored_board(stored)
    drawing = DRAWINGS.get(stored, names=False)
    tint = [TINTS[c % len(TINTS)] for c in board.continent_of]
    parts = []
    if drawing is None:  # no shapely: the nodes of a circle, linked
        n = len(board)
        points = [
            (500 + 420 * math.cos(2 * math.pi * i / n), 320 + 280 * math.sin(2 * math.pi * i / n))
            for i in range(n)
        ]
        view = "0 0 1000 640"
        for a in range(n):
            for b in board.neighbours[a]:
                if b > a:
                    (x1, y1), (x2, y2) = points[a], points[b]
                    parts.append(f'<path d="M{x1:.0f} {y1:.0f}L{x2:.0f} {y2:.0f}" class="link"/>')
        parts += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="14" fill="{tint[i]}"/>' for i, (x, y) in enumerate(points)
        ]
    else:
        view = " ".join(str(v) for v in drawing["viewBox"])
        slugs = {board.slug_of(i): i for i in range(len(board))}
        sea_lines = drawing.get("sea_lines", [])
        for line in sea_lines:
            if not line.get("over_land"):
                parts.append(f'<path d="{line["path"]}" class="sea"/>')
        for line in drawing.get("link_lines", []):
            parts.append(f'<path d="{line["path"]}" class="link"/>')
        for slug, row in drawing["territories"].items():
            if row.get("path") and slug in slugs:
                parts.append(f'<path d="{row["path"]}" fill="{tint[slugs[slug]]}"/>')
        # A sea link across a land: above the shapes, which would hide it.
        parts += [f'<path d="{line["path"]}" class="sea"/>' for line in sea_lines if line.get("over_land")]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" preserveAspectRatio="xMidYMid meet">'
        "<style>path{stroke:#16283a;stroke-width:1.5}.sea{fill:none;stroke:#cfe3f5;stroke-width:3;"
        "stroke-dasharray:10 7}.link{fill:none;stroke:#cfe3f5;stroke-width:3}</style>"
        + "".join(parts)
        + "</svg>"
    )
