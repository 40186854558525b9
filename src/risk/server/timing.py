"""The turn clock's settings and the facts it is built on, read by the master, the clock and the
wake-ups alike (the clock itself, what it does as a game goes on, is :mod:`risk.server.clock`).

A game's clock settings (:class:`Timing`) are kept in its stored settings; :class:`TurnClock` is one
game's clock in memory. Who the clock runs for and when a stored game next needs the server are
answered from the stored rows alone.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from risk.bots import DEFAULT_BOT, bot_choices, is_bot_name
from risk.rules.game import Game, Phase
from risk.server.errors import Refusal
from risk.server.seatprefs import SeatPrefs
from risk.server.storage import GameRecord, SeatRecord

MIN_TURN_TIME = 5.0
MAX_TURN_TIME = 7 * 24 * 3600.0  # a week: games played a move a day
DEFAULT_MISSED_TURNS = 2
MAX_MISSED_TURNS = 20
MAX_TIME_BANK = 7 * 24 * 3600.0  # a week, as a turn
MAX_VACATION_DAYS = 30
DAY = 24 * 3600.0


@dataclass(frozen=True)
class Timing:
    """A game's clock settings (stored in its settings)."""

    turn_time: float = 0.0  # seconds per turn; 0: no turn clock
    defend_timeout: float = 0.0  # seconds for a defender's dice; 0: the turn time (if any)
    missed_turns: int = (
        DEFAULT_MISSED_TURNS  # turns in a row run out before the stand-in takes over; 0: never
    )
    stand_in: str = DEFAULT_BOT  # the host's choice of bot for away players
    time_bank: float = 0.0  # seconds each player may run over their turns, in all; 0: none
    vacation_days: float = 0.0  # days each player may pause their own clock in this game; 0: none

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Timing:
        return cls(
            turn_time=float(settings.get("turn_time", 0) or 0),
            defend_timeout=float(settings.get("defend_timeout", 0) or 0),
            missed_turns=int(settings.get("missed_turns", DEFAULT_MISSED_TURNS)),
            stand_in=str(settings.get("stand_in", DEFAULT_BOT)),
            time_bank=float(settings.get("time_bank", 0) or 0),
            vacation_days=float(settings.get("vacation_days", 0) or 0),
        )

    @property
    def defence_limit(self) -> float:
        return self.defend_timeout or self.turn_time

    def public(self) -> dict[str, Any]:
        return {
            "turn_time": self.turn_time,
            "defend_timeout": self.defend_timeout,
            "missed_turns": self.missed_turns,
            "stand_in": self.stand_in,
            "time_bank": self.time_bank,
            "vacation_days": self.vacation_days,
        }


def timing_settings(
    turn_time: float, missed_turns: int, stand_in: str, time_bank: float = 0.0, vacation_days: float = 0.0
) -> dict[str, Any]:
    """The clock settings of a new game, checked; a Refusal says what is wrong."""
    if turn_time != 0 and not MIN_TURN_TIME <= turn_time <= MAX_TURN_TIME:
        raise Refusal(
            "bad-request",
            f"turn_time is 0 (no turn clock) or seconds from {MIN_TURN_TIME:g} to {MAX_TURN_TIME:g} (a week)",
        )
    if isinstance(missed_turns, bool) or not 0 <= missed_turns <= MAX_MISSED_TURNS:
        raise Refusal(
            "bad-request",
            f"missed_turns is how many turns in a row may run out before a bot takes the seat: "
            f"0 (never) to {MAX_MISSED_TURNS}",
        )
    bot = stand_in.strip().lower()
    if not is_bot_name(bot):
        raise Refusal("bad-request", f"no stand-in bot or level {stand_in!r}; {bot_choices()}")
    if not 0 <= time_bank <= MAX_TIME_BANK:
        raise Refusal(
            "bad-request",
            f"time_bank is the seconds each player may run over their turns: 0 (none) to {MAX_TIME_BANK:g} "
            "(a week)",
        )
    if isinstance(vacation_days, bool) or not 0 <= vacation_days <= MAX_VACATION_DAYS:
        raise Refusal(
            "bad-request",
            f"vacation_days is the days each player may pause their clock: 0 (none) to {MAX_VACATION_DAYS}",
        )
    if (time_bank or vacation_days) and not turn_time:
        raise Refusal("bad-request", "a time bank and vacations need a turn clock: give turn_time too")
    return {
        "turn_time": float(turn_time),
        "missed_turns": int(missed_turns),
        "stand_in": bot,
        "time_bank": float(time_bank),
        "vacation_days": float(vacation_days),
    }


