"""Games: create one, list the public ones, read one's summary, take an open seat, see it as a seat or
a spectator, and send a move."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, Field

from risk.maps import MapError, available_maps
from risk.rules.options import GAMES, PRESETS
from risk.server.api.deps import Authorization, HubDep, MasterDep, SocialDep
from risk.server.auth import bearer
from risk.server.boards import DRAWINGS, board_answer, board_of_game, game_board_text
from risk.server.errors import Refusal, Unloadable
from risk.server.inputs import STATE_ID, MoveText, OptionValue, Seed, WholeNumber
from risk.server.master import DEFAULT_BOT_DELAY, DEFAULT_DEFEND_TIMEOUT, GameSpec, SeatSpec, new_host
from risk.server.ratings.model import DAYS_TURN_S
from risk.server.refusals import MOVE_REFUSALS, refusals
from risk.server.storage import OTHER_BOARD, GameFilter
from risk.server.timing import DEFAULT_MISSED_TURNS, MAX_MISSED_TURNS

router = APIRouter()


# -- request bodies (they make the OpenAPI schema) ---------------------------------------------------
class SeatIn(BaseModel):
    kind: str = Field(description="human, open, bot or external")
    name: str = ""
    bot: str | None = Field(
        None,
        description="a level (easy, normal, hard, expert), a bot (risk bots), or an external bot's command",
    )
    defence: str | None = Field(
        None,
        description="a human seat's defence dice: most (the lobby's choice), matters, ask (once per "
        "attack) or every (every roll); none: asked every roll",
    )
    pace: str | None = Field(
        None, description="a human seat's pace for the bots: watch (default), fast, skip"
    )
    auto_setup: bool = Field(
        False,
        description="a human seat's claims and starting armies are placed for it (as the hard bot would)",
    )


class GameIn(BaseModel):
    edition: str = "2008"
    game: str = "world"
    options: dict[str, OptionValue] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(min_length=1, max_length=10)
    public: bool = True
    rated: bool = Field(
        False, description="people only; rated at the end if each seat is bound to an account"
    )
    seed: Seed | None = None
    # Strict: a JSON number, never "3" nor true (as the house rules' table takes them).
    bot_delay: float = Field(DEFAULT_BOT_DELAY, strict=True)
    defend_timeout: float = Field(
        DEFAULT_DEFEND_TIMEOUT, strict=True, description="seconds for a defender's dice"
    )
    turn_time: float = Field(0, strict=True, description="seconds per turn; 0: no turn clock")
    missed_turns: int = Field(
        DEFAULT_MISSED_TURNS,
        strict=True,
        ge=0,
        le=MAX_MISSED_TURNS,
        description="timed-out turns before a bot",
    )
    stand_in: str = Field("quick", description="the bot or level that plays for away players")
    time_bank: float = Field(
        0, strict=True, description="seconds each player may run over their turns in all; 0: none"
    )
    vacation_days: float = Field(
        0, strict=True, description="days each player may pause their own clock in this game; 0: none"
    )
    spectators: bool = Field(True, description="anyone with the watch link may watch")
    spectator_view: str = Field(
        "fogged",
        description="under fog of war (the rule option fog=on), what spectators see while the game runs: "
        "fogged (no territory: the fog of no one) or open (the whole board)",
    )
    board: str | dict[str, Any] = Field(
        "classic",
        description="a shipped board's name (GET /api/meta lists them), or a board as a JSON object in the "
        "board format (docs/boards.md): checked as `risk board validate` checks a file, at most 1 MiB, "
        "stored with the game",
    )

    def spec(self) -> GameSpec:
        return GameSpec(
            edition=self.edition,
            game=self.game,
            options={k: str(v) for k, v in self.options.items()},
            seats=[
                SeatSpec(
                    kind=s.kind,
                    name=s.name,
                    bot=s.bot,
                    defence=s.defence,
                    pace=s.pace,
                    auto_setup=s.auto_setup,
                )
                for s in self.seats
            ],
            public=self.public,
            seed=self.seed,
            bot_delay=self.bot_delay,
            defend_timeout=self.defend_timeout,
            turn_time=self.turn_time,
            missed_turns=self.missed_turns,
            stand_in=self.stand_in,
            time_bank=self.time_bank,
            vacation_days=self.vacation_days,
            spectators=self.spectators,
            spectator_view=self.spectator_view,
            board=self.board,
            rated=self.rated,
        )


class JoinIn(BaseModel):
    seat: WholeNumber
    name: str


class ActionIn(BaseModel):
    action: MoveText = Field(max_length=200)
    state_id: WholeNumber = Field(description=STATE_ID)


# -- routes ------------------------------------------------------------------------------------------
@router.post("/api/games", status_code=201, summary="Create a game", responses=refusals(422, 429, 503))
async def create_game(body: GameIn, master: MasterDep) -> dict[str, Any]:
    spec = body.spec()
    host_token = new_host(spec)
    record, seats = await run_in_threadpool(master.create_game, spec)
    return {
        "host_token": host_token,
        "id": record.id,
        "seats": [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "token": s.token,
                "link": None if s.token is None else f"/game/{record.id}#token={s.token}",
            }
            for s in seats
        ],
        "spectate": f"/game/{record.id}",
        "rated": spec.rated,
    }


@router.get("/api/games", summary="Public games", responses=refusals(422, 503))
async def list_games(
    master: MasterDep,
    social: SocialDep,
    status: Annotated[str | None, Query(description="waiting (for players), playing or over")] = None,
    edition: Annotated[str | None, Query(max_length=16, description="the rulebook: 1993, 2003, 2008")] = None,
    game: Annotated[
        str | None, Query(max_length=32, description="world, two-player, secret-mission, ...")
    ] = None,
    board: Annotated[
        str | None,
        Query(
            max_length=64, description=f"a shipped board's name, or {OTHER_BOARD}: any uploaded or generated"
        ),
    ] = None,
    players: Annotated[int | None, Query(ge=1, le=100, description="how many seats the game has")] = None,
    pace: Annotated[
        Literal["live", "days"] | None,
        Query(description="live: no turn clock or under an hour a turn; days: an hour or more"),
    ] = None,
    rated: bool | None = None,
) -> dict[str, Any]:
    """The most recently updated public games (100 at most) that the filters keep: they apply before
    the cap, so the lobby finds an open game however many others there are."""
    where = games_filter(edition, game, board, players, pace, rated)
    return {"games": social.with_watchers(await run_in_threadpool(master.list_games, status, where))}


def games_filter(
    edition: str | None,
    game: str | None,
    board: str | None,
    players: int | None,
    pace: str | None,
    rated: bool | None,
) -> GameFilter:
    """GET /api/games's filters, each checked: an unknown edition, game or board is refused by name."""
    if edition is not None and edition not in PRESETS:
        raise Refusal("bad-request", f"no edition {edition!r}; editions: {', '.join(PRESETS)}")
    if game is not None and game not in GAMES:
        raise Refusal("bad-request", f"no game {game!r}; games: {', '.join(GAMES)}")
    if board is not None and board != OTHER_BOARD and board not in available_maps():
        raise Refusal(
            "bad-request",
            f"no board {board!r}; boards: {', '.join(available_maps())}, "
            f"or {OTHER_BOARD} (any uploaded or generated board)",
        )
    return GameFilter(
        edition=edition,
        game=game,
        board=board,
        seats=players,
        rated=rated,
        turn_time_from=DAYS_TURN_S if pace == "days" else None,
        turn_time_below=DAYS_TURN_S if pace == "live" else None,
    )


