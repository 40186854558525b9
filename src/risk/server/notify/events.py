"""The events a seat is told of, made from the published game after each announcement of the master.

Each event has a key that is the same however often it is made: "your move" is keyed by the turn and
the seat, a defence by the state, the losses of one opponent's turn by that turn (batched: told once
the turn is over, all of them in one line), the end by the seat. So a move heard twice (another server
process, a restart) queues one message (risk.server.notify.outbox).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from risk.rules.game import Game
from risk.server.notify.outbox import Event
from risk.server.storage import GameRecord
from risk.server.timing import SeatClock, Timing, defending, moment_words

GAME = -1  # the seat of the game's own subscriptions (its webhook): told what anyone may know

# A reminder before the deadline, for turns of an hour or more (a shorter turn's player is at the page,
# or the stand-in plays before a message would be read): when a quarter of the turn is left, at most
# six hours before.
REMIND_MIN_TURN_S = 3600.0
REMIND_AT_MOST_S = 6 * 3600.0
# Told while the player's page is open, these wait (the player may close it before playing); the others
# were seen on the page.
WAIT_WHILE_OPEN = ("move", "defend", "remind")
DEFENCE_WAIT_S = 60.0  # a move told while another seat rolls its defence: looked at again after this
# A person's defence that took at least this long: the attacker has likely left the page, and is told
# their turn goes on (a standing order's or a bot's defence comes at once: nobody is told).
RESUME_AFTER_S = 60.0


@dataclass(frozen=True)
class Seen:
    """What the last announcement showed of a game."""

    turn: int
    current: int  # whose turn it was
    owners: tuple[int, ...]
    asked: tuple[int, float] | None = None  # a person asked for defence dice, and since when


def _is_player(record: GameRecord, seat: int) -> bool:
    """A person plays the seat (not a bot, nor a stand-in bot, nor resigned: nobody to tell)."""
    if not 0 <= seat < len(record.seats):
        return False
    entry = record.seats[seat]
    return entry.kind == "human" and entry.stand_in is None


def turn_events(record: GameRecord) -> list[Event]:
    """What the game's row says a seat is waiting for: its move, its defence, the end. Made at startup
    from the stored rows too, so a move committed just before the server was killed is still told."""
    game_id = record.id
    if record.status == "over":
        winner = record.seats[record.winner].name if record.winner is not None else "nobody"
        told = f"Game {game_id} is over: {winner} won."
        people = [s.seat for s in record.seats if s.kind == "human"]
        ends = [Event(game_id, seat, "end", f"{game_id}:end:{seat}", told) for seat in people]
        return [*ends, Event(game_id, GAME, "end", f"{game_id}:end:game", told)]
    seat = record.to_act
    if record.status != "playing" or seat is None or not _is_player(record, seat):
        return []
    if record.defending:
        text = f"Game {game_id}: you are attacked and your defence dice are wanted."
        return [Event(game_id, seat, "defend", f"{game_id}:defend:{record.state_id}", text)]
    text = f"Game {game_id}: it is your move (turn {record.turn})."
    if record.turn == 0:
        text = f"Game {game_id}: it is your move (the setup, move {record.state_id + 1})."
    stretch = f"{record.turn}:{seat}:{_setup_step(record)}"
    events = [Event(game_id, seat, "move", f"{game_id}:move:{stretch}", text)]
    if record.turn > 0:
        # The game's webhook: whose turn it is (public, even under fog of war); not each claim and
        # placement of the setup, which would flood a chat with dozens of lines in a few minutes.
        told = f"Game {game_id}: it is {record.seats[seat].name}'s move (turn {record.turn})."
        events.append(Event(game_id, GAME, "turn", f"{game_id}:turn:{stretch}", told))
    remind = reminder_time(record)
    if remind is not None:
        runs_out = moment_words(remind[1], remind[0])
        text = f"Game {game_id}: a reminder: your move runs out {runs_out}."
        key = f"{game_id}:remind:{stretch}"
        events.append(Event(game_id, seat, "remind", key, text, due=remind[0]))
    return events


def _setup_step(record: GameRecord) -> str:
    """What tells one stretch of a seat's from the next within a turn number: in the setup (turn 0)
    each claim or placement is a stretch of its own (its state id); after it, a seat's turn is one."""
    return str(record.state_id) if record.turn == 0 else "turn"


def reminder_time(record: GameRecord) -> tuple[float, float] | None:
    """When to remind the seat to act of its turn's deadline, and the deadline (its time bank
    counted); None: no reminder (no clock, a short turn, a defence under way)."""
    settings = Timing.of(record.settings)
    seat = record.to_act
    if (
        settings.turn_time < REMIND_MIN_TURN_S
        or record.deadline is None
        or record.defending
        or seat is None
        or not 0 <= seat < len(record.seats)
    ):
        return None
    deadline = record.deadline + SeatClock.of(record.seats[seat], settings).bank
    return deadline - min(settings.turn_time / 4, REMIND_AT_MOST_S), deadline