@dataclass(frozen=True)
class SeatClock:
    """A seat's own clock (stored with the seat, ``SeatRecord.clock``): what is left of its time bank
    and of its vacation allowance, in seconds, and its last vacation (from, until; epoch seconds)."""

    bank: float
    vacation_left: float
    away_from: float | None = None
    away_until: float | None = None

    @classmethod
    def of(cls, seat: SeatRecord, settings: Timing) -> SeatClock:
        stored = seat.clock
        until = stored.get("away_until")
        since = stored.get("away_from")
        return cls(
            bank=float(stored.get("bank", settings.time_bank)),
            vacation_left=float(stored.get("vacation_left", settings.vacation_days * DAY)),
            away_from=None if since is None else float(since),
            away_until=None if until is None else float(until),
        )

    def stored(self) -> dict[str, Any]:
        return {
            "bank": self.bank,
            "vacation_left": self.vacation_left,
            "away_from": self.away_from,
            "away_until": self.away_until,
        }

    def away(self, now: float) -> bool:
        """Whether the seat's player is on vacation at ``now``."""
        return self.away_until is not None and now < self.away_until

    def public(self, now: float) -> dict[str, Any]:
        return {
            "bank": round(self.bank, 1),
            "vacation_left": round(self.vacation_left, 1),
            "away_until": self.away_until if self.away(now) else None,
        }


# -- the clock in words (the page says the same in the reader's own time zone: clock.js) ---------------
_UNITS = (("day", DAY), ("hour", 3600.0), ("minute", 60.0), ("second", 1.0))