@router.get("/api/games/{game_id}", summary="A game's public summary", responses=refusals(404, 503))
async def get_game(game_id: str, master: MasterDep) -> dict[str, Any]:
    return await run_in_threadpool(master.summary, game_id)


@router.get(
    "/api/games/{game_id}/board", summary="A game's board and its drawing", responses=refusals(404, 503)
)
async def game_board(game_id: str, master: MasterDep) -> dict[str, Any]:
    """The board the game plays on (a shipped one, or one given as JSON when it was created) and its
    drawing, in the shape of GET /api/boards/{name}."""
    record = await run_in_threadpool(master.record_of, game_id)
    try:
        board = await run_in_threadpool(board_of_game, record)
    except MapError as error:  # a store edited by hand: the game cannot be loaded either
        raise Unloadable(game_id, str(error)) from None
    drawing = await run_in_threadpool(DRAWINGS.get, game_board_text(record))
    return board_answer(board, drawing)


@router.post(
    "/api/games/{game_id}/join",
    summary="Take an open seat (a rated game's: signed in, bound to the account)",
    responses=refusals(401, 404, 409, 422, 429, 503),
)
async def join(game_id: str, body: JoinIn, master: MasterDep) -> dict[str, Any]:
    token = await run_in_threadpool(master.join, game_id, body.seat, body.name)
    return {"seat": body.seat, "token": token, "link": f"/game/{game_id}#token={token}"}


class StartIn(BaseModel):
    bot: str = Field("quick", max_length=64, description="the bot or level put in each open seat")


@router.post(
    "/api/games/{game_id}/start",
    summary="The host starts a waiting game with bots in the open seats (not a rated game)",
    responses=refusals(403, 404, 409, 429, 503),
)
async def start_with_bots(
    game_id: str, body: StartIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    await run_in_threadpool(master.start_with_bots, game_id, bearer(authorization), body.bot)
    return await run_in_threadpool(master.summary, game_id)


@router.get(
    "/api/games/{game_id}/view",
    summary="The caller's view of the game",
    responses=refusals(403, 404, 503),
)
async def view(
    game_id: str, master: MasterDep, hub: HubDep, social: SocialDep, authorization: Authorization = None
) -> dict[str, Any]:
    seat = await run_in_threadpool(master.seat_of, game_id, bearer(authorization))
    await run_in_threadpool(social.check_watcher, game_id, seat)
    return await run_in_threadpool(master.state_message, game_id, seat, 0, hub.present(game_id))


@router.post("/api/games/{game_id}/actions", summary="Submit an action", responses=MOVE_REFUSALS)
async def act(
    game_id: str, body: ActionIn, master: MasterDep, authorization: Authorization = None
) -> dict[str, Any]:
    state_id = await run_in_threadpool(
        master.submit, game_id, bearer(authorization), body.action, body.state_id
    )
    return {"state_id": state_id}
