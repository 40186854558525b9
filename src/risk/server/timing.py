"""The turn clock's settings and the facts it is built on, read by the master, the clock and the
wake-ups alike (the clock itself, what it does as a game goes on, is :mod:`risk.server.clock`).

A game's clock settings (:class:`Timing`) are kept in its stored settings; :class:`TurnClock` is one
game's clock in memory. Who the clock runs for and when a stored game next needs the server are
answered from the stored rows alone.
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class Timing:
    """A game's clock settings (stored in its settings)."""

    turn_time: float = 0.0  # seconds per turn; 0: no turn clock
    defend_timeout: float = 0.0  # seconds for a defender's dice; 0: the turn time (if any)
    missed_turns: int = (
        DEFAULT_MISSED_TURNS  # turns in a row run out before the stand-in takes over; 0: never
    )
    stand_in: str = DEFAULT_BOT  # the host's choice of bot for away players

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Timing:
        return cls(
            turn_time=float(settings.get("turn_time", 0) or 0),
            defend_timeout=float(settings.get("defend_timeout", 0) or 0),
            missed_turns=int(settings.get("missed_turns", DEFAULT_MISSED_TURNS)),
            stand_in=str(settings.get("stand_in", DEFAULT_BOT)),
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
        }


def timing_settings(turn_time: float, missed_turns: int, stand_in: str) -> dict[str, Any]:
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
    return {"turn_time": float(turn_time), "missed_turns": int(missed_turns), "stand_in": bot}


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
    return record.deadline if record.deadline is not None else 0.0


def may_stand(record: GameRecord, seat: SeatRecord) -> bool:
    """Whether the seat's own settings (risk.server.seatprefs) may play its move now, from the stored
    row alone: its defence dice (unless it is to be asked, with no answer standing), its setup orders."""
    prefs = SeatPrefs.of(seat)
    if record.defending:
        return prefs.defence in ("most", "matters") or (prefs.defence == "ask" and prefs.answer is not None)
    return record.turn == 0 and (prefs.auto_setup or bool(prefs.queue))


def defending(game: Game) -> bool:
    return game.phase == Phase.DEFEND and game.to_act != game.current
