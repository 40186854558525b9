"""Seats that change hands: resigning, handing a seat to a bot and taking it back, the host replacing an
absent player (docs/web.md, "Seats"). :class:`SeatHooks` plugs the seat rules into the game master
(risk.server.hooks); the functions below are what the web app asks for.

A human seat keeps its token whatever happens: a stand-in bot (``SeatRecord.stand_in``) plays it while
its player is away, and the player takes it back with the same link. The host (whoever created the
game: a token of its own, stored hashed as ``GameRecord.host_hash``) may hand an absent player's seat
to a bot. A resignation is an action of the rules (``resign P``), stored like any other, so records
replay it. Each of these writes a server note (a chat message with no seat) that everyone sees.
"""

from __future__ import annotations

import hmac
from collections.abc import Collection
from dataclasses import replace
from typing import Any

from risk.bots import bot_choices, is_bot_name
from risk.errors import RiskError
from risk.server.auth import hash_token
from risk.server.clock import arm, timed, timing, write_note
from risk.server.errors import Refusal
from risk.server.hooks import Table, TableHooks
from risk.server.live import LiveGame
from risk.server.seatprefs import (
    MAX_QUEUE,
    SETUP_PHASES,
    SeatPrefs,
    after_placement,
    check_defence,
    check_pace,
    queue_more,
)
from risk.server.steps import is_resignation
from risk.server.storage import ActionRecord, SeatRecord


# -- the seats plugged into the master (risk.server.hooks) -------------------------------------------------
class SeatHooks(TableHooks):
    """Resignations and stand-ins as the master runs them."""

    def replayed(self, live: LiveGame, action: ActionRecord) -> None:
        if is_resignation(action.text):
            live.resigned.add(action.seat)

    def after_action(self, table: Table, live: LiveGame, action: ActionRecord) -> None:
        """A player back at the table, a resignation (the clock is armed after)."""
        seat = live.record.seats[action.seat] if action.seat < len(live.record.seats) else None
        if seat is not None and seat.missed and timed(live, action.seat):
            table.store_seat(live, replace(seat, missed=0))  # the player played: no longer missing turns
        if is_resignation(action.text):
            live.resigned.add(action.seat)
            write_note(table, live, f"{seat.name if seat else 'A player'} resigned.")
        if seat is not None and seat.kind == "human" and action.text.startswith("place "):
            record = live.record.seats[action.seat]
            changed = after_placement(record, action.text)  # a queued setup placement made
            if changed is not None:
                table.store_seat(live, replace(record, prefs=changed))

    def check_move(self, live: LiveGame, seat: int, text: str) -> None:
        """Refused while a bot plays the seat for its player (a resignation is always taken)."""
        record = live.record.seats[seat] if 0 <= seat < len(live.record.seats) else None
        if record is not None and record.stand_in is not None and not is_resignation(str(text)):
            raise Refusal(
                "stand-in", f"the {record.stand_in} bot plays your seat: take the seat back to play yourself"
            )


# -- a player's own seat -------------------------------------------------------------------------------
def _playing_seat(live: LiveGame, seat: int) -> SeatRecord:
    """The human seat ``seat`` of a game under way, still in it; else a Refusal saying why."""
    if live.game.is_over:
        raise Refusal("game-over", "the game is over")
    if live.waiting:
        raise Refusal("waiting", "the game has not started: it starts when every open seat is taken")
    if not 0 <= seat < len(live.record.seats):
        raise Refusal("bad-request", f"no seat {seat}: the game has seats 0 to {len(live.record.seats) - 1}")
    record = live.record.seats[seat]
    if record.kind != "human":
        raise Refusal("bad-request", f"seat {seat} ({record.name}) is not a human player's seat")
    if seat in live.resigned or not live.game.alive[seat]:
        raise Refusal("bad-request", f"{record.name} is out of the game")
    return record


def resign(table: Table, game_id: str, token: str | None) -> int:
    """The token's player leaves the game (at any time): answers the new state id."""
    seat = _seat_of_player(table, game_id, token)
    live = table.live(game_id)
    with live.lock:
        _playing_seat(live, seat)
        return table.submit_as(game_id, seat, f"resign {seat}", None)