def still_true(record: GameRecord | None, kind: str, key: str, now: float) -> bool | float:
    """Whether a queued event is still worth telling when it is to go: True, False (stale: the move
    was made, the defence rolled, the game gone), or the time a reminder is due now (its deadline
    moved: a vacation, the time bank). ``key``: the outbox row's key (the event's, then the
    subscription's)."""
    if kind in ("attacked", "end"):
        return True  # what happened, happened
    if record is None or record.status != "playing":
        return False
    parts = key.split(":")
    if kind == "defend":
        return record.defending and parts[2] == str(record.state_id)
    seat = int(parts[3])
    if parts[2] != str(record.turn):
        return False  # that turn is over
    if record.defending and record.to_act != seat:
        return now + DEFENCE_WAIT_S  # the seat's turn goes on once the defender has rolled
    if record.to_act != seat or parts[4] != _setup_step(record):
        return False  # the move was made
    if kind == "remind":
        remind = reminder_time(record)
        if remind is None:
            return False
        return True if now >= remind[0] else remind[0]
    return True


class Watcher:
    """Turns announcements into events: it remembers what it last saw of each game (owners, turn,
    whose turn) to tell who lost territories, once that turn is over; the rest it reads from the
    published game alone."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._seen: dict[str, Seen] = {}
        self._losses: dict[tuple[str, int], list[str]] = {}  # (game, seat): names lost this turn
        self._lock = threading.Lock()  # announcements come from the threads that made the changes

    def events(self, record: GameRecord, game: Game) -> list[Event]:
        shown = _with_progress(record, game)
        found = turn_events(shown)
        owners = tuple(game.owner)
        now = self.clock()
        with self._lock:
            before = self._seen.get(record.id)
            asked = None
            if shown.defending and shown.to_act is not None and _is_player(record, shown.to_act):
                kept = before.asked if before is not None else None
                asked = kept if kept is not None and kept[0] == shown.to_act else (shown.to_act, now)
            self._seen[record.id] = Seen(game.turn, game.current, owners, asked)
            if game.is_over:
                self._forget(record.id)  # the end is told; losses no more
            elif before is not None:
                self._note_losses(record, game, before, owners)
                if before.turn != game.turn:
                    found += self._turn_told(record, before)
                elif before.asked is not None and asked is None and now - before.asked[1] >= RESUME_AFTER_S:
                    found += _turn_goes_on(shown, before.asked[0])
        return found

    def _note_losses(self, record: GameRecord, game: Game, before: Seen, after: tuple[int, ...]) -> None:
        for territory, (was, now) in enumerate(zip(before.owners, after, strict=True)):
            if was != now and was >= 0 and was != before.current and _is_player(record, was):
                self._losses.setdefault((record.id, was), []).append(game.board.territories[territory].name)

    def _turn_told(self, record: GameRecord, before: Seen) -> list[Event]:
        """The losses of the turn just over: one event per player who lost territories in it."""
        mover = (
            record.seats[before.current].name if 0 <= before.current < len(record.seats) else "another player"
        )
        found = []
        for game_id, seat in [key for key in self._losses if key[0] == record.id]:
            names = self._losses.pop((game_id, seat))
            text = f"Game {game_id}: during {mover}'s turn (turn {before.turn}) you lost {', '.join(names)}."
            found.append(Event(game_id, seat, "attacked", f"{game_id}:attacked:{before.turn}:{seat}", text))
        return found

    def _forget(self, game_id: str) -> None:
        self._seen.pop(game_id, None)
        for stale in [k for k in self._losses if k[0] == game_id]:
            del self._losses[stale]


def _turn_goes_on(record: GameRecord, defender: int) -> list[Event]:
    """The seat whose attack waited for a person's defence dice: its turn goes on. Keyed by the state,
    so each long wait is told once; stale, as a move is, once the turn is over."""
    seat = record.to_act
    if seat is None or not _is_player(record, seat) or record.defending:
        return []
    game_id, name = record.id, record.seats[defender].name
    text = f"Game {game_id}: {name} rolled their defence: your turn goes on (turn {record.turn})."
    key = f"{game_id}:move:{record.turn}:{seat}:{_setup_step(record)}:{record.state_id}"
    return [Event(game_id, seat, "move", key, text)]


def _with_progress(record: GameRecord, game: Game) -> GameRecord:
    """The record with the game's progress as it is now (the published record's may lag a commit)."""
    status = "over" if game.is_over else record.status
    return replace(
        record,
        status=status,
        winner=game.winner,
        turn=game.turn,
        to_act=None if game.is_over else game.to_act,
        defending=defending(game),
    )
