"""What a new game is made of (:class:`GameSpec`, :class:`SeatSpec`), checked where it enters: names,
boards, seats; and what anyone may know of a stored game (:func:`game_summary`)."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from risk.bots import bot_choices, bot_label, is_bot_name
from risk.bots.protocol import external_command
from risk.maps import (
    MAX_MAP_BYTES,
    Board,
    MapError,
    available_maps,
    board_from_json,
    canonical_json,
    load_map,
    problems_summary,
)
from risk.maps.validate import board_problems
from risk.rules.game import unshown_in_name
from risk.server.auth import hash_token, new_token
from risk.server.boards import board_of_game
from risk.server.errors import Refusal
from risk.server.seatprefs import creation_prefs
from risk.server.storage import GameRecord, SeatRecord
from risk.server.timing import DEFAULT_MISSED_TURNS, SeatClock, Timing, summary_clock

SEAT_KINDS = ("human", "open", "bot", "external")
SPECTATOR_VIEWS = ("fogged", "open")
MAX_NAME = 24
DEFAULT_BOT_DELAY = 0.6
DEFAULT_DEFEND_TIMEOUT = 30.0


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def new_host(spec: GameSpec) -> str:
    """A host token for a game about to be created: kept (hashed) in the spec, answered once."""
    token = new_token()
    spec.host_hash = hash_token(token)
    return token


@dataclass
class SeatSpec:
    kind: str
    name: str = ""
    bot: str | None = None  # bot name, or the command of an external bot
    # A human seat's own settings (risk.server.seatprefs); None: the defaults.
    defence: str | None = None
    pace: str | None = None
    auto_setup: bool = False  # place my starting armies (and claims) for me
    # Quick match's (risk.server.quickmatch): the account a person's seat is bound to from the start,
    # and its token, chosen (and kept sealed) before the game is made. None: no account, a new token.
    account: str | None = None
    token: str | None = None


@dataclass
class GameSpec:
    edition: str = "2008"
    game: str = "world"
    options: dict[str, str] = field(default_factory=dict)
    seats: list[SeatSpec] = field(default_factory=list)
    public: bool = True
    seed: int | None = None
    bot_delay: float = DEFAULT_BOT_DELAY
    defend_timeout: float = DEFAULT_DEFEND_TIMEOUT
    # A shipped board by name, or a board given as its JSON data (docs/boards.md): validated, at most
    # 1 MiB, and stored with the game.
    board: str | dict[str, Any] = "classic"
    # The turn clock and seats (risk.server.clock, risk.server.seats):
    turn_time: float = 0.0
    missed_turns: int = DEFAULT_MISSED_TURNS
    stand_in: str = "quick"
    time_bank: float = 0.0  # seconds each player may run over their turns, in all
    vacation_days: float = 0.0  # days each player may pause their own clock
    host_hash: str | None = None
    spectators: bool = True  # anyone with the watch link may watch (docs/web.md, "Spectators")
    # Fog of war: what spectators see while the game runs: "fogged", no territory (the fog of no one),
    # or "open", the whole board (docs/server.md, "Fog of war").
    spectator_view: str = "fogged"
    # Rated (risk.server.ratings): people only; rated when it ends if every seat is bound to an account
    # of its own (docs/web.md, "Ratings").
    rated: bool = False
    # The game's id, chosen before it is made (quick match claims its players for it first); None: new.
    game_id: str | None = None


@dataclass(frozen=True)
class CreatedSeat:
    seat: int
    name: str
    kind: str
    token: str | None


def clean_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise Refusal("bad-request", f"{what} needs a name")
    if len(name) > MAX_NAME:
        raise Refusal("bad-request", f"the name {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters")
    if re.search(r'[,"\n\\]', name):
        raise Refusal("bad-request", f"the name {name!r} may not contain commas, quotes or backslashes")
    if problem := unshown_in_name(name):
        raise Refusal("bad-request", problem)
    return name


def check_settings(spec: GameSpec) -> None:
    """The game's own settings (not its rules, board nor seats) are in range."""
    if not 0 <= spec.bot_delay <= 10:
        raise Refusal("bad-request", "bot_delay is seconds between 0 and 10")
    if not 0 <= spec.defend_timeout <= 3600:
        raise Refusal("bad-request", "defend_timeout is seconds between 0 (never) and 3600")
    if spec.rated and any(seat.kind not in ("human", "open") for seat in spec.seats):
        raise Refusal("bad-request", "a rated game is played by people only: no bot seats")
    if spec.spectator_view not in SPECTATOR_VIEWS:
        raise Refusal(
            "bad-request",
            f"no spectator view {spec.spectator_view!r}; under fog of war spectators see: "
            "fogged (no territory while the game runs) or open (the whole board)",
        )


def seat_records(spec: GameSpec, allow_external_bots: bool) -> tuple[list[SeatRecord], list[CreatedSeat]]:
    """The seats of a game being made, as stored (tokens hashed) and as answered (tokens given once)."""
    seats: list[SeatRecord] = []
    created: list[CreatedSeat] = []
    for index, seat in enumerate(spec.seats):
        record, token = _seat_record(index, seat, allow_external_bots)
        seats.append(record)
        created.append(CreatedSeat(index, record.name, record.kind, token))
    names = [s.name for s in seats]
    if len(set(n.lower() for n in names)) != len(names):
        raise Refusal("bad-request", f"the players need different names: {', '.join(names)}")
    return seats, created