def duration_words(seconds: float) -> str:
    """A time left in words, to the two largest units, rounded down: "1 day 3 hours", "5 minutes",
    "40 seconds"; "no time" at 0."""
    left = max(0, int(seconds))
    parts: list[str] = []
    for name, size in _UNITS:
        count = int(left // size)
        if count and len(parts) < 2:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
            left -= int(count * size)
        elif parts:
            break  # "1 day 20 minutes" would skip the hours: say "1 day"
    return " ".join(parts) or "no time"


def moment_words(at: float, now: float) -> str:
    """A moment to come, in UTC: "Tue 14:00" within the week, "Tue 15 Dec 14:00" beyond it."""
    moment = time.gmtime(at)
    day = time.strftime("%a", moment)
    if at - now >= 6 * DAY:
        day += f" {moment.tm_mday} {time.strftime('%b', moment)}"
    return f"{day} {time.strftime('%H:%M', moment)} UTC"


def turn_words(name: str, remaining: float, *, yours: bool = False, in_bank: bool = False) -> str:
    """ "your move: 1 day 3 hours left", "Ann's move: 5 minutes left (time bank)"."""
    who = "your move" if yours else f"{name}'s move"
    return f"{who}: {duration_words(remaining)} left{' (time bank)' if in_bank else ''}"


def vacation_words(name: str, until: float, now: float) -> str:
    """ "Ann is on vacation until Tue 14:00 UTC"."""
    return f"{name} is on vacation until {moment_words(until, now)}"


@dataclass
class TurnClock:
    """One game's clock in memory."""

    key: tuple[int, int] | None = None  # (engine turn, player) of the stretch under way
    started: int = 0  # the state id where it began (stored as the deadline's state)
    started_at: float = 0.0
    turn_deadline: float | None = None  # the player's deadline (stopped during a defence)
    defence_since: float | None = None  # when the defence under way was asked for
    stored: tuple[float | None, int | None] = (None, None)  # what the store holds
    marks: list[tuple[float, int]] = field(default_factory=list)  # while loading: (action time, log length)
    timing: Timing | None = None


def plays_own_seat(seat: SeatRecord) -> bool:
    """Whether a human plays the seat themselves (no stand-in bot): the seats the clock runs for."""
    return seat.kind == "human" and seat.stand_in is None


def server_plays(seat: SeatRecord) -> bool:
    """Whether a bot of the server's plays the seat: a bot, an external bot, or a stand-in for a human."""
    return seat.kind in ("bot", "external") or (seat.kind == "human" and seat.stand_in is not None)


def wake_time(record: GameRecord) -> float | None:
    """When a game that is not in memory next needs the server without anyone asking for it, from its
    stored row alone (a starting server reads only the rows, risk.server.wakeups): 0 (at once) when a
    bot of the server's is to act, or when the row does not say who is; the deadline of the clock
    running, at the earliest, when a player is; None when only a player's move changes the game."""
    if record.status != "playing":
        return None
    seat = record.to_act
    if seat is None or not 0 <= seat < len(record.seats) or server_plays(record.seats[seat]):
        return 0.0
    if not plays_own_seat(record.seats[seat]):
        return None
    if may_stand(record, record.seats[seat]):
        return 0.0  # the seat's own settings may play for it at once
    settings = Timing.of(record.settings)
    if record.defending:
        # The defence was asked for by the attack, the game's last stored action (clock._follow).
        limit = settings.defence_limit
        return record.updated + limit if limit > 0 else None
    if settings.turn_time <= 0:
        return None
    # The stored deadline is the turn's, or (a crash between storing an action and its clock) an
    # earlier turn's: earlier, never later, than the clock that runs. None: not known, so at once.
    # The player's time bank is used before the stand-in plays.
    if record.deadline is None:
        return 0.0
    return record.deadline + SeatClock.of(record.seats[seat], settings).bank


def may_stand(record: GameRecord, seat: SeatRecord) -> bool:
    """Whether the seat's own settings (risk.server.seatprefs) may play its move now, from the stored
    row alone: its defence dice (unless it is to be asked, with no answer standing), its setup orders."""
    prefs = SeatPrefs.of(seat)
    if record.defending:
        return prefs.defence in ("most", "matters") or (prefs.defence == "ask" and prefs.answer is not None)
    return record.turn == 0 and (prefs.auto_setup or bool(prefs.queue))


def defending(game: Game) -> bool:
    return game.phase == Phase.DEFEND and game.to_act != game.current


def summary_clock(record: GameRecord, now: float) -> dict[str, Any]:
    """The clock as a game's public summary shows it (the lobby reads it), from the stored row alone:
    whose move it is and the time they have left (their time bank counted), in seconds and in words,
    and who is on vacation until when. No clock is shown during a defence (it takes seconds, and
    under fog of war would tell of a battle)."""
    settings = Timing.of(record.settings)
    away = []
    for seat in record.seats:
        own = SeatClock.of(seat, settings)
        if seat.kind == "human" and own.away(now) and own.away_until is not None:
            words = vacation_words(seat.name, own.away_until, now)
            away.append({"seat": seat.seat, "name": seat.name, "until": own.away_until, "words": words})
    turn = None
    seat_index = record.to_act
    if (
        record.status == "playing"
        and settings.turn_time > 0
        and not record.defending
        and record.deadline is not None
        and seat_index is not None
        and 0 <= seat_index < len(record.seats)
        and plays_own_seat(record.seats[seat_index])
    ):
        seat = record.seats[seat_index]
        bank = SeatClock.of(seat, settings).bank
        remaining = max(0.0, record.deadline + bank - now)
        in_bank = bank > 0 and now >= record.deadline
        turn = {
            "seat": seat_index,
            "name": seat.name,
            "deadline": record.deadline + bank,
            "remaining": round(remaining, 1),
            "in_bank": in_bank,
            "words": turn_words(seat.name, remaining, in_bank=in_bank),
        }
    return {"turn": turn, "vacations": away}
