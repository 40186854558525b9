"""Vacations (docs/web.md, "The turn clock"): a player pauses their own clock for some days, out of the
allowance the host set for the game (``vacation_days``), and may come back early.

While a player is away their turn's clock does not run: a turn under way when they leave has its
deadline moved by the whole vacation, a turn that begins while they are away starts its clock when
they come back. Coming back early gives the unused time back to the allowance (and moves the
deadline back by as much): a player is charged for the time they were away, no more. The seat's
vacation, what is left of its allowance and the turn's deadline are stored in the one commit, so a
restarted server goes on with them. A defence's dice keep their own short clock (a vacation would
hold up the attacker's whole turn); a player away may still play, and the seat's settings still
roll its defence.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from risk.server.clock import arm, move_turn_deadline, seat_clock, timing, write_note
from risk.server.errors import Refusal
from risk.server.hooks import Table
from risk.server.live import LiveGame
from risk.server.storage import SeatRecord
from risk.server.timing import DAY, duration_words, moment_words


def take_vacation(table: Table, game_id: str, token: str | None, days: float) -> dict[str, Any]:
    """The token's player goes on vacation for ``days`` days from now; answers their seat's clock."""
    seat, live = _player(table, game_id, token)
    with live.lock, table.transaction(live):  # the seat, the deadline and the note: one commit
        record = _check_seat(live, seat)
        now = table.clock()
        own = seat_clock(live, seat)
        if own.away(now):
            raise Refusal(
                "bad-request",
                f"you are on vacation until {moment_words(own.away_until or now, now)}: come back first",
            )
        if not isinstance(days, int | float) or isinstance(days, bool) or not days > 0:
            raise Refusal("bad-request", "days is how many days of vacation to take: a number above 0")
        length = float(days) * DAY
        if length > own.vacation_left + 1e-6:
            raise Refusal(
                "bad-request",
                f"you have {duration_words(own.vacation_left)} of vacation left in this game, "
                f"not {duration_words(length)}",
            )
        away = replace(
            own, vacation_left=max(0.0, own.vacation_left - length), away_from=now, away_until=now + length
        )
        table.store_seat(live, replace(record, clock=away.stored()))
        move_turn_deadline(live, seat, length)
        write_note(table, live, f"{record.name} is on vacation until {moment_words(now + length, now)}.")
        arm(table, live, now)
        return {"seat": seat, **away.public(now)}


def come_back(table: Table, game_id: str, token: str | None) -> dict[str, Any]:
    """The token's player comes back from vacation early: the unused time goes back to the allowance."""
    seat, live = _player(table, game_id, token)
    with live.lock, table.transaction(live):
        record = _check_seat(live, seat)
        now = table.clock()
        own = seat_clock(live, seat)
        if not own.away(now) or own.away_until is None:
            raise Refusal("bad-request", "you are not on vacation")
        unused = own.away_until - now
        back = replace(own, vacation_left=own.vacation_left + unused, away_until=now)
        table.store_seat(live, replace(record, clock=back.stored()))
        move_turn_deadline(live, seat, -unused)
        write_note(table, live, f"{record.name} is back from vacation.")
        arm(table, live, now)
        return {"seat": seat, **back.public(now)}


def _player(table: Table, game_id: str, token: str | None) -> tuple[int, LiveGame]:
    seat = table.seat_of(game_id, token)
    if seat < 0:
        raise Refusal("bad-token", "this is for the game's players: open your seat's private link")
    return seat, table.live(game_id)


def _check_seat(live: LiveGame, seat: int) -> SeatRecord:
    """The seat's record, if its player may take a vacation in this game now; else a Refusal."""
    record = live.record.seats[seat]
    if live.game.is_over:
        raise Refusal("game-over", "the game is over: no more vacations")
    if record.kind != "human":
        raise Refusal("bad-request", f"seat {seat} ({record.name}) is not a human player's seat")
    if seat in live.resigned or not live.game.alive[seat]:
        raise Refusal("bad-request", f"{record.name} is out of the game")
    if timing(live).vacation_days <= 0:
        raise Refusal("bad-request", "this game has no vacations: its host set none")
    return record