def _seat_record(index: int, seat: SeatSpec, allow_external_bots: bool) -> tuple[SeatRecord, str | None]:
    """One seat of a game being made, and its token (a human seat's, else None)."""
    kind, where = seat.kind.strip().lower(), f"seat {index + 1}"
    if kind not in SEAT_KINDS:
        raise Refusal("bad-request", f"{where}: no seat kind {seat.kind!r}; kinds: {', '.join(SEAT_KINDS)}")
    if kind != "human" and (seat.defence or seat.pace or seat.auto_setup):
        raise Refusal("bad-request", f"{where}: defence, pace and auto_setup are a human seat's settings")
    if kind == "bot":
        bot = (seat.bot or "").strip().lower()
        if not is_bot_name(bot):
            raise Refusal("bad-request", f"{where}: no bot or level {seat.bot!r}; {bot_choices()}")
        return SeatRecord(
            index, clean_name(seat.name or f"{bot.capitalize()} {index + 1}", where), kind, bot
        ), None
    if kind == "external":
        if not allow_external_bots:
            raise Refusal("bad-request", "external bots need the server started with --allow-external-bots")
        command = (seat.bot or "").strip()
        try:
            external_command(command)
        except ValueError as error:
            raise Refusal("bad-request", f"{where}: {error}") from None
        return SeatRecord(index, clean_name(seat.name or f"Bot {index + 1}", where), kind, command), None
    if kind == "open":
        return SeatRecord(index, f"Seat {index + 1}", kind), None
    token = seat.token or new_token()
    prefs = creation_prefs(seat.defence, seat.pace, seat.auto_setup)
    name = clean_name(seat.name or f"Player {index + 1}", where)
    return SeatRecord(index, name, kind, None, hash_token(token), prefs=prefs, account=seat.account), token


def spec_board(spec: GameSpec) -> Board:
    """The board of a game being made: a shipped board by name (never a path: the server reads no
    file a request names), or a board given as JSON data, checked by the validator (the same checks
    as ``risk board validate``) and at most :data:`MAX_MAP_BYTES` as canonical JSON."""
    if isinstance(spec.board, str):
        if spec.board not in available_maps():
            raise Refusal(
                "bad-request",
                f"no board {spec.board!r}; boards: {', '.join(available_maps())} "
                "(or a board given as a JSON object, docs/boards.md)",
            )
        return load_map(spec.board)
    if not isinstance(spec.board, dict):
        raise Refusal("bad-request", "the board is a shipped board's name or a board as a JSON object")
    try:
        text = canonical_json(spec.board)
    except (TypeError, ValueError, RecursionError):
        raise Refusal("bad-request", "the board is not JSON data: give it as a JSON object") from None
    if len(text.encode("utf-8")) > MAX_MAP_BYTES:
        raise Refusal(
            "too-large",
            f"the board is larger than {MAX_MAP_BYTES // 1024 // 1024} MiB, the largest board taken",
        )
    problems = board_problems(spec.board)
    if problems:  # the lobby's words for an upload the validator refuses (risk.server.boards)
        summary = problems_summary([str(problem) for problem in problems])
        raise Refusal("bad-request", f"the board is not valid: {summary}")
    try:
        return board_from_json(text, "the board")
    except MapError as error:
        raise Refusal("bad-request", str(error)) from None


def record_board(record: GameRecord) -> Board | str:
    """A stored game's board: the one stored with it, or the shipped board's name (risk.server.boards)."""
    return record.board if record.board_sha256 is None else board_of_game(record)


def game_summary(record: GameRecord, now: float) -> dict[str, Any]:
    """What anyone may know about a game: for lists and the lobby (``now``: the server's clock, for
    the time left)."""
    timer = Timing.of(record.settings)
    return {
        "id": record.id,
        "rules": record.rules,
        "board": record.board,
        "board_sha256": record.board_sha256,  # a board given as JSON (None: the shipped board named)
        "status": record.status,
        "turn": record.turn,
        "state_id": record.state_id,
        "winner": record.winner,
        "created": record.created,
        "updated": record.updated,
        "public": bool(record.settings.get("public", True)),
        "rated": bool(record.settings.get("rated", False)),
        "spectators": bool(record.settings.get("spectators", True)),
        "spectator_view": record.settings.get("spectator_view", "fogged"),
        "rematch": record.settings.get("rematch"),  # the id of this game's rematch, once asked for
        "rematch_of": record.settings.get("rematch_of"),
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot if s.kind == "bot" else None,
                "bot_label": bot_label(s.bot or "") if s.kind == "bot" else None,  # "hard · warlord"
                "open": s.kind == "open",
                **(SeatClock.of(s, timer).public(now) if s.kind == "human" and timer.turn_time else {}),
            }
            for s in record.seats
        ],
        "timer": {
            "turn_time": timer.turn_time,
            "time_bank": timer.time_bank,
            "vacation_days": timer.vacation_days,
        },
        "clock": summary_clock(record, now),
    }