def hand_over(table: Table, game_id: str, token: str | None, on: bool) -> dict[str, Any]:
    """The token's player hands the seat to the game's stand-in bot (``on``), or takes it back."""
    seat = _seat_of_player(table, game_id, token)
    live = table.live(game_id)
    with live.lock, table.transaction(live):  # the seat, its note and the clock: one commit
        record = _playing_seat(live, seat)
        if on:
            bot = timing(live).stand_in
            _stand_in(table, live, record, bot, f"{record.name} handed the seat to the {bot} bot.")
        else:
            if record.stand_in is None:
                raise Refusal("bad-request", f"no bot plays for {record.name}: the seat is already theirs")
            table.store_seat(live, replace(record, stand_in=None, missed=0))
            write_note(table, live, f"{record.name} is back and plays the seat again.")
            arm(table, live, table.clock(), fresh=live.game.current == seat)
        return {"seat": seat, "stand_in": live.record.seats[seat].stand_in}


def set_prefs(
    table: Table,
    game_id: str,
    token: str | None,
    *,
    defence: str | None = None,
    pace: str | None = None,
    auto_setup: bool | None = None,
    place: tuple[str, int] | None = None,
    clear_queue: bool = False,
) -> dict[str, Any]:
    """The token's player changes their seat's own settings (risk.server.seatprefs); answers them."""
    seat = _seat_of_player(table, game_id, token)
    live = table.live(game_id)
    with live.lock, table.transaction(live):  # the seat's settings: one commit
        record = live.record.seats[seat]
        if live.game.is_over:
            raise Refusal("game-over", "the game is over: a seat's settings can no longer change")
        if record.kind != "human":
            raise Refusal("bad-request", f"seat {seat} ({record.name}) is not a human player's seat")
        prefs = SeatPrefs.of(record)
        game = live.game
        in_setup = not live.waiting and not game.is_over and game.phase in SETUP_PHASES
        queue = () if clear_queue else prefs.queue
        if (auto_setup or place is not None) and not in_setup:
            raise Refusal("bad-request", "setup orders are for the setup: it is over")
        if place is not None:
            name, count = place
            if not 1 <= count <= MAX_QUEUE:
                raise Refusal("bad-request", f"place 1 to {MAX_QUEUE} armies")
            try:
                territory = game.board.territory(name)
            except RiskError as error:
                raise Refusal("notation", str(error)) from None
            if game.owner[territory] != seat:
                raise Refusal("bad-request", f"{game.board.name_of(territory)} is not yours")
            queue = queue_more(queue, game.board.slug_of(territory), count)
        changed = SeatPrefs(
            defence=prefs.defence if defence is None else check_defence(defence),
            pace=prefs.pace if pace is None else check_pace(pace),
            auto_setup=prefs.auto_setup if auto_setup is None else auto_setup,
            queue=tuple(queue),
            answer=prefs.answer,
        )
        if changed != prefs:
            table.store_seat(live, replace(record, prefs=changed.stored()))
        return {"seat": seat, "prefs": changed.public()}


def check_host(live: LiveGame, host_token: str | None) -> None:
    """A Refusal unless ``host_token`` is the game's host token (checked in constant time)."""
    if (
        not host_token
        or live.record.host_hash is None
        or not hmac.compare_digest(live.record.host_hash, hash_token(host_token))
    ):
        raise Refusal(
            "bad-token", "only the host (whoever created the game, with its host token) may do this"
        )


def replace_absent(
    table: Table,
    game_id: str,
    host_token: str | None,
    seat: int,
    bot: str | None,
    present: Collection[int],
) -> dict[str, Any]:
    """The host hands the seat of a player who is not connected to a bot (the player keeps the link
    and may take the seat back)."""
    live = table.live(game_id)
    check_host(live, host_token)
    with live.lock, table.transaction(live):  # the seat, its note and the clock: one commit
        record = _playing_seat(live, seat)
        name = (bot or timing(live).stand_in).strip().lower()
        if not is_bot_name(name):
            raise Refusal("bad-request", f"no bot or level {bot!r}; {bot_choices()}")
        if seat in present:
            raise Refusal(
                "present", f"{record.name} is connected: only an absent player's seat is handed to a bot"
            )
        _stand_in(table, live, record, name, f"The host handed {record.name}'s seat to the {name} bot.")
        return {"seat": seat, "stand_in": name}


def _stand_in(table: Table, live: LiveGame, record: SeatRecord, bot: str, note: str) -> None:
    if record.stand_in is not None:
        raise Refusal("bad-request", f"the {record.stand_in} bot already plays for {record.name}")
    table.store_seat(live, replace(record, stand_in=bot, missed=0))
    write_note(table, live, note)
    arm(table, live, table.clock())


def _seat_of_player(table: Table, game_id: str, token: str | None) -> int:
    seat = table.seat_of(game_id, token)
    if seat < 0:
        raise Refusal("bad-token", "this is for the game's players: open your seat's private link")
    return seat
